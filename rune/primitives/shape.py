"""Shape primitives: reshape, transpose, broadcast, indexing, joining.

All of them are linear, so each gives a jvp rule (apply it to the tangent)
and a transpose rule (the reverse rearrangement) side by side.
"""

from __future__ import annotations

import numpy as np

from ..core import Primitive, binder
from ..nx.tensor import Tensor


def _linear_shape_op(name, impl, abstract_eval, transpose_rule, batch):
    prim = Primitive(name, impl, abstract_eval)
    prim.jvp_rules = (lambda t, ans, x, **params: prim.bind(t, **params),)
    prim.transpose_rules = (transpose_rule,)
    prim.batch = batch
    return binder(prim)


def _move_to_front(value, dim):
    return value if dim == 0 else moveaxis(value, dim, 0)


# ------------------------------------------------------------------ reshape

reshape = _linear_shape_op(
    "reshape",
    lambda x, shape: np.reshape(x, shape),
    lambda x, shape: (shape, x.dtype),
    lambda ct, x, shape: reshape(ct, shape=x.shape),
    lambda values, dims, shape: (
        reshape(_move_to_front(values[0], dims[0]), shape=(np.shape(values[0])[dims[0]],) + shape),
        0,
    ),
)

# ---------------------------------------------------------------- transpose

transpose = _linear_shape_op(
    "transpose",
    lambda x, axes: np.transpose(x, axes),
    lambda x, axes: (tuple(x.shape[a] for a in axes), x.dtype),
    lambda ct, x, axes: transpose(ct, axes=tuple(np.argsort(axes).tolist())),
    lambda values, dims, axes: (
        transpose(_move_to_front(values[0], dims[0]), axes=(0,) + tuple(a + 1 for a in axes)),
        0,
    ),
)


def moveaxis(x, source, destination):
    """Move one axis of x to a new position (a transpose)."""
    ndim = len(x.shape)
    order = [a for a in range(ndim) if a != source]
    order.insert(destination % ndim, source)
    return transpose(x, axes=tuple(order))


# ----------------------------------------------------------- broadcast_to


def _batch_broadcast_to(values, dims, shape):
    x = _move_to_front(values[0], dims[0])
    x_shape = x.shape
    pad = len(shape) - (len(x_shape) - 1)  # align the example's axes to the right
    x = reshape(x, shape=(x_shape[0],) + (1,) * pad + x_shape[1:])
    return broadcast_to(x, shape=(x_shape[0],) + shape), 0


broadcast_to = _linear_shape_op(
    "broadcast_to",
    lambda x, shape: np.broadcast_to(x, shape),
    lambda x, shape: (shape, x.dtype),
    lambda ct, x, shape: sum_to_shape(ct, x.shape),
    _batch_broadcast_to,
)


def broadcast_like(x, like):
    """x broadcast to the shape of `like` (used to give a tangent its output's shape)."""
    return broadcast_to(x, shape=like.shape)


def sum_to_shape(x, shape):
    """Sum x down to `shape`, undoing numpy broadcasting (the transpose of broadcast_to)."""
    x_shape = x.shape
    if x_shape == shape:
        return x
    lead = len(x_shape) - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, n in enumerate(shape) if n == 1 and x_shape[lead + i] != 1
    )
    return reshape(_reduce.sum(x, axis=axes, keepdims=False), shape=shape)


def zeros_like(x):
    """A constant zero tensor of x's shape and dtype (no derivative, no trace)."""
    return Tensor(np.zeros(x.shape, x.dtype))


from . import reduce as _reduce  # noqa: E402  (reduce's rules use this module too)
