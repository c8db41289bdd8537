"""Sums, products, differences: sum, prod, cumsum, diff, gradient, cross, trapezoid...

numpy's "Mathematical functions: sums, products, differences", with the
nan-ignoring `nansum` and numpy 2's `cumulative_sum` and `cumulative_prod`.
Reductions over axes: `axis` is None (all axes), an int or a tuple of ints
(see `normalize_axes`).

Compositions of slicing and arithmetic, so derivatives come with them:
`diff`, `ediff1d` and `trapezoid` are linear in the values (trapezoid also
differentiable in x).


`gradient` and `cross` are compositions of slices and arithmetic,
differentiable in every argument that holds numbers to differentiate (not in
gradient's spacing, which numpy reads as coefficients).
"""

from __future__ import annotations

import math

import numpy as np

from ...primitives import elementwise as _e
from ...primitives import indexing as _ix
from ...primitives import reduce as _r
from ...primitives import shape as _s
from ..creation import _astype, as_tensor
from ..dtypes import as_dtype
from ..manipulation import joining as _joining
from ..manipulation import shape as _shape
from ..manipulation.joining import concatenate
from ..manipulation.shape import reshape
from ..tensor import normalize_axes, normalize_axis, Tensor

__all__ = [
    "sum", "prod", "cumsum", "cumprod", "nansum", "gradient", "cross", "diff", "ediff1d",
    "trapezoid", "cumulative_sum", "cumulative_prod",
]


def _count(shape, axes) -> int:
    return math.prod(shape[a] for a in axes)


def sum(x, axis=None, keepdims=False, *, dtype=None):  # noqa: A001  (numpy's name)
    """The sum of the elements over `axis` (all axes by default).

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None (all axes), an int or a tuple of ints; negative counts from the end.
      keepdims: keep the reduced axes, with size 1.
      dtype: the dtype of the sum, and of x before summing (default: x's, small
        integers widened to 64 bits as numpy does).

    Raises:
      TypeError: x is not numeric, an axis is not an int, or an unknown dtype.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.sum(nx.array([[1.0, 2.0], [3.0, 4.0]]), axis=0))
    float64 [2] [4, 6]
    """
    x = _converted(as_tensor(x, "nx.sum", result_is_new=True), dtype, "nx.sum")
    out = _r.sum(x, axis=normalize_axes(axis, len(x.shape), "nx.sum"), keepdims=keepdims)
    return _converted(out, dtype, "nx.sum")


def prod(x, axis=None, keepdims=False, *, dtype=None):
    """The product of the elements over `axis` (all axes by default).

    Its derivative is exact where elements are zero (it never divides by
    an element).

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None (all axes), an int or a tuple of ints; negative counts from the end.
      keepdims: keep the reduced axes, with size 1.
      dtype: the dtype of the product, and of x before multiplying (default: x's,
        small integers widened to 64 bits as numpy does).

    Raises:
      TypeError: x is not numeric, an axis is not an int, or an unknown dtype.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.prod(nx.array([[1.0, 2.0], [3.0, 4.0]]), axis=1))
    float64 [2] [2, 12]
    """
    x = _converted(as_tensor(x, "nx.prod", result_is_new=True), dtype, "nx.prod")
    out = _r.prod(x, axis=normalize_axes(axis, len(x.shape), "nx.prod"), keepdims=keepdims)
    return _converted(out, dtype, "nx.prod")


def _converted(x, dtype, fn):
    """x in `dtype` (the Array API's dtype= of sum and prod), or x itself for None.
    Both the input and the result are converted: numpy's sum of uint8 alone would widen."""
    if dtype is None or as_dtype(dtype, fn) == x.dtype:
        return x
    return _e.astype(x, dtype=as_dtype(dtype, fn))


def cumsum(x, axis=None):
    """Running sums along `axis` (of the flattened tensor when axis is None).

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: an int, or None to flatten x first.

    Raises:
      TypeError: x is not numeric, or axis is not an int.
      ValueError: axis out of range.

    >>> from rune import nx
    >>> print(nx.cumsum(nx.array([1.0, 2.0, 3.0])))
    float64 [3] [1, 3, 6]
    """
    x, axis = _running_axis(x, axis, "nx.cumsum")
    return _r.cumsum(x, axis=axis, reverse=False)


def cumprod(x, axis=None):
    """Running products along `axis` (of the flattened tensor when axis is None).

    The derivative divides by nothing, so it is exact where x has zeros.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: an int, or None to flatten x first.

    Raises:
      TypeError: x is not numeric, or axis is not an int.
      ValueError: axis out of range.

    >>> from rune import nx
    >>> print(nx.cumprod(nx.array([1.0, 2.0, 3.0])))
    float64 [3] [1, 2, 6]
    """
    x, axis = _running_axis(x, axis, "nx.cumprod")
    return _r.cumprod(x, axis=axis)


def _running_axis(x, axis, fn):
    """x and the axis of a running sum or product: axis None flattens x."""
    x = as_tensor(x, fn)
    if axis is None:
        return _s.reshape(x, shape=(x.size,)), 0
    return x, normalize_axis(axis, len(x.shape), fn)


def _without_nan(x, fn, fill):
    """(x with nan replaced by `fill`, the mask of the numbers) for floats; ints pass."""
    x = as_tensor(x, fn)
    if x.dtype.kind not in "fc":
        return x, None
    numbers = _e.logical_not(_e.isnan(x))
    return _e.where(numbers, x, _e.astype(as_tensor(fill, fn), dtype=x.dtype)), numbers


def nansum(a, axis=None, keepdims=False):
    """The sum over `axis`, counting nan as zero.

    Args:
      a: a tensor, numpy array or nested list.
      axis: None (all axes), an int or a tuple of ints.
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: a is not numeric.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.nansum(nx.array([1.0, float("nan"), 2.5])))
    float64 [] 3.5
    """
    x, _ = _without_nan(a, "nx.nansum", 0)
    return _r.sum(x, axis=normalize_axes(axis, x.ndim, "nx.nansum"), keepdims=keepdims)


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


def _vectors(a, v, fn):
    a, v = as_tensor(a, fn), as_tensor(v, fn)
    for name, x in (("a", a), ("v", v)):
        if x.ndim != 1 or x.shape[0] == 0:
            raise ValueError(f"{fn}: {name} must be a non-empty 1-d sequence, got shape {x.shape}")
    return a, v


def _float(x):
    return x if x.dtype.kind in "fc" else _e.astype(x, dtype=np.dtype(np.float64))


def _sliced(a, axis, start, stop):
    return _ix.slice_(a, index=_ix.full_index(a.shape[:axis]) + ((start, stop, 1),))


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The n-th differences along `axis`: a[1:] - a[:-1], n times.

    Args:
      a: a tensor with at least one axis (or numpy array, nested lists).
      n: how many times to difference (an int >= 0).
      axis: an int.
      prepend, append: values put before / after a along axis first
        (numbers broadcast to one slice), or None.

    Raises:
      TypeError: a is not numeric, or n or axis is not an int.
      ValueError: n negative, a 0-d, or axis out of range.

    >>> from rune import nx
    >>> print(nx.diff(nx.array([1.0, 4.0, 9.0, 16.0])), nx.diff(nx.array([1, 4, 9, 16]), n=2))
    float64 [3] [3, 5, 7] int64 [2] [2, 2]
    """
    fn = "nx.diff"
    a = as_tensor(a, fn)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"{fn}: n must be a non-negative int, got {n!r}")
    if a.ndim == 0:
        raise ValueError(f"{fn}: a must have at least one axis")
    axis = normalize_axis(axis, a.ndim, fn)
    parts = []
    for extra in (prepend, a, append):
        if extra is None:
            continue
        extra = as_tensor(extra, fn)
        if extra.ndim == 0:
            shape = tuple(a.shape[:axis]) + (1,) + tuple(a.shape[axis + 1:])
            extra = _s.broadcast_to(_s.reshape(extra, shape=(1,) * a.ndim), shape=shape)
        parts.append(extra)
    if len(parts) > 1:
        a = concatenate(parts, axis=axis)
    for _ in range(n):
        m = a.shape[axis]
        if m == 0:
            break
        a = _e.subtract(_sliced(a, axis, 1, m), _sliced(a, axis, 0, m - 1))
    return a


def ediff1d(ary, to_end=None, to_begin=None):
    """The differences between consecutive elements of the flattened ary, with
    optional values before and after.

    Args:
      ary: a tensor (or numpy array, nested lists); it is flattened.
      to_end: values appended after the differences (flattened), or None.
      to_begin: values put before the differences (flattened), or None.

    Raises:
      TypeError: an argument is not numeric.

    >>> from rune import nx
    >>> print(nx.ediff1d(nx.array([1.0, 2.0, 4.0]), to_begin=-9.0))
    float64 [3] [-9, 1, 2]
    """
    fn = "nx.ediff1d"
    a = as_tensor(ary, fn)
    a = reshape(a, (a.size,))
    parts = [diff(a) if a.size else a]
    for extra, first in ((to_begin, True), (to_end, False)):
        if extra is not None:
            extra = as_tensor(extra, fn)
            extra = _e.astype(reshape(extra, (extra.size,)), dtype=a.dtype)
            parts.insert(0, extra) if first else parts.append(extra)
    return concatenate(parts) if len(parts) > 1 else parts[0]


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of y along `axis` by the trapezoidal rule.

    Args:
      y: a tensor of values (or numpy array, nested lists).
      x: the sample points (1-d along axis, or y's shape), or None for
        points `dx` apart.
      dx: the spacing when x is None.
      axis: the axis to integrate along.

    Raises:
      TypeError: an argument is not numeric, or axis is not an int.
      ValueError: axis out of range, or x of a shape that does not fit y.

    >>> from rune import nx
    >>> print(nx.trapezoid(nx.array([1.0, 2.0, 3.0]), dx=0.5))
    float64 [] 2
    """
    fn = "nx.trapezoid"
    y = as_tensor(y, fn)
    axis = normalize_axis(axis, y.ndim, fn)
    if x is None:
        d = dx
    else:
        x = as_tensor(x, fn)
        d = diff(x, axis=-1 if x.ndim == 1 else axis)
        if x.ndim == 1:
            d = _s.reshape(d, shape=(d.shape[0],) + (1,) * (y.ndim - 1 - axis))
    m = y.shape[axis]
    pairs = _e.add(_sliced(y, axis, 1, m), _sliced(y, axis, 0, m - 1)) if m else y
    return sum(_e.divide(_e.multiply(d, pairs), 2.0), axis=axis)


def _cumulative(x, axis, dtype, include_initial, scan, start, fn):
    x = as_tensor(x, fn)
    if dtype is not None:
        x = _astype(x, dtype, fn)
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"{fn}: axis must be given for a tensor with more than one axis "
                             f"(shape {x.shape})")
        axis = 0
    if x.ndim == 0:
        x = _shape.reshape(x, (1,))
    a = normalize_axis(axis, x.ndim, fn)
    out = scan(x, axis=a)
    if dtype is not None and out.dtype != x.dtype:  # numpy's scan widens small integers
        out = _astype(out, x.dtype, fn)
    if not include_initial:
        return out
    shape = tuple(x.shape)
    first = Tensor(np.full(shape[:a] + (1,) + shape[a + 1:], start, dtype=out.dtype))
    return _joining.concatenate([first, out], axis=a)


def cumulative_sum(x, axis=None, dtype=None, include_initial=False):
    """Running sums along `axis` (the array API's cumsum), optionally starting with 0.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: an int; may be None only for a tensor with at most one axis.
      dtype: the dtype to sum in, or None for x's.
      include_initial: put the empty sum, 0, first (the result is one longer).

    Raises:
      TypeError: x is not numeric, axis is not an int, or an unknown dtype.
      ValueError: axis None for a tensor of two axes or more, or out of range.

    >>> from rune import nx
    >>> print(nx.cumulative_sum(nx.array([1.0, 2.0, 3.0]), include_initial=True))
    float64 [4] [0, 1, 3, 6]
    """
    return _cumulative(x, axis, dtype, include_initial, cumsum, 0, "nx.cumulative_sum")


def cumulative_prod(x, axis=None, dtype=None, include_initial=False):
    """Running products along `axis` (the array API's cumprod), optionally starting with 1.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: an int; may be None only for a tensor with at most one axis.
      dtype: the dtype to multiply in, or None for x's.
      include_initial: put the empty product, 1, first (the result is one longer).

    Raises:
      TypeError: x is not numeric, axis is not an int, or an unknown dtype.
      ValueError: axis None for a tensor of two axes or more, or out of range.

    >>> from rune import nx
    >>> print(nx.cumulative_prod(nx.array([1.0, 2.0, 3.0]), include_initial=True))
    float64 [4] [1, 1, 2, 6]
    """
    return _cumulative(x, axis, dtype, include_initial, cumprod, 1, "nx.cumulative_prod")
