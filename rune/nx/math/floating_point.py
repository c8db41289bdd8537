"""Floating point routines: signbit, copysign.

numpy's "Mathematical functions: floating point routines". `copysign` moves
with x1 (times the sign it takes); `signbit` is piecewise constant.
"""

from __future__ import annotations

from ...primitives import elementwise as _e
from ..array_api import weak_operands
from ..creation import as_tensor
from ..tensor import call_broadcasting
from .arithmetic import _float, _real

__all__ = ["copysign", "signbit"]


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
