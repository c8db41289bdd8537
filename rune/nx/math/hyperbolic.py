"""Hyperbolic functions: sinh, cosh, tanh, arcsinh, arccosh, arctanh.

numpy's "Mathematical functions: hyperbolic functions", with numpy 2's names
(`acosh`, `asinh`, `atanh`). The notes of `math/arithmetic.py` hold; the
derivative rules are the primitives' in `rune/primitives/elementwise.py`.
"""

from __future__ import annotations

from ...primitives import elementwise as _e
from ..array_api import tanh_at_complex_infinities

__all__ = [
    "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "acosh", "asinh", "atanh",
]


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


acosh, asinh, atanh = arccosh, arcsinh, arctanh
