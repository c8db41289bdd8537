"""Elementwise math: arithmetic, powers, logarithms, complex parts.

Trigonometric and hyperbolic functions are in `trigonometry.py`;
comparisons, selections (maximum, where, clip) and rounding in
`comparisons.py`; the notes below hold for all three.

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
"""

from __future__ import annotations

from ..primitives import elementwise as _e
from .creation import as_tensor, check_device
from .dtypes import as_dtype
from .tensor import call_broadcasting

__all__ = [
    "add", "subtract", "multiply", "divide", "negative", "power", "square", "sqrt",
    "reciprocal", "floor_divide", "mod", "remainder", "abs", "absolute", "sign",
    "exp", "expm1", "log", "log1p", "log2", "log10",
    "real", "imag", "conj", "conjugate", "angle", "sigmoid", "relu", "astype",
]


# -------------------------------------------------------------- arithmetic


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


def square(x):
    """x * x, elementwise.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.square(nx.array([-3, 2])))
    int64 [2] [9, 4]
    """
    return _e.square(x)


def sqrt(x):
    """The square root, elementwise: nan for negative reals (use complex input for
    complex roots). Its derivative at 0 is inf.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.sqrt(nx.array([4.0, 2.0, -4 + 0j])))
    complex128 [3] [2+0i, 1.4142135623730951+0i, 0+2i]
    """
    return _e.sqrt(x)


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


def absolute(x):
    """|x|, elementwise (alias nx.abs); the modulus of a complex number.

    Derivative: sign(x) for real x (0 at 0); Re(conj(z) dz) / |z| for complex z.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.abs(nx.array([-1.5, 0.0, 3 + 4j])))
    float64 [3] [1.5, 0, 5]
    """
    return _e.absolute(x)


def sign(x):
    """-1, 0 or 1 by the sign of x; z / |z| for complex z (0 at 0).

    Real sign is piecewise constant (derivative zero); complex sign has the
    derivative of z / |z|.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric, or is boolean.

    >>> from rune import nx
    >>> print(nx.sign(nx.array([-2.0, 0.0, 3.0])))
    float64 [3] [-1, 0, 1]
    """
    return _e.sign(x)


# ------------------------------------------------------- exponentials, logs


def exp(x):
    """e ** x, elementwise.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.exp(nx.array([0.0, 1.0])))
    float64 [2] [1, 2.718281828459045]
    """
    return _e.exp(x)


def expm1(x):
    """exp(x) - 1, accurate for small x.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.expm1(nx.array([0.0, 1e-10])))
    float64 [2] [0, 1.00000000005e-10]
    """
    return _e.expm1(x)


def log(x):
    """The natural logarithm: -inf at 0, nan for negative reals (with numpy's warning).

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.log(nx.array([1.0, 2.718281828459045])))
    float64 [2] [0, 1]
    """
    return _e.log(x)


def log1p(x):
    """log(1 + x), accurate for small x.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.log1p(nx.array([0.0, 1e-10])))
    float64 [2] [0, 9.999999999500001e-11]
    """
    return _e.log1p(x)


def log2(x):
    """The base-2 logarithm.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.log2(nx.array([1.0, 8.0])))
    float64 [2] [0, 3]
    """
    return _e.log2(x)


def log10(x):
    """The base-10 logarithm.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.log10(nx.array([1.0, 10.0], dtype=nx.float32)))
    float32 [2] [0, 1]
    """
    return _e.log10(x)


# -------------------------------------------------------------- complex


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


# ------------------------------------------------------ neural networks


def sigmoid(x):
    """The logistic function 1 / (1 + exp(-x)), computed without overflow.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric, or is boolean.

    >>> from rune import nx
    >>> print(nx.sigmoid(nx.array([0.0, -1000.0, 1000.0])))
    float64 [3] [0.5, 0, 1]
    """
    return _e.sigmoid(x)


def relu(x):
    """max(x, 0), elementwise, with derivative 0 at 0 (a where, not a maximum).

    Args:
      x: a tensor, numpy array or number.

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.relu(nx.array([-1.0, 0.0, 2.0])))
    float64 [3] [0, 0, 2]
    """
    return _e.where(_e.greater(x, 0), x, 0)


# ---------------------------------------------------------------- types


def astype(x, dtype, /, *, copy=True, device=None):
    """x converted to `dtype` (x itself if it has that dtype already).

    Complex to real keeps the real part; float to int truncates toward zero.
    Derivatives flow between float and complex dtypes; an integer or bool
    result has none.

    Args:
      x: a tensor, numpy array or number.
      dtype: the new element type (nx.float32, its name 'float32', or a
        Python type such as float).
      copy: the Array API's keyword, without effect: a tensor never changes, so
        x itself serves as its copy.
      device: None or "cpu" (the Array API's keyword; any other raises ValueError).

    Raises:
      TypeError: an unknown dtype, or x is not numeric.
      ValueError: a device other than "cpu".

    >>> from rune import nx
    >>> print(nx.astype(nx.array([1.7, -1.7]), nx.int32))
    int32 [2] [1, -1]
    """
    check_device(device, "nx.astype")
    dtype = as_dtype(dtype, "nx.astype")
    x = as_tensor(x, "nx.astype")  # None and strings raise, not become nan and floats
    return x if x.dtype == dtype else _e.astype(x, dtype=dtype)


abs = absolute  # noqa: A001  (numpy's names)
remainder = mod
conjugate = conj
