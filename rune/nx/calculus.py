"""Differences, integrals, interpolation and polynomials: diff, trapezoid, interp, polyfit...

Compositions of slicing, arithmetic, searchsorted and solve, so derivatives
come with them: `diff`, `ediff1d` and `trapezoid` are linear in the values
(trapezoid also differentiable in x), `interp` is differentiable in x, xp
and fp, `polyval` in p and x, `polyfit` in x, y and w.
"""

from __future__ import annotations

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import indexing as _ix
from ..primitives import shape as _s
from ..primitives import sorting as _st
from . import linalg as _linalg
from .comparisons import clip, where
from .creation import as_tensor
from .math import sqrt
from .products import matmul
from .reductions import normalize_axis, sum as _sum
from .shapes import concatenate, reshape, swapaxes
from .tensor import Tensor

__all__ = ["diff", "ediff1d", "trapezoid", "interp", "polyval", "polyfit"]


def _float(x):
    return x if x.dtype.kind in "fc" else _e.astype(x, dtype=np.dtype(np.float64))


def _sliced(a, axis, start, stop):
    return _ix.slice_(a, index=_ix.full_index(a.shape[:axis]) + ((start, stop, 1),))


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The n-th differences along `axis`: a[1:] - a[:-1], n times.

    Args:
      a: a tensor with at least one axis (or numpy array, nested lists).
      n: how many times to difference (an int >= 0).
      axis: an int.
      prepend, append: values put before / after a along axis first
        (numbers broadcast to one slice), or None.

    Raises:
      TypeError: a is not numeric, or n or axis is not an int.
      ValueError: n negative, a 0-d, or axis out of range.

    >>> from rune import nx
    >>> print(nx.diff(nx.array([1.0, 4.0, 9.0, 16.0])), nx.diff(nx.array([1, 4, 9, 16]), n=2))
    float64 [3] [3, 5, 7] int64 [2] [2, 2]
    """
    fn = "nx.diff"
    a = as_tensor(a, fn)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"{fn}: n must be a non-negative int, got {n!r}")
    if a.ndim == 0:
        raise ValueError(f"{fn}: a must have at least one axis")
    axis = normalize_axis(axis, a.ndim, fn)
    parts = []
    for extra in (prepend, a, append):
        if extra is None:
            continue
        extra = as_tensor(extra, fn)
        if extra.ndim == 0:
            shape = tuple(a.shape[:axis]) + (1,) + tuple(a.shape[axis + 1:])
            extra = _s.broadcast_to(_s.reshape(extra, shape=(1,) * a.ndim), shape=shape)
        parts.append(extra)
    if len(parts) > 1:
        a = concatenate(parts, axis=axis)
    for _ in range(n):
        m = a.shape[axis]
        if m == 0:
            break
        a = _e.subtract(_sliced(a, axis, 1, m), _sliced(a, axis, 0, m - 1))
    return a


def ediff1d(ary, to_end=None, to_begin=None):
    """The differences between consecutive elements of the flattened ary, with
    optional values before and after.

    Args:
      ary: a tensor (or numpy array, nested lists); it is flattened.
      to_end: values appended after the differences (flattened), or None.
      to_begin: values put before the differences (flattened), or None.

    Raises:
      TypeError: an argument is not numeric.

    >>> from rune import nx
    >>> print(nx.ediff1d(nx.array([1.0, 2.0, 4.0]), to_begin=-9.0))
    float64 [3] [-9, 1, 2]
    """
    fn = "nx.ediff1d"
    a = as_tensor(ary, fn)
    a = reshape(a, (a.size,))
    parts = [diff(a) if a.size else a]
    for extra, first in ((to_begin, True), (to_end, False)):
        if extra is not None:
            extra = as_tensor(extra, fn)
            extra = _e.astype(reshape(extra, (extra.size,)), dtype=a.dtype)
            parts.insert(0, extra) if first else parts.append(extra)
    return concatenate(parts) if len(parts) > 1 else parts[0]


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of y along `axis` by the trapezoidal rule.

    Args:
      y: a tensor of values (or numpy array, nested lists).
      x: the sample points (1-d along axis, or y's shape), or None for
        points `dx` apart.
      dx: the spacing when x is None.
      axis: the axis to integrate along.

    Raises:
      TypeError: an argument is not numeric, or axis is not an int.
      ValueError: axis out of range, or x of a shape that does not fit y.

    >>> from rune import nx
    >>> print(nx.trapezoid(nx.array([1.0, 2.0, 3.0]), dx=0.5))
    float64 [] 2
    """
    fn = "nx.trapezoid"
    y = as_tensor(y, fn)
    axis = normalize_axis(axis, y.ndim, fn)
    if x is None:
        d = dx
    else:
        x = as_tensor(x, fn)
        d = diff(x, axis=-1 if x.ndim == 1 else axis)
        if x.ndim == 1:
            d = _s.reshape(d, shape=(d.shape[0],) + (1,) * (y.ndim - 1 - axis))
    m = y.shape[axis]
    pairs = _e.add(_sliced(y, axis, 1, m), _sliced(y, axis, 0, m - 1)) if m else y
    return _sum(_e.divide(_e.multiply(d, pairs), 2.0), axis=axis)


def interp(x, xp, fp, left=None, right=None, period=None):
    """The piecewise-linear interpolant through (xp, fp), at x (numpy's interp).

    Differentiable in x, xp and fp (at a knot, the derivative in x is the
    slope of the segment to its right).

    Args:
      x: where to evaluate (a tensor or number).
      xp: the increasing knots, a 1-d tensor.
      fp: the values at the knots, a 1-d tensor of xp's length.
      left: the value below xp[0] (default fp[0]).
      right: the value above xp[-1] (default fp[-1]).
      period: None, or the period of a periodic x-coordinate (angles): xp
        need not be sorted then, and left and right are ignored.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: xp and fp not 1-d of one length, or empty, or period 0.

    >>> from rune import nx
    >>> print(nx.interp(nx.array([0.5, 1.5, 9.0]), nx.array([0.0, 1.0, 2.0]),
    ...                 nx.array([0.0, 10.0, 0.0])))
    float64 [3] [5, 5, 0]
    """
    fn = "nx.interp"
    x, xp, fp = (_float(as_tensor(v, fn)) for v in (x, xp, fp))
    if xp.ndim != 1 or fp.ndim != 1 or xp.shape != fp.shape or xp.shape[0] == 0:
        raise ValueError(f"{fn}: xp and fp must be 1-d of one nonzero length, got shapes "
                         f"{xp.shape} and {fp.shape}")
    if period is not None:
        x, xp, fp = _periodic(x, xp, fp, period, fn)
        left = right = None
    n = xp.shape[0]
    x0, f0 = (_ix.gather(v, Tensor(np.intp(0))) for v in (xp, fp))
    xn, fn_ = (_ix.gather(v, Tensor(np.intp(n - 1))) for v in (xp, fp))
    if n == 1:
        out = _e.add(_e.multiply(x, 0), f0)
    else:
        j = clip(_e.subtract(_st.searchsorted(xp, x, side="right"), 1), 0, n - 2)
        xj, fj = _ix.gather(xp, j), _ix.gather(fp, j)
        xk, fk = (_ix.gather(v, _e.add(j, 1)) for v in (xp, fp))
        slope = _e.divide(_e.subtract(fk, fj), _e.subtract(xk, xj))
        out = _e.add(_e.multiply(slope, _e.subtract(x, xj)), fj)
        out = where(_e.equal(x, xn), fn_, out)
    out = where(_e.less(x, x0), f0 if left is None else left, out)
    return where(_e.greater(x, xn), fn_ if right is None else right, out)


def _periodic(x, xp, fp, period, fn):
    """numpy's periodic interp: coordinates modulo the period, xp sorted, and
    one knot more at each end, wrapped around from the other."""
    if period == 0:
        raise ValueError(f"{fn}: period must be nonzero")
    period = abs(period)
    x, xp = _e.mod(x, period), _e.mod(xp, period)
    order = _st.argsort(xp, axis=0, descending=False)
    xp, fp = _ix.gather(xp, order), _ix.gather(fp, order)
    n = xp.shape[0]
    first, last = Tensor(np.array([0])), Tensor(np.array([n - 1]))
    xp = concatenate([_e.subtract(_ix.gather(xp, last), period), xp,
                      _e.add(_ix.gather(xp, first), period)])
    fp = concatenate([_ix.gather(fp, last), fp, _ix.gather(fp, first)])
    return x, xp, fp


def polyval(p, x):
    """The polynomial with coefficients p (highest power first) at x, by Horner's rule.

    Args:
      p: a 1-d tensor of coefficients (or a sequence of numbers).
      x: a tensor or number.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: p is not 1-d.

    >>> from rune import nx
    >>> print(nx.polyval(nx.array([1.0, 0.0, -2.0]), nx.array([0.0, 2.0])))
    float64 [2] [-2, 2]
    """
    fn = "nx.polyval"
    p, x = as_tensor(p, fn), as_tensor(x, fn)
    if p.ndim != 1:
        raise ValueError(f"{fn}: p must be 1-d, got shape {p.shape}")
    out = _e.multiply(x, 0)
    for i in np.arange(p.shape[0]):
        out = _e.add(_e.multiply(out, x), _ix.gather(p, Tensor(np.intp(i))))
    return out


def polyfit(x, y, deg, w=None):
    """The least-squares polynomial of degree `deg` through (x, y): coefficients,
    highest power first (numpy's polyfit without its diagnostics).

    Solved by the normal equations of the column-scaled Vandermonde matrix:
    as accurate as numpy's for low degrees; prefer degrees below ~10.

    Args:
      x: the sample points, a 1-d tensor.
      y: the values, 1-d (x's length) or 2-d (one column per data set).
      deg: the degree (an int >= 0).
      w: weights of the points (multiplying the residuals), or None.

    Raises:
      TypeError: an argument is not numeric, or deg is not an int.
      ValueError: x not 1-d, y of another length, deg negative.

    >>> from rune import nx
    >>> print(nx.round(nx.polyfit(nx.array([0.0, 1.0, 2.0]), nx.array([1.0, 3.0, 5.0]), 1), 12))
    float64 [2] [2, 1]
    """
    fn = "nx.polyfit"
    x, y = _float(as_tensor(x, fn)), _float(as_tensor(y, fn))
    if isinstance(deg, bool) or not isinstance(deg, (int, np.integer)) or deg < 0:
        raise ValueError(f"{fn}: deg must be a non-negative int, got {deg!r}")
    if x.ndim != 1 or y.ndim not in (1, 2) or y.shape[0] != x.shape[0]:
        raise ValueError(f"{fn}: expected a 1-d x and a y with x's length first, got shapes "
                         f"{x.shape} and {y.shape}")
    column = _s.reshape(x, shape=(x.shape[0], 1))
    powers = [_e.add(_e.multiply(column, 0), 1)]  # by products: x**0 has no derivative at 0
    for _ in range(deg):
        powers.insert(0, _e.multiply(powers[0], column))
    lhs = concatenate(powers, axis=1)  # the Vandermonde matrix
    rhs = y
    if w is not None:
        w = _float(as_tensor(w, fn))
        lhs = _e.multiply(lhs, _s.reshape(w, shape=(w.shape[0], 1)))
        rhs = _e.multiply(rhs, w if y.ndim == 1 else _s.reshape(w, shape=(w.shape[0], 1)))
    scale = sqrt(_sum(_e.multiply(lhs, lhs), axis=0))
    scale = where(_e.equal(scale, 0), 1.0, scale)
    lhs = _e.divide(lhs, scale)
    gram = matmul(swapaxes(lhs, 0, 1), lhs)
    coefficients = _linalg.solve(gram, matmul(swapaxes(lhs, 0, 1), rhs))
    return _e.divide(coefficients, scale if y.ndim == 1 else _s.reshape(scale, shape=(
        scale.shape[0], 1)))
