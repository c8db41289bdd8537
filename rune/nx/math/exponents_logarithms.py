"""Exponents and logarithms: exp, expm1, exp2, log, log1p, log2, log10, logaddexp, logsumexp...

numpy's "Mathematical functions: exponents and logarithms", with the
reductions built on them that machine learning reaches for: `logsumexp`,
`softmax`, `log_softmax` (scipy.special's) and `sigmoid`. Complex arguments
use the complex derivative f'(z).
"""

from __future__ import annotations

from ...primitives import elementwise as _e
from ...primitives import reduce as _r
from ...primitives import shape as _s
from ..creation import as_tensor
from ..tensor import normalize_axes
from .complex import _real_pair
from .sums_products_differences import _count

__all__ = [
    "exp", "expm1", "log", "log1p", "log2", "log10", "sigmoid", "logsumexp", "softmax",
    "log_softmax", "exp2", "logaddexp", "logaddexp2",
]


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


def _detached_max(x, axes):
    """max over axes (kept), held constant, with non-finite values (an axis of
    -inf, or an empty one) replaced by 0: a shift that keeps exp from overflowing."""
    real = _e.real(x) if x.dtype.kind == "c" else x
    if _count(x.shape, axes) == 0:
        return 0
    m = _e.stop_gradient(_r.max(real, axis=axes, keepdims=True))
    return _e.where(_e.isfinite(m), m, 0)


def logsumexp(x, axis=None, keepdims=False):
    """log(sum(exp(x))) over `axis`, computed without overflow.

    The largest element is subtracted before exp and added back after, as a
    constant (it does not change the value, so derivatives are exact: the
    gradient is softmax). Complex inputs are shifted by their real parts.
    An empty reduction gives -inf.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None (all axes), an int or a tuple of ints; negative counts from the end.
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.logsumexp(nx.array([1000.0, 1000.0])))
    float64 [] 1000.6931471805599
    """
    x = as_tensor(x, "nx.logsumexp", result_is_new=True)
    axes = normalize_axes(axis, len(x.shape), "nx.logsumexp")
    shift = _detached_max(x, axes)
    total = _r.sum(_e.exp(_e.subtract(x, shift)), axis=axes, keepdims=True)
    out = _e.add(_e.log(total), shift)
    return out if keepdims else _s.reshape(out, shape=_r._reduced_shape(x.shape, axes, False))


def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) over `axis` (the last by default), without overflow.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: an int (the last axis by default), a tuple of ints, or None for all axes.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.softmax(nx.array([1000.0, 1000.0, 1000.0, 1000.0])))
    float64 [4] [0.25, 0.25, 0.25, 0.25]
    """
    x = as_tensor(x, "nx.softmax", result_is_new=True)
    axes = normalize_axes(axis, len(x.shape), "nx.softmax")
    e = _e.exp(_e.subtract(x, _detached_max(x, axes)))
    return _e.divide(e, _r.sum(e, axis=axes, keepdims=True))


def log_softmax(x, axis=-1):
    """log(softmax(x)) over `axis`, computed stably as x - logsumexp(x).

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: an int (the last axis by default), a tuple of ints, or None for all axes.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.log_softmax(nx.array([0.0, 0.0])))
    float64 [2] [-0.6931471805599453, -0.6931471805599453]
    """
    x = as_tensor(x, "nx.log_softmax", result_is_new=True)
    axes = normalize_axes(axis, len(x.shape), "nx.log_softmax")
    return _e.subtract(x, logsumexp(x, axis=axes, keepdims=True))


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
