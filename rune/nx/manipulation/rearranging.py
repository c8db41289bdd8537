"""Rearranging elements: flip, fliplr, flipud, roll, rot90.

numpy's "Array manipulation: rearranging elements". Each is a composition
of slicing, `concatenate`, `flip` and `transpose`, so every transformation
applies and the derivative is exact.
"""

from __future__ import annotations

import operator

import numpy as np

from ...primitives import indexing as _ix
from ..creation import as_tensor
from ..indexing import canonical_slice, getitem
from ..tensor import normalize_axes, normalize_axis
from .joining import concatenate
from .shape import ravel, reshape
from .transpose_like import transpose

__all__ = ["flip", "roll", "rot90", "flipud", "fliplr"]


def flip(x, axis=None):
    """x with the order of elements reversed along `axis` (all axes if None).

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None, an int or a tuple of ints.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.flip(nx.array([1.0, 2.0, 3.0])))
    float64 [3] [3, 2, 1]
    """
    x = as_tensor(x, "nx.flip")
    axes = normalize_axes(axis, len(x.shape), "nx.flip")
    if not axes:
        return x
    index = tuple(canonical_slice(slice(None, None, -1), n) if a in axes else (0, n, 1)
                  for a, n in enumerate(x.shape[: axes[-1] + 1]))
    return _ix.slice_(x, index=index)


def _along(x, axis, start, stop):
    return getitem(x, (slice(None),) * axis + (slice(start, stop),))


def roll(a, shift, axis=None):
    """a's elements shifted by `shift` places along `axis`, those pushed off the end
    coming back at the start (of the flattened a when axis is None).

    Args:
      a: a tensor (numpy array, nested lists).
      shift: an int, or a tuple of ints (one per axis of `axis`; they broadcast).
      axis: an int, a tuple of ints, or None.

    Raises:
      TypeError: shift or axis is not ints.
      ValueError: shift and axis of different lengths, or an axis out of range.

    >>> from rune import nx
    >>> print(nx.roll(nx.array([1.0, 2.0, 3.0, 4.0]), 1))
    float64 [4] [4, 1, 2, 3]
    """
    fn = "nx.roll"
    a = as_tensor(a, fn)
    if axis is None:
        return reshape(roll(ravel(a), shift, 0), a.shape)
    try:
        shifts, axes = np.broadcast_arrays(np.asarray(shift), np.asarray(axis))
    except ValueError:
        raise ValueError(f"{fn}: shift {shift!r} and axis {axis!r} do not match in "
                         f"length") from None
    if shifts.dtype.kind not in "iu" or axes.dtype.kind not in "iu":
        raise TypeError(f"{fn}: shift and axis must be ints, got {shift!r} and {axis!r}")
    total = {}
    for s, ax in zip(shifts.ravel().tolist(), axes.ravel().tolist()):
        ax = normalize_axis(ax, a.ndim, fn)
        total[ax] = total.get(ax, 0) + s
    for ax, s in total.items():
        s %= max(a.shape[ax], 1)
        if s:
            a = concatenate([_along(a, ax, -s, None), _along(a, ax, None, -s)], axis=ax)
    return a


def rot90(m, k=1, axes=(0, 1)):
    """m turned by 90 degrees k times, from the first of `axes` towards the second.

    Args:
      m: a tensor with at least two axes.
      k: an int (negative turns the other way).
      axes: two different axes.

    Raises:
      ValueError: axes not two different axes of m.

    >>> from rune import nx
    >>> print(nx.rot90(nx.array([[1.0, 2.0], [3.0, 4.0]])))
    float64 [2, 2]
    [[2, 4],
     [1, 3]]
    """
    fn = "nx.rot90"
    m = as_tensor(m, fn)
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError(f"{fn}: axes must be two axes, got {axes!r}")
    a0, a1 = (normalize_axis(ax, m.ndim, fn) for ax in axes)
    if a0 == a1:
        raise ValueError(f"{fn}: axes must be different, got {axes!r}")
    k = operator.index(k) % 4
    if k == 0:
        return m
    if k == 2:
        return flip(flip(m, a0), a1)
    order = list(range(m.ndim))
    order[a0], order[a1] = order[a1], order[a0]
    return transpose(flip(m, a1), order) if k == 1 else flip(transpose(m, order), a1)


def flipud(m):
    """m upside down: reversed along axis 0.

    Args:
      m: a tensor with at least one axis.

    Raises:
      ValueError: m is 0-d.

    >>> from rune import nx
    >>> print(nx.flipud(nx.array([1.0, 2.0])))
    float64 [2] [2, 1]
    """
    m = as_tensor(m, "nx.flipud")
    if m.ndim < 1:
        raise ValueError("nx.flipud: needs a tensor with at least 1 axis, got a 0-d one")
    return flip(m, 0)


def fliplr(m):
    """m mirrored left to right: reversed along axis 1.

    Args:
      m: a tensor with at least two axes.

    Raises:
      ValueError: m has fewer than two axes.

    >>> from rune import nx
    >>> print(nx.fliplr(nx.array([[1.0, 2.0]])))
    float64 [1, 2]
    [[2, 1]]
    """
    m = as_tensor(m, "nx.fliplr")
    if m.ndim < 2:
        raise ValueError(f"nx.fliplr: needs a tensor with at least 2 axes, got {m.ndim}")
    return flip(m, 1)
