"""Discrete Fourier transforms: fft, ifft (over any axes), rfft, irfft (one axis).

All four are linear, so each has a jvp rule (apply it to the tangent) and a
transpose rule. Transposes do not conjugate (rune's and JAX's convention: the
pairing is Re(sum ct * t)):

  fft, ifft   The matrix F[j, k] = exp(-2 pi i jk / n) is symmetric, and so is
              its inverse conj(F) / n: each transform is its own transpose.
  rfft        rfft(x) is the first n//2 + 1 entries of fft(x) of a real x: its
              transpose pads the cotangent with zeros to n, applies fft, and
              keeps the real part (the argument is real).
  irfft       x = irfft(c) reads each c[k] twice, as c[k] and its conjugate,
              except c[0] and (for even n) c[n/2]: x_j = (1/n) sum_k w_k
              Re(c_k exp(2 pi i jk / n)) with w = 1, 2, ..., 2, 1. So its
              transpose is w / n * conj(rfft(ct)).

The primitives use numpy's default norm ("backward": only the inverse divides
by n); `rune.nx.fft` scales for the other norms, crops and pads the input to
the lengths asked for, and composes the many-axes real transforms from these
(numpy's rfftn is rfft on the last axis, then fft on the others).
Params arrive normalized: `axes` a tuple of non-negative ints, `axis` an int,
`n` irfft's output length.
"""

from __future__ import annotations

import functools

import numpy as np

from ..core import Primitive, binder
from . import indexing as _ix
from . import shape as _shape
from .elementwise import conj, fit, multiply


@functools.lru_cache(maxsize=None)
def _out_dtype(fn, dtype):
    """The dtype numpy's transform `fn` gives for input of `dtype` (from a sample)."""
    return fn(np.ones(2, dtype)).dtype


def _batch(prim, axis_param):
    """vmap rule: the batch axis goes first, the transformed axes move up by one."""

    def batch(values, dims, **params):
        x = _shape._move_to_front(values[0], dims[0])
        params = dict(params)
        axes = params[axis_param]
        params[axis_param] = tuple(a + 1 for a in axes) if type(axes) is tuple else axes + 1
        return prim.bind(x, **params), 0

    return batch


def _linear(name, impl, abstract_eval, transpose_rule, axis_param):
    prim = Primitive(name, impl, abstract_eval)
    prim.jvp_rules = (lambda t, ans, x, **params: prim.bind(t, **params),)
    prim.transpose_rules = (transpose_rule,)
    prim.batch = _batch(prim, axis_param)
    return binder(prim)


# ------------------------------------------------------------ fft, ifft

fft = _linear(
    "fft", lambda x, axes: np.fft.fftn(x, axes=axes),
    lambda x, axes: (tuple(x.shape), _out_dtype(np.fft.fft, x.dtype)),
    lambda ct, x, axes: fit(fft(ct, axes=axes), x),
    "axes")
ifft = _linear(
    "ifft", lambda x, axes: np.fft.ifftn(x, axes=axes),
    lambda x, axes: (tuple(x.shape), _out_dtype(np.fft.ifft, x.dtype)),
    lambda ct, x, axes: fit(ifft(ct, axes=axes), x),
    "axes")

# ----------------------------------------------------------- rfft, irfft


def _rfft_transpose(ct, x, axis):
    shape = tuple(x.shape)
    padded = _ix.pad(ct, shape=shape, index=_ix.full_index(shape[:axis]) +
                     ((0, ct.shape[axis], 1),), value=0)
    return fit(fft(padded, axes=(axis,)), x)


def _irfft_weights(n, m, ndim, axis, dtype):
    """w / n along `axis` (shape 1 elsewhere): 1 for c[0] and an even n's c[n/2], else 2."""
    w = np.full(m, 2.0)
    w[0] = 1.0
    if n % 2 == 0:
        w[-1] = 1.0
    shape = [1] * ndim
    shape[axis] = m
    return (w / n).reshape(shape).astype(np.finfo(dtype).dtype)


def _irfft_transpose(ct, c, axis, n):
    spectrum = rfft(ct, axis=axis)
    weights = _irfft_weights(n, c.shape[axis], len(c.shape), axis, ct.dtype)
    return fit(multiply(conj(spectrum), weights), c)


def _irfft_abstract(c, axis, n):
    shape = list(c.shape)
    shape[axis] = n
    return tuple(shape), _out_dtype(np.fft.irfft, c.dtype)


def _rfft_abstract(x, axis):
    shape = list(x.shape)
    shape[axis] = shape[axis] // 2 + 1
    return tuple(shape), _out_dtype(np.fft.rfft, x.dtype)


rfft = _linear("rfft", lambda x, axis: np.fft.rfft(x, axis=axis), _rfft_abstract,
               _rfft_transpose, "axis")
irfft = _linear("irfft", lambda c, axis, n: np.fft.irfft(c, n=n, axis=axis), _irfft_abstract,
                _irfft_transpose, "axis")
