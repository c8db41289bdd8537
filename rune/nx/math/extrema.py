"""Extrema finding: maximum, minimum, max, min, fmax, fmin, nanmax, nanmin.

numpy's "Mathematical functions: extrema finding". `maximum(x, y)` and
`minimum(x, y)` at a tie give half the derivative to each argument; fmax and
fmin split ties evenly as maximum and minimum do, and send the derivative to
the number where the other argument is nan. `max` and `min` pass the
derivative to the extremum (split evenly among ties); the nan-ignoring ones
replace nan by a neutral value with `where`, so the derivative at a nan
entry is zero.
"""

from __future__ import annotations

import numpy as np

from ...primitives import elementwise as _e
from ...primitives import reduce as _r
from ..creation import as_tensor
from ..logic import _call
from ..tensor import call_broadcasting, normalize_axes
from .sums_products_differences import _without_nan

__all__ = ["maximum", "minimum", "max", "min", "fmax", "fmin", "nanmax", "nanmin"]


def maximum(x, y):
    """The larger of x and y, elementwise (nan if either is nan).

    At ties the derivative is split: half to each argument.

    Args:
      x, y: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.maximum(nx.array([1.0, 5.0]), 3))
    float64 [2] [3, 5]
    """
    return _call("nx.maximum", _e.maximum, x, y)


def minimum(x, y):
    """The smaller of x and y, elementwise; ties split the derivative (see maximum).

    Args:
      x, y: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.minimum(nx.array([1.0, 5.0]), 3))
    float64 [2] [1, 3]
    """
    return _call("nx.minimum", _e.minimum, x, y)


def _check_nonempty(x, axes, fn):
    for a in axes:
        if x.shape[a] == 0:
            raise ValueError(
                f"{fn}: cannot reduce axis {a}, which has size 0 (shape {tuple(x.shape)}): "
                f"an empty reduction has no identity"
            )


def max(x, axis=None, keepdims=False):  # noqa: A001  (numpy's name)
    """The largest element over `axis` (all axes by default).

    Where several elements tie for the largest, the derivative splits
    evenly between them: each gets 1/k of the cotangent.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None (all axes), an int or a tuple of ints; negative counts from the end.
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated, or a reduced axis of size 0.

    >>> from rune import nx
    >>> print(nx.max(nx.array([[1.0, 5.0], [7.0, 2.0]]), axis=1))
    float64 [2] [5, 7]
    """
    x = as_tensor(x, "nx.max", result_is_new=True)
    axes = normalize_axes(axis, len(x.shape), "nx.max")
    _check_nonempty(x, axes, "nx.max")
    return _r.max(x, axis=axes, keepdims=keepdims)


def min(x, axis=None, keepdims=False):  # noqa: A001  (numpy's name)
    """The smallest element over `axis`; ties split the derivative as `nx.max`.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None (all axes), an int or a tuple of ints; negative counts from the end.
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated, or a reduced axis of size 0.

    >>> from rune import nx
    >>> print(nx.min(nx.array([[1.0, 5.0], [7.0, 2.0]]), axis=0))
    float64 [2] [1, 2]
    """
    x = as_tensor(x, "nx.min", result_is_new=True)
    axes = normalize_axes(axis, len(x.shape), "nx.min")
    _check_nonempty(x, axes, "nx.min")
    return _r.min(x, axis=axes, keepdims=keepdims)


def _nan_ignoring(fn, prim, x1, x2):
    x1, x2 = as_tensor(x1, fn), as_tensor(x2, fn)
    out = call_broadcasting(fn, prim, x1, x2)
    if x1.dtype.kind not in "fc" and x2.dtype.kind not in "fc":
        return out
    # where one is nan, the other (the derivative goes with it); nan if both are
    return _e.where(_e.isnan(x2), _e.where(_e.isnan(x1), out, x1), _e.where(_e.isnan(x1), x2, out))


def fmax(x1, x2):
    """The larger of x1 and x2, elementwise, ignoring nan: nan only if both are nan.

    Args:
      x1, x2: real tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> nan = float("nan")
    >>> print(nx.fmax(nx.array([1.0, nan, nan]), nx.array([2.0, 0.5, nan])))
    float64 [3] [2, 0.5, nan]
    """
    return _nan_ignoring("nx.fmax", _e.maximum, x1, x2)


def fmin(x1, x2):
    """The smaller of x1 and x2, elementwise, ignoring nan: nan only if both are nan.

    Args:
      x1, x2: real tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.fmin(nx.array([1.0, float('nan')]), nx.array([2.0, 0.5])))
    float64 [2] [1, 0.5]
    """
    return _nan_ignoring("nx.fmin", _e.minimum, x1, x2)


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
