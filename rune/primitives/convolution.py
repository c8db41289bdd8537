"""Discrete convolution: out[..., i] = sum_k a[..., i - k] v[..., k] (numpy's "full" mode).

Bilinear, like multiply: linear in each operand with the other fixed, so each
operand has a jvp rule (the convolution with the tangent in its slot) and a
transpose rule. Transposes do not conjugate: the cotangent of a is
ct_a[i] = sum_k ct[i + k] v[k], the "valid" part of ct convolved with v
reversed; symmetrically for v. Leading axes broadcast (vmap adds them);
`rune.nx.convolve` and `correlate` take the other modes as slices of this one.
"""

from __future__ import annotations

import numpy as np

from ..core import Primitive, binder
from . import indexing as _ix
from . import shape as _shape
from .elementwise import fit


def _impl(a, v):
    a, v = np.asarray(a), np.asarray(v)
    if a.ndim == 1 and v.ndim == 1:
        return np.convolve(a, v)
    n, m = a.shape[-1], v.shape[-1]
    lead = np.broadcast_shapes(a.shape[:-1], v.shape[:-1])
    out = np.zeros(lead + (n + m - 1,), np.result_type(a, v))
    for k in range(m):  # one shifted, scaled copy of a per entry of v
        out[..., k:k + n] += a * v[..., k:k + 1]
    return out


def _abstract(a, v):
    lead = np.broadcast_shapes(tuple(a.shape[:-1]), tuple(v.shape[:-1]))
    return lead + (a.shape[-1] + v.shape[-1] - 1,), np.result_type(a.dtype, v.dtype)


def _reversed(x):
    shape = tuple(x.shape)
    return _ix.slice_(x, index=_ix.full_index(shape[:-1]) + ((shape[-1] - 1, None, -1),))


def _valid_part(full, start, length):
    return _ix.slice_axis(full, len(full.shape) - 1, start, start + length)


def _transpose_to(ct, other, var):
    """The cotangent of `var` in convolve(var, other) (or convolve(other, var))."""
    full = convolve(ct, _reversed(other))
    return fit(_valid_part(full, other.shape[-1] - 1, var.shape[-1]), var)


def _batch(values, dims):
    return convolve(*_shape.align_batch(values, dims, 1)), 0  # 1: the convolved axis


convolve_p = Primitive("convolve", _impl, _abstract)
convolve_p.jvp_rules = (lambda t, ans, a, v: convolve(t, v), lambda t, ans, a, v: convolve(a, t))
convolve_p.transpose_rules = (lambda ct, a, v: _transpose_to(ct, v, a),
                              lambda ct, a, v: _transpose_to(ct, a, v))
convolve_p.multilinear = True
convolve_p.batch = _batch
convolve = binder(convolve_p, 2)
