"""Joining arrays: concatenate, concat, stack, block, vstack, hstack, dstack, column_stack, r_, c_.

numpy's "Array manipulation: joining arrays", and the index tricks `r_` and
`c_` that build a concatenation from slices. Each is numpy's function of
the same name written with the `concatenate` primitive and reshapes, so
every transformation applies and the derivative is exact.
"""

from __future__ import annotations

import numpy as np

from ...primitives import shape as _s
from ..creation import arange, as_tensor, linspace
from ..tensor import normalize_axis, Tensor
from .dimensions import atleast_1d, atleast_2d, atleast_3d
from .shape import _reshape, ravel, reshape

__all__ = [
    "block", "concatenate", "stack", "vstack", "row_stack", "hstack", "dstack", "column_stack",
    "r_", "c_", "concat",
]


def _depth(arrays, fn):
    """How deeply `arrays` nests lists; every branch must nest equally."""
    if not isinstance(arrays, list):
        return 0
    if not arrays:
        raise ValueError(f"{fn}: lists cannot be empty")
    depths = {_depth(a, fn) for a in arrays}
    if len(depths) != 1:
        raise ValueError(f"{fn}: list depths are mismatched (every entry of a list must "
                         f"nest as deeply as its siblings)")
    return depths.pop() + 1


def block(arrays):
    """A tensor assembled from nested lists of blocks, as numpy's block: the
    innermost lists are joined along the last axis, the next ones along the
    one before, and so on.

    Args:
      arrays: nested lists of tensors (or numbers, numpy arrays). Tuples are
        not lists here, as in numpy.

    Raises:
      TypeError: a block is not numeric.
      ValueError: empty lists, uneven nesting, or blocks whose shapes do not fit.

    >>> from rune import nx
    >>> print(nx.block([[nx.eye(2), nx.zeros((2, 1))], [nx.ones((1, 2)), nx.array([[5.0]])]]))
    float64 [3, 3]
    [[1, 0, 0],
     [0, 1, 0],
     [1, 1, 5]]
    """
    depth = _depth(arrays, "nx.block")

    def leaves(a):
        return [x for item in a for x in leaves(item)] if isinstance(a, list) else [a]

    ndim = max([depth] + [as_tensor(x, "nx.block").ndim for x in leaves(arrays)])

    def build(a, level):
        if not isinstance(a, list):
            a = as_tensor(a, "nx.block")
            return reshape(a, (1,) * (ndim - a.ndim) + tuple(a.shape))
        parts = [build(item, level + 1) for item in a]
        return concatenate(parts, axis=ndim - depth + level) if len(parts) > 1 else parts[0]

    return build(arrays, 0)


def _tensors(arrays, fn):
    if not hasattr(arrays, "__iter__"):
        raise TypeError(f"{fn}: arrays must be a sequence of tensors, got "
                        f"{type(arrays).__name__}")
    xs = [as_tensor(a, fn) for a in arrays]
    if not xs:
        raise ValueError(f"{fn}: need at least one tensor")
    return xs


def concatenate(arrays, axis=0):
    """The tensors joined along an existing axis (flattened first if axis is None).

    Args:
      arrays: a sequence of tensors (or numpy arrays, numbers, nested lists).
      axis: an int, or None.

    Raises:
      TypeError: arrays is not a sequence, an element is not numeric, or
        axis is not an int.
      ValueError: no tensors, 0-d tensors, an axis out of range, or shapes
        that differ off the axis (naming the first tensor that differs).

    >>> from rune import nx
    >>> print(nx.concatenate([nx.array([1.0]), nx.array([2.0, 3.0])]))
    float64 [3] [1, 2, 3]
    """
    xs = _tensors(arrays, "nx.concatenate")
    if axis is None:
        xs, axis = [ravel(x) for x in xs], 0
    shape = tuple(xs[0].shape)
    if not shape:
        raise ValueError("nx.concatenate: 0-d tensors cannot be concatenated (tensor 0 has "
                         "shape ())")
    a = normalize_axis(axis, len(shape), "nx.concatenate")
    for i, x in enumerate(xs[1:], 1):
        other = tuple(x.shape)
        if len(other) != len(shape) or other[:a] + other[a + 1:] != shape[:a] + shape[a + 1:]:
            raise ValueError(f"nx.concatenate: the tensors must have the same shape except "
                             f"along axis {a}, but tensor {i} has shape {other} and tensor 0 "
                             f"has shape {shape}")
    return xs[0] if len(xs) == 1 else _s.concatenate(*xs, axis=a)


def stack(arrays, axis=0):
    """The tensors joined along a new axis at `axis` of the result.

    Args:
      arrays: a sequence of tensors of one shape (or numpy arrays, numbers,
        nested lists).
      axis: an int, a position in the result.

    Raises:
      TypeError: arrays is not a sequence, an element is not numeric, or
        axis is not an int.
      ValueError: no tensors, an axis out of range, or shapes that differ
        (naming the first that differs).

    >>> from rune import nx
    >>> print(nx.stack([nx.array([1.0, 2.0]), nx.array([3.0, 4.0])], axis=1))
    float64 [2, 2]
    [[1, 3],
     [2, 4]]
    """
    xs = _tensors(arrays, "nx.stack")
    shape = tuple(xs[0].shape)
    for i, x in enumerate(xs[1:], 1):
        if tuple(x.shape) != shape:
            raise ValueError(f"nx.stack: the tensors must have the same shape, but tensor {i} "
                             f"has shape {tuple(x.shape)} and tensor 0 has shape {shape}")
    a = normalize_axis(axis, len(shape) + 1, "nx.stack")
    new = shape[:a] + (1,) + shape[a:]
    return concatenate([_reshape(x, new) for x in xs], axis=a)


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


concat = concatenate
