"""Trigonometric and hyperbolic functions, elementwise: sin, arctan2, tanh...

The notes of `math.py` hold (numpy's broadcasting and promotion; complex
arguments use the complex derivative f'(z)). The derivative rules are the
primitives' in `rune/primitives/elementwise.py`.
"""

from __future__ import annotations

from ..primitives import elementwise as _e
from .array_api import tanh_at_complex_infinities
from .tensor import call_broadcasting

__all__ = [
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2",
    "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh",
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


def sinh(x):
    """The hyperbolic sine.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.sinh(nx.array([0.0, 1.0])))
    float64 [2] [0, 1.1752011936438014]
    """
    return _e.sinh(x)


def cosh(x):
    """The hyperbolic cosine.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.cosh(nx.array([0.0, 1.0])))
    float64 [2] [1, 1.5430806348152437]
    """
    return _e.cosh(x)


def tanh(x):
    """The hyperbolic tangent.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.tanh(nx.array([0.0, 1.0])))
    float64 [2] [0, 0.7615941559557649]
    """
    out = _e.tanh(x)  # and where x is a complex infinity, the standard's signs:
    return tanh_at_complex_infinities(x, out) if out.dtype.kind == "c" else out


def arcsinh(x):
    """The inverse hyperbolic sine.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.arcsinh(nx.array([0.0, 1.0])))
    float64 [2] [0, 0.881373587019543]
    """
    return _e.arcsinh(x)


def arccosh(x):
    """The inverse hyperbolic cosine; nan below 1 for real x.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.arccosh(nx.array([1.0, 2.0])))
    float64 [2] [0, 1.3169578969248168]
    """
    return _e.arccosh(x)


def arctanh(x):
    """The inverse hyperbolic tangent; nan outside [-1, 1] for real x.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.arctanh(nx.array([0.0, 0.5])))
    float64 [2] [0, 0.5493061443340549]
    """
    return _e.arctanh(x)
