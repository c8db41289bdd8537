"""The numpy names of issue 20 (numpy 2 aliases, sorting and searching,
statistics, building, elementwise): each against numpy, under jit and vmap,
and its derivatives against central differences (order 2) or, for names
whose output does not move with the input, marked as having none.

One table: `Case(name, f, args, reference, grads)`. `f` takes tensors,
`reference` the same arguments as numpy arrays; `grads` is "check" (run
check_grads to order 2), "once" (order 1: the rule's own derivative raises),
or "none" (piecewise constant: the derivative is zero, or the output is an
integer or bool tensor).
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


@dataclass
class Case:
    name: str
    f: Callable
    args: tuple
    reference: Callable
    grads: str = "check"   # "check", "once" or "none"
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
         np.linalg.svdvals, grads="once"),
]


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
        _assert_same(rune.ptree.map(lambda o: o[i], out), one)


def _differentiable(args):
    return [i for i, a in enumerate(args) if np.asarray(a).dtype.kind in "fc"]


@pytest.mark.parametrize("case", [c for c in CASES if c.grads != "none"], ids=_ids)
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
