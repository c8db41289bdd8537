"""Logic functions: truth tests, array contents, array type, logical operations, comparison.

numpy's "Logic functions": `all`, `any`, `isfinite`, `isinf`, `isnan`,
`iscomplex`, `isreal`, `logical_and`..., `allclose`, `isclose`, `equal`,
`less`... They are piecewise constant: their derivative is zero, and a bool
output carries none. Each applies to tensors, numpy arrays and Python
numbers alike, with numpy's broadcasting; a shape mismatch raises a
ValueError naming the function and the shapes.
"""

from __future__ import annotations

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import reduce as _r
from .creation import as_tensor
from .tensor import broadcast_error, call_broadcasting, normalize_axes, Tensor

__all__ = [
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
    "logical_or", "logical_xor", "logical_not", "isnan", "isfinite", "isinf", "all", "any",
    "allclose", "isclose", "iscomplex", "isreal",
]


_PASS = (Tensor, int, float, complex)  # bool is an int


def _call(fn, prim, *args):
    """`call_broadcasting(fn, prim, *args)`, once each argument is checked to hold
    numbers: numpy compares None and strings without complaint (`None == 1` is
    False, `"a"` is true), and would answer with a tensor of objects. (Written
    out rather than calling call_broadcasting: one Python call less.)"""
    for a in args:
        if not isinstance(a, _PASS):
            args = [a if isinstance(a, _PASS) else as_tensor(a, fn) for a in args]
            break
    try:
        return prim(*args)
    except ValueError as error:
        raise broadcast_error(fn, error, *args) from None


def equal(x, y):
    """x == y, elementwise, as a bool tensor (derivative zero).

    Args:
      x, y: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.equal(nx.array([1.0, 2.0, 3.0]), 2))
    bool [3] [False, True, False]
    """
    return _call("nx.equal", _e.equal, x, y)


def not_equal(x, y):
    """x != y, elementwise, as a bool tensor (derivative zero).

    Args:
      x, y: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.not_equal(nx.array([1.0, 2.0, 3.0]), 2))
    bool [3] [True, False, True]
    """
    return _call("nx.not_equal", _e.not_equal, x, y)


def less(x, y):
    """x < y, elementwise, as a bool tensor (derivative zero).

    Args:
      x, y: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.less(nx.array([1.0, 2.0, 3.0]), 2))
    bool [3] [True, False, False]
    """
    return _call("nx.less", _e.less, x, y)


def less_equal(x, y):
    """x <= y, elementwise, as a bool tensor (derivative zero).

    Args:
      x, y: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.less_equal(nx.array([1.0, 2.0, 3.0]), 2))
    bool [3] [True, True, False]
    """
    return _call("nx.less_equal", _e.less_equal, x, y)


def greater(x, y):
    """x > y, elementwise, as a bool tensor (derivative zero).

    Args:
      x, y: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.greater(nx.array([1.0, 2.0, 3.0]), 2))
    bool [3] [False, False, True]
    """
    return _call("nx.greater", _e.greater, x, y)


def greater_equal(x, y):
    """x >= y, elementwise, as a bool tensor (derivative zero).

    Args:
      x, y: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.greater_equal(nx.array([1.0, 2.0, 3.0]), 2))
    bool [3] [False, True, True]
    """
    return _call("nx.greater_equal", _e.greater_equal, x, y)


def logical_and(x, y):
    """x and y, elementwise, as a bool tensor (nonzero numbers are true).

    Args:
      x, y: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.logical_and(nx.array([True, True, False]), nx.array([True, False, False])))
    bool [3] [True, False, False]
    """
    return _call("nx.logical_and", _e.logical_and, x, y)


def logical_or(x, y):
    """x or y, elementwise, as a bool tensor.

    Args:
      x, y: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.logical_or(nx.array([True, True, False]), nx.array([True, False, False])))
    bool [3] [True, True, False]
    """
    return _call("nx.logical_or", _e.logical_or, x, y)


def logical_xor(x, y):
    """x xor y (one of them true, not both), elementwise.

    Args:
      x, y: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.logical_xor(nx.array([True, True, False]), nx.array([True, False, False])))
    bool [3] [False, True, False]
    """
    return _call("nx.logical_xor", _e.logical_xor, x, y)


def logical_not(x):
    """not x, elementwise, as a bool tensor (also `~x`).

    Args:
      x: a tensor, numpy array or number.

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.logical_not(nx.array([True, False])))
    bool [2] [False, True]
    """
    return _e.logical_not(x if isinstance(x, _PASS) else as_tensor(x, "nx.logical_not"))


def isnan(x):
    """Where x is nan (for complex: either part).

    Args:
      x: a tensor, numpy array or number.

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.isnan(nx.array([1.0, float("nan"), float("inf")])))
    bool [3] [False, True, False]
    """
    return _e.isnan(x)


def isfinite(x):
    """Where x is neither nan nor infinite.

    Args:
      x: a tensor, numpy array or number.

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.isfinite(nx.array([1.0, float("nan"), float("inf")])))
    bool [3] [True, False, False]
    """
    return _e.isfinite(x)


def isinf(x):
    """Where x is +inf or -inf.

    Args:
      x: a tensor, numpy array or number.

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.isinf(nx.array([1.0, float("nan"), -float("inf")])))
    bool [3] [False, False, True]
    """
    return _e.isinf(x)


def all(x, axis=None, keepdims=False):  # noqa: A001  (numpy's name)
    """Whether every element over `axis` is true (nonzero); a bool tensor.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None (all axes), an int or a tuple of ints; negative counts from the end.
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.all(nx.array([[True, False], [True, True]]), axis=1))
    bool [2] [False, True]
    """
    x = as_tensor(x, "nx.all", result_is_new=True)
    return _r.all(x, axis=normalize_axes(axis, len(x.shape), "nx.all"), keepdims=keepdims)


def any(x, axis=None, keepdims=False):  # noqa: A001  (numpy's name)
    """Whether some element over `axis` is true (nonzero); a bool tensor.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None (all axes), an int or a tuple of ints; negative counts from the end.
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.any(nx.array([0.0, 0.0, 2.0])))
    bool [] True
    """
    x = as_tensor(x, "nx.any", result_is_new=True)
    return _r.any(x, axis=normalize_axes(axis, len(x.shape), "nx.any"), keepdims=keepdims)


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    """Whether a and b are equal within tolerance everywhere: a Python bool.

    Elementwise |a - b| <= atol + rtol * |b|, broadcasting as numpy does.

    Args:
      a, b: tensors, numpy arrays or numbers.
      rtol, atol: the relative and absolute tolerances.
      equal_nan: count nan as equal to nan.

    Raises:
      TypeError: a or b is not numeric.
      ValueError: shapes that do not broadcast (naming both).
      rune.TracedValueError: under jit or vmap, where there are no values to
        compare (use the elementwise comparisons instead).

    >>> from rune import nx
    >>> nx.allclose(nx.array([1.0, 2.0]), [1.0, 2.0 + 1e-9])
    True
    """
    values = [v._concrete("nx.allclose", lossless=True) if isinstance(v, Tensor) else v
              for v in (a, b)]
    try:
        return bool(np.allclose(values[0], values[1], rtol=rtol, atol=atol, equal_nan=equal_nan))
    except ValueError as error:
        raise broadcast_error("nx.allclose", error, *values) from None


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


def iscomplex(x):
    """True where x has a nonzero imaginary part (all False for real dtypes).

    Args:
      x: a tensor, numpy array or number.

    Raises:
      TypeError: x is not numeric.

    >>> from rune import nx
    >>> print(nx.iscomplex(nx.array([1 + 1j, 2 + 0j])))
    bool [2] [True, False]
    """
    return _e.not_equal(_e.imag(as_tensor(x, "nx.iscomplex")), 0)


def isreal(x):
    """True where x's imaginary part is zero (all True for real dtypes).

    Args:
      x: a tensor, numpy array or number.

    Raises:
      TypeError: x is not numeric.

    >>> from rune import nx
    >>> print(nx.isreal(nx.array([1 + 1j, 2 + 0j])))
    bool [2] [False, True]
    """
    return _e.equal(_e.imag(as_tensor(x, "nx.isreal")), 0)


def _reduce_any(x):
    return _r.any(x, axis=tuple(range(x.ndim)), keepdims=False)
