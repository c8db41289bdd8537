"""Other special functions: i0, sinc.

numpy's "Mathematical functions: other special functions". `i0`'s
derivative is `i1`; sinc's rule (exact at 0, every order) is in
rune/primitives/special.py. scipy's special functions are in
`rune.scipy.special`.
"""

from __future__ import annotations

from ...primitives import special as _special
from ..creation import as_tensor

__all__ = ["i0", "sinc"]


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
