"""Sorting and searching: sort, argsort, partition, searchsorted, unique...

`sort` and `partition` are differentiable: their derivative follows the
permutation (the tangent of the element that lands in each place; of tied
elements, the one the stable order puts there). The others answer with
integers or booleans, which carry no derivative.

`nonzero`, `argwhere`, `flatnonzero` and `unique` give results whose shape
depends on the values: they read the values, which works eagerly and under
differentiation. Under `rune.jit` and `rune.vmap` give `size=` (as in JAX):
the result then has exactly `size` entries, the first ones found, padded
with `fill_value`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import indexing as _ix
from ..primitives import reduce as _r
from ..primitives import shape as _s
from ..primitives import sorting as _st
from .creation import as_tensor
from .reductions import normalize_axis
from .tensor import Tensor, TracedValueError

__all__ = [
    "sort", "argsort", "partition", "argpartition", "take_along_axis", "searchsorted",
    "lexsort", "nonzero", "argwhere", "flatnonzero", "unique", "unique_values",
    "unique_counts", "unique_inverse", "unique_all", "isin", "digitize",
]

_INDEX = np.dtype(np.intp)


def _along(a, axis, fn):
    """a and a normalized axis; axis None flattens a first."""
    a = as_tensor(a, fn)
    if axis is None:
        return _s.reshape(a, shape=(a.size,)), 0
    return a, normalize_axis(axis, a.ndim, fn)


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


def take_along_axis(arr, indices, axis=-1):
    """arr's elements at `indices` along `axis`: the companion of argsort and
    argpartition (`nx.take_along_axis(x, nx.argsort(x), 0)` sorts x).
    Differentiable in arr.

    Args:
      arr: a tensor (or numpy array, nested lists).
      indices: an integer tensor with arr's number of axes; the other axes
        broadcast against arr's. Negative indices count from the end.
      axis: the axis to take along (an int), or None for the flattened arr
        (indices then 1-d).

    Raises:
      TypeError: arr is not numeric, or indices are not integers.
      ValueError: indices with another number of axes, shapes that do not
        broadcast, or axis out of range.

    >>> from rune import nx
    >>> x = nx.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    >>> print(nx.take_along_axis(x, nx.argmax(x, axis=1, keepdims=True), axis=1))
    float64 [2, 1]
    [[3],
     [5]]
    """
    fn = "nx.take_along_axis"
    arr, indices = as_tensor(arr, fn), as_tensor(indices, fn)
    if indices.dtype.kind not in "iu":
        raise TypeError(f"{fn}: indices must be integers, got {indices.dtype}")
    arr, axis = _along(arr, axis, fn)
    if indices.ndim != arr.ndim:
        raise ValueError(f"{fn}: indices have {indices.ndim} axes; arr has {arr.ndim}")
    others = [tuple(s[:axis]) + tuple(s[axis + 1:]) for s in (arr.shape, indices.shape)]
    try:
        common = np.broadcast_shapes(*others)
    except ValueError:
        raise ValueError(f"{fn}: shapes {arr.shape} and {indices.shape} do not broadcast "
                         f"(away from axis {axis})") from None

    def widened(t):
        shape = common[:axis] + (t.shape[axis],) + common[axis:]
        return t if tuple(t.shape) == shape else _s.broadcast_to(t, shape=shape)

    return _st.take_along_axis(widened(arr), widened(indices), axis)


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


# ------------------------------------------------ shapes that depend on values


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


def unique(ar, return_index=False, return_inverse=False, return_counts=False, *,
           equal_nan=True, size=None, fill_value=None):
    """The sorted distinct elements of the flattened `ar`, and optionally where
    each first occurs, where each element went, and how many there were.

    The values are differentiable: each carries the derivative of the first
    element equal to it.

    Args:
      ar: a tensor (or numpy array, nested lists); it is flattened.
      return_index: also return the index of each value's first occurrence.
      return_inverse: also return, for each element of ar (in ar's shape),
        the index of its value.
      return_counts: also return how many times each value occurs.
      equal_nan: count all NaNs as one value.
      size: None, or the number of values to return (needed under jit and
        vmap): the smallest `size` values, padded with fill_value.
      fill_value: the padding value (the smallest value by default); padded
        indices are 0 and padded counts 0.

    Raises:
      TypeError: ar is not numeric, or size is not a non-negative int.
      rune.TracedValueError: size not given under jit or vmap.

    >>> from rune import nx
    >>> values, counts = nx.unique(nx.array([3.0, 1.0, 3.0, 2.0]), return_counts=True)
    >>> print(values, counts)
    float64 [3] [1, 2, 3] int64 [3] [1, 1, 2]
    """
    fn = "nx.unique"
    ar = as_tensor(ar, fn)
    n = ar.size
    flat = _s.reshape(ar, shape=(n,))
    order = _st.argsort(flat, axis=0, descending=False)
    ordered = _ix.gather(flat, order)
    starts = _run_starts(ordered, equal_nan)  # bool: the first of each run of equal values
    if size is None:
        value = _known(ar, fn, "the distinct values")
        if value is None:
            raise _needs_size(fn, "distinct values")
        size = int(np.asarray(starts._concrete(fn, lossless=True)).sum())
    size = _size(size, fn)
    positions, valid = _first_true(starts, size)
    values = _ix.gather(ordered, positions) if n else _s.reshape(ordered, shape=(0,))
    if fill_value is None and n:
        fill_value = _ix.gather(ordered, Tensor(np.intp(0)))
    values = _e.where(valid, values, fill_value if fill_value is not None else 0)
    out = [values]
    group = _e.subtract(_r.cumsum(_e.astype(starts, dtype=_INDEX), axis=0, reverse=False), 1)
    if return_index:
        out.append(_filled(_ix.gather(order, positions) if n else positions, valid, 0))
    if return_inverse:
        inverse = _ix.scatter_add(group, order, shape=(n,))  # undo the sort
        out.append(_s.reshape(inverse, shape=tuple(ar.shape)))
    if return_counts:
        kept = _e.less(group, size)  # runs beyond `size` are not counted
        ones = _e.astype(kept, dtype=_INDEX)
        out.append(_ix.scatter_add(ones, _e.where(kept, group, 0), shape=(size,)))
    return out[0] if len(out) == 1 else tuple(out)


def _run_starts(ordered, equal_nan):
    """For sorted values, whether each differs from the one before (the first does)."""
    n = ordered.shape[0]
    if n == 0:
        return Tensor(np.zeros(0, bool))
    before = _ix.pad(_ix.slice_(ordered, index=((0, n - 1, 1),)), shape=(n,),
                     index=((1, n, 1),), value=0)
    differs = _e.not_equal(ordered, before)
    if equal_nan and ordered.dtype.kind in "fc":
        differs = _e.logical_and(differs, _e.logical_not(
            _e.logical_and(_e.isnan(ordered), _e.isnan(before))))
    first = Tensor(np.arange(n) == 0)
    return _e.logical_or(differs, first)


def isin(element, test_elements, invert=False):
    """Whether each element of `element` occurs in `test_elements`; a bool tensor
    of element's shape. NaN is in nothing.

    Args:
      element: a tensor (or numpy array, number, nested lists).
      test_elements: a tensor of the values to look for (flattened).
      invert: return the negation (whether each element is absent).

    Raises:
      TypeError: an argument is not numeric.

    >>> from rune import nx
    >>> print(nx.isin(nx.array([1, 2, 3]), [3, 1]))
    bool [3] [True, False, True]
    """
    fn = "nx.isin"
    element, tests = as_tensor(element, fn), as_tensor(test_elements, fn)
    tests = _st.sort(_s.reshape(tests, shape=(tests.size,)), axis=0)
    if tests.size == 0:
        found = Tensor(np.zeros(element.shape, bool))
    else:
        place = _e.minimum(_st.searchsorted(tests, element, side="left"), tests.size - 1)
        found = _e.equal(_ix.gather(tests, place), element)
    return _e.logical_not(found) if invert else found


def digitize(x, bins, right=False):
    """The index of the bin each element of x falls in (numpy's digitize).

    For increasing bins, i such that bins[i-1] <= x < bins[i] (with right,
    bins[i-1] < x <= bins[i]); 0 below the first edge, len(bins) above the
    last. Decreasing bins count from the other end, as numpy's.

    Args:
      x: a tensor (or numpy array, number, nested lists).
      bins: a 1-d tensor of edges, increasing or decreasing (traced bins are
        taken as increasing).
      right: which side of a bin includes its edge.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: bins not 1-d, or neither increasing nor decreasing.

    >>> from rune import nx
    >>> print(nx.digitize(nx.array([0.5, 1.0, 2.5]), nx.array([1.0, 2.0, 3.0])))
    int64 [3] [0, 1, 2]
    """
    fn = "nx.digitize"
    x, bins = as_tensor(x, fn), as_tensor(bins, fn)
    if bins.ndim != 1:
        raise ValueError(f"{fn}: bins must be 1-d, got shape {bins.shape}")
    edges = _known(bins, fn, "the order of bins")
    side = "left" if right else "right"
    if edges is None or edges.size < 2 or np.all(np.diff(edges) >= 0):
        return _st.searchsorted(bins, x, side=side)
    if not np.all(np.diff(edges) <= 0):
        raise ValueError(f"{fn}: bins must be increasing or decreasing, got {edges}")
    flipped = _ix.slice_(bins, index=((bins.shape[0] - 1, None, -1),))
    return _e.subtract(bins.shape[0], _st.searchsorted(flipped, x, side=side))


UniqueAllResult = namedtuple("UniqueAllResult", "values indices inverse_indices counts")
UniqueCountsResult = namedtuple("UniqueCountsResult", "values counts")
UniqueInverseResult = namedtuple("UniqueInverseResult", "values inverse_indices")


def unique_values(x):
    """The sorted distinct values of x (the array API's name; `unique(x)`).

    Args:
      x: a tensor (or numpy array, nested lists).

    Raises:
      TypeError: x is not numeric.
      rune.TracedValueError: under jit or vmap (use unique with size=).

    >>> from rune import nx
    >>> print(nx.unique_values(nx.array([2, 1, 2])))
    int64 [2] [1, 2]
    """
    return unique(x)


def unique_counts(x):
    """(values, counts): the distinct values of x and how often each occurs.

    Args:
      x: a tensor (or numpy array, nested lists).

    Raises:
      TypeError: x is not numeric.
      rune.TracedValueError: under jit or vmap (use unique with size=).

    >>> from rune import nx
    >>> print(nx.unique_counts(nx.array([2, 1, 2])).counts)
    int64 [2] [1, 2]
    """
    return UniqueCountsResult(*unique(x, return_counts=True))


def unique_inverse(x):
    """(values, inverse_indices): the distinct values, and for each element of
    x (in x's shape) the index of its value.

    Args:
      x: a tensor (or numpy array, nested lists).

    Raises:
      TypeError: x is not numeric.
      rune.TracedValueError: under jit or vmap (use unique with size=).

    >>> from rune import nx
    >>> print(nx.unique_inverse(nx.array([2, 1, 2])).inverse_indices)
    int64 [3] [1, 0, 1]
    """
    return UniqueInverseResult(*unique(x, return_inverse=True))


def unique_all(x):
    """(values, indices, inverse_indices, counts): `unique` with every output.

    Args:
      x: a tensor (or numpy array, nested lists).

    Raises:
      TypeError: x is not numeric.
      rune.TracedValueError: under jit or vmap (use unique with size=).

    >>> from rune import nx
    >>> print(nx.unique_all(nx.array([2, 1, 2])).indices)
    int64 [2] [1, 0]
    """
    return UniqueAllResult(*unique(x, return_index=True, return_inverse=True,
                                   return_counts=True))
