"""Transpose-like operations: transpose, swapaxes, moveaxis, rollaxis, permute_dims...

numpy's "Array manipulation: transpose-like operations", with numpy 2's
`permute_dims` and `matrix_transpose` (`Tensor.mT`). Each is one `transpose`
primitive: linear, so every transformation applies.
"""

from __future__ import annotations

import operator

from ...primitives import shape as _s
from ..creation import as_tensor
from ..tensor import normalize_axis
from .shape import _ints

__all__ = [
    "transpose", "swapaxes", "moveaxis", "rollaxis", "permute_dims", "matrix_transpose",
]


def transpose(x, axes=None):
    """x with its axes permuted: axis i of the result is axis axes[i] of x.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axes: a permutation of x's axes (negative ones count from the end);
        None reverses them.

    Raises:
      TypeError: x is not numeric, or axes is not ints.
      ValueError: axes that are not a permutation of x's axes.

    >>> from rune import nx
    >>> print(nx.transpose(nx.array([[1.0, 2.0]])))
    float64 [2, 1]
    [[1],
     [2]]
    """
    x = as_tensor(x, "nx.transpose")
    ndim = len(x.shape)
    if axes is None:
        axes = tuple(reversed(range(ndim)))
    else:
        given = _ints(axes, "axes", "nx.transpose")
        axes = tuple(normalize_axis(a, ndim, "nx.transpose") for a in given)
        if sorted(axes) != list(range(ndim)):
            raise ValueError(f"nx.transpose: axes {given} is not a permutation of the "
                             f"{ndim} axes of the tensor")
    return x if axes == tuple(range(ndim)) else _s.transpose(x, axes=axes)


def swapaxes(x, axis1, axis2):
    """x with two axes exchanged.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis1, axis2: the two axes (ints; negative ones count from the end).

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range.

    >>> from rune import nx
    >>> print(nx.swapaxes(nx.array([[[1.0, 2.0, 3.0]]]), 0, 2).shape)
    (3, 1, 1)
    """
    x = as_tensor(x, "nx.swapaxes")
    ndim = len(x.shape)
    order = list(range(ndim))
    a1, a2 = (normalize_axis(a, ndim, "nx.swapaxes") for a in (axis1, axis2))
    order[a1], order[a2] = a2, a1
    return transpose(x, order)


def moveaxis(x, source, destination):
    """x with axes moved from `source` to `destination`; the other axes keep their order.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      source: the axes to move, an int or a sequence of ints.
      destination: where they go in the result, as many as in source.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range, repeated, or source and destination
        of different lengths.

    >>> from rune import nx
    >>> print(nx.moveaxis(nx.array([[[1.0, 2.0, 3.0]]]), -1, 0).shape)
    (3, 1, 1)
    """
    x = as_tensor(x, "nx.moveaxis")
    ndim = len(x.shape)
    src = [normalize_axis(a, ndim, "nx.moveaxis") for a in _ints(source, "source", "nx.moveaxis")]
    dst = [normalize_axis(a, ndim, "nx.moveaxis")
           for a in _ints(destination, "destination", "nx.moveaxis")]
    if len(src) != len(dst):
        raise ValueError(f"nx.moveaxis: source {source} and destination {destination} must "
                         f"have the same number of axes")
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError(f"nx.moveaxis: source {source} or destination {destination} "
                         f"repeats an axis")
    order = [a for a in range(ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(x, order)


def rollaxis(a, axis, start=0):
    """a with `axis` moved to sit before position `start` (numpy's older `moveaxis`).

    Args:
      a: a tensor.
      axis: the axis to move (an int).
      start: the position it moves before, -ndim <= start <= ndim.

    Raises:
      ValueError: axis or start out of range.

    >>> from rune import nx
    >>> print(nx.rollaxis(nx.ones((2, 3, 4)), 2).shape)
    (4, 2, 3)
    """
    fn = "nx.rollaxis"
    a = as_tensor(a, fn)
    axis = normalize_axis(axis, a.ndim, fn)
    start = operator.index(start)
    if not -a.ndim <= start <= a.ndim:
        raise ValueError(f"{fn}: start {start} is out of range for a tensor with {a.ndim} "
                         f"axes (expected -{a.ndim} <= start <= {a.ndim})")
    start = start + a.ndim if start < 0 else start
    if axis < start:
        start -= 1
    return a if axis == start else moveaxis(a, axis, start)


permute_dims = transpose


def matrix_transpose(x):
    """x with its last two axes swapped: a stack of matrices, each transposed.

    Args:
      x: a tensor with at least two axes (or a numpy array, nested lists).

    Raises:
      TypeError: x is not numeric.
      ValueError: x has fewer than two axes.

    >>> from rune import nx
    >>> print(nx.matrix_transpose(nx.ones((5, 2, 3))).shape)
    (5, 3, 2)
    """
    x = as_tensor(x, "nx.matrix_transpose")
    if x.ndim < 2:
        raise ValueError(f"nx.matrix_transpose: expected a tensor with at least 2 axes, got "
                         f"shape {x.shape}")
    return swapaxes(x, -1, -2)
