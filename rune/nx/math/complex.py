"""Handling complex numbers: real, imag, conj, angle.

numpy's "Mathematical functions: handling complex numbers". real, imag, conj
and angle are not analytic and give the derivative of the real map (see
rune.grad for the convention). `real_tensor` is the check of the functions
that take real numbers only.
"""

from __future__ import annotations

import numpy as np

from ...primitives import elementwise as _e
from ..array_api import weak_operands
from ..creation import as_tensor
from ..tensor import call_broadcasting

__all__ = ["real", "imag", "conj", "angle", "conjugate"]


def real(x):
    """The real part (x itself for real tensors).

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.real(nx.array([1 + 2j, 3 - 4j])))
    float64 [2] [1, 3]
    """
    return _e.real(as_tensor(x, "nx.real"))  # np.real of a Python number is not an array


def imag(x):
    """The imaginary part (zeros for real tensors).

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.imag(nx.array([1 + 2j, 3 - 4j])))
    float64 [2] [2, -4]
    """
    return _e.imag(as_tensor(x, "nx.imag"))  # np.imag of a Python number is not an array


def conj(x):
    """The complex conjugate (x itself for real tensors); alias nx.conjugate.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.conj(nx.array([1 + 2j, 3 - 4j])))
    complex128 [2] [1-2i, 3+4i]
    """
    return _e.conj(x)


def angle(z, deg=False):
    """The argument of z: the angle from the positive real axis, in (-pi, pi].

    Derivative: Im(conj(z) dz) / |z|**2 for complex z, zero for real z.

    Args:
      z: a tensor, numpy array or number; real numbers have angle 0 or pi.
      deg: give degrees instead of radians.

    Raises:
      TypeError: z is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.angle(nx.array([1j, -1.0 + 0j, 1.0])))
    float64 [3] [1.5707963267948966, 3.141592653589793, 0]
    >>> print(nx.angle(nx.array([1j, -1j]), deg=True))
    float64 [2] [90, -90]
    """
    z = as_tensor(z, "nx.angle")
    if z.dtype.kind == "c":
        out = _e.arctan2(_e.imag(z), _e.real(z))
    else:  # 0 or pi: piecewise constant, and arctan2's derivative at (0, 0) is nan
        z = _e.stop_gradient(z)
        out = _e.arctan2(_e.imag(z), z)
    return out * (180 / 3.141592653589793) if deg else out


conjugate = conj


def _real_pair(fn, prim, x1, x2):
    """`prim(x1, x2)` of two real arguments broadcast together (TypeError naming
    `fn` for a complex one, ValueError for shapes that do not broadcast)."""
    x1, x2 = weak_operands(fn, x1, x2)  # 1.5 beside float32 stays float32
    return call_broadcasting(fn, prim, real_tensor(x1, fn), real_tensor(x2, fn))


def real_tensor(x, fn, floats=False):
    """x as a real tensor (floats=True: integers become float64), or TypeError."""
    x = as_tensor(x, fn)
    if x.dtype.kind == "c":
        raise TypeError(f"{fn}: got a complex argument ({x.dtype}); {fn} takes real numbers")
    if floats and x.dtype.kind != "f":  # numpy's float for it: int8 gives float16
        return _e.astype(x, dtype=np.sqrt(np.ones((), x.dtype)).dtype)
    return x
