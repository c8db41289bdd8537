"""Indexing primitives: slice and pad, gather and scatter_add.

Two transpose pairs, each linear in its tensor argument:

  slice(x, index)          x[index] for a basic index (ints, slices, None)
  pad(x, shape, index)     a tensor of `shape` filled with `value`, x placed
                           at `index`: the transpose of slice (value 0)
  gather(x, *indices)      x[i0, i1, ...]: integer arrays on the leading axes
  scatter_add(c, *indices) zeros with c added at [i0, i1, ...], repeated
                           indices accumulating (np.add.at): gather's transpose

The functional updates of `x.at[...]` have their own family, updates.py.

`index` is a hashable tuple of entries, each an int, a `(start, stop, step)`
triple, or None (a new axis of size 1); axes after the last entry are kept
whole. The `nx` functions build it in canonical form (ints in range, slices
resolved by `slice.indices`, no trailing whole axes), so equal indices give
equal params. Integer index arrays are operands, not params, so that an
index computed by traced code works under jit and vmap; gather indexes the
leading axes only, and `nx.getitem` moves the indexed axes there and the
result's axes back (numpy's rules).
"""

from __future__ import annotations

import numpy as np

from ..core import Primitive, Tensor, binder
from . import shape as _shape


def numpy_index(index):
    """The param form of a basic index turned into a numpy index."""
    return tuple(slice(*e) if type(e) is tuple else e for e in index)


def full_index(shape):
    """The basic index that selects everything of `shape`."""
    return tuple((0, n, 1) for n in shape)


def slice_axis(x, axis, start, stop):
    """x[..., start:stop, ...] along one axis (start <= stop, both in range)."""
    return slice_(x, index=full_index(x.shape[:axis]) + ((start, stop, 1),))


def sliced_shape(shape, index):
    """The shape x[index] has, for x of `shape` (see the module docstring)."""
    out = []
    consumed = 0
    for e in index:
        if e is None:
            out.append(1)
            continue
        consumed += 1
        if type(e) is tuple:
            start, stop, step = e
            out.append(len(range(start, -1 if stop is None else stop, step)))
    return tuple(out) + tuple(shape[consumed:])


def _front(values, dims):
    """Batch rules of this file put the batch axis first: (value, batch size)."""
    return _shape._move_to_front(values[0], dims[0]), values[0].shape[dims[0]]


# --------------------------------------------------------------- slice, pad


def _pad_impl(x, shape, index, value):
    out = np.full(shape, value, dtype=np.asarray(x).dtype)
    out[numpy_index(index)] = x
    return out


def _pad_transpose(ct, x, shape, index, value):
    if value != 0:
        raise TypeError(f"pad with the value {value} is affine, not linear: it has no transpose")
    return slice_(ct, index=index)


def _batch_slice(values, dims, index):
    x, size = _front(values, dims)
    return slice_(x, index=((0, size, 1),) + index), 0


def _batch_pad(values, dims, shape, index, value):
    x, size = _front(values, dims)
    return pad(x, shape=(size,) + shape, index=((0, size, 1),) + index, value=value), 0


slice_p = Primitive("slice", lambda x, index: np.asarray(x)[numpy_index(index)],
                    lambda x, index: (sliced_shape(x.shape, index), x.dtype))
slice_p.jvp_rules = (lambda t, ans, x, index: slice_(t, index=index),)
slice_p.transpose_rules = (lambda ct, x, index: pad(ct, shape=x.shape, index=index, value=0),)
slice_p.batch = _batch_slice
slice_ = binder(slice_p)

pad_p = Primitive("pad", _pad_impl, lambda x, shape, index, value: (shape, x.dtype))
# Whatever the fill value, it does not move with x: tangents are padded with 0.
pad_p.jvp_rules = (lambda t, ans, x, shape, index, value:
                   pad(t, shape=shape, index=index, value=0),)
pad_p.transpose_rules = (_pad_transpose,)
pad_p.batch = _batch_pad
pad = binder(pad_p)

# ------------------------------------------------------ gather, scatter_add


class _OperandOnly:
    """Transpose rules of a primitive linear in its first argument; the others
    are integer indices (any number of them), which are never tangents."""

    def __init__(self, rule):
        self.rule = rule

    def __getitem__(self, i):
        return self.rule if i == 0 else None


def _index_shape(indices):
    return np.broadcast_shapes(*[i.shape for i in indices])


def _gather_impl(x, *indices):
    return np.asarray(x)[indices]


def _scatter_add_impl(ct, *indices, shape):
    out = np.zeros(shape, dtype=np.asarray(ct).dtype)
    np.add.at(out, indices, ct)
    return out


def _batch_arange(size, indices, dims):
    """The index of each example's own slice along the batch axis, shaped
    (size, 1, ...) to broadcast with the examples' `indices` (of vmap `dims`)."""
    rank = max(_shape.example_ranks(indices, dims))
    return Tensor(np.arange(size).reshape((size,) + (1,) * rank))


def _batch_gather(values, dims):
    indices = _shape.align_batch(values[1:], dims[1:])
    if dims[0] is None:  # one tensor for all examples: the batched indices give the batch axis
        return gather(values[0], *indices), 0
    x = _shape._move_to_front(values[0], dims[0])
    return gather(x, _batch_arange(x.shape[0], values[1:], dims[1:]), *indices), 0


def _batch_scatter(prim):
    def batch(values, dims, shape):
        size = _shape.batch_size(values, dims)
        ct = _shape.batched_front(values[0], dims[0], size)
        return prim.call(ct, _batch_arange(size, values[1:], dims[1:]),
                         *_shape.align_batch(values[1:], dims[1:]), shape=(size,) + shape), 0
    return batch


def _gather_jvp(primals, tangents):
    out = gather(*primals)
    return out, None if tangents[0] is None else gather(tangents[0], *primals[1:])


def _scatter_add_jvp(primals, tangents, shape):
    out = scatter_add(*primals, shape=shape)
    return out, None if tangents[0] is None else scatter_add(tangents[0], *primals[1:],
                                                             shape=shape)


gather_p = Primitive("gather", _gather_impl, lambda x, *indices: (
    _index_shape(indices) + tuple(x.shape[len(indices):]), x.dtype))
gather_p.jvp = _gather_jvp
gather_p.transpose_rules = _OperandOnly(
    lambda ct, x, *indices: scatter_add(ct, *indices, shape=tuple(x.shape)))
gather_p.batch = _batch_gather
gather = binder(gather_p)

scatter_add_p = Primitive("scatter_add", _scatter_add_impl,
                          lambda ct, *indices, shape: (shape, ct.dtype))
scatter_add_p.jvp = _scatter_add_jvp
scatter_add_p.transpose_rules = _OperandOnly(lambda ct, c, *indices, shape: gather(ct, *indices))
scatter_add_p.batch = _batch_scatter(scatter_add_p)
scatter_add = binder(scatter_add_p)
