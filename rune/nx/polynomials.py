"""Polynomials: polyval, polyfit.

numpy's "Polynomials" (the `numpy.poly*` functions). `polyval` is
differentiable in p and x, `polyfit` in x, y and w (a composition of
Vandermonde matrices and `nx.linalg.lstsq`).
"""

from __future__ import annotations

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import indexing as _ix
from ..primitives import shape as _s
from .creation import as_tensor
from .indexing import where
from .linalg import solvers as _solvers
from .linalg.products import matmul
from .manipulation.joining import concatenate
from .manipulation.transpose_like import swapaxes
from .math.miscellaneous import sqrt
from .math.sums_products_differences import _float, sum as _sum
from .tensor import Tensor

__all__ = ["polyval", "polyfit"]


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
    coefficients = _solvers.solve(gram, matmul(swapaxes(lhs, 0, 1), rhs))
    return _e.divide(coefficients, scale if y.ndim == 1 else _s.reshape(scale, shape=(
        scale.shape[0], 1)))
