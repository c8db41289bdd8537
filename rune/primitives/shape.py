"""Shape primitives: reshape, transpose, broadcast_to, concatenate.

All of them are linear, so each gives a jvp rule (apply it to the tangent)
and a transpose rule (the reverse rearrangement) side by side. Slicing,
padding, gathering and scattering live in `indexing.py`. The batch-axis
toolkit below (`align_batch`, `batched_front`...) is what the families' vmap
rules line operands up with; the helpers at the end (`moveaxis`,
`sum_to_shape`, `take_along`...) are what the core and the other families
build with. Params arrive normalized by the `nx` functions:
shapes and axes are tuples of non-negative ints.
"""

from __future__ import annotations

import numpy as np

from ..core import Primitive, Tensor, binder


def _linear_shape_op(name, impl, abstract_eval, transpose_rule, batch):
    prim = Primitive(name, impl, abstract_eval)
    prim.jvp_rules = (lambda t, ans, x, **params: prim.bind(t, **params),)
    prim.transpose_rules = (transpose_rule,)
    prim.batch = batch
    return binder(prim)


# ------------------------------------------- the batch-axis toolkit of vmap rules


def _move_to_front(value, dim):
    return value if dim == 0 else moveaxis(value, dim, 0)


def batched_front(value, dim, size):
    """`value` with its batch axis first; an unbatched one (dim None) is
    broadcast along a new first axis of `size` (vmap rules that mix both)."""
    if dim is not None:
        return _move_to_front(value, dim)
    shape = tuple(value.shape)
    return broadcast_to(reshape(value, shape=(1,) + shape), shape=(size,) + shape)


def batch_size(values, dims):
    """The size of the batch axis, read from the first batched value."""
    for value, dim in zip(values, dims):
        if dim is not None:
            return value.shape[dim]
    raise ValueError("no batched value")


def example_ranks(values, dims, core_ranks=0):
    """Each operand's number of leading axes per example: its rank without the
    batch axis (if it has one) and without its `core_ranks` trailing axes (an
    int for all operands or one per operand: 2 for matrices, 0 elementwise)."""
    if isinstance(core_ranks, int):
        core_ranks = (core_ranks,) * len(values)
    return [np.ndim(v) - (d is not None) - c for v, d, c in zip(values, dims, core_ranks)]


def align_batch(values, dims, core_ranks=0):
    """The operands of a broadcasting primitive lined up so that one call does a batch.

    numpy broadcasts operands' leading axes from the right (all axes for
    elementwise operations; those before the last two for matmul and linalg,
    which give `core_ranks` 2). Each batched operand gets its batch axis moved
    to the front and, if it has fewer leading axes per example than another
    operand, size-1 axes after the batch axis to make up the difference: so its
    batch axis never meets another operand's leading axis, and it is axis 0 of
    the result. Unbatched operands stay as they are: numpy broadcasts them.
    """
    ranks = example_ranks(values, dims, core_ranks)
    top = max(ranks)
    aligned = []
    for v, d, r in zip(values, dims, ranks):
        if d is not None:
            v = _move_to_front(v, d)
            if r < top:
                v = reshape(v, shape=v.shape[:1] + (1,) * (top - r) + v.shape[1:])
        aligned.append(v)
    return aligned


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
    """Move one axis of x to a new position (a transpose; x itself if it stays)."""
    ndim = len(x.shape)
    if source % ndim == destination % ndim:  # batch rules ask this of axis 0 all the time
        return x
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

# ------------------------------------------------------------- concatenate


def _concatenate_abstract(*xs, axis):
    shape = list(xs[0].shape)
    shape[axis] = sum(x.shape[axis] for x in xs)
    return tuple(shape), np.result_type(*[x.dtype for x in xs])


def _concatenate_jvp(primals, tangents, axis):
    # One rule for all arguments: the tangents are joined like the values,
    # with zeros standing for the arguments that have none.
    out = concatenate(*primals, axis=axis)
    if all(t is None for t in tangents):
        return out, None
    return out, concatenate(*[zeros_like(p) if t is None else t
                              for p, t in zip(primals, tangents)], axis=axis)


class _Pieces:
    """concatenate's transpose rules: argument i gets its piece of the cotangent."""

    def __getitem__(self, i):
        def rule(ct, *args, axis):
            from . import elementwise as _e, indexing as _ix  # lazy: both import shape
            start = sum(a.shape[axis] for a in args[:i])
            piece = _ix.slice_axis(ct, axis, start, start + args[i].shape[axis])
            return _e.fit(piece, args[i])
        return rule


def _batch_concatenate(values, dims, axis):
    size = batch_size(values, dims)
    return concatenate(*[batched_front(v, d, size) for v, d in zip(values, dims)],
                       axis=axis + 1), 0


concatenate_p = Primitive("concatenate", lambda *xs, axis: np.concatenate(xs, axis=axis),
                          _concatenate_abstract)
concatenate_p.jvp = _concatenate_jvp
concatenate_p.transpose_rules = _Pieces()
concatenate_p.batch = _batch_concatenate
concatenate = binder(concatenate_p)

# ----------------------------------------------------------------- helpers


def broadcast_like(x, like):
    """x broadcast to the shape of `like` (used to give a tangent its output's shape)."""
    return broadcast_to(x, shape=like.shape)


def sum_to_shape(x, shape):
    """Sum x down to `shape`, undoing numpy broadcasting (the transpose of broadcast_to)."""
    x_shape = x.shape
    if x_shape == shape:
        return x
    from . import reduce as _reduce  # lazy: reduce imports shape
    lead = len(x_shape) - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, n in enumerate(shape) if n == 1 and x_shape[lead + i] != 1
    )
    return reshape(_reduce.sum(x, axis=axes, keepdims=False), shape=shape)


def zeros_like(x):
    """A constant zero tensor of x's shape and dtype (no derivative, no trace)."""
    return Tensor(np.zeros(x.shape, x.dtype))


def take_along(value, i, dim):
    """Example `i` of a batch: `value` indexed by i along axis `dim` (vmap's fallback)."""
    from . import indexing as _ix  # lazy: indexing imports shape
    return _ix.slice_(value, index=_ix.full_index(value.shape[:dim]) + (i,))


def stack_examples(values):
    """The examples stacked along a new first axis (vmap's fallback)."""
    return concatenate(*[reshape(v, shape=(1,) + tuple(v.shape)) for v in values], axis=0)

