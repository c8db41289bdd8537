"""Sorting, searching, and counting: sort, argsort, argmax, nonzero, searchsorted, count_nonzero...

numpy's "Sorting, searching, and counting".

`sort` and `partition` are differentiable: their derivative follows the
permutation (the tangent of the element that lands in each place; of tied
elements, the one the stable order puts there). The others answer with
integers or booleans, which carry no derivative.

`nonzero`, `argwhere`, `flatnonzero` and `extract` give results whose shape
depends on the values: they read the values, which works eagerly and under
differentiation. Under `rune.jit` and `rune.vmap` give `size=` (as in JAX):
the result then has exactly `size` entries, the first ones found, padded
with `fill_value`.
"""

from __future__ import annotations

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import indexing as _ix
from ..primitives import reduce as _r
from ..primitives import shape as _s
from ..primitives import sorting as _st
from .creation import as_tensor
from .indexing import _along, take
from .manipulation.shape import reshape
from .math.extrema import _check_nonempty
from .tensor import normalize_axes, normalize_axis, Tensor, TracedValueError

__all__ = [
    "extract", "argmax", "argmin", "sort", "argsort", "argpartition", "partition",
    "searchsorted", "lexsort", "nonzero", "flatnonzero", "argwhere", "count_nonzero",
]


def extract(condition, arr):
    """The elements of the flattened arr where the flattened condition is nonzero.

    Args:
      condition: a tensor of arr's size; its values are read (eager and under
        differentiation, not under jit or vmap).
      arr: a tensor (or numpy array, nested lists).

    Raises:
      TypeError: an argument is not numeric.
      rune.TracedValueError: a traced condition.

    >>> from rune import nx
    >>> x = nx.array([[1.0, -2.0], [3.0, -4.0]])
    >>> print(nx.extract(x > 0, x))
    float64 [2] [1, 3]
    """
    condition = as_tensor(condition, "nx.extract")
    mask = np.asarray(condition._concrete("nx.extract: condition", lossless=True))
    arr = as_tensor(arr, "nx.extract")
    return take(reshape(arr, (arr.size,)), np.flatnonzero(mask.ravel()[:arr.size]))


def _arg_extremum(prim, x, axis, keepdims, fn):
    x = as_tensor(x, fn, result_is_new=True)
    if axis is not None:
        a = normalize_axis(axis, len(x.shape), fn)
        _check_nonempty(x, (a,), fn)
        return prim(x, axis=(a,), keepdims=keepdims)
    if x.size == 0:
        raise ValueError(f"{fn}: the tensor is empty (shape {tuple(x.shape)}), it has no "
                         f"largest or smallest element")
    flat = _s.reshape(x, shape=(x.size,))
    out = prim(flat, axis=(0,), keepdims=False)
    return _s.reshape(out, shape=(1,) * len(x.shape)) if keepdims else out


def argmax(x, axis=None, keepdims=False):
    """The index of the largest element along `axis` (int64; the first on ties).

    With axis=None the index is into the flattened tensor. Its derivative is
    zero.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: an int, or None for the index into the flattened tensor.
      keepdims: keep the reduced axis, with size 1.

    Raises:
      TypeError: x is not numeric, or axis is not an int.
      ValueError: axis out of range, or an empty axis (or tensor).

    >>> from rune import nx
    >>> print(nx.argmax(nx.array([[1.0, 5.0], [7.0, 2.0]]), axis=1))
    int64 [2] [1, 0]
    """
    return _arg_extremum(_r.argmax, x, axis, keepdims, "nx.argmax")


def argmin(x, axis=None, keepdims=False):
    """The index of the smallest element along `axis`; see `nx.argmax`.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: an int, or None for the index into the flattened tensor.
      keepdims: keep the reduced axis, with size 1.

    Raises:
      TypeError: x is not numeric, or axis is not an int.
      ValueError: axis out of range, or an empty axis (or tensor).

    >>> from rune import nx
    >>> print(nx.argmin(nx.array([[1.0, 5.0], [7.0, 2.0]])))
    int64 [] 0
    """
    return _arg_extremum(_r.argmin, x, axis, keepdims, "nx.argmin")


_INDEX = np.dtype(np.intp)


def sort(a, axis=-1, *, descending=False, stable=True):
    """a sorted along `axis` (of the flattened tensor if None); numpy's order for
    complex numbers (real part, then imaginary) and NaNs last.

    The derivative follows the permutation: each place gets the tangent of
    the element sorted there.

    Args:
      a: a tensor (or numpy array, nested lists).
      axis: an int, or None.
      descending: largest first.
      stable: accepted for numpy's signature; the sort is always stable.

    Raises:
      TypeError: a is not numeric, or axis is not an int.
      ValueError: axis out of range (a 0-d tensor has none).

    >>> from rune import nx
    >>> print(nx.sort(nx.array([3.0, 1.0, 2.0])), nx.sort(nx.array([3, 1, 2]), descending=True))
    float64 [3] [1, 2, 3] int64 [3] [3, 2, 1]
    """
    a, axis = _along(a, axis, "nx.sort")
    if descending:
        return _st.take_along_axis(a, _st.argsort(a, axis=axis, descending=True), axis)
    return _st.sort(a, axis=axis)


def argsort(a, axis=-1, *, descending=False, stable=True):
    """The indices that sort a along `axis` (stable: equal elements keep their order).

    Args:
      a: a tensor (or numpy array, nested lists).
      axis: an int, or None (indices into the flattened tensor).
      descending: largest first (equal elements still in their order).
      stable: accepted for numpy's signature; the order is always stable.

    Raises:
      TypeError: a is not numeric, or axis is not an int.
      ValueError: axis out of range.

    >>> from rune import nx
    >>> print(nx.argsort(nx.array([3.0, 1.0, 2.0, 1.0])))
    int64 [4] [1, 3, 2, 0]
    """
    a, axis = _along(a, axis, "nx.argsort")
    return _st.argsort(a, axis=axis, descending=bool(descending))


def _kth(kth, n, fn):
    ks = np.atleast_1d(np.asarray(kth))
    if ks.dtype.kind not in "iu" or ks.ndim != 1:
        raise TypeError(f"{fn}: kth must be an int or a sequence of ints, got {kth!r}")
    if ks.size and (ks.max() >= n or ks.min() < -n):
        raise ValueError(f"{fn}: kth {kth!r} is out of range for an axis of size {n}")
    return tuple(int(k) % n for k in ks)


def argpartition(a, kth, axis=-1):
    """Indices that partition a along `axis`: the kth element in its sorted place,
    smaller ones before it, larger ones after (in no particular order).

    Args:
      a: a tensor (or numpy array, nested lists).
      kth: an int or a sequence of ints: places to put in sorted order.
      axis: an int, or None (the flattened tensor).

    Raises:
      TypeError: a is not numeric, or kth or axis is not an int.
      ValueError: kth or axis out of range.

    >>> from rune import nx
    >>> print(nx.argpartition(nx.array([3.0, 1.0, 2.0]), 0)[0])
    int64 [] 1
    """
    a, axis = _along(a, axis, "nx.argpartition")
    return _st.argpartition(a, kth=_kth(kth, a.shape[axis], "nx.argpartition"), axis=axis)


def partition(a, kth, axis=-1):
    """a partitioned along `axis`: the kth element in its sorted place, smaller
    ones before, larger after. The derivative follows the permutation.

    Args:
      a: a tensor (or numpy array, nested lists).
      kth: an int or a sequence of ints: places to put in sorted order.
      axis: an int, or None (the flattened tensor).

    Raises:
      TypeError: a is not numeric, or kth or axis is not an int.
      ValueError: kth or axis out of range.

    >>> from rune import nx
    >>> print(nx.partition(nx.array([5.0, 1.0, 4.0, 2.0]), 1)[1])
    float64 [] 2
    """
    a, axis = _along(a, axis, "nx.partition")
    order = _st.argpartition(a, kth=_kth(kth, a.shape[axis], "nx.partition"), axis=axis)
    return _st.take_along_axis(a, order, axis)


def searchsorted(a, v, side="left", sorter=None):
    """Where each element of v would go in the sorted vector a to keep it sorted.

    Args:
      a: a 1-d tensor, sorted ascending (unless `sorter` sorts it).
      v: a tensor or number: the values to place.
      side: "left" (the first suitable place) or "right" (the last).
      sorter: None, or indices that sort a (`nx.argsort(a)`).

    Raises:
      TypeError: a or v is not numeric.
      ValueError: a is not 1-d, or side is neither "left" nor "right".

    >>> from rune import nx
    >>> print(nx.searchsorted(nx.array([1.0, 2.0, 3.0]), nx.array([2.0, 0.5, 9.0])))
    int64 [3] [1, 0, 3]
    """
    fn = "nx.searchsorted"
    a, v = as_tensor(a, fn), as_tensor(v, fn)
    if a.ndim != 1:
        raise ValueError(f"{fn}: a must be 1-d, got shape {a.shape}")
    if side not in ("left", "right"):
        raise ValueError(f"{fn}: side must be 'left' or 'right', got {side!r}")
    if sorter is not None:
        a = _ix.gather(a, as_tensor(sorter, fn))
    return _st.searchsorted(a, v, side=side)


def lexsort(keys, axis=-1):
    """The stable order sorting by several keys: the last key first, ties broken
    by the one before, and so on (numpy's lexsort).

    Args:
      keys: a sequence of tensors of one shape, or a tensor whose first axis
        indexes the keys.
      axis: the axis to sort along (an int).

    Raises:
      TypeError: a key is not numeric, or axis is not an int.
      ValueError: keys of different shapes, no keys, or axis out of range.

    >>> from rune import nx
    >>> print(nx.lexsort([nx.array([1, 2, 0]), nx.array([0, 0, 1])]))
    int64 [3] [0, 1, 2]
    """
    fn = "nx.lexsort"
    keys = list(keys) if not isinstance(keys, Tensor) else [keys[i] for i in range(len(keys))]
    keys = [as_tensor(k, fn) for k in keys]
    if not keys:
        raise ValueError(f"{fn}: expected at least one key")
    shapes = {tuple(k.shape) for k in keys}
    if len(shapes) != 1:
        raise ValueError(f"{fn}: the keys have different shapes {sorted(shapes)}")
    axis = normalize_axis(axis, keys[0].ndim, fn)
    order = None
    for key in keys:  # sort by the first key, then stably by each next one
        along = key if order is None else _st.take_along_axis(key, order, axis)
        step = _st.argsort(along, axis=axis, descending=False)
        order = step if order is None else _st.take_along_axis(order, step, axis)
    return order


def _known(t, fn, what):
    """t's values, for a result whose shape depends on them; None under jit/vmap."""
    try:
        return np.asarray(t._concrete(f"{fn}: {what}", lossless=True))
    except TracedValueError:
        return None


def _needs_size(fn, what):
    return TracedValueError(
        f"{fn}: the number of {what} depends on the values, which rune.jit and rune.vmap do "
        f"not know; pass size= (the result then has exactly that many entries)")


def _first_true(mask, size):
    """The first `size` positions where the 1-d bool mask is true, padded with
    position 0, and which of the `size` entries are real (a traced mask works)."""
    order = _st.argsort(_e.astype(_e.logical_not(mask), dtype=np.dtype(np.int8)), axis=0,
                        descending=False)
    n = mask.shape[0]
    if size <= n:
        positions = _ix.slice_(order, index=((0, size, 1),))
    else:
        positions = _ix.pad(order, shape=(size,), index=((0, n, 1),), value=0)
    count = _r.sum(_e.astype(mask, dtype=_INDEX), axis=(0,), keepdims=False)
    return positions, _e.less(Tensor(np.arange(size)), count)


def _size(size, fn):
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 0:
        raise TypeError(f"{fn}: size must be a non-negative int, got {size!r}")
    return int(size)


def _flat_nonzero(a, size, fn):
    """(flat indices of a's nonzero elements, which entries are real or None)."""
    flat = _s.reshape(a, shape=(a.size,))
    value = _known(a, fn, "the nonzero elements") if size is None else None
    if value is not None:
        return Tensor(np.flatnonzero(value)), None
    if size is None:
        raise _needs_size(fn, "nonzero elements")
    return _first_true(_e.not_equal(flat, 0), _size(size, fn))


def _filled(index, valid, fill_value):
    if valid is None:
        return index
    return _e.where(valid, index, _e.astype(fill_value, dtype=_INDEX))


def nonzero(a, *, size=None, fill_value=None):
    """The indices of a's nonzero elements: one integer tensor per axis.

    Args:
      a: a tensor with at least one axis (or numpy array, nested lists).
      size: None, or the number of indices to return (needed under jit and
        vmap): the first `size` found, padded with fill_value.
      fill_value: the padding index (0 by default), or one per axis.

    Raises:
      TypeError: a is not numeric, or size is not a non-negative int.
      ValueError: a is 0-d (as in numpy 2).
      rune.TracedValueError: size not given under jit or vmap.

    >>> from rune import nx
    >>> print(*nx.nonzero(nx.array([[0, 3], [4, 0]])))
    int64 [2] [0, 1] int64 [2] [1, 0]
    """
    fn = "nx.nonzero"
    a = as_tensor(a, fn)
    if a.ndim == 0:
        raise ValueError(f"{fn}: a 0-d tensor has no axes to index; use nx.atleast_1d or "
                         f"a[None]")
    flat, valid = _flat_nonzero(a, size, fn)
    fills = fill_value if isinstance(fill_value, (tuple, list)) else [fill_value] * a.ndim
    out, stride = [], a.size
    for n, fill in zip(a.shape, fills):
        stride //= n
        coordinate = _e.mod(_e.floor_divide(flat, stride), n) if n else flat
        out.append(_filled(coordinate, valid, 0 if fill is None else fill))
    return tuple(out)


def flatnonzero(a, *, size=None, fill_value=None):
    """The indices of a's nonzero elements in the flattened tensor.

    Args:
      a: a tensor (or numpy array, nested lists).
      size: None, or the number of indices to return (needed under jit and vmap).
      fill_value: the padding index (0 by default).

    Raises:
      TypeError: a is not numeric, or size is not a non-negative int.
      rune.TracedValueError: size not given under jit or vmap.

    >>> from rune import nx
    >>> print(nx.flatnonzero(nx.array([[0, 3], [4, 0]])))
    int64 [2] [1, 2]
    """
    a = as_tensor(a, "nx.flatnonzero")
    flat, valid = _flat_nonzero(a, size, "nx.flatnonzero")
    return _filled(flat, valid, 0 if fill_value is None else fill_value)


def argwhere(a, *, size=None, fill_value=None):
    """The indices of a's nonzero elements, one row per element (shape (n, a.ndim)).

    Args:
      a: a tensor (or numpy array, nested lists).
      size: None, or the number of rows to return (needed under jit and vmap).
      fill_value: the padding index (0 by default), or one per axis.

    Raises:
      TypeError: a is not numeric, or size is not a non-negative int.
      rune.TracedValueError: size not given under jit or vmap.

    >>> from rune import nx
    >>> print(nx.argwhere(nx.array([[0, 3], [4, 0]])))
    int64 [2, 2]
    [[0, 1],
     [1, 0]]
    """
    a = as_tensor(a, "nx.argwhere")
    if a.ndim == 0:  # numpy: one row of no columns if a is nonzero
        a = _s.reshape(a, shape=(1,))
        flat, _ = _flat_nonzero(a, size, "nx.argwhere")
        return Tensor(np.zeros((flat.shape[0], 0), _INDEX))
    columns = nonzero(a, size=size, fill_value=fill_value)
    return _s.concatenate(*[_s.reshape(c, shape=(c.shape[0], 1)) for c in columns], axis=1)


def count_nonzero(a, axis=None, keepdims=False):
    """The number of nonzero elements of a along `axis` (an integer tensor).

    Args:
      a: a tensor (or numpy array, nested lists).
      axis: None (all axes), an int or a tuple of ints.
      keepdims: keep the reduced axes with size 1.

    Raises:
      TypeError: a is not numeric, or an axis is not an int.
      ValueError: an axis out of range.

    >>> from rune import nx
    >>> print(nx.count_nonzero(nx.array([[0, 1], [2, 3]]), axis=0))
    int64 [2] [1, 2]
    """
    a = as_tensor(a, "nx.count_nonzero")
    axes = normalize_axes(axis, a.ndim, "nx.count_nonzero")
    return _r.sum(_e.astype(_e.not_equal(a, 0), dtype=np.dtype(np.intp)), axis=axes,
                  keepdims=keepdims)
