"""The numpy names of issue 20 (numpy 2 aliases, sorting and searching,
statistics, building, elementwise): each against numpy, under jit and vmap,
and its derivatives against central differences (order 2) or, for names
whose output does not move with the input, marked as having none.

One table: `Case(name, f, args, reference, grads)`. `f` takes tensors,
`reference` the same arguments as numpy arrays; `grads` is "check" (run
check_grads to order 2), "once" (order 1: the rule's own derivative raises),
"none" (piecewise constant: the derivative is zero, or the output is an
integer or bool tensor), or "ties" (the inputs tie on purpose, where central
differences cannot see a derivative: a test of its own checks it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import pytest

import rune
from rune import nx

RNG = np.random.default_rng(2020)
A = RNG.standard_normal((3, 4))
V = RNG.standard_normal(5)
M = RNG.standard_normal((4, 4))
POS = np.abs(RNG.standard_normal((3, 4))) + 0.5
EDGES = np.array([-2.0, -0.5, 0.0, 3.0])


@dataclass
class Case:
    name: str
    f: Callable
    args: tuple
    reference: Callable
    grads: str = "check"   # "check", "once", "none" or "ties"
    batch: bool = True     # vmap over the first axis of every argument
    jit: bool = True


CASES = [
    # numpy 2 / array API names
    Case("acos", nx.acos, (np.clip(V, -0.9, 0.9),), np.acos),
    Case("asin", nx.asin, (np.clip(V, -0.9, 0.9),), np.asin),
    Case("atan", nx.atan, (V,), np.atan),
    Case("atan2", nx.atan2, (V, V[::-1] + 3), np.atan2),
    Case("acosh", nx.acosh, (np.abs(V) + 1.5,), np.acosh),
    Case("asinh", nx.asinh, (V,), np.asinh),
    Case("atanh", nx.atanh, (np.clip(V, -0.9, 0.9),), np.atanh),
    Case("pow", nx.pow, (POS, A), np.pow),
    Case("concat", lambda a, b: nx.concat([a, b], axis=1), (A, POS),
         lambda a, b: np.concat([a, b], axis=1)),
    Case("permute_dims", lambda a: nx.permute_dims(a, (1, 0)), (A,),
         lambda a: np.permute_dims(a, (1, 0))),
    Case("matrix_transpose", nx.matrix_transpose, (RNG.standard_normal((2, 3, 4)),),
         np.matrix_transpose),
    Case("Tensor.mT", lambda a: a.mT, (RNG.standard_normal((2, 3, 4)),), lambda a: a.mT),
    Case("vecdot", nx.vecdot, (A, POS), np.vecdot),
    Case("vecdot complex", nx.vecdot, (A + 1j * POS, POS - 2j * A), np.vecdot),
    Case("matvec", nx.matvec, (RNG.standard_normal((2, 3, 4)), A[0]), np.matvec),
    Case("vecmat", nx.vecmat, (A[:, 0], A), np.vecmat),
    Case("unstack", lambda a: nx.unstack(a, axis=1), (A,), lambda a: np.unstack(a, axis=1)),
    Case("cumulative_sum", lambda a: nx.cumulative_sum(a, axis=1, include_initial=True), (A,),
         lambda a: np.cumulative_sum(a, axis=1, include_initial=True)),
    Case("cumulative_prod", lambda a: nx.cumulative_prod(a, axis=0), (A,),
         lambda a: np.cumulative_prod(a, axis=0)),
    Case("cumprod", lambda a: nx.cumprod(a, axis=1), (A,), lambda a: np.cumprod(a, axis=1)),
    Case("cumprod zeros", nx.cumprod, (np.array([2.0, 0.0, 3.0, 0.0, 1.5]),), np.cumprod),
    Case("linalg.vector_norm", lambda a: nx.linalg.vector_norm(a, axis=1, ord=3), (A,),
         lambda a: np.linalg.vector_norm(a, axis=1, ord=3)),
    Case("linalg.matrix_norm", lambda a: nx.linalg.matrix_norm(a, ord=np.inf), (A,),
         lambda a: np.linalg.matrix_norm(a, ord=np.inf)),
    Case("linalg.svdvals", nx.linalg.svdvals, (RNG.standard_normal((2, 3, 4)),),
         np.linalg.svdvals),
    # sorting and searching
    Case("sort", nx.sort, (A,), np.sort),
    Case("sort axis 0", lambda a: nx.sort(a, axis=0), (A,), lambda a: np.sort(a, axis=0)),
    Case("sort flat descending", lambda a: nx.sort(a, axis=None, descending=True), (A,),
         lambda a: np.sort(a, axis=None)[::-1]),
    Case("sort complex", nx.sort, (A + 1j * POS,), np.sort),
    Case("Tensor.sort", lambda a: a.sort(axis=0), (A,), lambda a: np.sort(a, axis=0)),
    Case("argsort", nx.argsort, (A,), np.argsort, grads="none"),
    Case("argsort ties", lambda a: nx.argsort(a, axis=0, descending=True),
         (np.array([[1.0, 2.0], [1.0, 3.0], [2.0, 2.0]]),),
         lambda a: np.argsort(-a, axis=0, kind="stable"), grads="none"),
    Case("Tensor.argsort", lambda a: a.argsort(), (A,), np.argsort, grads="none"),
    Case("partition", lambda a: nx.partition(a, 2), (A,), lambda a: np.partition(a, 2)),
    Case("partition kths", lambda a: nx.partition(a, (0, 2), axis=0), (A.T,),
         lambda a: np.partition(a, (0, 2), axis=0)),
    Case("argpartition", lambda a: nx.argpartition(a, 1), (A,),
         lambda a: np.argpartition(a, 1), grads="none"),
    Case("take_along_axis", lambda a, i: nx.take_along_axis(a, i, axis=1),
         (A, np.array([[3, 0, -1]])), lambda a, i: np.take_along_axis(a, i, axis=1)),
    Case("take_along_axis flat", lambda a, i: nx.take_along_axis(a, i, axis=None),
         (A, np.array([11, 0, 5, 5])), lambda a, i: np.take_along_axis(a, i, axis=None)),
    Case("unique_values", nx.unique_values, (np.round(A),), np.unique_values, grads="ties",
         batch=False, jit=False),
    Case("unique_counts", nx.unique_counts, (np.round(A),), np.unique_counts, grads="ties",
         batch=False, jit=False),
    Case("unique_inverse", nx.unique_inverse, (np.round(A),), np.unique_inverse, grads="ties",
         batch=False, jit=False),
    Case("unique_all", nx.unique_all, (np.round(A),), np.unique_all, grads="ties",
         batch=False, jit=False),
    Case("searchsorted", lambda a, v: nx.searchsorted(a, v, side="right"),
         (np.sort(V), np.array([[-0.5, 0.0], [0.3, 9.0]])),
         lambda a, v: np.searchsorted(a, v, side="right"), grads="none"),
    Case("searchsorted sorter", lambda a, v: nx.searchsorted(a, v, sorter=nx.argsort(a)),
         (V, A), lambda a, v: np.searchsorted(a, v, sorter=np.argsort(a)), grads="none"),
    Case("Tensor.searchsorted", lambda a, v: a.searchsorted(v), (np.sort(V), A),
         lambda a, v: a.searchsorted(v), grads="none"),
    Case("lexsort", lambda a, b: nx.lexsort([a, b]),
         (np.array([3.0, 1.0, 2.0, 1.0]), np.array([1.0, 0.0, 1.0, 0.0])),
         lambda a, b: np.lexsort([a, b]), grads="none"),
    Case("lexsort axis 0", lambda a: nx.lexsort(nx.round(a), axis=0), (np.stack([A, A]) * 2,),
         lambda a: np.lexsort(np.round(a), axis=0), grads="none"),
    Case("nonzero", nx.nonzero, (np.round(A),), np.nonzero, grads="none", batch=False,
         jit=False),
    Case("Tensor.nonzero", lambda a: a.nonzero(), (np.round(A),), np.nonzero, grads="none",
         batch=False, jit=False),
    Case("nonzero size", lambda a: nx.nonzero(a, size=14, fill_value=-1), (np.round(A),),
         lambda a: tuple(np.pad(i[:14], (0, 14 - len(i[:14])), constant_values=-1)
                         for i in np.nonzero(a)), grads="none"),
    Case("flatnonzero", nx.flatnonzero, (np.round(A),), np.flatnonzero, grads="none",
         batch=False, jit=False),
    Case("flatnonzero size", lambda a: nx.flatnonzero(a, size=3), (np.round(A),),
         lambda a: np.flatnonzero(a)[:3], grads="none"),
    Case("argwhere", nx.argwhere, (np.round(A),), np.argwhere, grads="none", batch=False,
         jit=False),
    Case("argwhere size", lambda a: nx.argwhere(a, size=2), (np.round(A),),
         lambda a: np.argwhere(a)[:2], grads="none"),
    Case("unique", lambda a: nx.unique(a, return_index=True, return_inverse=True,
                                       return_counts=True),
         (np.round(A * 2) / 2,), lambda a: np.unique(a, return_index=True, return_inverse=True,
                                                     return_counts=True),
         grads="ties", batch=False, jit=False),
    Case("unique distinct", nx.unique, (V,), np.unique, batch=False, jit=False),
    Case("unique nan", nx.unique, (np.array([np.nan, 1.0, np.nan, 0.0]),), np.unique,
         grads="ties", batch=False, jit=False),
    Case("unique size", lambda a: nx.unique(a, size=20, fill_value=-9.0, return_counts=True),
         (np.round(A),), lambda a: (
             np.pad(np.unique(a), (0, 20 - np.unique(a).size), constant_values=-9.0),
             np.pad(np.unique(a, return_counts=True)[1], (0, 20 - np.unique(a).size))),
         grads="ties"),
    Case("isin", lambda a, b: nx.isin(a, b), (np.round(A), np.array([0.0, 1.0, np.nan])),
         lambda a, b: np.isin(a, b), grads="none"),
    Case("isin invert", lambda a, b: nx.isin(a, b, invert=True), (np.round(A), np.zeros(0)),
         lambda a, b: np.isin(a, b, invert=True), grads="none"),
    Case("digitize", lambda x, b: nx.digitize(x, b), (A, np.array([-1.0, 0.0, 0.5])),
         np.digitize, grads="none"),
    Case("digitize decreasing right", lambda x, b: nx.digitize(x, b, right=True),
         (A, np.array([0.5, 0.0, -1.0])), lambda x, b: np.digitize(x, b, right=True),
         grads="none", batch=False, jit=False),
    # statistics
    Case("quantile", lambda a: nx.quantile(a, nx.array([0.1, 0.5, 1.0]), axis=1), (A,),
         lambda a: np.quantile(a, [0.1, 0.5, 1.0], axis=1)),
    Case("quantile q", lambda a, q: nx.quantile(a, q), (V, np.array([0.3, 0.77])),
         lambda a, q: np.quantile(a, q)),
    Case("quantile keepdims axes", lambda a: nx.quantile(a, 0.3, axis=(0, 2), keepdims=True),
         (RNG.standard_normal((3, 2, 4)),),
         lambda a: np.quantile(a, 0.3, axis=(0, 2), keepdims=True)),
    *[Case(f"quantile {m}", lambda a, m=m: nx.quantile(a, nx.array([0.2, 0.5, 0.9]), axis=0,
                                                          method=m),
           (A,), lambda a, m=m: np.quantile(a, [0.2, 0.5, 0.9], axis=0, method=m))
      for m in ("lower", "higher", "midpoint", "nearest", "inverted_cdf", "averaged_inverted_cdf",
                "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull",
                "median_unbiased", "normal_unbiased")],
    *[Case(f"quantile {m} ends", lambda a, m=m: nx.quantile(a, nx.array([0.0, 0.05, 1.0]),
                                                               method=m),
           (V,), lambda a, m=m: np.quantile(a, [0.0, 0.05, 1.0], method=m), grads="ties")
      for m in ("inverted_cdf", "averaged_inverted_cdf", "closest_observation", "hazen",
                "weibull")],
    Case("quantile nan", lambda a: nx.quantile(a, 0.25, axis=1),
         (np.array([[3.0, np.nan, 1.0, 2.0], [1.0, 2.0, 3.0, 4.0]]),),
         lambda a: np.quantile(a, 0.25, axis=1), grads="ties"),
    Case("percentile", lambda a: nx.percentile(a, 40, axis=0), (A,),
         lambda a: np.percentile(a, 40, axis=0)),
    Case("median", lambda a: nx.median(a, axis=1), (A,), lambda a: np.median(a, axis=1)),
    Case("median odd", nx.median, (V,), np.median),
    Case("ptp", lambda a: nx.ptp(a, axis=0), (A,), lambda a: np.ptp(a, axis=0)),
    Case("cov", nx.cov, (A,), np.cov),
    Case("cov y columns", lambda a, b: nx.cov(a, b, rowvar=False, ddof=0), (A, POS),
         lambda a, b: np.cov(a, b, rowvar=False, ddof=0)),
    Case("cov weights", lambda a, f, w: nx.cov(a, fweights=f, aweights=w), (A, np.array(
        [1, 2, 1, 3]), POS[0]), lambda a, f, w: np.cov(a, fweights=f, aweights=w)),
    Case("cov 1-d", nx.cov, (V,), np.cov),
    Case("cov complex", nx.cov, (A + 1j * POS,), np.cov),
    Case("corrcoef", nx.corrcoef, (A,), np.corrcoef),
    Case("corrcoef y", nx.corrcoef, (V, V ** 2), np.corrcoef),
    Case("count_nonzero", lambda a: nx.count_nonzero(a, axis=1), (np.round(A),),
         lambda a: np.count_nonzero(a, axis=1), grads="none"),
    Case("diff", lambda a: nx.diff(a, n=2, axis=0), (A,), lambda a: np.diff(a, n=2, axis=0)),
    Case("diff prepend append", lambda a: nx.diff(a, prepend=0.0, append=a[:, :1]), (A,),
         lambda a: np.diff(a, prepend=0.0, append=a[:, :1])),
    Case("ediff1d", lambda a: nx.ediff1d(a, to_end=[7.0, 8.0], to_begin=-1.0), (A,),
         lambda a: np.ediff1d(a, to_end=[7.0, 8.0], to_begin=-1.0)),
    Case("trapezoid", lambda y: nx.trapezoid(y, dx=0.3, axis=0), (A,),
         lambda y: np.trapezoid(y, dx=0.3, axis=0)),
    Case("trapezoid x", lambda y, x: nx.trapezoid(y, x), (A, np.sort(POS[0])),
         lambda y, x: np.trapezoid(y, x)),
    Case("trapezoid x full", lambda y, x: nx.trapezoid(y, x, axis=0), (A, np.sort(POS, axis=0)),
         lambda y, x: np.trapezoid(y, x, axis=0)),
    Case("bincount", lambda x: nx.bincount(x, minlength=9), (np.array([0, 3, 3, 1, 7]),),
         lambda x: np.bincount(x, minlength=9), grads="none", batch=False, jit=False),
    Case("bincount weights", lambda x, w: nx.bincount(x, w), (np.array([0, 3, 3, 1]), V[:4]),
         np.bincount, batch=False, jit=False),
    Case("bincount length", lambda x, w: nx.bincount(x, w, length=3),
         (np.array([0, 2, 2, 1]), V[:4]), lambda x, w: np.bincount(x, w, minlength=3)),
    Case("histogram", lambda a: nx.histogram(a, bins=4)[0], (A,),
         lambda a: np.histogram(a, bins=4)[0], grads="none", batch=False, jit=False),
    # edges from the data's min and max move with them, and so does a density
    Case("histogram edges", lambda a: nx.histogram(a, bins=4)[1], (A,),
         lambda a: np.histogram(a, bins=4)[1], batch=False, jit=False),
    Case("histogram density", lambda a: nx.histogram(a, bins=4, density=True)[0], (A,),
         lambda a: np.histogram(a, bins=4, density=True)[0], batch=False, jit=False),
    Case("histogram range tensors", lambda a, lo, hi: nx.histogram(a, 3, (lo, hi), True)[0],
         (A, np.float64(-2.5), np.float64(2.5)),
         lambda a, lo, hi: np.histogram(a, 3, (lo, hi), True)[0], batch=False, jit=False),
    Case("histogram range", lambda a: nx.histogram(a, bins=5, range=(-1, 1)), (A,),
         lambda a: np.histogram(a, bins=5, range=(-1, 1)), grads="none"),
    Case("histogram edges density", lambda a: nx.histogram(a, bins=EDGES, density=True)[0],
         (A,), lambda a: np.histogram(a, bins=EDGES, density=True)[0], grads="none"),
    Case("histogram weights", lambda a, w: nx.histogram(a, bins=3, range=(-1, 1),
                                                        weights=w)[0],
         (A, POS), lambda a, w: np.histogram(a, bins=3, range=(-1, 1), weights=w)[0]),
    Case("interp", nx.interp, (np.array([-3.0, -0.4, 0.1, 0.25, 1.7, 5.0]),
                               np.array([-1.0, 0.0, 0.5, 2.0]), np.array([1.0, -2.0, 3.0, 0.5])),
         np.interp),
    Case("interp left right", lambda x, xp, fp: nx.interp(x, xp, fp, left=-7.0, right=7.0),
         (np.array([-3.0, 0.5, 1.5, 5.0]), np.array([-1.0, 0.0, 2.0]),
          np.array([1.0, -2.0, 3.0])),
         lambda x, xp, fp: np.interp(x, xp, fp, left=-7.0, right=7.0)),
    Case("interp period", lambda x, xp, fp: nx.interp(x, xp, fp, period=360),
         (np.array([-180.0, -5.0, 12.0, 195.0, 340.0, 725.0]),
          np.array([190.0, -190.0, 350.0, -350.0]), np.array([5.0, 10.0, 3.0, 4.0])),
         lambda x, xp, fp: np.interp(x, xp, fp, period=360)),
    Case("interp knots", nx.interp, (np.array([-1.0, 0.0, 0.5, 2.0]), np.array(
        [-1.0, 0.0, 0.5, 2.0]), np.array([1.0, -2.0, 3.0, 0.5])), np.interp, grads="ties"),
    Case("polyval", nx.polyval, (V[:3], A), np.polyval),
    Case("polyfit", lambda x, y: nx.polyfit(x, y, 2), (np.linspace(-1, 1, 7), RNG.standard_normal(
        7)), lambda x, y: np.polyfit(x, y, 2)),
    Case("polyfit columns weights", lambda x, y, w: nx.polyfit(x, y, 3, w=w),
         (np.linspace(0, 2, 6), RNG.standard_normal((6, 2)), np.linspace(1, 2, 6)),
         lambda x, y, w: np.polyfit(x, y, 3, w=w)),
    # building
    Case("block", lambda a, b: nx.block([[a, b], [b, a]]), (A, POS),
         lambda a, b: np.block([[a, b], [b, a]])),
    Case("block mixed ranks", lambda a, v: nx.block([a, v[:2]]), (A[0], V),
         lambda a, v: np.block([a, v[:2]])),
    Case("broadcast_arrays", lambda a, b: nx.broadcast_arrays(a, b), (A, V[:4]),
         lambda a, b: np.broadcast_arrays(a, b)),
    Case("meshgrid", lambda a, b, c: nx.meshgrid(a, b, c), (V, V[:3], V[:2]),
         lambda a, b, c: np.meshgrid(a, b, c)),
    Case("meshgrid ij sparse", lambda a, b: nx.meshgrid(a, b, indexing="ij", sparse=True),
         (V, V[:3]), lambda a, b: np.meshgrid(a, b, indexing="ij", sparse=True)),
    Case("resize", lambda a: nx.resize(a, (5, 3)), (A,), lambda a: np.resize(a, (5, 3))),
    Case("choose", lambda i, a, b: nx.choose(i, [a, b]), (np.array([[0, 1, 1, 0]] * 3), A, V[:4]),
         lambda i, a, b: np.choose(i, [a, b])),
    Case("choose clip", lambda i, a, b: nx.choose(i, [a, b], mode="clip"),
         (np.array([-1, 0, 5, 1]), A, V[:4]), lambda i, a, b: np.choose(i, [a, b], mode="clip")),
    Case("piecewise", lambda x: nx.piecewise(x, [x < -0.5, x > 0.5], [nx.sin, lambda x: x * x,
                                                                      lambda x: x + 1]),
         (A,), lambda x: np.piecewise(x, [x < -0.5, x > 0.5], [np.sin, lambda x: x * x,
                                                               lambda x: x + 1]), jit=False,
         batch=False),
    Case("compress", lambda a: nx.compress([True, False, True], a, axis=1), (A,),
         lambda a: np.compress([True, False, True], a, axis=1)),
    Case("extract", lambda a: nx.extract(A > 0, a), (A,), lambda a: np.extract(A > 0, a),
         batch=False),
    Case("copy", nx.copy, (A,), np.copy),
    Case("Tensor.copy", lambda a: a.copy(), (A,), np.copy),
    # elementwise
    Case("rint", nx.rint, (A * 3,), np.rint, grads="none"),
    Case("around", lambda a: nx.around(a, 2), (A,), lambda a: np.around(a, 2), grads="none"),
    Case("trunc", nx.trunc, (A * 3,), np.trunc, grads="none"),
    Case("copysign", nx.copysign, (A, A[::-1] * -1), np.copysign),
    Case("fmod", nx.fmod, (A * 5, POS), np.fmod),
    Case("float_power", nx.float_power, (POS, A), np.float_power),
    Case("float_power ints", nx.float_power, (np.array([2, 3]), np.array([-1, 2])),
         np.float_power, grads="none"),
    Case("heaviside", nx.heaviside, (np.array([-1.0, 0.0, 2.0, np.nan]), V[:4]), np.heaviside,
         grads="ties"),
    Case("signbit", nx.signbit, (np.array([-1.0, -0.0, 0.0, 1.0]),), np.signbit, grads="none"),
    Case("positive", nx.positive, (A,), np.positive),
    Case("true_divide", nx.true_divide, (A, POS), np.true_divide),
    Case("divmod", nx.divmod, (A * 5, POS), np.divmod, grads="ties"),
    Case("modf", nx.modf, (A * 3,), np.modf, grads="ties"),
    Case("modf infinities", nx.modf, (np.array([np.inf, -np.inf, -0.5]),), np.modf,
         grads="ties"),
    Case("isclose", lambda a, b: nx.isclose(a, b, equal_nan=True),
         (np.array([1.0, np.inf, np.nan, 1e-9, 2.0]), np.array([1.0 + 1e-7, np.inf, np.nan,
                                                                 0.0, 2.1])),
         lambda a, b: np.isclose(a, b, equal_nan=True), grads="none"),
    Case("i0", nx.i0, (np.concatenate([A.ravel() * 3, [0.0, 25.0, -40.0]]),), np.i0),
    # Tensor methods
    Case("Tensor.dot", lambda a, b: a.dot(b), (A, POS.T), lambda a, b: a.dot(b)),
    Case("Tensor.swapaxes", lambda a: a.swapaxes(0, 1), (A,), lambda a: a.swapaxes(0, 1)),
    Case("Tensor.repeat", lambda a: a.repeat(2, axis=1), (A,), lambda a: a.repeat(2, axis=1)),
    Case("Tensor.take", lambda a: a.take([0, 2, 2], axis=1), (A,),
         lambda a: a.take([0, 2, 2], axis=1)),
    Case("Tensor.trace", lambda a: a.trace(offset=1), (A,), lambda a: a.trace(offset=1)),
    Case("Tensor.diagonal", lambda a: a.diagonal(), (A,), lambda a: a.diagonal()),
    Case("Tensor.cumprod", lambda a: a.cumprod(axis=0), (A,), lambda a: a.cumprod(axis=0)),
]

CONSTANTS = [  # builders from numbers: (name, nx call, numpy call)
    ("tri", lambda: nx.tri(3, 4, k=1), lambda: np.tri(3, 4, k=1)),
    ("tril_indices", lambda: nx.tril_indices(3, k=-1, m=4), lambda: np.tril_indices(3, k=-1, m=4)),
    ("triu_indices", lambda: nx.triu_indices(4, k=1), lambda: np.triu_indices(4, k=1)),
    ("indices", lambda: nx.indices((2, 3)), lambda: np.indices((2, 3))),
    ("indices", lambda: nx.indices((2, 3), sparse=True), lambda: np.indices((2, 3), sparse=True)),
    ("identity", lambda: nx.identity(3), lambda: np.identity(3)),
    ("empty", lambda: nx.empty((2, 3), nx.int32), lambda: np.zeros((2, 3), np.int32)),
    ("empty_like", lambda: nx.empty_like(nx.ones(2, nx.float32)), lambda: np.zeros(2, np.float32)),
    ("logspace", lambda: nx.logspace(1, 2, 5, base=2.0), lambda: np.logspace(1, 2, 5, base=2.0)),
    ("geomspace", lambda: nx.geomspace(1, 256, 9, endpoint=False), lambda: np.geomspace(1, 256, 9,
                                                                          endpoint=False)),
]


@pytest.mark.parametrize("name, make, reference", CONSTANTS, ids=[c[0] for c in CONSTANTS])
def test_builders_from_numbers_match_numpy(name, make, reference):
    _assert_same(make(), reference())


def _ids(case):
    return case.name


def _tensors(args):
    return tuple(nx.array(a) for a in args)


def _assert_same(got, expected):
    if isinstance(expected, (tuple, list)):
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            _assert_same(g, e)
        return
    expected = np.asarray(expected)
    got = np.asarray(got)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_matches_numpy(case):
    _assert_same(case.f(*_tensors(case.args)), case.reference(*case.args))


@pytest.mark.parametrize("case", [c for c in CASES if c.jit], ids=_ids)
def test_jit_matches_eager(case):
    args = _tensors(case.args)
    _assert_same(rune.jit(case.f)(*args), case.f(*args))


def _stacked(args):
    """Two examples of each argument: the argument and a perturbed copy."""
    out = []
    for a in args:
        a = np.asarray(a)
        other = a * 0.9 + 0.01 if a.dtype.kind in "fc" else a
        out.append(np.stack([a, other]))
    return out


@pytest.mark.parametrize("case", [c for c in CASES if c.batch], ids=_ids)
def test_vmap_matches_a_loop(case):
    batched = _stacked(case.args)
    out = rune.vmap(case.f)(*_tensors(batched))
    for i in range(2):
        one = case.f(*_tensors([b[i] for b in batched]))
        _assert_same(rune.ptree.map(lambda o, i=i: o[i], out), one)


def _differentiable(args):
    return [i for i, a in enumerate(args) if np.asarray(a).dtype.kind in "fc"]


@pytest.mark.parametrize("case", [c for c in CASES if c.grads in ("check", "once")],
                         ids=_ids)
def test_derivatives_agree_with_central_differences(case):
    args = _tensors(case.args)
    rune.check_grads(case.f, args, order=2 if case.grads == "check" else 1)


@pytest.mark.parametrize("case", [c for c in CASES if c.grads == "none"], ids=_ids)
def test_piecewise_constant_names_have_a_zero_derivative(case):
    args = list(_tensors(case.args))
    for i in _differentiable(case.args):
        def f(x, i=i):
            outs = rune.ptree.leaves(case.f(*args[:i], x, *args[i + 1:]))
            total = 0.0
            for o in outs:
                total = total + nx.sum(nx.astype(o, nx.float64))
            return total
        assert np.all(rune.grad(f)(args[i]).numpy() == 0)


def test_tied_elements_pass_the_derivative_of_the_first():
    x = nx.array([3.0, 1.0, 3.0, 2.0, 1.0])
    weights = nx.array([1.0, 10.0, 100.0])
    g = rune.grad(lambda x: nx.sum(nx.unique(x) * weights))(x)
    assert g.tolist() == [100, 1, 0, 10, 0]
    g = rune.jit(rune.grad(lambda x: nx.sum(nx.unique(x, size=3) * weights)))(x)
    assert g.tolist() == [100, 1, 0, 10, 0]
    # sort: the stable order puts the first of equal elements first
    g = rune.grad(lambda x: nx.sum(nx.sort(x) * nx.arange(5.0)))(x)
    assert g.tolist() == [3, 0, 4, 2, 1]


def _histogram_derivatives_three_ways(f, x):
    """rune's Jacobian of f at x in both modes, and by central differences."""
    fwd = rune.jacfwd(f)(nx.array(x)).numpy()
    rev = rune.jacrev(f)(nx.array(x)).numpy()
    eps = 1e-6
    columns = [(f(nx.array(x + eps * e)).numpy() - f(nx.array(x - eps * e)).numpy()) / (2 * eps)
               for e in np.eye(x.size)]
    return fwd, rev, np.stack(columns, axis=-1)


HISTOGRAM_DATA = np.array([0.9, 0.0, 2.2, 3.0, 1.4])  # none on an edge, but min and max
HISTOGRAM_PARTS = {  # name -> (rune's part, jax.numpy's part)
    "edges": (lambda x: nx.histogram(x, bins=2)[1], lambda j, x: j.histogram(x, bins=2)[1]),
    "density": (lambda x: nx.histogram(x, bins=3, density=True)[0],
                lambda j, x: j.histogram(x, bins=3, density=True)[0]),
    "one value": (lambda x: nx.histogram(x[:1], bins=2, density=True)[1],
                  lambda j, x: j.histogram(x[:1], bins=2, density=True)[1]),
}


@pytest.mark.parametrize("part", HISTOGRAM_PARTS)
def test_histogram_edges_from_the_data_move_with_its_min_and_max(part):
    """With range=None the edges are linspace(min, max): rune held them constant,
    so their derivatives and a density's were exactly 0 (issue 25)."""
    f = HISTOGRAM_PARTS[part][0]
    fwd, rev, differences = _histogram_derivatives_three_ways(f, HISTOGRAM_DATA)
    np.testing.assert_allclose(fwd, differences, atol=1e-8)
    np.testing.assert_allclose(rev, differences, atol=1e-8)
    if part == "edges":  # the middle edge is the mean of the min (x[1]) and max (x[3])
        assert fwd[1].tolist() == [0, 0.5, 0, 0.5, 0]


@pytest.mark.parametrize("part", HISTOGRAM_PARTS)
def test_histogram_derivatives_match_jax(part):
    jax = pytest.importorskip("jax", reason="the JAX comparison needs the jax extra")
    f, of_jax = HISTOGRAM_PARTS[part]
    with jax.enable_x64(True):
        expected = np.asarray(jax.jacfwd(lambda x: of_jax(jax.numpy, x))(HISTOGRAM_DATA))
    np.testing.assert_allclose(rune.jacfwd(f)(nx.array(HISTOGRAM_DATA)).numpy(), expected,
                               atol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
@pytest.mark.parametrize("bins, range_", [(7, None), (5, (-1, 2)), (3, (0.1, 0.7))])
def test_histogram_edges_are_numpys_to_the_bit(dtype, bins, range_):
    """numpy computes the edges in the data's precision when they come from its
    min and max, in float64 when the range is Python numbers."""
    x = (RNG.standard_normal(50) * 3).astype(dtype)
    counts, edges = nx.histogram(x, bins=bins, range=range_)
    want_counts, want_edges = np.histogram(x, bins=bins, range=range_)
    assert edges.dtype == want_edges.dtype
    assert edges.numpy().tobytes() == want_edges.tobytes()
    assert counts.numpy().tolist() == want_counts.tolist()
    with np.errstate(invalid="ignore"):  # no data in the range: 0 / 0, as numpy
        density = nx.histogram(x, bins=bins, range=range_, density=True)[0]
        want_density = np.histogram(x, bins, range_, density=True)[0]
    assert density.numpy().tobytes() == want_density.tobytes()  # numpy's order of operations


@pytest.mark.parametrize("call, error, message", [
    (lambda: rune.jit(nx.unique)(nx.array([1.0, 2.0])), rune.TracedValueError,
     "nx.unique: the number of distinct values depends on the values.*pass size="),
    (lambda: rune.vmap(nx.nonzero)(nx.ones((2, 2))), rune.TracedValueError,
     "nx.nonzero: the number of nonzero elements depends"),
    (lambda: nx.nonzero(nx.array(1.0)), ValueError, "0-d tensor"),
    (lambda: nx.nonzero(nx.ones(2), size=-1), TypeError, "size must be a non-negative int"),
    (lambda: nx.searchsorted(nx.ones((2, 2)), 1.0), ValueError, "a must be 1-d"),
    (lambda: nx.searchsorted(nx.ones(2), 1.0, side="middle"), ValueError, "'left' or 'right'"),
    (lambda: nx.lexsort([]), ValueError, "at least one key"),
    (lambda: nx.lexsort([nx.ones(2), nx.ones(3)]), ValueError, "different shapes"),
    (lambda: nx.digitize(nx.ones(2), nx.array([1.0, 3.0, 2.0])), ValueError,
     "increasing or decreasing"),
    (lambda: nx.partition(nx.ones(3), 3), ValueError, "kth 3 is out of range"),
    (lambda: nx.sort(nx.ones(3), axis=1), ValueError, "axis 1 is out of range"),
    (lambda: nx.quantile(nx.ones(3), 1.5), ValueError, r"q must be in \[0, 1\]"),
    (lambda: nx.percentile(nx.ones(3), -1), ValueError, r"q must be in \[0, 100\]"),
    (lambda: nx.quantile(nx.ones(3), 0.5, method="bogus"), ValueError, "unknown method"),
    (lambda: nx.quantile(nx.ones(0), 0.5), ValueError, "no elements"),
    (lambda: nx.cov(nx.ones((2, 2, 2))), ValueError, "more than 2 axes"),
    (lambda: nx.cov(nx.ones((2, 3)), fweights=nx.ones(2)), ValueError, r"shape \(3,\)"),
    (lambda: nx.diff(nx.ones(3), n=-1), ValueError, "non-negative int"),
    (lambda: rune.jit(lambda a: nx.histogram(a)[0])(nx.ones(3)), rune.TracedValueError,
     "give range="),
    (lambda: nx.histogram(nx.ones(3), bins=nx.array([2.0, 1.0])), ValueError, "increasing"),
    (lambda: nx.histogram(nx.array([1.0, np.nan])), ValueError, "not finite"),
    (lambda: nx.bincount(nx.array([1, -1])), ValueError, "must not be negative"),
    (lambda: rune.jit(nx.bincount)(nx.array([1, 2])), rune.TracedValueError, "give length="),
    (lambda: nx.bincount(nx.array([1.0])), TypeError, "must hold integers"),
    (lambda: nx.interp(nx.ones(2), nx.ones(3), nx.ones(2)), ValueError, "one nonzero length"),
    (lambda: nx.interp(nx.ones(2), nx.ones(2), nx.ones(2), period=0), ValueError,
     "period must be nonzero"),
    (lambda: nx.polyval(nx.ones((2, 2)), 1.0), ValueError, "p must be 1-d"),
    (lambda: nx.polyfit(nx.ones(3), nx.ones(4), 1), ValueError, "x's length"),
    (lambda: nx.block([[nx.ones(2)], nx.ones(2)]), ValueError, "depths are mismatched"),
    (lambda: nx.block([]), ValueError, "cannot be empty"),
    (lambda: nx.broadcast_arrays(nx.ones(2), nx.ones(3)), ValueError, "do not broadcast"),
    (lambda: nx.meshgrid(nx.ones(2), indexing="ji"), ValueError, "'xy' or 'ij'"),
    (lambda: nx.choose(nx.array([0, 2]), [nx.ones(2), nx.ones(2)]), ValueError,
     "index 2 is out of range for 2 choices"),
    (lambda: nx.choose(nx.array([0.0]), [nx.ones(1)]), TypeError, "must hold integers"),
    (lambda: nx.piecewise(nx.ones(2), [nx.ones(2) > 0], []), ValueError, "expected 1 or 2"),
    (lambda: nx.compress([True] * 3, nx.ones(2)), ValueError, "condition has 3 entries"),
    (lambda: rune.jit(lambda c: nx.extract(c, nx.ones(2)))(nx.ones(2) > 0),
     rune.TracedValueError, "nx.extract: condition"),
    (lambda: nx.tri(2, k=0.5), TypeError, "k must be an int"),
    (lambda: nx.logspace(nx.ones(1), 2), TypeError, "start must be a number"),
    (lambda: nx.geomspace(0, 2), ValueError, "nonzero"),
    (lambda: nx.copysign(nx.array([1j]), 1.0), TypeError, "expected real numbers"),
    (lambda: nx.fmod(nx.ones(2), nx.ones(3)), ValueError, "nx.fmod: shapes"),
    (lambda: nx.isclose(nx.ones(2), nx.ones(3)), ValueError, "nx.isclose: shapes"),
])
def test_errors_name_the_function_and_the_problem(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_every_name_of_the_new_families_is_in_the_tables():
    # A name added to one of these families later must join CASES or CONSTANTS.
    # Since issue 30 they are spread over numpy's families: the first four by their old
    # module names (rune/nx/_moved.py), the old sorting and statistics by their names.
    from rune.nx import aliases, building, calculus, elementwise
    families = (aliases, building, calculus, elementwise)
    names = {name for family in families for name in family.__all__}
    names |= set((
        "sort argsort partition argpartition take_along_axis searchsorted lexsort nonzero "
        "argwhere flatnonzero unique unique_values unique_counts unique_inverse unique_all "
        "isin digitize quantile percentile median ptp cov corrcoef count_nonzero bincount "
        "histogram"
    ).split())
    tested = {case.name.split()[0] for case in CASES} | {name for name, _, _ in CONSTANTS}
    assert names - tested == set()
