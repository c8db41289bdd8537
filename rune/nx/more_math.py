"""More elementwise math: base-2 exponentials, roots, hypot, log-sum-exp of two,
angles, sinc, nan-ignoring extrema, nan_to_num, complex tests.

The notes of `math.py` hold (numpy's broadcasting and promotion, kinks as
DESIGN.md decides). New kinks here: hypot's derivative at the origin is 0
(like abs'(0)); cbrt'(0) is inf (like sqrt'(0)); fmax and fmin split ties
evenly as maximum and minimum do, and send the derivative to the number
where the other argument is nan. The rules are in
rune/primitives/elementwise.py; sinc's (exact at 0, every order) in
rune/primitives/special.py.
"""

from __future__ import annotations

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import reduce as _r
from ..primitives import special as _special
from .array_api import weak_operands
from .creation import as_tensor
from .tensor import call_broadcasting

__all__ = [
    "exp2", "cbrt", "hypot", "logaddexp", "logaddexp2", "deg2rad", "rad2deg", "radians",
    "degrees", "sinc", "fabs", "fmax", "fmin", "nan_to_num", "real_if_close",
    "iscomplex", "isreal",
]

_PI = 3.141592653589793


def exp2(x):
    """2 ** x, elementwise.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.exp2(nx.array([0.0, 3.0, -1.0])))
    float64 [3] [1, 8, 0.5]
    """
    return _e.exp2(as_tensor(x, "nx.exp2"))


def cbrt(x):
    """The real cube root, negative for negative x; its derivative at 0 is inf.

    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.

    >>> from rune import nx
    >>> print(nx.cbrt(nx.array([27.0, -8.0])))
    float64 [2] [3, -2]
    """
    return _e.cbrt(real_tensor(x, "nx.cbrt"))


def hypot(x1, x2):
    """`sqrt(x1**2 + x2**2)` without overflow; derivative 0 at the origin.

    Args:
      x1, x2: real tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is complex, or not numeric.
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.hypot(nx.array([3.0, 1e200]), 4.0))
    float64 [2] [5, 1e+200]
    """
    return _real_pair("nx.hypot", _e.hypot, x1, x2)


def logaddexp(x1, x2):
    """log(exp(x1) + exp(x2)), without overflow.

    Args:
      x1, x2: real tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is complex, or not numeric.
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.logaddexp(nx.array([0.0, 1000.0]), 0.0))
    float64 [2] [0.6931471805599453, 1000]
    """
    return _real_pair("nx.logaddexp", _e.logaddexp, x1, x2)


def logaddexp2(x1, x2):
    """`log2(2**x1 + 2**x2)`, without overflow.

    Args:
      x1, x2: real tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is complex, or not numeric.
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.logaddexp2(nx.array([1.0, 3.0]), 1.0))
    float64 [2] [2, 3.321928094887362]
    """
    return _real_pair("nx.logaddexp2", _e.logaddexp2, x1, x2)


def deg2rad(x):
    """Degrees to radians: x * pi / 180 (alias nx.radians).

    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.

    >>> from rune import nx
    >>> print(nx.deg2rad(nx.array([180.0, 90.0])))
    float64 [2] [3.141592653589793, 1.5707963267948966]
    """
    return _e.multiply(real_tensor(x, "nx.deg2rad", floats=True), _PI / 180)


def rad2deg(x):
    """Radians to degrees: x * 180 / pi (alias nx.degrees).

    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.

    >>> from rune import nx
    >>> print(nx.rad2deg(nx.array([3.141592653589793, 1.0])))
    float64 [2] [180, 57.29577951308232]
    """
    return _e.multiply(real_tensor(x, "nx.rad2deg", floats=True), 180 / _PI)


def sinc(x):
    """sin(pi x) / (pi x), and 1 at 0 (numpy's normalized sinc).

    Its derivatives of every order are exact at 0 too (a Taylor series there).

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.sinc(nx.array([0.0, 0.5, 1.0])))
    float64 [3] [1, 0.6366197723675814, 3.8981718325193755e-17]
    """
    return _special.sinc(as_tensor(x, "nx.sinc"))


def fabs(x):
    """|x| for real x, always as a float (numpy's fabs; complex raises, use nx.abs).

    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.

    >>> from rune import nx
    >>> print(nx.fabs(nx.array([-2, 3])))
    float64 [2] [2, 3]
    """
    return _e.absolute(real_tensor(x, "nx.fabs", floats=True))


def _nan_ignoring(fn, prim, x1, x2):
    x1, x2 = as_tensor(x1, fn), as_tensor(x2, fn)
    out = call_broadcasting(fn, prim, x1, x2)
    if x1.dtype.kind not in "fc" and x2.dtype.kind not in "fc":
        return out
    # where one is nan, the other (the derivative goes with it); nan if both are
    return _e.where(_e.isnan(x2), _e.where(_e.isnan(x1), out, x1), _e.where(_e.isnan(x1), x2, out))


def fmax(x1, x2):
    """The larger of x1 and x2, elementwise, ignoring nan: nan only if both are nan.

    Args:
      x1, x2: real tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> nan = float("nan")
    >>> print(nx.fmax(nx.array([1.0, nan, nan]), nx.array([2.0, 0.5, nan])))
    float64 [3] [2, 0.5, nan]
    """
    return _nan_ignoring("nx.fmax", _e.maximum, x1, x2)


def fmin(x1, x2):
    """The smaller of x1 and x2, elementwise, ignoring nan: nan only if both are nan.

    Args:
      x1, x2: real tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.fmin(nx.array([1.0, float('nan')]), nx.array([2.0, 0.5])))
    float64 [2] [1, 0.5]
    """
    return _nan_ignoring("nx.fmin", _e.minimum, x1, x2)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """x with nan, inf and -inf replaced by finite numbers (per part, for complex).

    The derivative passes where x is finite, and is zero at the replaced entries.

    Args:
      x: a tensor, numpy array or number.
      copy: accepted for numpy's signature; tensors are never changed in place.
      nan: the value for nan (default 0).
      posinf, neginf: the values for inf and -inf (default: the largest and
        the most negative finite number of x's dtype).

    Raises:
      TypeError: x is not numeric.

    >>> from rune import nx
    >>> print(nx.nan_to_num(nx.array([float('nan'), float('inf'), -1.5]), posinf=9.0))
    float64 [3] [0, 9, -1.5]
    """
    x = as_tensor(x, "nx.nan_to_num")
    if x.dtype.kind == "c":
        real = nan_to_num(_e.real(x), copy, nan, posinf, neginf)
        imag = nan_to_num(_e.imag(x), copy, nan, posinf, neginf)
        return _e.add(_e.astype(real, dtype=x.dtype), _e.multiply(imag, 1j))
    if x.dtype.kind != "f":
        return x
    big = float(np.finfo(x.dtype).max)
    posinf = big if posinf is None else posinf
    neginf = -big if neginf is None else neginf
    out = _e.where(_e.isnan(x), _e.astype(as_tensor(nan, "nx.nan_to_num"), dtype=x.dtype), x)
    out = _e.where(_e.equal(x, np.inf), _e.astype(as_tensor(posinf, "nx.nan_to_num"),
                                                    dtype=x.dtype), out)
    return _e.where(_e.equal(x, -np.inf), _e.astype(as_tensor(neginf, "nx.nan_to_num"),
                                                      dtype=x.dtype), out)


def real_if_close(a, tol=100):
    """The real part of a if every imaginary part is within tol machine epsilons
    of zero; a itself otherwise. The result's dtype depends on the values, so
    it reads them: under jit it raises.

    Args:
      a: a tensor, numpy array or number.
      tol: in machine epsilons of a's dtype (or an absolute tolerance if
        below 1, as numpy).

    Raises:
      TypeError: a is not numeric.
      rune.TracedValueError: under jit or vmap (the values are not known).

    >>> from rune import nx
    >>> print(nx.real_if_close(nx.array([2.1 + 4e-15j, 5.2 + 3e-16j])))
    float64 [2] [2.1, 5.2]
    """
    a = as_tensor(a, "nx.real_if_close")
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = tol * float(np.finfo(a.dtype).eps)
    close = bool(_e.logical_not(_reduce_any(_e.greater(_e.absolute(_e.imag(a)), tol))))
    return _e.real(a) if close else a


def iscomplex(x):
    """True where x has a nonzero imaginary part (all False for real dtypes).

    Args:
      x: a tensor, numpy array or number.

    Raises:
      TypeError: x is not numeric.

    >>> from rune import nx
    >>> print(nx.iscomplex(nx.array([1 + 1j, 2 + 0j])))
    bool [2] [True, False]
    """
    return _e.not_equal(_e.imag(as_tensor(x, "nx.iscomplex")), 0)


def isreal(x):
    """True where x's imaginary part is zero (all True for real dtypes).

    Args:
      x: a tensor, numpy array or number.

    Raises:
      TypeError: x is not numeric.

    >>> from rune import nx
    >>> print(nx.isreal(nx.array([1 + 1j, 2 + 0j])))
    bool [2] [False, True]
    """
    return _e.equal(_e.imag(as_tensor(x, "nx.isreal")), 0)


# ------------------------------------------------------------------ helpers


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


def _reduce_any(x):
    return _r.any(x, axis=tuple(range(x.ndim)), keepdims=False)


radians = deg2rad
degrees = rad2deg
