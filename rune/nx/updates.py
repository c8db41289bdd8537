"""Functional indexed updates: `x.at[index].set(v)`, as in JAX.

Tensors never change, so `x.at[index].set(v)` returns a new tensor: x with
v written at `index` (numpy's `x[index] = v` on a copy). `add`, `multiply`,
`divide`, `min` and `max` combine v with what is there; `get` reads it.
Indices are numpy's (see `nx.getitem`). With integer arrays, repeated
places accumulate: `add` sums every value written to one place, `multiply`
multiplies them, `min` and `max` take the extremum; `set` keeps the last,
as numpy does. At ties `min` and `max` split the derivative evenly, first
between x and the extremum of the values, then among the tied values.

Two ways, one per kind of index (primitives/updates.py has the
primitives). A basic index (ints, slices, None, `...`) never names a place
twice: the update is `set_slice(x, combine(x[index], v))`, one copy of x.
An index with integer arrays (or a boolean mask, made arrays) is turned
into the flat positions it reaches, by indexing a tensor of positions with
it; `set_at` and `add_at` write or add v there, and `multiply`, `min` and
`max` combine x with `scatter_mul`, `scatter_min` or `scatter_max` of v.
All are differentiable in x and in v, in either mode and at any order,
batch under vmap (with batched indices too) and trace under jit (integer
index arrays may be traced; a mask may not).
"""

from __future__ import annotations

import math

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import indexing as _ix
from ..primitives import shape as _s
from ..primitives import updates as _u
from .creation import as_tensor
from .indexing import ScalarMask, _advanced, _resolve, basic_index, getitem, is_advanced
from .tensor import Tensor

__all__: list = []  # reached through `Tensor.at`


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
