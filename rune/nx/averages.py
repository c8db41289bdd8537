"""Averages: the weighted average and the nan-ignoring reductions.

Compositions of the reduction and elementwise primitives. The nan-ignoring
ones replace nan by a neutral value with `where`, so the derivative at a nan
entry is zero, and elsewhere is that of the plain reduction. A slice with no
numbers gives nan as numpy does (0 for nansum), without numpy's warning.
"""

from __future__ import annotations

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import reduce as _r
from ..primitives import shape as _s
from .creation import as_tensor
from .reductions import normalize_axes

__all__ = ["average", "nansum", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin"]


def average(a, axis=None, weights=None, returned=False, keepdims=False):
    """The weighted mean over `axis`: sum(a * w) / sum(w); the mean without weights.

    Differentiable in a and in the weights.

    Args:
      a: a tensor, numpy array or nested list.
      axis: None (all axes), an int or a tuple of ints.
      weights: None, a tensor of a's shape, or a 1-d tensor along `axis` (one int).
      returned: also return the sum of the weights (broadcast to the result's shape).
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: a or weights is not numeric.
      ValueError: weights of a shape that fits neither a nor the axis.

    >>> from rune import nx
    >>> print(nx.average(nx.array([1.0, 2.0, 4.0]), weights=nx.array([3.0, 1.0, 0.0])))
    float64 [] 1.25
    """
    a = as_tensor(a, "nx.average")
    axes = normalize_axes(axis, a.ndim, "nx.average")
    if weights is None:
        total = _r.sum(a, axis=axes, keepdims=keepdims)
        count = float(np.prod([a.shape[i] for i in axes]))
        out = _e.divide(total, count)
        return (out, _s.broadcast_to(_e.astype(as_tensor(count, "nx.average"), dtype=out.dtype),
                                     shape=out.shape)) if returned else out
    w = as_tensor(weights, "nx.average")
    if w.shape != a.shape:
        if w.ndim != 1 or len(axes) != 1 or w.shape[0] != a.shape[axes[0]]:
            raise ValueError(f"nx.average: weights of shape {w.shape} fit neither a's shape "
                             f"{a.shape} nor its axis {axis!r} (a 1-d weights needs one axis "
                             f"of its length)")
        shape = [1] * a.ndim
        shape[axes[0]] = w.shape[0]
        w = _s.reshape(w, shape=tuple(shape))
    total_weight = _r.sum(_s.broadcast_to(w, shape=np.broadcast_shapes(w.shape, a.shape)),
                          axis=axes, keepdims=keepdims)
    out = _e.divide(_r.sum(_e.multiply(a, w), axis=axes, keepdims=keepdims), total_weight)
    if returned:
        return out, _s.broadcast_to(_e.astype(total_weight, dtype=out.dtype), shape=out.shape)
    return out


def _without_nan(x, fn, fill):
    """(x with nan replaced by `fill`, the mask of the numbers) for floats; ints pass."""
    x = as_tensor(x, fn)
    if x.dtype.kind not in "fc":
        return x, None
    numbers = _e.logical_not(_e.isnan(x))
    return _e.where(numbers, x, _e.astype(as_tensor(fill, fn), dtype=x.dtype)), numbers


def _count(numbers, x, axes, keepdims, dtype):
    """How many numbers (not nan) each reduction sees, as a float of `dtype`
    (the result's: a float64 count would widen float32 results)."""
    if numbers is None:
        return float(np.prod([x.shape[i] for i in axes]))
    return _r.sum(_e.astype(numbers, dtype=dtype), axis=axes, keepdims=keepdims)


def nansum(a, axis=None, keepdims=False):
    """The sum over `axis`, counting nan as zero.

    Args:
      a: a tensor, numpy array or nested list.
      axis: None (all axes), an int or a tuple of ints.
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: a is not numeric.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.nansum(nx.array([1.0, float("nan"), 2.5])))
    float64 [] 3.5
    """
    x, _ = _without_nan(a, "nx.nansum", 0)
    return _r.sum(x, axis=normalize_axes(axis, x.ndim, "nx.nansum"), keepdims=keepdims)


def nanmean(a, axis=None, keepdims=False):
    """The mean over `axis` of the entries that are not nan (nan if there are none).

    Args:
      a: a tensor, numpy array or nested list.
      axis: None (all axes), an int or a tuple of ints.
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: a is not numeric.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.nanmean(nx.array([1.0, float("nan"), 2.5])))
    float64 [] 1.75
    """
    x, numbers = _without_nan(a, "nx.nanmean", 0)
    axes = normalize_axes(axis, x.ndim, "nx.nanmean")
    total = _r.sum(x, axis=axes, keepdims=keepdims)
    if total.dtype.kind not in "fc":
        total = _e.astype(total, dtype=np.dtype(np.float64))
    with np.errstate(invalid="ignore", divide="ignore"):
        return _e.divide(total, _count(numbers, x, axes, keepdims, total.real.dtype))


def nanvar(a, axis=None, keepdims=False, ddof=0):
    """The variance over `axis` of the entries that are not nan, divided by count - ddof.

    Args:
      a: a tensor, numpy array or nested list.
      axis: None (all axes), an int or a tuple of ints.
      keepdims: keep the reduced axes, with size 1.
      ddof: subtracted from the count of numbers in the divisor.

    Raises:
      TypeError: a is not numeric.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.nanvar(nx.array([1.0, float("nan"), 3.0])))
    float64 [] 1
    """
    x, numbers = _without_nan(a, "nx.nanvar", 0)
    axes = normalize_axes(axis, x.ndim, "nx.nanvar")
    mean = nanmean(x if numbers is None else _e.where(numbers, x, np.nan), axes, keepdims=True)
    deviation = _e.subtract(x, mean)
    if deviation.dtype.kind == "c":
        squared = _e.real(_e.multiply(deviation, _e.conj(deviation)))
    else:
        squared = _e.multiply(deviation, deviation)
    if numbers is not None:
        squared = _e.where(numbers, squared, 0)
    count = _count(numbers, x, axes, keepdims, squared.dtype)
    with np.errstate(invalid="ignore", divide="ignore"):
        return _e.divide(_r.sum(squared, axis=axes, keepdims=keepdims),
                         _e.maximum(_e.subtract(count, ddof), 0))


def nanstd(a, axis=None, keepdims=False, ddof=0):
    """The standard deviation over `axis` of the entries that are not nan.

    Args:
      a: a tensor, numpy array or nested list.
      axis: None (all axes), an int or a tuple of ints.
      keepdims: keep the reduced axes, with size 1.
      ddof: subtracted from the count of numbers in the divisor.

    Raises:
      TypeError: a is not numeric.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.nanstd(nx.array([1.0, float("nan"), 3.0])))
    float64 [] 1
    """
    return _e.sqrt(nanvar(a, axis, keepdims, ddof))


def _nan_extremum(a, axis, keepdims, fn, prim, fill):
    x, numbers = _without_nan(a, fn, fill)
    axes = normalize_axes(axis, x.ndim, fn)
    out = prim(x, axis=axes, keepdims=keepdims)
    if numbers is None:
        return out
    some = _r.any(numbers, axis=axes, keepdims=keepdims)
    return _e.where(some, out, np.nan)


def nanmax(a, axis=None, keepdims=False):
    """The largest entry over `axis` that is not nan (nan if there are none).

    Ties split the derivative evenly, as nx.max does.

    Args:
      a: a real tensor, numpy array or nested list.
      axis: None (all axes), an int or a tuple of ints.
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: a is not numeric.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.nanmax(nx.array([1.0, float("nan"), 3.0])))
    float64 [] 3
    """
    return _nan_extremum(a, axis, keepdims, "nx.nanmax", _r.max, -np.inf)


def nanmin(a, axis=None, keepdims=False):
    """The smallest entry over `axis` that is not nan (nan if there are none).

    Args:
      a: a real tensor, numpy array or nested list.
      axis: None (all axes), an int or a tuple of ints.
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: a is not numeric.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.nanmin(nx.array([1.0, float("nan"), 3.0])))
    float64 [] 1
    """
    return _nan_extremum(a, axis, keepdims, "nx.nanmin", _r.min, np.inf)
