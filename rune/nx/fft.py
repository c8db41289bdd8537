"""`nx.fft`: discrete Fourier transforms, with numpy.fft's names and arguments.

Every transform is linear and differentiable in both modes, to any order
(the rules are in rune/primitives/fft.py). `n` / `s` crop or zero-pad the
input along the transformed axes, as numpy does (an entry -1 of `s` keeps
the input's length; a repeated axis is transformed again); `norm` is "backward" (the
default: the inverse divides by n), "ortho" (both by sqrt(n)) or "forward".
Complex input to the real transforms (rfft, rfftn...) raises TypeError:
numpy refuses it too.
"""

from __future__ import annotations

import math

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import fft as _f
from ..primitives import indexing as _ix
from ..primitives import shape as _s
from .creation import as_tensor, check_device
from .dtypes import as_dtype
from .tensor import Tensor, normalize_axis

__all__ = [
    "fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2",
    "fftn", "ifftn", "rfftn", "irfftn", "fftshift", "ifftshift", "fftfreq", "rfftfreq",
]

_NORMS = ("backward", "ortho", "forward")


# ------------------------------------------------------------------ helpers


def _norm_factor(norm, size, inverse, fn):
    """What the backward-normalized result is multiplied by for `norm`."""
    if norm is None or norm == "backward":
        return 1.0
    if norm not in _NORMS:
        raise ValueError(f"{fn}: norm must be one of {_NORMS} or None, got {norm!r}")
    if norm == "ortho":
        return math.sqrt(size) if inverse else 1 / math.sqrt(size)
    return float(size) if inverse else 1 / size


def _scaled(out, factor):
    return out if factor == 1.0 else _e.multiply(out, factor)


def _resized(x, axis, n):
    """x cropped or zero-padded to length n along axis (numpy's `n` argument)."""
    length = x.shape[axis]
    if n == length:
        return x
    if n < length:
        return _ix.slice_axis(x, axis, 0, n)
    shape = x.shape[:axis] + (n,) + x.shape[axis + 1:]
    return _ix.pad(x, shape=shape, index=_ix.full_index(x.shape[:axis]) + ((0, length, 1),),
                   value=0)


def _length(n, default, fn, name="n"):
    """n as a positive int (`default` for None, if there is one), or an error naming it."""
    if n is None and default is not None:
        return default
    if isinstance(n, (bool, np.bool_)) or not hasattr(n, "__index__"):
        raise TypeError(f"{fn}: {name} must be an int (the transform's length), got {n!r}")
    if int(n) < 1:
        raise ValueError(f"{fn}: {name} must be a positive int (the transform's length), "
                         f"got {n!r}")
    return int(n)


def _real_input(x, fn):
    x = as_tensor(x, fn)
    if x.dtype.kind == "c":
        raise TypeError(f"{fn}: a is complex ({x.dtype}); the real transforms take real "
                        f"input (use the complex transform, or nx.real(a))")
    return x


def _axes_and_lengths(x, s, axes, fn, last_default=None):
    """numpy's rules for fftn's s and axes: normalized axes and one length per axis.

    axes default to the last len(s) axes, or all; s defaults to x's lengths
    (`last_default`, if given, replaces the default of the last axis: irfftn),
    and an entry -1 of s keeps x's length along its axis.
    """
    if s is not None and (isinstance(s, str) or not hasattr(s, "__len__")):
        raise TypeError(f"{fn}: s must be a sequence of ints (one length per axis), got {s!r}")
    if axes is None:
        axes = range(-len(s), 0) if s is not None else range(x.ndim)
        if s is not None and len(s) > x.ndim:
            raise ValueError(f"{fn}: s has {len(s)} lengths but a has only {x.ndim} axes "
                             f"(pass axes to say which axis each length is for)")
    elif isinstance(axes, (int, np.integer)):
        raise TypeError(f"{fn}: axes must be a sequence of ints, got {axes!r} (use the "
                        f"one-axis transform for one axis)")
    axes = tuple(normalize_axis(a, x.ndim, fn) for a in axes)
    if s is None:
        lengths = [x.shape[a] for a in axes]
        if last_default is not None and axes:
            lengths[-1] = last_default(x.shape[axes[-1]])
        return axes, tuple(lengths)
    if len(s) != len(axes):
        raise ValueError(f"{fn}: s and axes have different lengths ({len(s)} and "
                         f"{len(axes)})")
    return axes, tuple(_entry_of_s(n, x.shape[a], fn) for n, a in zip(s, axes))


def _entry_of_s(n, length, fn):
    """One entry of s: -1 keeps the input's length (numpy 2's rule)."""
    if n is None:
        raise TypeError(f"{fn}: s contains None (numpy 2 deprecates it); use -1 for the "
                        f"input's length along that axis")
    if not isinstance(n, (bool, np.bool_)) and hasattr(n, "__index__") and int(n) == -1:
        return length
    return _length(n, None, fn, "each entry of s")


def _complex_nd(prim, x, axes, lengths, norm, inverse, fn, last_axis_first=True):
    """prim along each of axes, x cropped or padded to its length there first.

    Distinct axes are one call. A repeated axis is transformed again, cropped or
    padded to each of its lengths in turn, in numpy's order: last axis first
    (fftn, ifftn, rfftn), or first axis first (irfftn's inner transforms).
    """
    if not axes:
        return _e.astype(x, dtype=np.result_type(x.dtype, np.complex64))
    if len(set(axes)) == len(axes):
        for axis, n in zip(axes, lengths):
            x = _resized(x, axis, n)
        out = prim(x, axes=axes)
    else:
        steps = list(zip(axes, lengths))
        out = x
        for axis, n in (reversed(steps) if last_axis_first else steps):
            out = prim(_resized(out, axis, n), axes=(axis,))
    return _scaled(out, _norm_factor(norm, math.prod(lengths), inverse, fn))


# ---------------------------------------------------------------- one axis


def fft(a, n=None, axis=-1, norm=None):
    """The discrete Fourier transform along one axis: out[k] = sum_j a[j] exp(-2 pi i jk/n).

    Linear: its derivative is itself, and its transpose is fft again.

    Args:
      a: a tensor, numpy array or nested list (real or complex).
      n: the transform's length: a is cropped or zero-padded to n along axis.
      axis: the axis transformed (default the last).
      norm: "backward" (default, None), "ortho" or "forward".

    Raises:
      TypeError: a is not numeric, or n is not an int.
      ValueError: n below 1, axis out of range or an unknown norm.

    >>> from rune import nx
    >>> print(nx.fft.fft(nx.array([1.0, 2.0, 3.0, 4.0])))
    complex128 [4] [10+0i, -2+2i, -2+0i, -2-2i]
    """
    a = as_tensor(a, "nx.fft.fft")
    axis = normalize_axis(axis, a.ndim, "nx.fft.fft")
    n = _length(n, a.shape[axis], "nx.fft.fft")
    return _complex_nd(_f.fft, a, (axis,), (n,), norm, False, "nx.fft.fft")


def ifft(a, n=None, axis=-1, norm=None):
    """The inverse discrete Fourier transform along one axis (fft's inverse).

    Args:
      a: a tensor, numpy array or nested list (real or complex).
      n: the transform's length: a is cropped or zero-padded to n along axis.
      axis: the axis transformed (default the last).
      norm: "backward" (default: divide by n), "ortho" or "forward".

    Raises:
      TypeError: a is not numeric, or n is not an int.
      ValueError: n below 1, axis out of range or an unknown norm.

    >>> from rune import nx
    >>> print(nx.fft.ifft(nx.array([10, -2 + 2j, -2, -2 - 2j])))
    complex128 [4] [1+0i, 2+0i, 3+0i, 4+0i]
    """
    a = as_tensor(a, "nx.fft.ifft")
    axis = normalize_axis(axis, a.ndim, "nx.fft.ifft")
    n = _length(n, a.shape[axis], "nx.fft.ifft")
    return _complex_nd(_f.ifft, a, (axis,), (n,), norm, True, "nx.fft.ifft")


def rfft(a, n=None, axis=-1, norm=None):
    """The Fourier transform of real input: the n//2 + 1 non-negative frequencies of fft.

    Args:
      a: a real tensor, numpy array or nested list.
      n: the transform's length: a is cropped or zero-padded to n along axis.
      axis: the axis transformed (default the last).
      norm: "backward" (default, None), "ortho" or "forward".

    Raises:
      TypeError: a is complex or not numeric, or n is not an int.
      ValueError: n below 1, axis out of range or an unknown norm.

    >>> from rune import nx
    >>> print(nx.fft.rfft(nx.array([1.0, 2.0, 3.0, 4.0])))
    complex128 [3] [10+0i, -2+2i, -2+0i]
    """
    return _rfft(_real_input(a, "nx.fft.rfft"), n, axis, norm, "nx.fft.rfft")


def _rfft(a, n, axis, norm, fn):
    axis = normalize_axis(axis, a.ndim, fn)
    n = _length(n, a.shape[axis], fn)
    out = _f.rfft(_resized(a, axis, n), axis=axis)
    return _scaled(out, _norm_factor(norm, n, False, fn))


def irfft(a, n=None, axis=-1, norm=None):
    """The inverse of rfft: a real signal of length n from its n//2 + 1 frequencies.

    The imaginary parts of a[0] (and of a[n/2] for even n) do not count, so
    their derivative is zero.

    Args:
      a: a tensor, numpy array or nested list (the half spectrum, complex).
      n: the output's length (default 2 * (m - 1) for m entries along axis);
        a is cropped or zero-padded to n//2 + 1 entries.
      axis: the axis transformed (default the last).
      norm: "backward" (default: divide by n), "ortho" or "forward".

    Raises:
      TypeError: a is not numeric, or n is not an int.
      ValueError: n below 1, axis out of range or an unknown norm.

    >>> from rune import nx
    >>> print(nx.fft.irfft(nx.array([10, -2 + 2j, -2])))
    float64 [4] [1, 2, 3, 4]
    """
    return _irfft(as_tensor(a, "nx.fft.irfft"), n, axis, norm, "nx.fft.irfft")


def _irfft(a, n, axis, norm, fn):
    axis = normalize_axis(axis, a.ndim, fn)
    n = _length(n, 2 * (a.shape[axis] - 1), fn)
    out = _f.irfft(_resized(a, axis, n // 2 + 1), axis=axis, n=n)
    return _scaled(out, _norm_factor(norm, n, True, fn))


# hfft is irfft of the conjugate, ihfft the conjugate of rfft, each normalized the
# other way round (numpy's definition): "backward" scales hfft by 1 and ihfft by 1/n.
_OPPOSITE = {None: "forward", "backward": "forward", "forward": "backward"}


def hfft(a, n=None, axis=-1, norm=None):
    """The real spectrum of a Hermitian-symmetric signal given by its first half.

    Args:
      a: a tensor, numpy array or nested list (the signal's first n//2 + 1 values).
      n: the output's length (default 2 * (m - 1) for m entries along axis).
      axis: the axis transformed (default the last).
      norm: "backward" (default, None: no scaling), "ortho" or "forward".

    Raises:
      TypeError: a is not numeric, or n is not an int.
      ValueError: n below 1, axis out of range or an unknown norm.

    >>> from rune import nx
    >>> print(nx.fft.hfft(nx.array([1.0, 2j, 3.0])))
    float64 [4] [4, 2, 4, -6]
    """
    a = _e.conj(as_tensor(a, "nx.fft.hfft"))
    return _irfft(a, n, axis, _OPPOSITE.get(norm, norm), "nx.fft.hfft")


def ihfft(a, n=None, axis=-1, norm=None):
    """The inverse of hfft: the first n//2 + 1 values of a Hermitian signal from its
    real spectrum.

    Args:
      a: a real tensor, numpy array or nested list.
      n: the transform's length: a is cropped or zero-padded to n along axis.
      axis: the axis transformed (default the last).
      norm: "backward" (default, None: divide by n), "ortho" or "forward".

    Raises:
      TypeError: a is complex or not numeric, or n is not an int.
      ValueError: n below 1, axis out of range or an unknown norm.

    >>> from rune import nx
    >>> print(nx.fft.ihfft(nx.array([4.0, 2.0, 4.0, -6.0])))
    complex128 [3] [1-0i, 0+2i, 3-0i]
    """
    a = _real_input(a, "nx.fft.ihfft")
    return _e.conj(_rfft(a, n, axis, _OPPOSITE.get(norm, norm), "nx.fft.ihfft"))


# --------------------------------------------------------------- many axes


def fftn(a, s=None, axes=None, norm=None):
    """The n-dimensional discrete Fourier transform over `axes` (default all).

    Args:
      a: a tensor, numpy array or nested list (real or complex).
      s: the lengths along `axes` (crop or zero-pad; -1 keeps a's), default a's.
      axes: the axes transformed: default the last len(s) axes, or all.
      norm: "backward" (default, None), "ortho" or "forward".

    Raises:
      TypeError: a is not numeric, axes is one int, s is not a sequence or an
        entry of s is not an int.
      ValueError: s and axes of different lengths, more lengths in s than a
        has axes (without axes), an axis out of range, a length below 1 (other
        than -1) or an unknown norm.

    >>> from rune import nx
    >>> print(nx.fft.fftn(nx.array([[1.0, 2.0], [3.0, 4.0]])))
    complex128 [2, 2]
    [[10+0i, -2+0i],
     [-4+0i,  0+0i]]
    """
    return _fftn(a, s, axes, norm, "nx.fft.fftn")


def _fftn(a, s, axes, norm, fn):
    a = as_tensor(a, fn)
    axes, lengths = _axes_and_lengths(a, s, axes, fn)
    return _complex_nd(_f.fft, a, axes, lengths, norm, False, fn)


def ifftn(a, s=None, axes=None, norm=None):
    """The n-dimensional inverse discrete Fourier transform (fftn's inverse).

    Args:
      a: a tensor, numpy array or nested list (real or complex).
      s: the lengths along `axes` (crop or zero-pad; -1 keeps a's), default a's.
      axes: the axes transformed: default the last len(s) axes, or all.
      norm: "backward" (default: divide by the product of the lengths),
        "ortho" or "forward".

    Raises:
      TypeError: a is not numeric, axes is one int, s is not a sequence or an
        entry of s is not an int.
      ValueError: s and axes of different lengths, more lengths in s than a
        has axes (without axes), an axis out of range, a length below 1 (other
        than -1) or an unknown norm.

    >>> from rune import nx
    >>> print(nx.fft.ifftn(nx.array([[10, -2], [-4, 0]])).real)
    float64 [2, 2]
    [[1, 2],
     [3, 4]]
    """
    return _ifftn(a, s, axes, norm, "nx.fft.ifftn")


def _ifftn(a, s, axes, norm, fn):
    a = as_tensor(a, fn)
    axes, lengths = _axes_and_lengths(a, s, axes, fn)
    return _complex_nd(_f.ifft, a, axes, lengths, norm, True, fn)


def fft2(a, s=None, axes=(-2, -1), norm=None):
    """The two-dimensional discrete Fourier transform: fftn over the last two axes.

    Args:
      a: a tensor, numpy array or nested list with at least two axes.
      s: the lengths along `axes` (crop or zero-pad; -1 keeps a's), default a's.
      axes: the two axes transformed (default the last two).
      norm: "backward" (default, None), "ortho" or "forward".

    Raises:
      TypeError: as for fftn.
      ValueError: as for fftn.

    >>> from rune import nx
    >>> print(nx.fft.fft2(nx.ones((2, 2))).real)
    float64 [2, 2]
    [[4, 0],
     [0, 0]]
    """
    return _fftn(a, s, axes, norm, "nx.fft.fft2")


def ifft2(a, s=None, axes=(-2, -1), norm=None):
    """The two-dimensional inverse discrete Fourier transform: ifftn over the last two axes.

    Args:
      a: a tensor, numpy array or nested list with at least two axes.
      s: the lengths along `axes` (crop or zero-pad; -1 keeps a's), default a's.
      axes: the two axes transformed (default the last two).
      norm: "backward" (default, None), "ortho" or "forward".

    Raises:
      TypeError: as for ifftn.
      ValueError: as for ifftn.

    >>> from rune import nx
    >>> print(nx.fft.ifft2(nx.array([[4.0, 0.0], [0.0, 0.0]])).real)
    float64 [2, 2]
    [[1, 1],
     [1, 1]]
    """
    return _ifftn(a, s, axes, norm, "nx.fft.ifft2")


def rfftn(a, s=None, axes=None, norm=None):
    """The n-dimensional transform of real input: rfft along the last of `axes`,
    then fft along the others (as numpy computes it).

    Args:
      a: a real tensor, numpy array or nested list.
      s: the lengths along `axes` (crop or zero-pad; -1 keeps a's), default a's.
      axes: the axes transformed: default the last len(s) axes, or all.
      norm: "backward" (default, None), "ortho" or "forward".

    Raises:
      TypeError: a is complex, or as for fftn.
      ValueError: as for fftn, or no axes at all.

    >>> from rune import nx
    >>> print(nx.fft.rfftn(nx.array([[1.0, 2.0], [3.0, 4.0]])))
    complex128 [2, 2]
    [[10+0i, -2+0i],
     [-4+0i,  0+0i]]
    """
    return _rfftn(a, s, axes, norm, "nx.fft.rfftn")


def _rfftn(a, s, axes, norm, fn):
    a = _real_input(a, fn)
    axes, lengths = _axes_and_lengths(a, s, axes, fn)
    if not axes:
        raise ValueError(f"{fn}: no axes to transform (axes=())")
    half = _f.rfft(_resized(a, axes[-1], lengths[-1]), axis=axes[-1])
    out = _complex_nd(_f.fft, half, axes[:-1], lengths[:-1], None, False, fn)
    return _scaled(out, _norm_factor(norm, math.prod(lengths), False, fn))


def irfftn(a, s=None, axes=None, norm=None):
    """The inverse of rfftn: ifft along all of `axes` but the last, then irfft along it.

    Args:
      a: a tensor, numpy array or nested list (a half spectrum, complex).
      s: the output's lengths along `axes` (-1 keeps a's); by default a's,
        except the last, 2 * (m - 1) for m entries.
      axes: the axes transformed: default the last len(s) axes, or all.
      norm: "backward" (default: divide by the product of the lengths),
        "ortho" or "forward".

    Raises:
      TypeError: as for fftn.
      ValueError: as for fftn, or no axes at all.

    >>> from rune import nx
    >>> print(nx.fft.irfftn(nx.array([[10, -2], [-4, 0]]), s=(2, 2)))
    float64 [2, 2]
    [[1, 2],
     [3, 4]]
    """
    return _irfftn(a, s, axes, norm, "nx.fft.irfftn")


def _irfftn(a, s, axes, norm, fn):
    a = as_tensor(a, fn)
    axes, lengths = _axes_and_lengths(a, s, axes, fn,
                                      last_default=lambda m: 2 * (m - 1))
    if not axes:
        raise ValueError(f"{fn}: no axes to transform (axes=())")
    inner = _complex_nd(_f.ifft, a, axes[:-1], lengths[:-1], None, True, fn,
                        last_axis_first=False)
    last, n = axes[-1], lengths[-1]
    out = _f.irfft(_resized(inner, last, n // 2 + 1), axis=last, n=n)
    return _scaled(out, _norm_factor(norm, math.prod(lengths), True, fn))


def rfft2(a, s=None, axes=(-2, -1), norm=None):
    """The two-dimensional transform of real input: rfftn over the last two axes.

    Args:
      a: a real tensor, numpy array or nested list with at least two axes.
      s: the lengths along `axes` (crop or zero-pad; -1 keeps a's), default a's.
      axes: the two axes transformed (default the last two).
      norm: "backward" (default, None), "ortho" or "forward".

    Raises:
      TypeError: a is complex or not numeric.
      ValueError: as for rfftn.

    >>> from rune import nx
    >>> print(nx.fft.rfft2(nx.ones((2, 4))).shape)
    (2, 3)
    """
    return _rfftn(a, s, axes, norm, "nx.fft.rfft2")


def irfft2(a, s=None, axes=(-2, -1), norm=None):
    """The inverse of rfft2: irfftn over the last two axes.

    Args:
      a: a tensor, numpy array or nested list with at least two axes.
      s: the output's lengths along `axes` (see irfftn).
      axes: the two axes transformed (default the last two).
      norm: "backward" (default, None), "ortho" or "forward".

    Raises:
      TypeError: a is not numeric.
      ValueError: as for irfftn.

    >>> from rune import nx
    >>> x = nx.array([[1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 0.0, 1.0]])
    >>> print(nx.fft.irfft2(nx.fft.rfft2(x)))
    float64 [2, 4]
    [[1, 2, 3, 4],
     [0, 1, 0, 1]]
    """
    return _irfftn(a, s, axes, norm, "nx.fft.irfft2")


# ------------------------------------------------------ shifts, frequencies


def _shift(x, axes, fn, inverse):
    x = as_tensor(x, fn)
    if axes is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axes, (int, np.integer)):
        axes = (axes,)
    elif not hasattr(axes, "__iter__"):
        raise TypeError(f"{fn}: axes must be an int or a sequence of ints, got {axes!r}")
    for axis in (normalize_axis(a, x.ndim, fn) for a in axes):
        n = x.shape[axis]
        cut = (n + 1) // 2 if not inverse else n // 2  # a roll by n//2, or back
        if 0 < cut < n:
            x = _s.concatenate(_ix.slice_axis(x, axis, cut, n), _ix.slice_axis(x, axis, 0, cut),
                               axis=axis)
    return x


def fftshift(x, axes=None):
    """The zero frequency moved to the centre: a roll by n//2 along each of `axes`.

    Args:
      x: a tensor, numpy array or nested list.
      axes: an int or a sequence of ints (default all axes).

    Raises:
      TypeError: x is not numeric.
      ValueError: an axis out of range.

    >>> from rune import nx
    >>> print(nx.fft.fftshift(nx.fft.fftfreq(5)))
    float64 [5] [-0.4, -0.2, 0, 0.2, 0.4]
    """
    return _shift(x, axes, "nx.fft.fftshift", inverse=False)


def ifftshift(x, axes=None):
    """The inverse of fftshift (they differ for odd lengths).

    Args:
      x: a tensor, numpy array or nested list.
      axes: an int or a sequence of ints (default all axes).

    Raises:
      TypeError: x is not numeric.
      ValueError: an axis out of range.

    >>> from rune import nx
    >>> print(nx.fft.ifftshift(nx.array([-2.0, -1.0, 0.0, 1.0, 2.0])))
    float64 [5] [0, 1, 2, -2, -1]
    """
    return _shift(x, axes, "nx.fft.ifftshift", inverse=True)


def _frequencies(whole, n, d):
    """whole / (n d), as numpy computes it; differentiable in d when d is a tensor."""
    if isinstance(d, Tensor):
        return _e.multiply(Tensor(whole.astype(np.float64)), _e.reciprocal(_e.multiply(d, n)))
    return Tensor(whole * (1.0 / (n * d)))


def fftfreq(n, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of an fft of length n: [0, 1, ..., -1] / (n d).

    Differentiable in d when d is a tensor.

    Args:
      n: the transform's length (a positive int).
      d: the sample spacing (a number or a scalar tensor).
      dtype: a real floating dtype for the result (default float64, or d's).
      device: None or "cpu" (the Array API's keyword; any other raises ValueError).

    Raises:
      ValueError: n is not a positive int.
      TypeError: an unknown dtype.

    >>> from rune import nx
    >>> print(nx.fft.fftfreq(4, d=0.5))
    float64 [4] [0, 0.5, -1, -0.5]
    """
    check_device(device, "nx.fft.fftfreq")
    n = _length(n, None, "nx.fft.fftfreq")
    whole = np.concatenate([np.arange(0, (n - 1) // 2 + 1), np.arange(-(n // 2), 0)])
    return _in_dtype(_frequencies(whole, n, d), dtype, "nx.fft.fftfreq")


def rfftfreq(n, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of an rfft of length n: [0, 1, ..., n//2] / (n d).

    Differentiable in d when d is a tensor.

    Args:
      n: the transform's length (a positive int).
      d: the sample spacing (a number or a scalar tensor).
      dtype: a real floating dtype for the result (default float64, or d's).
      device: None or "cpu" (the Array API's keyword; any other raises ValueError).

    Raises:
      ValueError: n is not a positive int.
      TypeError: an unknown dtype.

    >>> from rune import nx
    >>> print(nx.fft.rfftfreq(5))
    float64 [3] [0, 0.2, 0.4]
    """
    check_device(device, "nx.fft.rfftfreq")
    n = _length(n, None, "nx.fft.rfftfreq")
    return _in_dtype(_frequencies(np.arange(0, n // 2 + 1), n, d), dtype, "nx.fft.rfftfreq")


def _in_dtype(out, dtype, fn):
    """The frequencies in the Array API's `dtype=` (None keeps them as they are)."""
    if dtype is None or as_dtype(dtype, fn) == out.dtype:
        return out
    return _e.astype(out, dtype=as_dtype(dtype, fn))
