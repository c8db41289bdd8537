"""`rune.scipy.signal`: n-dimensional convolution and correlation (scipy's names).

Compositions of rune operations, differentiable in both inputs: the direct
method adds one shifted copy of in1 per entry of in2 (for small kernels);
the FFT method multiplies spectra (`rune.nx.fft`), exact up to rounding.
"""

from __future__ import annotations

import itertools

from .. import nx
from ..primitives import indexing as _ix

__all__ = ["convolve", "correlate"]

_DIRECT_LIMIT = 64  # "auto" adds shifted copies up to this many kernel entries


def _check(in1, in2, mode, method, fn):
    in1, in2 = nx.asarray(in1), nx.asarray(in2)
    if in1.ndim != in2.ndim:
        raise ValueError(f"{fn}: in1 and in2 must have the same number of axes, got "
                         f"{in1.ndim} and {in2.ndim}")
    if in1.size == 0 or in2.size == 0:
        raise ValueError(f"{fn}: in1 and in2 must not be empty")
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"{fn}: mode must be 'full', 'same' or 'valid', got {mode!r}")
    if method not in ("auto", "direct", "fft"):
        raise ValueError(f"{fn}: method must be 'auto', 'direct' or 'fft', got {method!r}")
    return in1, in2


def _full_direct(in1, in2):
    shape = tuple(n + m - 1 for n, m in zip(in1.shape, in2.shape))
    out = None
    for k in itertools.product(*(range(m) for m in in2.shape)):
        index = tuple((s, s + n, 1) for s, n in zip(k, in1.shape))
        shifted = _ix.pad(in1, shape=shape, index=index, value=0)
        term = shifted * in2[k]
        out = term if out is None else out + term
    return out


def _full_fft(in1, in2):
    shape = tuple(n + m - 1 for n, m in zip(in1.shape, in2.shape))
    axes = tuple(range(len(shape)))
    if in1.dtype.kind == "c" or in2.dtype.kind == "c":
        return nx.fft.ifftn(nx.fft.fftn(in1, shape, axes) * nx.fft.fftn(in2, shape, axes),
                            shape, axes)
    return nx.fft.irfftn(nx.fft.rfftn(in1, shape, axes) * nx.fft.rfftn(in2, shape, axes),
                         shape, axes)


def convolve(in1, in2, mode="full", method="auto"):
    """The n-dimensional convolution of in1 and in2 (scipy.signal.convolve).

    Args:
      in1, in2: tensors, numpy arrays or nested lists with the same number of axes.
      mode: "full", "same" (in1's shape, centred) or "valid" (where one
        covers the other; needs one at least as large as the other in every axis).
      method: "direct" (shifted copies), "fft" (spectra), or "auto" (direct for
        kernels of up to 64 entries).

    Raises:
      TypeError: an input is not numeric.
      ValueError: inputs with different numbers of axes or empty, an unknown
        mode or method, or "valid" with neither input covering the other.

    >>> from rune import nx
    >>> from rune.scipy import signal
    >>> print(signal.convolve(nx.array([[1.0, 2.0], [3.0, 4.0]]), nx.array([[0.0, 1.0]])))
    float64 [2, 3]
    [[0, 1, 2],
     [0, 3, 4]]
    """
    in1, in2 = _check(in1, in2, mode, method, "rune.scipy.signal.convolve")
    if mode == "valid":
        if all(m <= n for n, m in zip(in1.shape, in2.shape)):
            pass
        elif all(n <= m for n, m in zip(in1.shape, in2.shape)):
            in1, in2 = in2, in1
        else:
            raise ValueError("rune.scipy.signal.convolve: for mode 'valid', one input must be "
                             f"at least as large as the other in every axis, got {in1.shape} "
                             f"and {in2.shape}")
    direct = method == "direct" or (method == "auto" and min(in1.size, in2.size) <= _DIRECT_LIMIT)
    if direct and in2.size > in1.size:
        full = _full_direct(in2, in1)  # fewer shifted copies; convolution commutes
    else:
        full = _full_direct(in1, in2) if direct else _full_fft(in1, in2)
    if mode == "full":
        return full
    if mode == "same":
        starts, lengths = [(m - 1) // 2 for m in in2.shape], in1.shape
    else:
        starts = [m - 1 for m in in2.shape]
        lengths = [n - m + 1 for n, m in zip(in1.shape, in2.shape)]
    return full[tuple(slice(s, s + n) for s, n in zip(starts, lengths))]


def correlate(in1, in2, mode="full", method="auto"):
    """The n-dimensional cross-correlation: convolve(in1, conj(in2) reversed in every axis).

    Args:
      in1, in2: tensors, numpy arrays or nested lists with the same number of axes.
      mode: "full", "same" or "valid", as for convolve.
      method: "direct", "fft" or "auto", as for convolve.

    Raises:
      TypeError: an input is not numeric.
      ValueError: as for convolve.

    >>> from rune import nx
    >>> from rune.scipy import signal
    >>> print(signal.correlate(nx.array([1.0, 2.0, 3.0]), nx.array([1.0, 1.0]), "valid"))
    float64 [2] [3, 5]
    """
    in1, in2 = _check(in1, in2, mode, method, "rune.scipy.signal.correlate")
    reversed_in2 = in2[tuple(slice(None, None, -1) for _ in range(in2.ndim))]
    kernel = nx.conj(reversed_in2) if in2.dtype.kind == "c" else reversed_in2
    if mode == "valid" and not all(m <= n for n, m in zip(in1.shape, in2.shape)) \
            and all(n <= m for n, m in zip(in1.shape, in2.shape)):
        # scipy: the correlation of the swapped inputs, reversed and conjugated
        swapped = correlate(in2, in1, mode, method)
        swapped = swapped[tuple(slice(None, None, -1) for _ in range(swapped.ndim))]
        return nx.conj(swapped) if swapped.dtype.kind == "c" else swapped
    return convolve(in1, kernel, mode, method)

