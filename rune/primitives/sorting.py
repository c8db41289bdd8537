"""Sorting primitives: sort, argsort, searchsorted, and partition's pair.

  argsort(x, axis, descending)   the stable order along `axis` (ints)
  sort(x, axis)                  x sorted along `axis`
  argpartition(x, kth, axis)     an order putting the kth element in place (ints)
  searchsorted(a, v, side)       where v's elements go in the sorted vector a

Index outputs are piecewise constant: no derivative. sort's derivative
follows the permutation: the tangent is taken along the order argsort gives
(`take_along_axis`), so ties go to one element, as in JAX. `axis` is a
non-negative int (the nx functions normalize it).
"""

from __future__ import annotations

import numpy as np

from ..core import Primitive, Tensor, binder
from . import indexing as _ix
from . import shape as _shape

_INDEX = np.dtype(np.intp)


def take_along_axis(x, order, axis):
    """x[..., order, ...] along `axis`, order having x's shape: numpy's
    take_along_axis, as one gather over every axis (differentiable in x)."""
    shape = tuple(order.shape)
    grids = [Tensor(np.arange(n).reshape((1,) * a + (n,) + (1,) * (len(shape) - a - 1)))
             for a, n in enumerate(shape)]
    grids[axis] = order
    return _ix.gather(x, *grids)


def _batch_along_axis(prim):
    """Batch rule of a primitive acting along `axis`: the batch axis goes first."""
    def batch(values, dims, axis, **params):
        size = _shape.batch_size(values, dims)
        front = [_shape.batched_front(v, d, size) for v, d in zip(values, dims)]
        return prim.call(*front, axis=axis + 1, **params), 0
    return batch


def _zero_derivative(name, impl, abstract_eval):
    prim = Primitive(name, impl, abstract_eval)
    prim.zero_derivative = True
    prim.batch = _batch_along_axis(prim)
    return binder(prim)


def _argsort_impl(x, axis, descending):
    if descending:  # stable among equals, as numpy's `stable=True, descending=True` would be
        n = np.shape(x)[axis]
        flipped = np.argsort(np.flip(x, axis), axis=axis, kind="stable")
        return np.flip(n - 1 - flipped, axis)
    return np.argsort(x, axis=axis, kind="stable")


argsort = _zero_derivative("argsort", _argsort_impl,
                           lambda x, axis, descending: (tuple(x.shape), _INDEX))
argpartition = _zero_derivative(
    "argpartition", lambda x, kth, axis: np.argpartition(x, kth, axis=axis),
    lambda x, kth, axis: (tuple(x.shape), _INDEX))


def _sort_jvp(primals, tangents, axis):
    x, = primals
    out = sort(x, axis=axis)
    if tangents[0] is None:
        return out, None
    order = argsort(x, axis=axis, descending=False)
    return out, take_along_axis(tangents[0], order, axis)


sort_p = Primitive("sort", lambda x, axis: np.sort(x, axis=axis, kind="stable"),
                   lambda x, axis: (tuple(x.shape), x.dtype))
sort_p.jvp = _sort_jvp
sort_p.batch = _batch_along_axis(sort_p)
sort = binder(sort_p)


def _searchsorted_batch(values, dims, side):
    """One sorted vector for all examples: one call; one per example: by rows."""
    a, v = values
    if dims[0] is None:
        return searchsorted(a, v, side=side), dims[1]
    size = _shape.batch_size(values, dims)
    a, v = [_shape.batched_front(x, d, size) for x, d in zip(values, dims)]
    return searchsorted_rows(a, v, side=side), 0


def _searchsorted_rows_batch(values, dims, side):
    """Two batch axes (vmap of vmap) merged into one of rows."""
    size = _shape.batch_size(values, dims)
    a, v = [_shape.batched_front(x, d, size) for x, d in zip(values, dims)]
    rows = size * a.shape[1]
    out = searchsorted_rows(_shape.reshape(a, shape=(rows,) + tuple(a.shape[2:])),
                            _shape.reshape(v, shape=(rows,) + tuple(v.shape[2:])), side=side)
    return _shape.reshape(out, shape=tuple(v.shape)), 0


searchsorted_p = Primitive("searchsorted", lambda a, v, side: np.searchsorted(a, v, side=side),
                           lambda a, v, side: (tuple(v.shape), _INDEX))
searchsorted_p.zero_derivative = True
searchsorted_p.batch = _searchsorted_batch
searchsorted = binder(searchsorted_p)

# searchsorted_rows(a, v): row i of v searched in row i of a (numpy's is 1-D only).
searchsorted_rows_p = Primitive(
    "searchsorted_rows",
    lambda a, v, side: np.stack([np.searchsorted(r, w, side=side) for r, w in zip(a, v)])
    if len(a) else np.zeros(np.shape(v), _INDEX),
    lambda a, v, side: (tuple(v.shape), _INDEX))
searchsorted_rows_p.zero_derivative = True
searchsorted_rows_p.batch = _searchsorted_rows_batch
searchsorted_rows = binder(searchsorted_rows_p)
