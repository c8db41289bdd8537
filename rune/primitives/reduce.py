"""Reductions: sum, max, min, prod, argmax, cumsum and friends.

Axes are normalized by the `nx` functions before they reach a primitive:
`axis` is always a tuple of non-negative ints here.
"""

from __future__ import annotations

import numpy as np

from ..core import Primitive, binder
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


def _sum_abstract(x, axis, keepdims):
    return _reduced_shape(x.shape, axis, keepdims), np.sum(np.ones((), x.dtype)).dtype


sum_p = Primitive("sum", lambda x, axis, keepdims: np.sum(x, axis=axis, keepdims=keepdims),
                  _sum_abstract)
sum_p.jvp_rules = (lambda t, ans, x, axis, keepdims: sum(t, axis=axis, keepdims=keepdims),)
sum_p.transpose_rules = (lambda ct, x, axis, keepdims: _expand_back(ct, x, axis, keepdims),)
sum_p.batch = _batch_reduction(sum_p)
sum = binder(sum_p)
