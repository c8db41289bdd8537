"""Differences and products of sequences: gradient, cross, vdot, convolve, correlate.

Compositions of slices, arithmetic and (for convolve and correlate) the
bilinear `convolve` primitive of rune/primitives/convolution.py, so each is
differentiable in every argument that holds numbers to differentiate (not in
gradient's spacing, which numpy reads as coefficients).
"""

from __future__ import annotations

import numpy as np

from ..primitives import convolution as _c
from ..primitives import elementwise as _e
from ..primitives import indexing as _ix
from ..primitives import reduce as _r
from ..primitives import shape as _s
from .creation import as_tensor
from .reductions import normalize_axis

__all__ = ["gradient", "cross", "vdot", "convolve", "correlate"]


def _along(x, axis, start, stop):
    """x[..., start:stop, ...] along one axis; start and stop may be negative."""
    n = x.shape[axis]
    start, stop, _ = slice(start, stop).indices(n)
    return _ix.slice_axis(x, axis, start, max(start, stop))


def gradient(f, *varargs, axis=None, edge_order=1):
    """The derivative of sampled f along each axis: second-order central differences
    inside, one-sided differences of order `edge_order` at the ends (numpy's).

    Differentiable in f; the spacings are read as numbers (not differentiated).

    Args:
      f: a tensor, numpy array or nested list of samples.
      *varargs: the spacing: nothing (1), one number for every axis, or one
        per axis, each a number or the coordinates along that axis.
      axis: None (every axis), an int or a tuple of ints.
      edge_order: 1 or 2.

    Returns:
      One tensor for one axis, else a tuple of tensors (one per axis).

    Raises:
      TypeError: f is not numeric.
      ValueError: a wrong number of spacings, coordinates of the wrong length,
        edge_order not 1 or 2, or an axis shorter than edge_order + 1.

    >>> from rune import nx
    >>> print(nx.gradient(nx.array([1.0, 4.0, 9.0, 16.0])))
    float64 [4] [3, 4, 6, 7]
    >>> print(nx.gradient(nx.array([1.0, 4.0, 9.0, 16.0]), 2.0, edge_order=2))
    float64 [4] [1, 2, 3, 4]
    """
    f = as_tensor(f, "nx.gradient")
    if f.dtype.kind not in "fc":
        f = _e.astype(f, dtype=np.dtype(np.float64))
    axes = tuple(range(f.ndim)) if axis is None else (
        (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis))
    axes = tuple(normalize_axis(a, f.ndim, "nx.gradient") for a in axes)
    if edge_order not in (1, 2):
        raise ValueError(f"nx.gradient: edge_order must be 1 or 2, got {edge_order!r}")
    if len(varargs) == 0:
        spacings = [1.0] * len(axes)
    elif len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        spacings = [varargs[0]] * len(axes)
    elif len(varargs) == len(axes):
        spacings = list(varargs)
    else:
        raise ValueError(f"nx.gradient: give no spacing, one, or one per axis ({len(axes)}); "
                         f"got {len(varargs)}")
    out = tuple(_gradient_along(f, a, np.asarray(h, np.float64), edge_order)
                for a, h in zip(axes, spacings))
    return out[0] if len(out) == 1 else out


def _weights(w, axis, ndim):
    """Coefficients w (1-d, along axis) shaped to broadcast against f, as Python
    floats when all equal (a weak scalar keeps float32 float32)."""
    w = np.asarray(w, np.float64)
    if w.size and np.all(w == w.flat[0]):
        return float(w.flat[0])
    shape = [1] * ndim
    shape[axis] = w.size
    return w.reshape(shape)


def _gradient_along(f, axis, h, edge_order):
    n = f.shape[axis]
    if n < edge_order + 1:
        raise ValueError(f"nx.gradient: axis {axis} has {n} samples; edge_order={edge_order} "
                         f"needs at least {edge_order + 1}")
    if h.ndim == 0:
        dx = np.full(n - 1, float(h))
    elif h.shape != (n,):
        raise ValueError(f"nx.gradient: the coordinates along axis {axis} have shape "
                         f"{h.shape}; expected ({n},)")
    else:
        dx = np.diff(h)

    def part(start, stop):
        return _along(f, axis, start, stop)

    def combine(terms):
        out = None
        for coefficient, values in terms:
            term = _e.multiply(values, _weights(coefficient, axis, f.ndim))
            out = term if out is None else _e.add(out, term)
        return out

    pieces = []
    d1, d2 = dx[:-1], dx[1:]
    inside = combine([(-d2 / (d1 * (d1 + d2)), part(0, -2)), ((d2 - d1) / (d1 * d2), part(1, -1)),
                      (d1 / (d2 * (d1 + d2)), part(2, None))]) if n > 2 else None
    if edge_order == 1:
        first = combine([(-1 / dx[:1], part(0, 1)), (1 / dx[:1], part(1, 2))])
        last = combine([(-1 / dx[-1:], part(-2, -1)), (1 / dx[-1:], part(-1, None))])
    else:
        a, b = dx[:1], dx[1:2]
        first = combine([(-(2 * a + b) / (a * (a + b)), part(0, 1)),
                         ((a + b) / (a * b), part(1, 2)), (-a / (b * (a + b)), part(2, 3))])
        a, b = dx[-2:-1], dx[-1:]
        last = combine([(b / (a * (a + b)), part(-3, -2)), (-(a + b) / (a * b), part(-2, -1)),
                        ((2 * b + a) / (b * (a + b)), part(-1, None))])
    pieces = [first] + ([inside] if inside is not None else []) + [last]
    return _s.concatenate(*pieces, axis=axis)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors (or the z part for 2-vectors), broadcasting.

    Args:
      a, b: tensors, numpy arrays or nested lists whose vector axis has 2 or 3
        entries.
      axisa, axisb: the vector axis of a and of b (default the last).
      axisc: where the result's vector axis goes (3-vectors only).
      axis: if given, the vector axis of a, b and the result (overrides the others).

    Raises:
      TypeError: a or b is not numeric.
      ValueError: a vector axis without 2 or 3 entries, or shapes that do not
        broadcast.

    >>> from rune import nx
    >>> print(nx.cross(nx.array([1.0, 0.0, 0.0]), nx.array([0.0, 1.0, 0.0])))
    float64 [3] [0, 0, 1]
    """
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = as_tensor(a, "nx.cross"), as_tensor(b, "nx.cross")
    a = _s.moveaxis(a, normalize_axis(axisa, a.ndim, "nx.cross"), a.ndim - 1)
    b = _s.moveaxis(b, normalize_axis(axisb, b.ndim, "nx.cross"), b.ndim - 1)
    for name, v in (("a", a), ("b", b)):
        if v.shape[-1] not in (2, 3):
            raise ValueError(f"nx.cross: the vector axis of {name} has {v.shape[-1]} entries; "
                             f"expected 2 or 3")

    def component(v, i):
        if i >= v.shape[-1]:
            return 0.0  # a 2-vector's z part
        index = _ix.full_index(v.shape[:-1]) + (i,)
        return _ix.slice_(v, index=index)

    a0, a1, a2 = (component(a, i) for i in range(3))
    b0, b1, b2 = (component(b, i) for i in range(3))
    z = _e.subtract(_e.multiply(a0, b1), _e.multiply(a1, b0))
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return z
    x = _e.subtract(_e.multiply(a1, b2), _e.multiply(a2, b1))
    y = _e.subtract(_e.multiply(a2, b0), _e.multiply(a0, b2))
    parts = [_s.reshape(_s.broadcast_to(c, shape=z.shape) if c.shape != z.shape else c,
                        shape=tuple(z.shape) + (1,)) for c in (x, y, z)]
    out = _s.concatenate(*parts, axis=len(z.shape))
    return _s.moveaxis(out, out.ndim - 1, normalize_axis(axisc, out.ndim, "nx.cross"))


def vdot(a, b):
    """sum(conj(a) * b) over all elements (a is conjugated; both are flattened).

    Args:
      a, b: tensors, numpy arrays or nested lists with the same number of elements.

    Raises:
      TypeError: a or b is not numeric.
      ValueError: a and b have different sizes.

    >>> from rune import nx
    >>> print(nx.vdot(nx.array([1j, 2.0]), nx.array([1j, 3.0])))
    complex128 [] 7+0i
    """
    a, b = as_tensor(a, "nx.vdot"), as_tensor(b, "nx.vdot")
    if a.size != b.size:
        raise ValueError(f"nx.vdot: a and b have {a.size} and {b.size} elements; they must "
                         f"have as many")
    flat_a = _s.reshape(_e.conj(a) if a.dtype.kind == "c" else a, shape=(a.size,))
    product = _e.multiply(flat_a, _s.reshape(b, shape=(b.size,)))
    return _r.sum(product, axis=(0,), keepdims=False)


def _vectors(a, v, fn):
    a, v = as_tensor(a, fn), as_tensor(v, fn)
    for name, x in (("a", a), ("v", v)):
        if x.ndim != 1 or x.shape[0] == 0:
            raise ValueError(f"{fn}: {name} must be a non-empty 1-d sequence, got shape {x.shape}")
    return a, v


def _mode_part(full, n, m, mode, fn):
    """numpy's "same" or "valid" part of a full convolution of lengths n >= m."""
    if mode == "full":
        return full
    if mode == "same":
        return _along(full, 0, (m - 1) // 2, (m - 1) // 2 + n)
    if mode == "valid":
        return _along(full, 0, m - 1, n)
    raise ValueError(f"{fn}: mode must be 'full', 'same' or 'valid', got {mode!r}")


def convolve(a, v, mode="full"):
    """The discrete convolution of two 1-d sequences: out[i] = sum_k a[i - k] v[k].

    Bilinear: differentiable in both a and v.

    Args:
      a, v: non-empty 1-d tensors, numpy arrays or lists.
      mode: "full" (length n + m - 1), "same" (max(n, m)) or "valid"
        (max(n, m) - min(n, m) + 1).

    Raises:
      TypeError: a or v is not numeric.
      ValueError: a or v not 1-d or empty, or an unknown mode.

    >>> from rune import nx
    >>> print(nx.convolve(nx.array([1.0, 2.0, 3.0]), nx.array([0.0, 1.0, 0.5])))
    float64 [5] [0, 1, 2.5, 4, 1.5]
    """
    a, v = _vectors(a, v, "nx.convolve")
    n, m = a.shape[0], v.shape[0]
    if n < m:
        a, v, n, m = v, a, m, n  # numpy's order; convolution commutes
    return _mode_part(_c.convolve(a, v), n, m, mode, "nx.convolve")


def correlate(a, v, mode="valid"):
    """The cross-correlation of two 1-d sequences: out[k] = sum_n a[n + k] conj(v[n]).

    Bilinear in a and conj(v): differentiable in both.

    Args:
      a, v: non-empty 1-d tensors, numpy arrays or lists.
      mode: "valid" (default), "same" or "full", as for convolve.

    Raises:
      TypeError: a or v is not numeric.
      ValueError: a or v not 1-d or empty, or an unknown mode.

    >>> from rune import nx
    >>> print(nx.correlate(nx.array([1.0, 2.0, 3.0]), nx.array([0.0, 1.0, 0.5])))
    float64 [1] [3.5]
    """
    a, v = _vectors(a, v, "nx.correlate")
    n, m = a.shape[0], v.shape[0]
    if n < m:  # numpy: the correlation of v and a, reversed and conjugated
        swapped = correlate(v, a, mode)
        swapped = _ix.slice_(swapped, index=((swapped.shape[0] - 1, None, -1),))
        return _e.conj(swapped) if swapped.dtype.kind == "c" else swapped
    reversed_v = _ix.slice_(v, index=((m - 1, None, -1),))
    kernel = _e.conj(reversed_v) if v.dtype.kind == "c" else reversed_v
    return _mode_part(_c.convolve(a, kernel), n, m, mode, "nx.correlate")
