"""Indexing routines: `x[index]` (`nx.getitem`), take, diagonal, where, choose, `x.at[...]`.

numpy's "Indexing routines": generating index arrays (`where`, `indices`,
`tril_indices`, `triu_indices`), indexing-like operations (`take`,
`take_along_axis`, `choose`, `compress`, `diagonal`, `select`) and
inserting data into arrays (`put_along_axis`, and `x.at[index].set(v)`,
JAX's functional form of `x[index] = v`). `nonzero`, `argwhere` and
`flatnonzero` are with searching (`rune/nx/sorting.py`), `r_` and `c_` with
joining (`rune/nx/manipulation.py`).

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


Tensors never change, so `x.at[index].set(v)` returns a new tensor: x with
v written at `index` (numpy's `x[index] = v` on a copy). `add`, `multiply`,
`divide`, `min` and `max` combine v with what is there; `get` reads it.
Indices are numpy's (see `nx.getitem`). With integer arrays, repeated
places accumulate: `add` sums every value written to one place, `multiply`
multiplies them, `min` and `max` take the extremum; `set` keeps the last,
as numpy does. At ties `min` and `max` split the derivative evenly, first
between x and the extremum of the values, then among the tied values.

`x.at[index]`'s updates: two ways, one per kind of index (primitives/updates.py has the
primitives). A basic index (ints, slices, None, `...`) never names a place
twice: the update is `set_slice(x, combine(x[index], v))`, one copy of x.
An index with integer arrays (or a boolean mask, made arrays) is turned
into the flat positions it reaches, by indexing a tensor of positions with
it; `set_at` and `add_at` write or add v there, and `multiply`, `min` and
`max` combine x with `scatter_mul`, `scatter_min` or `scatter_max` of v.
All are differentiable in x and in v, in either mode and at any order,
batch under vmap (with batched indices too) and trace under jit (integer
index arrays may be traced; a mask may not).


`where`, `maximum`-like selections pass the derivative of the argument they
select.
"""

from __future__ import annotations

import math

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import indexing as _ix
from ..primitives import shape as _s
from ..primitives import sorting as _st
from ..primitives import updates as _u
from .creation import _int, _shape_arg, _size_arg, as_tensor
from .dtypes import as_dtype
from .logic import _call
from .tensor import normalize_axis, Tensor, TracedValueError

__all__ = [
    "choose", "compress", "tril_indices", "triu_indices", "indices", "where", "getitem", "take",
    "diagonal", "select", "put_along_axis", "take_along_axis",
]


def choose(a, choices, mode="raise"):
    """Elements picked from `choices` by the indices in a: `out[i] = choices[a[i]][i]`,
    everything broadcast together (numpy's choose). Differentiable in the choices.

    Args:
      a: an integer tensor of indices into choices.
      choices: a sequence of tensors (or a tensor whose first axis indexes them).
      mode: "raise" (indices out of range raise), "wrap" or "clip".

    Raises:
      TypeError: a is not integers, or a choice is not numeric.
      ValueError: an index out of range (mode "raise"), an unknown mode, or
        shapes that do not broadcast.

    >>> from rune import nx
    >>> print(nx.choose(nx.array([0, 1, 0]), [nx.array([1.0, 2.0, 3.0]), nx.array(-1.0)]))
    float64 [3] [1, -1, 3]
    """
    from .manipulation.dimensions import broadcast_arrays  # lazy: manipulation imports indexing
    from .manipulation.shape import reshape  # lazy: manipulation imports indexing
    fn = "nx.choose"
    a = as_tensor(a, fn)
    if a.dtype.kind not in "iu":
        raise TypeError(f"{fn}: a must hold integers, got {a.dtype}")
    if isinstance(choices, Tensor):
        choices = [choices[i] for i in range(choices.shape[0])]
    n = len(choices)
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"{fn}: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    if mode == "wrap":
        a = _e.mod(a, n)
    elif mode == "clip":
        a = _e.minimum(_e.maximum(a, 0), n - 1)
    else:
        known = _values(a)
        if known is not None and known.size and (known.min() < 0 or known.max() >= n):
            raise ValueError(f"{fn}: index {known[(known < 0) | (known >= n)].flat[0]} is out "
                             f"of range for {n} choices")
    parts = broadcast_arrays(a, *choices)
    stacked = _s.concatenate(*[reshape(c, (1,) + tuple(c.shape)) for c in parts[1:]], axis=0)
    index = reshape(parts[0], (1,) + tuple(parts[0].shape))
    return reshape(_st.take_along_axis(stacked, index, 0), tuple(parts[0].shape))


def _values(t):
    try:
        return np.asarray(t._concrete("nx.choose", lossless=True))
    except TracedValueError:
        return None


def compress(condition, a, axis=None):
    """The slices of a along `axis` (of the flattened a if None) where condition
    is true; condition may be shorter than the axis (numpy's compress).

    Args:
      condition: a 1-d bool tensor; its values are read (eager and under
        differentiation, not under jit or vmap).
      a: a tensor (or numpy array, nested lists).
      axis: an int, or None.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: condition longer than the axis, or not 1-d.
      rune.TracedValueError: a traced condition.

    >>> from rune import nx
    >>> print(nx.compress([True, False, True], nx.array([1.0, 2.0, 3.0, 4.0])))
    float64 [2] [1, 3]
    """
    fn = "nx.compress"
    a = as_tensor(a, fn)
    condition = as_tensor(condition, fn)
    if condition.ndim != 1:
        raise ValueError(f"{fn}: condition must be 1-d, got shape {condition.shape}")
    mask = np.asarray(condition._concrete(f"{fn}: condition", lossless=True)).astype(bool)
    n = a.size if axis is None else a.shape[axis]
    if mask.size > n:
        raise ValueError(f"{fn}: condition has {mask.size} entries; the axis has {n}")
    return take(a, np.flatnonzero(mask), axis=axis)


def tril_indices(n, k=0, m=None):
    """The (rows, columns) indices of the lower triangle of an n x m matrix.

    Args:
      n: the number of rows.
      k: the diagonal bounding the triangle (0: the main one).
      m: the number of columns (default n).

    Raises:
      TypeError: sizes or k not ints.
      ValueError: a negative size.

    >>> from rune import nx
    >>> print(*nx.tril_indices(2))
    int64 [3] [0, 1, 1] int64 [3] [0, 0, 1]
    """
    return _triangle_indices(np.tril_indices, "nx.tril_indices", n, k, m)


def triu_indices(n, k=0, m=None):
    """The (rows, columns) indices of the upper triangle of an n x m matrix.

    Args:
      n: the number of rows.
      k: the diagonal bounding the triangle (0: the main one).
      m: the number of columns (default n).

    Raises:
      TypeError: sizes or k not ints.
      ValueError: a negative size.

    >>> from rune import nx
    >>> print(*nx.triu_indices(2))
    int64 [3] [0, 0, 1] int64 [3] [0, 1, 1]
    """
    return _triangle_indices(np.triu_indices, "nx.triu_indices", n, k, m)


def _triangle_indices(np_fn, fn, n, k, m):
    n = _size_arg(n, fn, "n")
    m = n if m is None else _size_arg(m, fn, "m")
    return tuple(Tensor(i) for i in np_fn(n, _int(k, fn, "k"), m))


def indices(dimensions, dtype=int, sparse=False):
    """A grid of indices: for each axis, a tensor holding each element's index along it.

    Args:
      dimensions: the grid's shape (a sequence of ints).
      dtype: the element type; default int64.
      sparse: one tensor per axis with size-1 axes elsewhere (they broadcast),
        instead of one stacked tensor.

    Raises:
      TypeError: dimensions not ints, or an unknown dtype.
      ValueError: a negative size.

    >>> from rune import nx
    >>> print(nx.indices((2, 2))[1])
    int64 [2, 2]
    [[0, 1],
     [0, 1]]
    """
    shape = _shape_arg(dimensions, "nx.indices")
    out = np.indices(shape, dtype=as_dtype(dtype, "nx.indices"), sparse=sparse)
    return tuple(Tensor(i) for i in out) if sparse else Tensor(out)


_NOT_GIVEN = object()  # where's x1 and x2 (None is not a number, so it is an error)


def where(condition, x1=_NOT_GIVEN, x2=_NOT_GIVEN, /):
    """x1 where condition is true, x2 elsewhere; the three broadcast together.
    With the condition alone, `nx.nonzero(condition)`: the indices where it holds.

    The derivative flows to x1 where the condition holds and to x2 elsewhere;
    the condition has none. The arguments are positional (numpy's where takes
    no keywords either); x1 and x2 are the Array API standard's names.

    Args:
      condition: a boolean tensor (nonzero numbers count as true).
      x1, x2: tensors, numpy arrays or numbers; both or neither.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: only one of x and y, or shapes that do not broadcast (naming all three).

    >>> from rune import nx
    >>> x = nx.array([-1.0, 2.0])
    >>> print(nx.where(x > 0, x, 0), nx.where(x > 0))
    float64 [2] [0, 2] (Tensor(int64 [1] [1]),)
    """
    if x1 is _NOT_GIVEN and x2 is _NOT_GIVEN:
        from .sorting import nonzero  # sorting builds on this module
        return nonzero(condition)
    if x1 is _NOT_GIVEN or x2 is _NOT_GIVEN:
        raise ValueError("nx.where: give both x and y (x1 and x2), or neither (for the "
                         "indices where condition holds); got one of them")
    return _call("nx.where", _e.where, condition, x1, x2)


def canonical_slice(s: slice, n: int) -> tuple:
    """A slice of an axis of size n as the (start, stop, step) entry of a basic index."""
    start, stop, step = s.indices(n)
    length = len(range(start, stop, step))
    if length == 0:
        return (0, 0, 1)
    stop = start + length * step
    return (start, stop if stop >= 0 else None, step)  # None: down to element 0 included


class ScalarMask:
    """A 0-d boolean index in a resolved index: a new axis of length 1 (kept) or 0.

    The standard's boolean indexing with a 0-d mask, as numpy's: no axis is
    used, one is added (scipy indexes its 0-d results so, in apply_where)."""

    __slots__ = ("kept",)

    def __init__(self, kept):
        self.kept = kept


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
        return np.asarray(item)
    if isinstance(item, Tensor):
        kind = item.dtype.kind
        if kind == "b":
            return _mask_values(item, fn)
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
        if isinstance(e, np.ndarray) and e.ndim == 0:
            resolved.append(ScalarMask(bool(e)))
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


def _index(x, index, fn):
    x = as_tensor(x, fn)
    shape = tuple(x.shape)
    resolved = _resolve(shape, index, fn)
    if any(type(e) is ScalarMask for e in resolved):
        return _with_scalar_masks(x, shape, resolved, fn)
    if is_advanced(resolved):
        return _advanced(x, shape, resolved)
    index = basic_index(shape, resolved)
    return _ix.slice_(x, index=index) if index else x


def _with_scalar_masks(x, shape, resolved, fn):
    """x[index] whose 0-d boolean masks add axes: as None, and those of false
    masks then sliced empty (their positions: the entries before them that keep
    an axis, every one but the ints)."""
    if is_advanced(resolved):
        raise IndexError(f"{fn}: a boolean scalar index together with integer arrays or "
                         f"masks is not supported")
    y = _index(x, tuple(_as_index_entry(e) for e in resolved), fn)
    kept = [e for e in resolved if type(e) is not int]
    empty = [p for p, e in enumerate(kept) if type(e) is ScalarMask and not e.kept]
    if not empty:
        return y
    return _ix.slice_(y, index=tuple((0, 0, 1) if p in empty else (0, n, 1)
                                     for p, n in enumerate(y.shape)))


def _as_index_entry(e):
    """An entry of a resolved basic index as an index's entry again; a scalar mask, None."""
    if type(e) is ScalarMask:
        return None
    return slice(*e) if type(e) is tuple else e


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


class IndexUpdates:
    """`x.at`: index it (`x.at[index]`) to get an `IndexUpdate`.

    Args:
      tensor: the tensor to update.

    Raises:
      TypeError: never here; the update methods raise (see `IndexUpdate`).

    >>> from rune import nx
    >>> print(nx.zeros(3).at[1].set(5.0))
    float64 [3] [0, 5, 0]
    """

    __slots__ = ("tensor",)

    def __init__(self, tensor):
        self.tensor = tensor

    def __getitem__(self, index):
        return IndexUpdate(self.tensor, index)

    def __repr__(self):
        return f"{self.tensor!r}.at"


class IndexUpdate:
    """`x.at[index]`: the methods below return x updated at `index`.

    Each method takes `values`, which broadcast to the shape of `x[index]`
    and are converted to x's dtype, as numpy's assignment does.

    Args:
      tensor: the tensor to update.
      index: any numpy index (see `nx.getitem`).

    Raises:
      IndexError: from the methods: an index out of range or invalid.
      ValueError: from the methods: values that do not broadcast to x[index].
      TypeError: from min and max: complex tensors.
      rune.TracedValueError: from the methods: a boolean mask under jit or vmap.

    >>> from rune import nx
    >>> x = nx.array([1.0, 2.0, 3.0])
    >>> print(x.at[[0, 0, 2]].add(10.0), x.at[[0, 0]].set(nx.array([7.0, 8.0])), sep="\\n")
    float64 [3] [21, 2, 13]
    float64 [3] [8, 2, 3]
    >>> print(x.at[1:].multiply(2.0), x.at[::2].min(2.0), x.at[x < 2].max(5.0), sep="\\n")
    float64 [3] [1, 4, 6]
    float64 [3] [1, 2, 2]
    float64 [3] [5, 2, 3]
    """

    __slots__ = ("tensor", "index")

    def __init__(self, tensor, index):
        self.tensor = tensor
        self.index = index

    def get(self):
        """x[index] (`nx.getitem`)."""
        return getitem(self.tensor, self.index)

    def set(self, values):
        """x with `values` written at index; a place indexed twice keeps the last."""
        return _update(self.tensor, self.index, values, "set")

    def add(self, values):
        """x with `values` added at index; repeated places add every value."""
        return _update(self.tensor, self.index, values, "add")

    def multiply(self, values):
        """x multiplied by `values` at index; repeated places multiply every value."""
        return _update(self.tensor, self.index, values, "multiply")

    def divide(self, values):
        """x divided by `values` at index (by their product at repeated places)."""
        x = as_tensor(self.tensor, _fn("divide"))
        ones = Tensor(np.ones(x.shape, x.dtype))  # shape and dtype only: never traced
        return _e.divide(x, _update(ones, self.index, values, "multiply"))

    def min(self, values):
        """The smaller of x and `values` at index (of all values at repeated places)."""
        return _update(self.tensor, self.index, values, "min")

    def max(self, values):
        """The larger of x and `values` at index (of all values at repeated places)."""
        return _update(self.tensor, self.index, values, "max")

    def __repr__(self):
        return f"{self.tensor!r}.at[{self.index!r}]"


def _fn(kind):
    return f"Tensor.at[...].{kind}"


def _update(x, index, values, kind):
    fn = _fn(kind)
    x = as_tensor(x, fn)
    shape = tuple(x.shape)
    if kind in ("min", "max") and x.dtype.kind == "c":
        raise TypeError(f"{fn}: complex numbers are not ordered; expected a real tensor")
    if type(index) is int and shape and -shape[0] <= index < shape[0]:  # x.at[i]: common
        resolved = [index % shape[0]]
    else:
        resolved = _resolve(shape, index, fn)
    if any(type(e) is ScalarMask for e in resolved):
        raise IndexError(f"{fn}: a boolean scalar index is not supported; x.at[...] "
                         f"updates every element, and a false scalar mask none")
    values = as_tensor(values, fn)
    if values.dtype != x.dtype:
        values = _e.astype(values, dtype=x.dtype)
    if is_advanced(resolved):
        return _scattered(x, shape, resolved, values, kind, fn)
    return _placed(x, shape, basic_index(shape, resolved), values, kind, fn)


def _fitted(values, shape, fn):
    """values broadcast to `shape` (the shape of x[index]), as numpy's assignment
    does: leading axes of size 1 beyond the target's rank are dropped."""
    have, shape = tuple(values.shape), tuple(shape)
    if have == shape:
        return values
    if not have:  # a number: the common case
        return _s.broadcast_to(values, shape=shape)
    while len(have) > len(shape) and have[0] == 1:
        have = have[1:]
    try:
        target = np.broadcast_shapes(have, shape)
    except ValueError:
        target = None
    if target != shape:
        raise ValueError(f"{fn}: values of shape {tuple(values.shape)} do not broadcast to "
                         f"the shape of x[index], {tuple(shape)}")
    if have != tuple(values.shape):
        values = _s.reshape(values, shape=have)
    return values if have == shape else _s.broadcast_to(values, shape=shape)


_COMBINE = {
    "set": lambda x, v: v,
    "add": _e.add,
    "multiply": _e.multiply,
    "min": _e.minimum,
    "max": _e.maximum,
}


def _placed(x, shape, index, values, kind, fn):
    """The update at a basic index: x[index] combined with v, written back."""
    values = _fitted(values, _ix.sliced_shape(shape, index), fn)
    if kind != "set":
        values = _COMBINE[kind](_ix.slice_(x, index=index) if index else x, values)
    return _u.set_slice(x, values, index=index)


_SCATTER = {
    "multiply": (_u.scatter_mul, _e.multiply),
    "min": (_u.scatter_min, _e.minimum),
    "max": (_u.scatter_max, _e.maximum),
}


def _scattered(x, shape, resolved, values, kind, fn):
    """The update at an index with integer arrays: v scattered to flat positions."""
    size = math.prod(shape)
    positions = _advanced(Tensor(np.arange(size).reshape(shape)), shape, resolved)
    values = _fitted(values, tuple(positions.shape), fn)
    n = math.prod(positions.shape)
    positions = _s.reshape(positions, shape=(n,))
    values = _s.reshape(values, shape=(n,))
    flat = _s.reshape(x, shape=(size,))
    if kind == "set":
        out = _u.set_at(flat, values, positions)
    elif kind == "add":
        out = _u.add_at(flat, values, positions)
    else:
        scatter, combine = _SCATTER[kind]
        out = combine(flat, scatter(values, positions, shape=(size,)))
    return _s.reshape(out, shape=shape)


def select(condlist, choicelist, default=0):
    """Each element from the first choice whose condition holds there, else `default`.

    The derivative flows to the chosen entries; conditions have none.

    Args:
      condlist: a list of boolean tensors.
      choicelist: a list of tensors as long as condlist; all broadcast together.
      default: the value where no condition holds.

    Raises:
      TypeError: a condition is not boolean.
      ValueError: lists of different lengths.

    >>> from rune import nx
    >>> x = nx.array([-2.0, 0.5, 3.0])
    >>> print(nx.select([x < 0, x > 1], [-x, x * 10], default=x))
    float64 [3] [2, 0.5, 30]
    """
    fn = "nx.select"
    if len(condlist) != len(choicelist):
        raise ValueError(f"{fn}: condlist and choicelist must be of the same length, got "
                         f"{len(condlist)} and {len(choicelist)}")
    conds = [as_tensor(c, fn) for c in condlist]
    choices = [as_tensor(c, fn) for c in choicelist]
    for i, c in enumerate(conds):
        if c.dtype != np.bool_:
            raise TypeError(f"{fn}: condition {i} must be boolean, got {c.dtype}")
    # a Python number default is weak in numpy's promotion, as in arithmetic
    weak = isinstance(default, (int, float, complex)) and not isinstance(default, bool)
    default = as_tensor(default, fn)
    dtype = np.result_type(*[c.dtype for c in choices], default.item() if weak else
                           default.dtype)
    out = default
    for cond, choice in zip(reversed(conds), reversed(choices)):
        out = where(cond, choice, out)
    return out.astype(dtype) if out.dtype != dtype else out


def put_along_axis(arr, indices, values, axis):
    """arr with `values` written at `indices` along `axis`: numpy's put_along_axis,
    but returning a new tensor (a tensor never changes) as JAX's does.

    Differentiable in arr (zero where written) and values; where indices
    repeat, the last value written stays.

    Args:
      arr: a tensor.
      indices: an integer tensor with arr's number of axes (broadcasting against
        arr's other axes), or 1-d when axis is None.
      values: a tensor broadcasting against indices.
      axis: an int, or None for the flattened arr (the result keeps arr's shape).

    Raises:
      TypeError: indices are not integers.
      ValueError: indices with another number of axes, or axis out of range.

    >>> from rune import nx
    >>> x = nx.zeros((2, 3))
    >>> print(nx.put_along_axis(x, nx.array([[2], [0]]), 5.0, axis=1))
    float64 [2, 3]
    [[0, 0, 5],
     [5, 0, 0]]
    """
    from .manipulation.shape import ravel, reshape  # lazy: manipulation imports indexing
    fn = "nx.put_along_axis"
    arr, indices = as_tensor(arr, fn), as_tensor(indices, fn)
    if indices.dtype.kind not in "iu":
        raise TypeError(f"{fn}: indices must be integers, got {indices.dtype}")
    if axis is None:
        return reshape(put_along_axis(ravel(arr), indices, values, 0), arr.shape)
    axis = normalize_axis(axis, arr.ndim, fn)
    if indices.ndim != arr.ndim:
        raise ValueError(f"{fn}: indices must have arr's {arr.ndim} axes, got {indices.ndim}")
    index = tuple(indices if d == axis else np.arange(n).reshape(
        (1,) * d + (n,) + (1,) * (arr.ndim - d - 1)) for d, n in enumerate(arr.shape))
    return arr.at[index].set(values)


def _along(a, axis, fn):
    """a and a normalized axis; axis None flattens a first."""
    a = as_tensor(a, fn)
    if axis is None:
        return _s.reshape(a, shape=(a.size,)), 0
    return a, normalize_axis(axis, a.ndim, fn)


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
