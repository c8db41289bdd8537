"""Trigonometric functions: sin, cos, tan, arcsin, arctan2, hypot, degrees, radians...

numpy's "Mathematical functions: trigonometric functions", with numpy 2's
names (`acos`, `asin`, `atan`, `atan2`).

The notes of `math/arithmetic.py` hold (numpy's broadcasting and promotion; complex
arguments use the complex derivative f'(z)). The derivative rules are the
primitives' in `rune/primitives/elementwise.py`.

hypot's derivative at the origin is 0 (like abs'(0)).
"""

from __future__ import annotations

from ...primitives import elementwise as _e
from ..tensor import call_broadcasting
from .complex import _real_pair, real_tensor

__all__ = [
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "hypot", "deg2rad", "rad2deg",
    "radians", "degrees", "acos", "asin", "atan", "atan2",
]


def sin(x):
    """The sine of x (in radians), elementwise.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.sin(nx.array([0.0, 1.0])))
    float64 [2] [0, 0.8414709848078965]
    """
    return _e.sin(x)


def cos(x):
    """The cosine of x (in radians), elementwise.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.cos(nx.array([1.0, 2.0])))
    float64 [2] [0.5403023058681398, -0.4161468365471424]
    """
    return _e.cos(x)


def tan(x):
    """The tangent of x (in radians), elementwise.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.tan(nx.array([0.0, 1.0])))
    float64 [2] [0, 1.5574077246549023]
    """
    return _e.tan(x)


def arcsin(x):
    """The inverse sine, in [-pi/2, pi/2]; nan outside [-1, 1] for real x.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.arcsin(nx.array([0.0, 1.0])))
    float64 [2] [0, 1.5707963267948966]
    """
    return _e.arcsin(x)


def arccos(x):
    """The inverse cosine, in [0, pi]; nan outside [-1, 1] for real x.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.arccos(nx.array([1.0, 0.0])))
    float64 [2] [0, 1.5707963267948966]
    """
    return _e.arccos(x)


def arctan(x):
    """The inverse tangent, in (-pi/2, pi/2).

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.arctan(nx.array([0.0, 1.0])))
    float64 [2] [0, 0.7853981633974483]
    """
    return _e.arctan(x)


def arctan2(y, x):
    """The angle of the point (x, y) from the x axis, in [-pi, pi] (real only).

    Args:
      y, x: real tensors, numpy arrays or numbers (y first, as numpy); they
        broadcast together.

    Raises:
      TypeError: an argument is complex, or not numeric.
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.arctan2(nx.array([1.0, 1.0]), nx.array([1.0, -1.0])))
    float64 [2] [0.7853981633974483, 2.356194490192345]
    """
    return call_broadcasting("nx.arctan2", _e.arctan2, y, x)


_PI = 3.141592653589793


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


radians = deg2rad
degrees = rad2deg


acos, asin, atan, atan2 = arccos, arcsin, arctan, arctan2
