"""Splitting arrays: split, array_split, hsplit, vsplit, dsplit, unstack.

numpy's "Array manipulation: splitting arrays". Each piece is a slice:
split points are Python ints or numpy arrays, which fix the pieces' shapes,
so they must be known when the function runs, under jit too.
"""

from __future__ import annotations

import operator

import numpy as np

from ...primitives import indexing as _ix
from ..creation import as_tensor
from ..indexing import canonical_slice
from ..tensor import normalize_axis
from .shape import _ints

__all__ = ["split", "array_split", "hsplit", "vsplit", "dsplit", "unstack"]


def split(x, indices_or_sections, axis=0):
    """x cut along `axis` into a list of tensors.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      indices_or_sections: an int N (N equal pieces) or a sorted sequence of
        indices where the cuts go (pieces x[:i0], x[i0:i1], ..., x[ik:]).
      axis: an int.

    Raises:
      TypeError: x is not numeric, or indices_or_sections or axis is not ints.
      ValueError: N does not divide the axis's size, N < 1, an axis out of range.

    >>> from rune import nx
    >>> a, b = nx.split(nx.array([1.0, 2.0, 3.0]), [1])
    >>> print(a, b, sep="\\n")
    float64 [1] [1]
    float64 [2] [2, 3]
    """
    x = as_tensor(x, "nx.split")
    a = normalize_axis(axis, len(x.shape), "nx.split")
    n = x.shape[a]
    if hasattr(indices_or_sections, "__index__"):
        sections = operator.index(indices_or_sections)
        if sections < 1 or n % sections:
            raise ValueError(f"nx.split: axis {a} of size {n} cannot be split into {sections} "
                             f"equal sections")
        cuts = [n // sections * i for i in range(1, sections)]
    else:
        cuts = list(_ints(indices_or_sections, "indices_or_sections", "nx.split"))
    bounds = zip([0] + cuts, cuts + [n])
    lead = _ix.full_index(x.shape[:a])
    return [_ix.slice_(x, index=lead + (canonical_slice(slice(start, stop), n),))
            for start, stop in bounds]


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


def unstack(x, axis=0):
    """The slices of x along `axis`, as a tuple (the inverse of `nx.stack`).

    Args:
      x: a tensor with at least one axis (or a numpy array, nested lists).
      axis: an int; negative counts from the end.

    Raises:
      TypeError: x is not numeric, or axis is not an int.
      ValueError: x is 0-d, or axis is out of range.

    >>> from rune import nx
    >>> a, b = nx.unstack(nx.array([[1.0, 2.0], [3.0, 4.0]]), axis=1)
    >>> print(a, b)
    float64 [2] [1, 3] float64 [2] [2, 4]
    """
    x = as_tensor(x, "nx.unstack")
    if x.ndim == 0:
        raise ValueError("nx.unstack: a 0-d tensor has no axis to unstack")
    a = normalize_axis(axis, x.ndim, "nx.unstack")
    lead = _ix.full_index(x.shape[:a])
    return tuple(_ix.slice_(x, index=lead + (i,)) for i in range(x.shape[a]))
