"""Adding and removing elements: append, insert, delete, resize, pad.

numpy's "Array manipulation: adding and removing elements", and padding.
Written with `concatenate`, `take` and slices, so every transformation
applies and the derivative is exact. Positions (inserted or deleted
indices, pad widths) are Python ints or numpy arrays: they fix the output's
shape, so they must be known when the function runs, under jit too.
"""

from __future__ import annotations

import numpy as np

from ...primitives import indexing as _ix
from ...primitives import shape as _s
from ..creation import _shape_arg, as_tensor, zeros
from ..indexing import take
from ..tensor import normalize_axis, Tensor
from .dimensions import broadcast_to
from .joining import concatenate
from .rearranging import flip
from .shape import ravel, reshape
from .transpose_like import moveaxis

__all__ = ["resize", "pad", "append", "delete", "insert"]


def resize(a, new_shape):
    """A tensor of `new_shape` filled with a's elements, repeated cyclically
    (numpy's resize; zeros if a is empty).

    Args:
      a: a tensor (or numpy array, nested lists).
      new_shape: an int or a sequence of ints.

    Raises:
      TypeError: a is not numeric, or new_shape is not ints.
      ValueError: a negative size.

    >>> from rune import nx
    >>> print(nx.resize(nx.array([1.0, 2.0, 3.0]), (2, 2)))
    float64 [2, 2]
    [[1, 2],
     [3, 1]]
    """
    a = as_tensor(a, "nx.resize")
    shape = _shape_arg(new_shape, "nx.resize")
    total = int(np.prod(shape, dtype=np.int64))
    if a.size == 0:
        return zeros(shape, a.dtype)
    flat = reshape(a, (a.size,))
    return reshape(take(flat, np.arange(total) % a.size), shape)


def _pairs(value, ndim, what, ints=True):
    """numpy's pad forms (v, (v,), (before, after), one pair per axis) as pairs."""
    array = np.asarray(value)
    try:
        pairs = np.broadcast_to(array, (ndim, 2))
    except ValueError:
        raise ValueError(f"nx.pad: {what} {value!r} does not fit a tensor with {ndim} axes "
                         f"(expected a number, a (before, after) pair, or one pair per axis)"
                         ) from None
    if ints:
        if array.dtype.kind not in "iu":
            raise TypeError(f"nx.pad: {what} must be ints, got {value!r}")
        if (pairs < 0).any():
            raise ValueError(f"nx.pad: {what} must be non-negative, got {value!r}")
    elif array.dtype.kind not in "biufc":
        raise TypeError(f"nx.pad: {what} must be numbers, got {value!r}")
    return [tuple(p) for p in pairs.tolist()]


def _slices_for(x, a, before, after, mode):
    """The pieces that go before and after x along axis a, for a non-constant mode."""
    n = x.shape[a]
    limit = {"edge": None, "wrap": n, "symmetric": n, "reflect": n - 1}[mode]
    if mode == "edge" and n == 0 and (before or after):
        raise ValueError(f"nx.pad: mode 'edge' cannot extend axis {a}, which has size 0")
    if limit is not None and max(before, after) > limit:
        raise ValueError(f"nx.pad: mode {mode!r} pads axis {a} (size {n}) by at most "
                         f"{limit} on each side, got ({before}, {after})")

    def part(start, stop, reverse=False):
        piece = _ix.slice_axis(x, a, start, stop)
        return flip(piece, a) if reverse else piece

    def edge(start, count):
        shape = tuple(x.shape)
        return _s.broadcast_to(part(start, start + 1), shape=shape[:a] + (count,) + shape[a + 1:])

    if mode == "edge":
        return edge(0, before), edge(n - 1, after)
    if mode == "wrap":
        return part(n - before, n), part(0, after)
    if mode == "symmetric":
        return part(0, before, True), part(n - after, n, True)
    return part(1, before + 1, True), part(n - 1 - after, n - 1, True)  # reflect


def pad(array, pad_width, mode="constant", constant_values=0):
    """`array` padded along each axis, as numpy's pad.

    Args:
      array: a tensor, numpy array, number or nested lists of numbers.
      pad_width: an int, a (before, after) pair, or one pair per axis.
      mode: "constant" (fill with constant_values), "edge" (repeat the edge
        element), "wrap", "reflect" or "symmetric" (each at most one period:
        widths up to the axis's size, or size - 1 for reflect).
      constant_values: a number, a (before, after) pair or one pair per axis;
        later axes fill the corners, as in numpy.

    Raises:
      TypeError: array or constant_values is not numeric, or widths are not ints.
      ValueError: negative or ill-shaped widths, an unknown mode, widths
        beyond what the mode supports.

    >>> from rune import nx
    >>> print(nx.pad(nx.array([1.0, 2.0]), (1, 2)))
    float64 [5] [0, 1, 2, 0, 0]
    """
    x = as_tensor(array, "nx.pad")
    ndim = len(x.shape)
    widths = _pairs(pad_width, ndim, "pad_width")
    if mode == "constant":
        values = _pairs(constant_values, ndim, "constant_values", ints=False)
        if len({v for pair in values for v in pair}) <= 1:
            return _pad_constant(x, widths, values[0][0] if values else 0)
        for a, ((before, after), (v_before, v_after)) in enumerate(zip(widths, values)):
            one = [(0, 0)] * ndim
            one[a] = (before, 0)
            x = _pad_constant(x, one, v_before)
            one[a] = (0, after)
            x = _pad_constant(x, one, v_after)
        return x
    if mode not in ("edge", "wrap", "reflect", "symmetric"):
        raise ValueError(f"nx.pad: unknown mode {mode!r}; expected 'constant', 'edge', "
                         f"'wrap', 'reflect' or 'symmetric'")
    for a, (before, after) in enumerate(widths):
        if before or after:
            head, tail = _slices_for(x, a, before, after, mode)
            x = concatenate([head, x, tail], axis=a)
    return x


def _pad_constant(x, widths, value):
    if not any(b or a for b, a in widths):
        return x
    shape = tuple(b + n + a for (b, a), n in zip(widths, x.shape))
    index = tuple((b, b + n, 1) for (b, _), n in zip(widths, x.shape))
    return _ix.pad(x, shape=shape, index=index, value=value)


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
