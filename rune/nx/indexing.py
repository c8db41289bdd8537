"""Indexing: `x[index]` (`nx.getitem`), `take`, `diagonal`, `trace`.

numpy's semantics. A basic index (ints, slices, None, `...`) becomes one
`slice` primitive whose params hold the index in canonical form. An index
with integer arrays or boolean masks (advanced indexing) is done in three
steps: the basic part as a slice (keeping the advanced axes whole), a
transpose bringing the advanced axes to the front, a `gather`; and if the
advanced indices stood next to each other, a transpose putting the result's
block where numpy puts it (else numpy too leaves it in front).

Integer index arrays are operands of `gather`, so an index computed by traced
code works under jit and vmap. A boolean mask is turned into integer arrays
by `nonzero`, which needs its values: that works eagerly and under
differentiation, and raises TracedValueError under jit and vmap (the
result's shape would depend on the values).
"""

import numpy as np

from ..primitives import indexing as _ix
from ..primitives import reduce as _r
from ..primitives import shape as _s
from .creation import as_tensor
from .reductions import normalize_axis
from .tensor import Tensor, TracedValueError

__all__ = ["getitem", "take", "diagonal", "trace"]


def canonical_slice(s: slice, n: int) -> tuple:
    """A slice of an axis of size n as the (start, stop, step) entry of a basic index."""
    start, stop, step = s.indices(n)
    length = len(range(start, stop, step))
    if length == 0:
        return (0, 0, 1)
    stop = start + length * step
    return (start, stop if stop >= 0 else None, step)  # None: down to element 0 included


class _Array:
    """An integer index array in a parsed index: the tensor, and its values if known."""

    __slots__ = ("tensor", "value")

    def __init__(self, tensor, value):
        self.tensor = tensor
        self.value = value


_VALID = ("only integers, slices (`:`), ellipsis (`...`), None and integer or boolean "
          "arrays are valid indices")


def _concrete_or_none(t):
    try:
        return np.asarray(t._concrete("index", lossless=True))
    except TracedValueError:
        return None


def _mask_values(t, fn):
    try:
        return np.asarray(t._concrete(f"{fn}: a boolean mask index", lossless=True))
    except TracedValueError as e:
        raise TracedValueError(
            f"{e}. The shape of x[mask] depends on the mask's values, so a traced mask "
            f"cannot index; use nx.where(mask, x, 0) to keep the shape"
        ) from None


def _entry(item, fn):
    """One item of an index, classified: None, Ellipsis, a slice, an int, an
    _Array, or a numpy bool array (a mask)."""
    if item is None or item is Ellipsis or isinstance(item, slice):
        return item
    if isinstance(item, (bool, np.bool_)):
        raise IndexError(f"{fn}: a boolean scalar index is not supported; use None to add "
                         f"an axis")
    if isinstance(item, Tensor):
        kind = item.dtype.kind
        if kind == "b":
            mask = _mask_values(item, fn)
            if mask.ndim == 0:
                raise IndexError(f"{fn}: a boolean scalar index is not supported; use None "
                                 f"to add an axis")
            return mask
        if kind not in "iu":
            raise IndexError(f"{fn}: {_VALID}; got a tensor of dtype {item.dtype}")
        value = _concrete_or_none(item)
        if value is not None and value.ndim == 0:
            return int(value)
        return _Array(item, value)
    if isinstance(item, (list, tuple, np.ndarray)):
        value = np.asarray(item)
        if value.size == 0 and value.dtype.kind == "f":
            value = value.astype(np.intp)  # [] indexes nothing
        if value.dtype.kind == "b":
            return _entry(Tensor(value), fn)
        if value.dtype.kind not in "iu":
            raise IndexError(f"{fn}: {_VALID}; got an array of dtype {value.dtype}")
        return int(value) if value.ndim == 0 else _Array(Tensor(value), value)
    if hasattr(item, "__index__"):
        return item.__index__()
    raise IndexError(f"{fn}: {_VALID}; got {type(item).__name__}")


def _out_of_range(i, axis, n, fn):
    return IndexError(f"{fn}: index {i} is out of range for axis {axis} with size {n}")


def _resolve(shape, index, fn):
    """The index as a list with one entry per result position of the basic
    step: None, an int (in range), a (start, stop, step) triple, an _Array."""
    entries = [_entry(item, fn) for item in (index if type(index) is tuple else (index,))]
    consumed = sum(e.ndim if isinstance(e, np.ndarray) else 1 for e in entries
                   if e is not None and e is not Ellipsis)
    ndim = len(shape)
    if consumed > ndim:
        raise IndexError(f"{fn}: too many indices: the tensor has {ndim} axes, but "
                         f"{consumed} were indexed")
    ellipses = [i for i, e in enumerate(entries) if e is Ellipsis]
    if len(ellipses) > 1:
        raise IndexError(f"{fn}: an index can only have a single ellipsis ('...')")
    rest = [slice(None)] * (ndim - consumed)
    if ellipses:
        entries[ellipses[0]:ellipses[0] + 1] = rest
    else:
        entries += rest
    resolved, axis = [], 0
    for e in entries:
        if e is None:
            resolved.append(None)
            continue
        if isinstance(e, np.ndarray):  # a mask covers e.ndim axes
            covered = shape[axis:axis + e.ndim]
            if e.shape != covered:
                raise IndexError(f"{fn}: the boolean index has shape {e.shape}, but the axes "
                                 f"it indexes (from axis {axis}) have shape {covered}")
            resolved += [_Array(Tensor(i), i) for i in np.nonzero(e)]
            axis += e.ndim
            continue
        n = shape[axis]
        if isinstance(e, slice):
            resolved.append(canonical_slice(e, n))
        elif isinstance(e, _Array):
            v = e.value
            if v is not None and v.size and (v.max() >= n or v.min() < -n):
                raise _out_of_range(v[(v >= n) | (v < -n)].flat[0], axis, n, fn)
            resolved.append(e)
        else:
            if not -n <= e < n:
                raise _out_of_range(e, axis, n, fn)
            resolved.append(e % n)
        axis += 1
    return resolved


def _is_boolean_scalar(item):
    return isinstance(item, (bool, np.bool_)) or (
        isinstance(item, (Tensor, np.ndarray)) and item.dtype == np.bool_ and item.ndim == 0)


def _with_boolean_scalars(x, items, fn):
    """x[items] where some items are boolean scalars: each adds an axis of
    length 1 (True) or 0 (False), as in numpy. The standard asks for them as the
    whole index only; beside integer arrays numpy broadcasts them as arrays, which
    this does not."""
    if any(isinstance(i, (list, np.ndarray, Tensor)) and np.ndim(i) > 0 for i in items):
        raise IndexError(f"{fn}: a boolean scalar index cannot be combined with integer "
                         f"arrays or masks; index with None (a new axis) instead")
    kept = [bool(_mask_values(i, fn) if isinstance(i, Tensor) else i)
            if _is_boolean_scalar(i) else None for i in items]
    y = _index(x, tuple(None if k is not None else i for k, i in zip(kept, items)), fn)
    # where each new axis lands: slices and new axes make one, `...` the axes left over
    left_over = x.ndim - sum(i is not None and i is not Ellipsis and k is None
                             for k, i in zip(kept, items))
    key, position = [slice(None)] * y.ndim, 0
    for k, i in zip(kept, items):
        if k is False:
            key[position] = slice(0, 0)
        if k is not None or i is None or isinstance(i, slice):
            position += 1
        elif i is Ellipsis:
            position += left_over
    return _index(y, tuple(key), fn) if False in kept else y


def _index(x, index, fn):
    x = as_tensor(x, fn)
    items = index if type(index) is tuple else (index,)
    if any(_is_boolean_scalar(i) for i in items):
        return _with_boolean_scalars(x, items, fn)
    shape = tuple(x.shape)
    resolved = _resolve(shape, index, fn)
    if is_advanced(resolved):
        return _advanced(x, shape, resolved)
    index = basic_index(shape, resolved)
    return _ix.slice_(x, index=index) if index else x


def is_advanced(resolved):
    """Whether a resolved index holds integer arrays (or masks, made arrays)."""
    return any(type(e) is _Array for e in resolved)


def basic_index(shape, resolved):
    """The `slice` primitive's param for a resolved basic index (see
    primitives/indexing.py): the trailing whole axes dropped."""
    resolved = list(resolved)
    axis = len(shape) - 1  # trailing entries stand for the last axes: drop the whole ones
    while resolved and axis >= 0 and resolved[-1] == (0, shape[axis], 1):
        resolved.pop()
        axis -= 1
    return tuple(resolved)


def _advanced(x, shape, resolved):
    """x[index] with integer arrays: see the module docstring."""
    basic, positions, arrays = [], [], []
    axis = 0
    for p, e in enumerate(resolved):
        if e is None:
            basic.append(None)
            continue
        if type(e) is _Array or type(e) is int:  # with arrays present, ints are arrays too
            positions.append(p)
            arrays.append(e.tensor if type(e) is _Array else Tensor(np.intp(e)))
            e = (0, shape[axis], 1)
        basic.append(e)
        axis += 1
    y = _ix.slice_(x, index=tuple(basic)) if basic != list(_ix.full_index(shape)) else x
    others = [p for p in range(len(basic)) if p not in positions]
    if positions != list(range(len(positions))):
        y = _s.transpose(y, axes=tuple(positions + others))
    out = _ix.gather(y, *arrays)
    first = positions[0]
    if first == 0 or positions != list(range(first, first + len(positions))):
        return out  # numpy too puts the block first
    block = len(out.shape) - len(others)
    ndim = len(out.shape)
    order = list(range(block, block + first)) + list(range(block)) + list(
        range(block + first, ndim))
    return _s.transpose(out, axes=tuple(order))


def getitem(x, index):
    """x[index], with numpy's basic and advanced indexing (`Tensor.__getitem__`).

    The derivative of a gather is a scatter-add: repeated indices accumulate.

    Args:
      x: a tensor (or numpy array, number or nested lists of numbers).
      index: an int, a slice, None (a new axis), `...`, an integer array (a
        list, numpy array or tensor, possibly traced) or a boolean mask, or a
        tuple of these. Integer arrays broadcast together; their block of axes
        goes where numpy puts it.

    Raises:
      IndexError: an index out of range (naming the index, the axis and its
        size), too many indices, a mask of the wrong shape, an invalid index.
      TypeError: x is not numeric.
      rune.TracedValueError: a boolean mask under jit or vmap.

    >>> from rune import nx
    >>> x = nx.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> mask = nx.array([[False, False, False], [False, True, True]])
    >>> print(x[1, ::-1], x[:, [0, 0]][0], x[mask], sep="\\n")
    float64 [3] [6, 5, 4]
    float64 [2] [1, 1]
    float64 [2] [5, 6]
    """
    if type(index) is int and isinstance(x, Tensor) and x.shape:  # x[i]: the common case
        n = x.shape[0]
        if -n <= index < n:
            return _ix.slice_(x, index=(index % n,))
    return _index(x, index, "nx.getitem")


def take(a, indices, axis=None):
    """Elements of `a` at `indices` along `axis` (of the flattened tensor if None).

    Same as `a[..., indices, ...]` with indices on axis `axis`; negative
    indices count from the end.

    Args:
      a: a tensor (or numpy array, number or nested lists of numbers).
      indices: an int or an integer array (a list, numpy array or tensor).
      axis: an int, or None.

    Raises:
      IndexError: an index out of range (naming it, the axis and its size),
        or indices that are not integers.
      TypeError: boolean indices, a that is not numeric, or an axis that is
        not an int.
      ValueError: an axis out of range.

    >>> from rune import nx
    >>> print(nx.take(nx.array([[1.0, 2.0], [3.0, 4.0]]), [1, 1, 0], axis=1))
    float64 [2, 3]
    [[2, 2, 1],
     [4, 4, 3]]
    """
    a = as_tensor(a, "nx.take")
    dtype = indices.dtype if isinstance(indices, Tensor) else np.asarray(indices).dtype
    if dtype == np.bool_:
        raise TypeError("nx.take: indices must be integers, got booleans (use x[mask])")
    if axis is None:
        a, axis = _s.reshape(a, shape=(a.size,)), 0
    axis = normalize_axis(axis, len(a.shape), "nx.take")
    return _index(a, (slice(None),) * axis + (indices,), "nx.take")


def diagonal(x, offset=0, axis1=0, axis2=1):
    """The diagonal of x over axes (axis1, axis2), as the last axis of the result.

    Args:
      x: a tensor with at least two axes (or a numpy array, nested lists).
      offset: an int: above the main diagonal if positive, below if negative.
      axis1, axis2: the two axes (distinct ints).

    Raises:
      TypeError: x is not numeric, or offset or an axis is not an int.
      ValueError: fewer than two axes, an axis out of range, or axis1 == axis2.

    >>> from rune import nx
    >>> x = nx.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> print(nx.diagonal(x), nx.diagonal(x, offset=1), sep="\\n")
    float64 [2] [1, 5]
    float64 [2] [2, 6]
    """
    return _diagonal(x, offset, axis1, axis2, "nx.diagonal")


def _diagonal(x, offset, axis1, axis2, fn):
    x = as_tensor(x, fn)
    ndim = len(x.shape)
    if ndim < 2:
        raise ValueError(f"{fn}: the tensor has {ndim} axes; it needs at least 2")
    a1 = normalize_axis(axis1, ndim, fn)
    a2 = normalize_axis(axis2, ndim, fn)
    if a1 == a2:
        raise ValueError(f"{fn}: axis1 and axis2 must differ, both are {a1}")
    if not isinstance(offset, (int, np.integer)) or isinstance(offset, bool):
        raise TypeError(f"{fn}: offset must be an int, got {offset!r}")
    offset = int(offset)
    rows, cols = max(-offset, 0), max(offset, 0)
    k = max(0, min(x.shape[a1] - rows, x.shape[a2] - cols))
    order = (a1, a2) + tuple(a for a in range(ndim) if a not in (a1, a2))
    y = x if order == tuple(range(ndim)) else _s.transpose(x, axes=order)
    out = _ix.gather(y, Tensor(np.arange(rows, rows + k)), Tensor(np.arange(cols, cols + k)))
    return out if ndim == 2 else _s.moveaxis(out, 0, ndim - 2)


def trace(x, offset=0, axis1=0, axis2=1):
    """The sum of the diagonal of x over axes (axis1, axis2).

    Args:
      x: a tensor with at least two axes (or a numpy array, nested lists).
      offset: an int: above the main diagonal if positive, below if negative.
      axis1, axis2: the two axes (distinct ints).

    Raises:
      TypeError: x is not numeric, or offset or an axis is not an int.
      ValueError: fewer than two axes, an axis out of range, or axis1 == axis2.

    >>> from rune import nx
    >>> print(nx.trace(nx.array([[1.0, 2.0], [3.0, 4.0]])))
    float64 [] 5
    """
    d = _diagonal(x, offset, axis1, axis2, "nx.trace")
    return _r.sum(d, axis=(len(d.shape) - 1,), keepdims=False)
