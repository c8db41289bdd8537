"""Joining and cutting tensors: vstack, hstack, split variants, insert, delete, r_ and c_.

Each is numpy's function of the same name written with `concatenate`,
`split`, `take` and `reshape`, so every transformation applies and the
derivative is exact. Positions (split points, inserted or deleted indices)
are Python ints or numpy arrays: they fix the output's shape, so they must
be known when the function runs, under jit too.
"""

from __future__ import annotations

import operator

import numpy as np

from .creation import arange, as_tensor, linspace
from .indexing import take
from .reductions import normalize_axis
from .shapes import broadcast_to, concatenate, moveaxis, ravel, reshape, split
from .tensor import Tensor

__all__ = [
    "atleast_1d", "atleast_2d", "atleast_3d", "vstack", "row_stack", "hstack", "dstack",
    "column_stack", "array_split", "hsplit", "vsplit", "dsplit", "append", "insert", "delete",
    "r_", "c_",
]


def _at_least(arys, ndim, fn, place):
    out = []
    for a in arys:
        t = as_tensor(a, fn)
        if t.ndim < ndim:
            t = reshape(t, place(tuple(t.shape)))
        out.append(t)
    return out[0] if len(out) == 1 else tuple(out)


def atleast_1d(*arys):
    """Each argument as a tensor with at least one axis (a number becomes shape [1]).

    Args:
      *arys: tensors, numpy arrays, numbers or nested lists.

    Raises:
      TypeError: an argument is not numeric.

    >>> from rune import nx
    >>> print(nx.atleast_1d(2.0), nx.atleast_1d(1.0, nx.ones(2))[1])
    float64 [1] [2] float64 [2] [1, 1]
    """
    return _at_least(arys, 1, "nx.atleast_1d", lambda s: (1,) * (1 - len(s)) + s)


def atleast_2d(*arys):
    """Each argument with at least two axes: a vector of n becomes a [1, n] row.

    Args:
      *arys: tensors, numpy arrays, numbers or nested lists.

    Raises:
      TypeError: an argument is not numeric.

    >>> from rune import nx
    >>> print(nx.atleast_2d(nx.array([1.0, 2.0])))
    float64 [1, 2]
    [[1, 2]]
    """
    return _at_least(arys, 2, "nx.atleast_2d", lambda s: (1,) * (2 - len(s)) + s)


def _three(shape):
    return {0: (1, 1, 1), 1: (1,) + shape + (1,), 2: shape + (1,)}[len(shape)]


def atleast_3d(*arys):
    """Each argument with at least three axes: shape [n] becomes [1, n, 1], and
    [m, n] becomes [m, n, 1], as numpy does.

    Args:
      *arys: tensors, numpy arrays, numbers or nested lists.

    Raises:
      TypeError: an argument is not numeric.

    >>> from rune import nx
    >>> print(nx.atleast_3d(nx.ones(2)).shape, nx.atleast_3d(nx.ones((2, 3))).shape)
    (1, 2, 1) (2, 3, 1)
    """
    return _at_least(arys, 3, "nx.atleast_3d", _three)


def _sequence(tup, fn):
    """The tensors to join: a list or tuple, or, as in numpy, the entries of one
    tensor (or numpy array) along its first axis."""
    if isinstance(tup, (Tensor, np.ndarray, np.generic)):
        tup = as_tensor(tup, fn)
        if tup.ndim == 0:
            raise TypeError(f"{fn}: expected a list or tuple of tensors, or a tensor with at "
                            f"least one axis, got a 0-d tensor")
        return list(tup)
    if not isinstance(tup, (list, tuple)):
        raise TypeError(f"{fn}: expected a list or tuple of tensors, got {type(tup).__name__}")
    if not tup:
        raise ValueError(f"{fn}: needs at least one tensor to join")
    return list(tup)


def _made_at_least(tup, fn, at_least):
    """The entries of `tup` as tensors of at least so many axes (`atleast_2d`...), in a list."""
    made = at_least(*_sequence(tup, fn))
    return list(made) if isinstance(made, tuple) else [made]


def _joined(tup, fn, at_least, axis):
    return concatenate(_made_at_least(tup, fn, at_least), axis=axis)


def vstack(tup):
    """The tensors stacked as rows: vectors become rows, then all join along axis 0.

    Args:
      tup: a list or tuple of tensors (numpy arrays, numbers), or one tensor
        or numpy array: its entries along the first axis.

    Raises:
      TypeError: tup is not a list, tuple or tensor with an axis, or an entry
        is not numeric.
      ValueError: tup is empty, or the shapes do not fit.

    >>> from rune import nx
    >>> print(nx.vstack([nx.array([1.0, 2.0]), nx.array([3.0, 4.0])]))
    float64 [2, 2]
    [[1, 2],
     [3, 4]]
    >>> print(nx.vstack(nx.array([1.0, 2.0])))  # one tensor: its entries, as rows
    float64 [2, 1]
    [[1],
     [2]]
    """
    return _joined(tup, "nx.vstack", atleast_2d, 0)


def row_stack(tup):
    """numpy's old name for `vstack`.

    Args:
      tup: a list or tuple of tensors, or one tensor (its entries).

    Raises:
      TypeError: tup is not a list, tuple or tensor with an axis, or an entry
        is not numeric.
      ValueError: tup is empty, or the shapes do not fit.

    >>> from rune import nx
    >>> print(nx.row_stack([nx.ones(2), nx.zeros(2)]).shape)
    (2, 2)
    """
    return _joined(tup, "nx.row_stack", atleast_2d, 0)


def hstack(tup):
    """The tensors joined along axis 1 (along axis 0 when they are all vectors or numbers).

    Args:
      tup: a list or tuple of tensors (numpy arrays, numbers), or one tensor
        or numpy array: its entries along the first axis.

    Raises:
      TypeError: tup is not a list, tuple or tensor with an axis, or an entry
        is not numeric.
      ValueError: tup is empty, or the shapes do not fit.

    >>> from rune import nx
    >>> print(nx.hstack([nx.array([1.0, 2.0]), 3.0]))
    float64 [3] [1, 2, 3]
    """
    made = _made_at_least(tup, "nx.hstack", atleast_1d)
    return concatenate(made, axis=0 if made[0].ndim == 1 else 1)


def dstack(tup):
    """The tensors joined along a third axis (each made at least 3-d by `atleast_3d`).

    Args:
      tup: a list or tuple of tensors (numpy arrays, numbers), or one tensor
        or numpy array: its entries along the first axis.

    Raises:
      TypeError: tup is not a list, tuple or tensor with an axis, or an entry
        is not numeric.
      ValueError: tup is empty, or the shapes do not fit.

    >>> from rune import nx
    >>> print(nx.dstack([nx.ones((2, 3)), nx.zeros((2, 3))]).shape)
    (2, 3, 2)
    """
    return _joined(tup, "nx.dstack", atleast_3d, 2)


def column_stack(tup):
    """Vectors as the columns of a matrix; tensors with two or more axes join along axis 1.

    Args:
      tup: a list or tuple of tensors (numpy arrays, numbers), or one tensor
        or numpy array: its entries along the first axis.

    Raises:
      TypeError: tup is not a list, tuple or tensor with an axis, or an entry
        is not numeric.
      ValueError: tup is empty, or the shapes do not fit.

    >>> from rune import nx
    >>> print(nx.column_stack([nx.array([1.0, 2.0]), nx.array([3.0, 4.0])]))
    float64 [2, 2]
    [[1, 3],
     [2, 4]]
    """
    fn = "nx.column_stack"
    columns = []
    for a in _sequence(tup, fn):
        t = as_tensor(a, fn)
        columns.append(reshape(t, (-1, 1)) if t.ndim < 2 else t)
    return concatenate(columns, axis=1)


def array_split(x, indices_or_sections, axis=0):
    """x cut along `axis` into pieces, as `split`, but N sections need not be equal:
    the first (size % N) pieces are one longer.

    Args:
      x: a tensor, numpy array, number or nested lists.
      indices_or_sections: an int N >= 1, or a sequence of cut indices.
      axis: an int.

    Raises:
      TypeError: x is not numeric, or indices_or_sections or axis is not ints.
      ValueError: N < 1, or axis out of range.

    >>> from rune import nx
    >>> print(*nx.array_split(nx.arange(5.0), 3))
    float64 [2] [0, 1] float64 [2] [2, 3] float64 [1] [4]
    """
    fn = "nx.array_split"
    x = as_tensor(x, fn)
    if not hasattr(indices_or_sections, "__index__"):
        return split(x, indices_or_sections, axis)
    sections = operator.index(indices_or_sections)
    if sections < 1:
        raise ValueError(f"{fn}: the number of sections must be at least 1, got {sections}")
    n = x.shape[normalize_axis(axis, x.ndim, fn)]
    each, extra = divmod(n, sections)
    sizes = [each + 1] * extra + [each] * (sections - extra)
    return split(x, np.cumsum(sizes)[:-1].tolist(), axis)


def _split_axis(x, indices_or_sections, axis, min_ndim, fn):
    x = as_tensor(x, fn)
    if x.ndim < min_ndim:
        raise ValueError(f"{fn}: needs a tensor with at least {min_ndim} axes, "
                         f"got {x.ndim}")
    return split(x, indices_or_sections, axis)


def hsplit(x, indices_or_sections):
    """x split along axis 1 (axis 0 for a vector), as `split`.

    Args:
      x: a tensor with at least one axis.
      indices_or_sections: an int N (equal pieces) or a sequence of cut indices.

    Raises:
      ValueError: x is 0-d, or N does not divide the axis.

    >>> from rune import nx
    >>> print(*nx.hsplit(nx.arange(4.0), 2))
    float64 [2] [0, 1] float64 [2] [2, 3]
    """
    x = as_tensor(x, "nx.hsplit")
    return _split_axis(x, indices_or_sections, 1 if x.ndim > 1 else 0, 1, "nx.hsplit")


def vsplit(x, indices_or_sections):
    """x split along axis 0, for tensors with at least two axes.

    Args:
      x: a tensor with at least two axes.
      indices_or_sections: an int N (equal pieces) or a sequence of cut indices.

    Raises:
      ValueError: x has fewer than two axes, or N does not divide axis 0.

    >>> from rune import nx
    >>> print(*nx.vsplit(nx.ones((2, 3)), 2), sep="\\n")
    float64 [1, 3]
    [[1, 1, 1]]
    float64 [1, 3]
    [[1, 1, 1]]
    """
    return _split_axis(x, indices_or_sections, 0, 2, "nx.vsplit")


def dsplit(x, indices_or_sections):
    """x split along axis 2, for tensors with at least three axes.

    Args:
      x: a tensor with at least three axes.
      indices_or_sections: an int N (equal pieces) or a sequence of cut indices.

    Raises:
      ValueError: x has fewer than three axes, or N does not divide axis 2.

    >>> from rune import nx
    >>> print([p.shape for p in nx.dsplit(nx.ones((1, 2, 4)), [1])])
    [(1, 2, 1), (1, 2, 3)]
    """
    return _split_axis(x, indices_or_sections, 2, 3, "nx.dsplit")


def append(arr, values, axis=None):
    """values joined after arr: both flattened when axis is None, else along `axis`.

    Args:
      arr, values: tensors (numpy arrays, numbers).
      axis: an int, or None.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: shapes that do not fit along axis, or axis out of range.

    >>> from rune import nx
    >>> print(nx.append(nx.array([1.0, 2.0]), [[3.0, 4.0]]))
    float64 [4] [1, 2, 3, 4]
    """
    fn = "nx.append"
    arr, values = as_tensor(arr, fn), as_tensor(values, fn)
    if axis is None:
        return concatenate([ravel(arr), ravel(values)])
    return concatenate([arr, values], axis=axis)


def _flat_and_axis(arr, axis, fn):
    arr = as_tensor(arr, fn)
    if axis is None:
        return ravel(arr), 0
    return arr, normalize_axis(axis, arr.ndim, fn)


def _positions(obj, n, fn):
    """obj (an int, a slice, a sequence or a boolean mask) as an int array, and
    whether it was a single int."""
    if isinstance(obj, Tensor):
        obj = obj.numpy()
    if isinstance(obj, slice):
        return np.arange(*obj.indices(n)), False
    index = np.asarray(obj)
    if index.dtype == bool:
        if index.shape != (n,):
            raise ValueError(f"{fn}: a boolean obj must have the axis's length {n}, "
                             f"got shape {list(index.shape)}")
        return np.flatnonzero(index), False
    if index.size == 0:
        index = index.astype(np.intp)
    if index.dtype.kind not in "iu" or index.ndim > 1:
        raise TypeError(f"{fn}: obj must be an int, a slice or a 1-d sequence of ints, "
                        f"got {obj!r}")
    return index.astype(np.intp), index.ndim == 0


def delete(arr, obj, axis=None):
    """arr without the entries at `obj` along `axis` (of the flattened arr when None).

    Args:
      arr: a tensor (numpy array, nested lists).
      obj: an int, a slice, a sequence of ints or a boolean mask: the positions to drop.
      axis: an int, or None.

    Raises:
      TypeError: obj is not ints, a slice or a mask.
      IndexError: an index out of range.
      ValueError: axis out of range, or a mask of the wrong length.

    >>> from rune import nx
    >>> print(nx.delete(nx.array([1.0, 2.0, 3.0, 4.0]), [0, 2]))
    float64 [2] [2, 4]
    """
    fn = "nx.delete"
    arr, a = _flat_and_axis(arr, axis, fn)
    n = arr.shape[a]
    index, _ = _positions(obj, n, fn)
    if np.any((index < -n) | (index >= n)):
        raise IndexError(f"{fn}: an index in {index.tolist()} is out of range for an axis "
                         f"of size {n}")
    keep = np.ones(n, dtype=bool)
    keep[index] = False
    return take(arr, np.flatnonzero(keep), axis=a)


def insert(arr, obj, values, axis=None):
    """arr with values placed before the positions `obj` along `axis` (of the
    flattened arr when None), as numpy's insert; the values take arr's dtype.

    Args:
      arr: a tensor (numpy array, nested lists).
      obj: an int, a slice or a sequence of ints: positions in arr (0 to its length).
      values: a tensor broadcasting to the inserted block.
      axis: an int, or None.

    Raises:
      TypeError: obj is not ints or a slice.
      IndexError: a position out of range.
      ValueError: values that do not broadcast, or axis out of range.

    >>> from rune import nx
    >>> print(nx.insert(nx.array([1.0, 2.0, 3.0]), 1, [7.0, 8.0]))
    float64 [5] [1, 7, 8, 2, 3]
    """
    fn = "nx.insert"
    arr, a = _flat_and_axis(arr, axis, fn)
    values = as_tensor(values, fn).astype(arr.dtype)
    n = arr.shape[a]
    index, single = _positions(obj, n, fn)
    if np.any((index < -n) | (index > n)):
        raise IndexError(f"{fn}: a position in {index.tolist()} is out of range for an axis "
                         f"of size {n}")
    index = np.where(index < 0, index + n, index)
    if index.size == 1:  # numpy's rule: a block of values at one place
        values = reshape(values, (1,) * (arr.ndim - values.ndim) + tuple(values.shape))
        if single:
            values = moveaxis(values, 0, a)
        count = values.shape[a]
        final = index.reshape(1)[0] + np.arange(count)
    else:
        count = len(index)
        final = index.copy()
        final[np.argsort(index, kind="stable")] += np.arange(count)
    block_shape = tuple(arr.shape[:a]) + (count,) + tuple(arr.shape[a + 1:])
    values = broadcast_to(values, block_shape)
    source = np.empty(n + count, dtype=np.intp)
    old = np.ones(n + count, dtype=bool)
    old[final] = False
    source[old] = np.arange(n)
    source[final] = n + np.arange(count)
    return take(concatenate([arr, values], axis=a), source, axis=a)


class _Concatenator:
    """`nx.r_` and `nx.c_`: index them with tensors, numbers and slices."""

    def __init__(self, name, columns):
        self.name, self.columns = name, columns

    def _piece(self, item):
        if isinstance(item, slice):
            start = 0 if item.start is None else item.start
            step = 1 if item.step is None else item.step
            if isinstance(step, complex):
                item = linspace(start, item.stop, int(abs(step)))
            else:
                item = arange(start, item.stop, step)
        elif isinstance(item, str):
            raise ValueError(f"{self.name}: string directives such as {item!r} are not "
                             f"supported; use nx.concatenate or nx.stack with axis")
        t = as_tensor(item, self.name)
        if not self.columns:
            return atleast_1d(t)
        return reshape(t, (-1, 1)) if t.ndim < 2 else t

    def __getitem__(self, items):
        items = items if isinstance(items, tuple) else (items,)
        pieces = [self._piece(item) for item in items]
        if self.columns and all(p.ndim == 2 and p.shape[1] == 1 for p in pieces) and all(
                not isinstance(i, slice) and np.ndim(i) == 0 for i in items):
            return reshape(concatenate(pieces), (1, -1))  # c_[1, 2] is one row
        return concatenate(pieces, axis=-1 if self.columns else 0)

    def __repr__(self):
        return f"<{self.name}>"


r_ = _Concatenator("nx.r_", columns=False)
r_.__doc__ = """`nx.r_[...]`: numbers, tensors and slices joined along axis 0, as numpy's r_.

A slice `a:b:s` is `nx.arange(a, b, s)`; with an imaginary step `a:b:nj` it
is `nx.linspace(a, b, n)`. Numbers become vectors of one element.

Args:
  items: (the index) numbers, tensors, numpy arrays and slices.

Raises:
  ValueError: a string directive (numpy's '0,2,1' forms), or shapes that do not fit.

>>> from rune import nx
>>> print(nx.r_[nx.array([1.0, 2.0]), 0.0, 4:6])
float64 [5] [1, 2, 0, 4, 5]
"""
c_ = _Concatenator("nx.c_", columns=True)
c_.__doc__ = """`nx.c_[...]`: vectors as columns joined along the last axis, as numpy's c_.

Args:
  items: (the index) numbers, tensors, numpy arrays and slices (as in `nx.r_`).

Raises:
  ValueError: a string directive, or shapes that do not fit.

>>> from rune import nx
>>> print(nx.c_[nx.array([1.0, 2.0]), nx.array([3.0, 4.0])])
float64 [2, 2]
[[1, 3],
 [2, 4]]
"""
