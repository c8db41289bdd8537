"""Update primitives: x with values written, added or combined at an index.

The primitives behind `x.at[index]` (nx/indexing.py), each returning a new
tensor, as JAX's scatters do:

  set_slice(x, v, index)     x with v written at a basic index (the params
                             form of primitives/indexing.py): linear in x and
                             v together; transposes to a slice and a zeroed x
  set_at(x, v, *indices)     x with v written at [i0, i1, ...]; of repeated
                             places the last value wins (numpy's x[i] = v)
  add_at(x, v, *indices)     x with v added at [i0, ...], repeats adding up
                             (np.add.at): its transpose in v is a gather
  scatter_mul / scatter_min / scatter_max(v, *indices, shape)
                             the values written to each place combined by
                             product, min or max, starting from 1, +inf and
                             -inf (the dtype's extremes for integers):
                             np.multiply.at, np.minimum.at, np.maximum.at

Index arrays are operands, as for gather, so traced indices work under jit
and vmap; the batch rules add the batch axis as one more index array.
"""

from __future__ import annotations

import math

import numpy as np

from ..core import Primitive, Tensor, binder
from . import elementwise as _e
from . import shape as _shape
from . import sorting as _sorting
from .indexing import (_batch_arange, _batch_scatter, _index_shape, gather,
                       numpy_index, pad, scatter_add, slice_)


# ---------------------------------------------------------------- set_slice


def _set_slice_impl(x, v, index):
    out = np.array(x, copy=True)
    out[numpy_index(index)] = v
    return out


def _batch_set_slice(values, dims, index):
    size = _shape.batch_size(values, dims)
    x, v = [_shape.batched_front(a, d, size) for a, d in zip(values, dims)]
    return set_slice(x, v, index=((0, size, 1),) + index), 0


def _cleared(ct, v, index):
    """ct with the place of v zeroed: what reaches x of what set_slice overwrote."""
    return set_slice(ct, _shape.zeros_like(v), index=index)


set_slice_p = Primitive("set_slice", _set_slice_impl, lambda x, v, index: (x.shape, x.dtype))
set_slice_p.jvp_rules = (lambda t, ans, x, v, index: _cleared(t, v, index),
                         lambda t, ans, x, v, index: pad(t, shape=tuple(x.shape), index=index,
                                                         value=0))
set_slice_p.transpose_rules = (lambda ct, x, v, index: _cleared(ct, v, index),
                               lambda ct, x, v, index: slice_(ct, index=index))
set_slice_p.batch = _batch_set_slice
set_slice = binder(set_slice_p)

# ------------------------------------------------------------ set_at, add_at


class _TwoOperands:
    """Transpose rules of a primitive linear in its first two arguments (x, v);
    the others are integer indices, which are never tangents."""

    def __init__(self, x_rule, v_rule):
        self.rules = (x_rule, v_rule)

    def __getitem__(self, i):
        return self.rules[i] if i < 2 else None


def _set_at_impl(x, v, *indices):
    out = np.array(x, copy=True)
    out[indices] = v
    return out


def _add_at_impl(x, v, *indices):
    out = np.array(x, copy=True)
    np.add.at(out, indices, v)
    return out


def _batch_update(prim):
    def batch(values, dims):
        size = _shape.batch_size(values, dims)  # x alone may be batched
        x, v = [_shape.batched_front(a, d, size) for a, d in zip(values[:2], dims[:2])]
        return prim.call(x, v, _batch_arange(size, values[2:], dims[2:]),
                         *_shape.align_batch(values[2:], dims[2:])), 0
    return batch


def last_written(indices, shape):
    """For each place an update names, whether it is the last to name it (bool,
    of the indices' shape): the one whose value x[i] = v keeps."""
    index_shape = _index_shape(indices)
    order = Tensor(np.arange(math.prod(index_shape)).reshape(index_shape))
    last = gather(scatter_max(order, *indices, shape=tuple(shape[:len(indices)])), *indices)
    return _e.equal(last, order)


def _kept(ct, x, indices):
    """The cotangent of set_at's values: gathered where each value was kept."""
    picked = gather(ct, *indices)
    winners = last_written(indices, x.shape)
    rest = (1,) * (len(picked.shape) - len(winners.shape))
    winners = _shape.reshape(winners, shape=tuple(winners.shape) + rest)
    return _e.where(winners, picked, _shape.zeros_like(picked))


set_at_p = Primitive("set_at", _set_at_impl, lambda x, v, *indices: (x.shape, x.dtype))
set_at_p.jvp_rules = _TwoOperands(
    lambda t, ans, x, v, *indices: set_at(t, _shape.zeros_like(v), *indices),
    lambda t, ans, x, v, *indices: set_at(_shape.zeros_like(x), t, *indices))
set_at_p.transpose_rules = _TwoOperands(
    lambda ct, x, v, *indices: set_at(ct, _shape.zeros_like(v), *indices),
    lambda ct, x, v, *indices: _kept(ct, x, indices))
set_at_p.batch = _batch_update(set_at_p)
set_at = binder(set_at_p)

add_at_p = Primitive("add_at", _add_at_impl, lambda x, v, *indices: (x.shape, x.dtype))
add_at_p.jvp_rules = _TwoOperands(
    lambda t, ans, x, v, *indices: t,
    lambda t, ans, x, v, *indices: scatter_add(t, *indices, shape=tuple(x.shape)))
add_at_p.transpose_rules = _TwoOperands(lambda ct, x, v, *indices: ct,
                                        lambda ct, x, v, *indices: gather(ct, *indices))
add_at_p.batch = _batch_update(add_at_p)
add_at = binder(add_at_p)

# ------------------------------------------ scatter_mul, scatter_min, scatter_max


def _start(dtype, kind):
    """What a scatter of `kind` starts from where nothing is written."""
    if kind == "mul":
        return 1
    if dtype.kind == "c":
        raise TypeError(f"scatter_{kind}: complex numbers are not ordered")
    if dtype.kind == "b":
        return kind == "min"
    big = np.inf if dtype.kind == "f" else np.iinfo(dtype).max
    return big if kind == "min" else (-big if dtype.kind == "f" else np.iinfo(dtype).min)


def _scatter_impl(ufunc, kind):
    def impl(v, *indices, shape):
        v = np.asarray(v)
        out = np.full(shape, _start(v.dtype, kind), dtype=v.dtype)
        ufunc.at(out, indices, v)
        return out
    return impl


def _others_product(v, indices, shape):
    """For each value, the product of the other values written to its place.

    No division, so zeros are exact at every order: the values are sorted by
    place, and scans within each run of one place (`_run_products`) give each
    value the product of those before it and of those after it.
    """
    index_shape = _index_shape(indices)
    n = int(np.prod(index_shape, dtype=np.int64))
    rest = tuple(v.shape[len(index_shape):])
    places = _flat_places(indices, shape[:len(indices)], index_shape)
    order = _sorting.argsort(places, axis=0, descending=False)
    places = gather(places, order)
    values = gather(_shape.reshape(v, shape=(n,) + rest), order)
    before = _run_products(values, places)
    after = _reversed(_run_products(_reversed(values), _reversed(places)))
    others = scatter_add(_e.multiply(before, after), order, shape=(n,) + rest)  # unsorted
    return _shape.reshape(others, shape=tuple(v.shape))


def _flat_places(indices, shape, index_shape):
    """The row-major position each index reaches in `shape`, as a vector."""
    place = 0
    for i, n in zip(indices, shape):
        place = _e.add(_e.multiply(place, n), _e.mod(i, n))  # mod: negative indices
    place = _shape.broadcast_to(place, shape=index_shape) if place.shape != index_shape \
        else place
    return _shape.reshape(place, shape=(int(np.prod(index_shape, dtype=np.int64)),))


def _shifted(x, step, fill):
    """x moved `step` places down its first axis, the first `step` rows `fill`."""
    n = x.shape[0]
    if step >= n:
        return _e.add(_e.multiply(x, 0), fill)
    head = slice_(x, index=((0, n - step, 1),))
    return pad(head, shape=tuple(x.shape), index=((step, n, 1),), value=fill)


def _reversed(x):
    return slice_(x, index=((x.shape[0] - 1, None, -1),)) if x.shape[0] else x


def _run_products(values, places):
    """out[i] = the product of the values before i with the same place (1 if none),
    places being sorted: a segmented Hillis-Steele scan, log2(n) passes."""
    column = (values.shape[0],) + (1,) * (len(values.shape) - 1)

    def same_run(step):  # whether the row `step` above is in the same run
        return _shape.reshape(_e.equal(places, _shifted(places, step, -1)), shape=column)

    products, step = values, 1
    while step < values.shape[0]:
        products = _e.multiply(products, _e.where(same_run(step), _shifted(products, step, 1), 1))
        step *= 2
    return _e.where(same_run(1), _shifted(products, 1, 1), 1)


def _scatter_mul_jvp(primals, tangents, shape):
    v, *indices = primals
    out = scatter_mul(v, *indices, shape=shape)
    if tangents[0] is None:
        return out, None
    part = _e.multiply(tangents[0], _others_product(v, indices, shape))
    return out, scatter_add(part, *indices, shape=shape)


def _scatter_extremum_jvp(primals, tangents, shape, prim):
    """The mean of the tangents of the values that reach the extremum (ties split)."""
    v, *indices = primals
    out = prim.call(v, *indices, shape=shape)
    if tangents[0] is None:
        return out, None
    winners = _e.astype(_e.equal(v, gather(out, *indices)), dtype=v.dtype)
    count = gather(scatter_add(winners, *indices, shape=shape), *indices)
    share = _e.divide(winners, _e.maximum(count, 1))  # NaN places have no winner: 0
    return out, scatter_add(_e.multiply(tangents[0], share), *indices, shape=shape)


def _scatter(kind, ufunc):
    prim = Primitive(f"scatter_{kind}", _scatter_impl(ufunc, kind),
                     lambda v, *indices, shape: (shape, v.dtype))
    prim.batch = _batch_scatter(prim)
    if kind == "mul":
        prim.jvp = _scatter_mul_jvp
    else:
        prim.jvp = lambda primals, tangents, shape: _scatter_extremum_jvp(
            primals, tangents, shape, prim)
    return binder(prim)


scatter_mul = _scatter("mul", np.multiply)
scatter_min = _scatter("min", np.minimum)
scatter_max = _scatter("max", np.maximum)

