"""Rounding: round, around, rint, floor, ceil, trunc.

numpy's "Mathematical functions: rounding". Each is piecewise constant: its
derivative is zero.
"""

from __future__ import annotations

from ...primitives import elementwise as _e
from ..creation import as_tensor

__all__ = ["floor", "ceil", "round", "rint", "around", "trunc"]


def floor(x):
    """The largest integer not above x, elementwise (derivative zero).

    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.

    >>> from rune import nx
    >>> print(nx.floor(nx.array([1.5, -1.5])))
    float64 [2] [1, -2]
    """
    return _e.floor(x)


def ceil(x):
    """The smallest integer not below x, elementwise (derivative zero).

    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.

    >>> from rune import nx
    >>> print(nx.ceil(nx.array([1.5, -1.5])))
    float64 [2] [2, -1]
    """
    return _e.ceil(x)


def round(x, decimals=0):  # noqa: A001  (numpy's name)
    """x rounded to `decimals` decimals, halves to even as numpy does (derivative zero).

    Args:
      x: a tensor, numpy array or number (complex: both parts are rounded).
      decimals: an int; negative rounds to tens, hundreds...

    Raises:
      TypeError: decimals is not an int, or x is not numeric.

    >>> from rune import nx
    >>> print(nx.round(nx.array([1.2345, -1.2345]), 2))
    float64 [2] [1.23, -1.23]
    >>> print(nx.round(nx.array([0.5, 1.5, 2.5])))
    float64 [3] [0, 2, 2]
    """
    if not isinstance(decimals, int) or isinstance(decimals, bool):
        raise TypeError(f"nx.round: decimals must be an int, got {decimals!r}")
    return _e.round_(x, decimals=decimals)


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
