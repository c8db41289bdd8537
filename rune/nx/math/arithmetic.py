"""Arithmetic operations: add, subtract, multiply, divide, power, mod, fmod, divmod...

numpy's "Mathematical functions: arithmetic operations".

Each function applies to tensors, numpy arrays and Python numbers alike, with
numpy's broadcasting and type promotion (Python numbers are weakly typed, so
`x32 * 2` stays float32). Their derivatives are the rules beside the
primitives in `rune/primitives/elementwise.py`; at the points where a
function has a kink, rune picks (as DESIGN.md decides; JAX differs on abs,
whose derivative at 0 it takes as 1):

- `abs'(0) = 0`, `sign'(x) = 0` (real x), `relu'(0) = 0`;
- `maximum(x, y)` and `minimum(x, y)` at a tie give half the derivative to
  each argument, so `clip` at a bound has derivative 0.5;
- `sqrt'(0) = inf`; `power(x, y)`'s derivative in y at x = 0 is 0;
- comparisons, rounding, `floor_divide`, real `sign` and the logical functions
  have derivative zero (they are piecewise constant).

Complex arguments: the analytic functions (exp, log, sin, sqrt, power...)
use their complex derivative f'(z); abs, real, imag, conj and angle are not
analytic and give the derivative of the real map (see rune.grad for the
convention). A shape mismatch raises a ValueError naming the function and
the shapes.


numpy's behaviour, with derivatives: `copysign` moves with x1 (times the
sign it takes), `fmod` as `mod` (1 in x1, -trunc(x1 / x2) in x2),
`heaviside` only in x2 (its value at 0), `modf`'s fractional part as x and
its integral part not at all, `i0`'s is `i1`. `rint`, `trunc`, `signbit`
and `isclose` are piecewise constant.


These notes hold for every elementwise family of `rune/nx/math/`.
"""

from __future__ import annotations

import numpy as np

from ...primitives import elementwise as _e
from ..creation import as_tensor
from ..tensor import call_broadcasting

__all__ = [
    "add", "subtract", "multiply", "divide", "negative", "power", "reciprocal", "floor_divide",
    "mod", "remainder", "true_divide", "fmod", "float_power", "positive", "divmod", "modf",
    "pow",
]


def add(x, y):
    """x + y, elementwise, broadcasting as numpy does.

    Args:
      x, y: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.add(nx.array([1.0, 2.0]), 0.5))
    float64 [2] [1.5, 2.5]
    """
    return call_broadcasting("nx.add", _e.add, x, y)


def subtract(x, y):
    """x - y, elementwise.

    Args:
      x, y: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.subtract(1, nx.array([1.0, 2.0])))
    float64 [2] [0, -1]
    """
    return call_broadcasting("nx.subtract", _e.subtract, x, y)


def multiply(x, y):
    """x * y, elementwise.

    Args:
      x, y: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.multiply(nx.array([1.0, 2.0]), nx.array([[3.0], [4.0]])))
    float64 [2, 2]
    [[3, 6],
     [4, 8]]
    """
    return call_broadcasting("nx.multiply", _e.multiply, x, y)


def divide(x, y):
    """x / y, elementwise: true division, so integers give float64.

    Division by zero gives inf or nan (with numpy's warning).

    Args:
      x, y: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.divide(nx.array([1, 2]), 4))
    float64 [2] [0.25, 0.5]
    """
    return call_broadcasting("nx.divide", _e.divide, x, y)


def negative(x):
    """-x, elementwise.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric, or is boolean (use nx.logical_not).

    >>> from rune import nx
    >>> print(nx.negative(nx.array([1.0, -2.0])))
    float64 [2] [-1, 2]
    """
    return _e.negative(x)


def power(x, y):
    """x ** y, elementwise.

    The derivative in y is log(x) x**y, taken as 0 at x = 0.

    Args:
      x, y: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: shapes that do not broadcast (naming both), or an integer
        x to a negative integer power (make x a float).

    >>> from rune import nx
    >>> print(nx.power(nx.array([1.0, 2.0, 3.0]), 2))
    float64 [3] [1, 4, 9]
    """
    return call_broadcasting("nx.power", _e.power, x, y)


def reciprocal(x):
    """1 / x, elementwise. As in numpy, the reciprocal of an integer is an
    integer (1 // x); use `1 / x` for a float.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.reciprocal(nx.array([2.0, 0.5])))
    float64 [2] [0.5, 2]
    """
    return _e.reciprocal(x)


def floor_divide(x, y):
    """x // y, elementwise: the floor of x / y.

    numpy's values, but where x or y is infinite floor(x / y), as the Array API
    standard prefers: inf // 2 is inf and 1 // -inf is -0 (numpy gives NaN and
    -1, pairing // with %). Piecewise constant: its derivative is zero.

    Args:
      x, y: real tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is complex, or not numeric.
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.floor_divide(nx.array([7.0, -7.0]), 2))
    float64 [2] [3, -4]
    """
    return call_broadcasting("nx.floor_divide", _e.floor_divide, x, y)


def mod(x, y):
    """x % y, elementwise, with the sign of y as in Python and numpy (alias nx.remainder).

    The derivative is 1 in x and -(x // y) in y.

    Args:
      x, y: real tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is complex, or not numeric.
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.mod(nx.array([7.0, -7.0]), 3))
    float64 [2] [1, 2]
    """
    return call_broadcasting("nx.mod", _e.mod, x, y)


remainder = mod


true_divide = divide


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


pow = power  # noqa: A001  (the standard's name)
