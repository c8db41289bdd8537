"""Reductions: sum, max, min, prod, argmax, argmin, all, any, and cumsum.

Axes are normalized by the `nx` functions before they reach a primitive:
`axis` is always a tuple of non-negative ints here (cumsum's is one int).

Derivatives: sum and cumsum are linear. max and min pass the tangent of the
winning element; ties split it evenly (the mean of the tied tangents). prod's
tangent weighs each element's tangent by the product of the others, computed
without dividing by the element, so zeros are exact (see `_others_product`).
argmax, argmin, all and any are piecewise constant.
"""

from __future__ import annotations

import math

import numpy as np

from ..core import Primitive, Tensor, binder
from . import elementwise as _e
from . import indexing as _ix
from . import shape as _shape


def _reduced_shape(shape, axis, keepdims):
    if keepdims:
        return tuple(1 if i in axis else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axis)


def _expand_back(ct, x, axis, keepdims):
    """A reduction's cotangent spread back over the reduced axes of x."""
    if not keepdims:
        ct = _shape.reshape(ct, shape=_reduced_shape(x.shape, axis, True))
    return _shape.broadcast_to(ct, shape=x.shape)


def _batch_reduction(prim):
    def batch(values, dims, axis, keepdims, **params):
        x = _shape._move_to_front(values[0], dims[0])
        return prim.bind(x, axis=tuple(a + 1 for a in axis), keepdims=keepdims, **params), 0
    return batch


def _reduction(name, impl, out_dtype):
    """A primitive reducing `axis` of its argument: `impl(x, axis, keepdims)`."""
    def abstract_eval(x, axis, keepdims):
        return _reduced_shape(x.shape, axis, keepdims), out_dtype(x.dtype)

    prim = Primitive(name, impl, abstract_eval)
    prim.batch = _batch_reduction(prim)
    return prim


def _same(dtype):
    return dtype


# -------------------------------------------------------------------- sum

sum_p = _reduction("sum", lambda x, axis, keepdims: np.sum(x, axis=axis, keepdims=keepdims),
                   lambda dtype: np.sum(np.ones((), dtype)).dtype)
sum_p.jvp_rules = (lambda t, ans, x, axis, keepdims: sum(t, axis=axis, keepdims=keepdims),)
sum_p.transpose_rules = (lambda ct, x, axis, keepdims: _expand_back(ct, x, axis, keepdims),)
sum = binder(sum_p)

# -------------------------------------------------------------- max, min


def _extremum_jvp(t, ans, x, axis, keepdims):
    # The mean of the tangents of the elements equal to the extremum.
    if not keepdims:
        ans = _shape.reshape(ans, shape=_reduced_shape(x.shape, axis, True))
    winners = _e.astype(_e.equal(x, ans), dtype=x.dtype)
    share = _e.divide(winners, sum(winners, axis=axis, keepdims=True))
    return sum(_e.multiply(t, share), axis=axis, keepdims=keepdims)


max_p = _reduction("max", lambda x, axis, keepdims: np.max(x, axis=axis, keepdims=keepdims),
                   _same)
min_p = _reduction("min", lambda x, axis, keepdims: np.min(x, axis=axis, keepdims=keepdims),
                   _same)
max_p.jvp_rules = min_p.jvp_rules = (_extremum_jvp,)
max = binder(max_p)
min = binder(min_p)

# ------------------------------------------------------------------- prod


def _prod_jvp(t, ans, x, axis, keepdims):
    return sum(_e.multiply(t, _others_product(x, axis)), axis=axis, keepdims=keepdims)


def _others_product(x, axis):
    """For each element, the product of the other elements reduced with it.

    The reduced axes are moved last and flattened into one axis of length n;
    there, the product of the others is (product of those before) times
    (product of those after): two scans of O(n log n) multiplications, no
    division, so zeros give exact derivatives, and every step is a
    differentiable primitive, so the result can be differentiated again.
    """
    shape = tuple(x.shape)
    kept = [a for a in range(len(shape)) if a not in axis]
    order = tuple(kept) + axis
    moved_shape = tuple(shape[a] for a in order)
    n = math.prod(shape[a] for a in axis)
    if n <= 1:  # nothing else to multiply by
        return Tensor(np.ones(shape, x.dtype))
    moved = x if order == tuple(range(len(shape))) else _shape.transpose(x, axes=order)
    flat = _shape.reshape(moved, shape=moved_shape[: len(kept)] + (n,))
    before = _exclusive_products(flat)
    after = _reverse_last(_exclusive_products(_reverse_last(flat)))
    others = _shape.reshape(_e.multiply(before, after), shape=moved_shape)
    if order == tuple(range(len(shape))):
        return others
    return _shape.transpose(others, axes=tuple(np.argsort(order).tolist()))


def _exclusive_products(x):
    """out[..., i] = x[..., 0] * ... * x[..., i-1] along the last axis (1 for i = 0).

    A Hillis-Steele scan: each pass multiplies every entry by the one `step`
    places before it, doubling the span each entry covers.
    """
    n = x.shape[-1]
    out = _shift_right(x, 1)
    step = 1
    while step < n - 1:
        out = _e.multiply(out, _shift_right(out, step))
        step *= 2
    return out


def _shift_right(x, step, fill=1):
    """x moved `step` places along its last axis; the first `step` entries are `fill`."""
    shape = tuple(x.shape)
    lead, n = _ix.full_index(shape[:-1]), shape[-1]
    head = _ix.slice_(x, index=lead + ((0, n - step, 1),))
    return _ix.pad(head, shape=shape, index=lead + ((step, n, 1),), value=fill)


def _reverse_last(x):
    shape = tuple(x.shape)
    return _ix.slice_(x, index=_ix.full_index(shape[:-1]) + ((shape[-1] - 1, None, -1),))


prod_p = _reduction("prod", lambda x, axis, keepdims: np.prod(x, axis=axis, keepdims=keepdims),
                    lambda dtype: np.prod(np.ones((), dtype)).dtype)
prod_p.jvp_rules = (_prod_jvp,)
prod = binder(prod_p)

# ----------------------------------------- piecewise constant: argmax, all...


def _piecewise_constant(name, impl, out_dtype):
    prim = _reduction(name, impl, out_dtype)
    prim.zero_derivative = True
    return binder(prim)


# axis is a 1-tuple for argmax and argmin, as for the others.
argmax = _piecewise_constant(
    "argmax", lambda x, axis, keepdims: np.argmax(x, axis=axis[0], keepdims=keepdims),
    lambda dtype: np.dtype(np.intp))
argmin = _piecewise_constant(
    "argmin", lambda x, axis, keepdims: np.argmin(x, axis=axis[0], keepdims=keepdims),
    lambda dtype: np.dtype(np.intp))
all = _piecewise_constant("all", lambda x, axis, keepdims: np.all(x, axis=axis,
                                                                  keepdims=keepdims),
                          lambda dtype: np.dtype(np.bool_))
any = _piecewise_constant("any", lambda x, axis, keepdims: np.any(x, axis=axis,
                                                                  keepdims=keepdims),
                          lambda dtype: np.dtype(np.bool_))

# ----------------------------------------------------------------- cumsum


def _cumsum_impl(x, axis, reverse):
    if reverse:  # sums from the end: the transpose of the forward one
        return np.flip(np.cumsum(np.flip(x, axis), axis=axis), axis)
    return np.cumsum(x, axis=axis)


def _batch_cumsum(values, dims, axis, reverse):
    x = _shape._move_to_front(values[0], dims[0])
    return cumsum(x, axis=axis + 1, reverse=reverse), 0


cumsum_p = Primitive("cumsum", _cumsum_impl, lambda x, axis, reverse: (
    tuple(x.shape), np.cumsum(np.ones((1,), x.dtype)).dtype))
cumsum_p.jvp_rules = (lambda t, ans, x, axis, reverse: cumsum(t, axis=axis, reverse=reverse),)
cumsum_p.transpose_rules = (lambda ct, x, axis, reverse:
                            cumsum(ct, axis=axis, reverse=not reverse),)
cumsum_p.batch = _batch_cumsum
cumsum = binder(cumsum_p)

# ---------------------------------------------------------------- cumprod


def _cumprod_jvp(primals, tangents, axis):
    """y_i = y_(i-1) x_i, so dy_i = x_i dy_(i-1) + y_(i-1) t_i: a linear recurrence,
    solved by a Hillis-Steele scan of the maps z -> a z + b (composing two
    maps multiplies their a's and carries b). No division: zeros are exact."""
    x, = primals
    out = cumprod(x, axis=axis)
    t = tangents[0]
    if t is None or x.shape[axis] == 0:
        return out, t
    last = len(x.shape) - 1
    a, y, t = (_shape.moveaxis(v, axis, last) for v in (x, out, t))
    b = _e.multiply(t, _shift_right(y, 1))
    step = 1
    while step < x.shape[axis]:
        b = _e.add(b, _e.multiply(a, _shift_right(b, step, fill=0)))
        a = _e.multiply(a, _shift_right(a, step))
        step *= 2
    return out, _shape.moveaxis(b, last, axis)


def _batch_cumprod(values, dims, axis):
    return cumprod(_shape._move_to_front(values[0], dims[0]), axis=axis + 1), 0


cumprod_p = Primitive("cumprod", lambda x, axis: np.cumprod(x, axis=axis), lambda x, axis: (
    tuple(x.shape), np.cumprod(np.ones((1,), x.dtype)).dtype))
cumprod_p.jvp = _cumprod_jvp
cumprod_p.batch = _batch_cumprod
cumprod = binder(cumprod_p)
