"""More elementwise functions: rint, copysign, fmod, heaviside, isclose, i0...

numpy's behaviour, with derivatives: `copysign` moves with x1 (times the
sign it takes), `fmod` as `mod` (1 in x1, -trunc(x1 / x2) in x2),
`heaviside` only in x2 (its value at 0), `modf`'s fractional part as x and
its integral part not at all, `i0`'s is `i1`. `rint`, `trunc`, `signbit`
and `isclose` are piecewise constant.
"""

from __future__ import annotations

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import special as _special
from .array_api import weak_operands
from .creation import as_tensor
from .math import divide, floor_divide, mod, power
from .tensor import call_broadcasting

__all__ = [
    "rint", "around", "trunc", "copysign", "fmod", "float_power", "heaviside", "signbit",
    "positive", "true_divide", "divmod", "modf", "isclose", "i0",
]

true_divide = divide


def rint(x):
    """x rounded to the nearest integer, halves to even (a float tensor for floats).

    Args:
      x: a tensor, numpy array or number.

    Raises:
      TypeError: x is not numeric.

    >>> from rune import nx
    >>> print(nx.rint(nx.array([0.5, 1.5, -2.7])))
    float64 [3] [0, 2, -3]
    """
    return _e.round_(as_tensor(x, "nx.rint"), decimals=0)


def around(a, decimals=0):
    """a rounded to `decimals` decimals, halves to even (numpy's around, `nx.round`).

    Args:
      a: a tensor, numpy array or number.
      decimals: an int; negative rounds to tens, hundreds...

    Raises:
      TypeError: a is not numeric.

    >>> from rune import nx
    >>> print(nx.around(nx.array([1.234, 15.0]), 1), nx.around(nx.array([15.0]), -1))
    float64 [2] [1.2, 15] float64 [1] [20]
    """
    return _e.round_(as_tensor(a, "nx.around"), decimals=int(decimals))


def trunc(x):
    """x with its fractional part dropped (towards zero).

    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex or not numeric.

    >>> from rune import nx
    >>> print(nx.trunc(nx.array([-1.7, 1.7])))
    float64 [2] [-1, 1]
    """
    return _e.trunc(as_tensor(x, "nx.trunc"))


def copysign(x1, x2):
    """|x1| with the sign of x2 (the sign bit: -0.0 counts as negative).

    Args:
      x1, x2: real tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is complex or not numeric.
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.copysign(nx.array([1.0, -2.0, 3.0]), nx.array([-1.0, 1.0, -0.0])))
    float64 [3] [-1, 2, -3]
    """
    x1, x2 = weak_operands("nx.copysign", x1, x2)  # 1.5 beside float32 stays float32
    x1, x2 = _real(x1, "nx.copysign"), _real(x2, "nx.copysign")
    x1 = _float(x1)
    if x2.dtype.kind == "f" and x2.dtype.itemsize > x1.dtype.itemsize:  # numpy's promotion
        x1 = _e.astype(x1, dtype=x2.dtype)
    size = _e.absolute(x1)
    return call_broadcasting("nx.copysign", lambda s, b: _e.where(_e.signbit(b), _e.negative(s),
                                                                   s), size, x2)


def _real(x, fn):
    x = as_tensor(x, fn)
    if x.dtype.kind == "c":
        raise TypeError(f"{fn}: expected real numbers, got {x.dtype}")
    return x


def _float(x):
    return x if x.dtype.kind in "fc" else _e.astype(x, dtype=np.dtype(np.float64))


def fmod(x1, x2):
    """The remainder of x1 / x2 with the sign of x1 (C's fmod; `mod` takes x2's).

    Args:
      x1, x2: real tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is complex or not numeric.
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.fmod(nx.array([7.0, -7.0]), 3), nx.mod(nx.array([7.0, -7.0]), 3))
    float64 [2] [1, -1] float64 [2] [1, 2]
    """
    return call_broadcasting("nx.fmod", _e.fmod, x1, x2)


def float_power(x1, x2):
    """x1 ** x2 computed in float64 (complex128 for complex arguments).

    Args:
      x1, x2: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.float_power(nx.array([2, 4]), -1))
    float64 [2] [0.5, 0.25]
    """
    x1, x2 = as_tensor(x1, "nx.float_power"), as_tensor(x2, "nx.float_power")
    kind = "c" if "c" in (x1.dtype.kind, x2.dtype.kind) else "f"
    dtype = np.dtype(np.complex128 if kind == "c" else np.float64)
    return power(_e.astype(x1, dtype=dtype), _e.astype(x2, dtype=dtype))


def heaviside(x1, x2):
    """The step function: 0 where x1 < 0, 1 where x1 > 0, x2 where x1 == 0 (nan at nan).

    Args:
      x1: real tensor, numpy array or number: where to step.
      x2: the value at 0; broadcasts with x1.

    Raises:
      TypeError: an argument is complex or not numeric.
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.heaviside(nx.array([-1.0, 0.0, 2.0]), 0.5))
    float64 [3] [0, 0.5, 1]
    """
    x1, x2 = _real(x1, "nx.heaviside"), _real(x2, "nx.heaviside")
    dtype = np.result_type(x1.dtype, x2.dtype, np.float16)

    def step(x1, x2):
        steps = _e.astype(_e.greater(x1, 0), dtype=dtype)
        at_zero = _e.where(_e.equal(x1, 0), _e.astype(x2, dtype=dtype), steps)
        return _e.where(_e.isnan(x1), _e.astype(x1, dtype=dtype), at_zero)

    return call_broadcasting("nx.heaviside", step, x1, x2)


def signbit(x):
    """Whether the sign bit of each element is set (true for -0.0 and negatives).

    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex or not numeric.

    >>> from rune import nx
    >>> print(nx.signbit(nx.array([-1.0, -0.0, 0.0, 2.0])))
    bool [4] [True, True, False, False]
    """
    return _e.signbit(as_tensor(x, "nx.signbit"))


def positive(x):
    """+x: x itself as a tensor (numpy's positive).

    Args:
      x: a tensor, numpy array or number.

    Raises:
      TypeError: x is not numeric.

    >>> from rune import nx
    >>> print(nx.positive(nx.array([-1.0, 2.0])))
    float64 [2] [-1, 2]
    """
    return as_tensor(x, "nx.positive")


def divmod(x1, x2):  # noqa: A001  (numpy's name)
    """(x1 // x2, x1 % x2), elementwise (numpy's divmod).

    Args:
      x1, x2: real tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is complex or not numeric.
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(*nx.divmod(nx.array([7.0, -7.0]), 3))
    float64 [2] [2, -3] float64 [2] [1, 2]
    """
    return floor_divide(x1, x2), mod(x1, x2)


def modf(x):
    """(the fractional parts, the integral parts) of x, both with x's sign.

    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex or not numeric.

    >>> from rune import nx
    >>> print(*nx.modf(nx.array([2.5, -1.25])))
    float64 [2] [0.5, -0.25] float64 [2] [2, -1]
    """
    x = _float(_real(x, "nx.modf"))
    whole = _e.trunc(x)
    infinite = _e.isinf(x)
    zero = _e.astype(_e.where(_e.signbit(x), -0.0, 0.0), dtype=x.dtype)  # modf(+-inf): +-0
    finite_x = _e.where(infinite, zero, x)  # no inf - inf
    fraction = _e.where(infinite, zero, _e.subtract(finite_x, _e.trunc(finite_x)))
    return fraction, whole


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether a and b are equal within |a - b| <= atol + rtol * |b|, elementwise
    (infinities are close only to themselves; NaN to nothing, unless equal_nan).

    Args:
      a, b: tensors, numpy arrays or numbers; they broadcast together.
      rtol: the relative tolerance (of |b|).
      atol: the absolute tolerance.
      equal_nan: count NaN as close to NaN.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.isclose(nx.array([1.0, 1.1, float("nan")]), 1.0 + 1e-9))
    bool [3] [True, False, False]
    """
    a, b = as_tensor(a, "nx.isclose"), as_tensor(b, "nx.isclose")

    def close(a, b):
        finite = _e.logical_and(_e.isfinite(a), _e.isfinite(b))
        a_, b_ = _e.where(finite, a, 0), _e.where(finite, b, 0)  # no inf - inf
        near = _e.less_equal(_e.absolute(_e.subtract(a_, b_)),
                             _e.add(atol, _e.multiply(rtol, _e.absolute(b_))))
        out = _e.logical_or(_e.logical_and(near, finite), _e.equal(a, b))
        if equal_nan:
            out = _e.logical_or(out, _e.logical_and(_e.isnan(a), _e.isnan(b)))
        return out

    return call_broadcasting("nx.isclose", close, a, b)


def i0(x):
    """The modified Bessel function of the first kind of order 0 (numpy's i0).

    Its derivative is i1, and i1's is i0 - i1 / x: derivatives of every order.

    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex or not numeric.

    >>> from rune import nx
    >>> print(nx.i0(nx.array([0.0, 1.0])))
    float64 [2] [1, 1.2660658777520082]
    """
    return _special.i0(as_tensor(x, "nx.i0"))
