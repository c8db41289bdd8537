"""Comparing, selecting and rounding, elementwise.

These are piecewise: comparisons, logical functions, predicates and
rounding are piecewise constant (their derivative is zero, and a bool
output carries none); maximum, minimum, clip and where pass the derivative
of the argument they select, and split it evenly at ties (see `nx.math`).
"""

from __future__ import annotations

from ..primitives import elementwise as _e
from .creation import as_tensor
from .tensor import Tensor, broadcast_error

__all__ = [
    "maximum", "minimum", "clip", "where",
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "logical_and", "logical_or", "logical_xor", "logical_not", "isnan", "isfinite", "isinf",
    "floor", "ceil", "round",
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


# ------------------------------------------------ selecting and comparing


def maximum(x, y):
    """The larger of x and y, elementwise (nan if either is nan).

    At ties the derivative is split: half to each argument.

    Args:
      x, y: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.maximum(nx.array([1.0, 5.0]), 3))
    float64 [2] [3, 5]
    """
    return _call("nx.maximum", _e.maximum, x, y)


def minimum(x, y):
    """The smaller of x and y, elementwise; ties split the derivative (see maximum).

    Args:
      x, y: tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.minimum(nx.array([1.0, 5.0]), 3))
    float64 [2] [1, 3]
    """
    return _call("nx.minimum", _e.minimum, x, y)


def clip(x, min=None, max=None, *, a_min=None, a_max=None):  # noqa: A002
    """x limited to [min, max]: minimum(maximum(x, min), max).

    The derivative is 1 inside, 0 outside, and 0.5 at a bound (maximum's
    and minimum's tie rule). The bounds are named min and max as in the
    Array API standard and numpy 2's keywords, or a_min and a_max as in
    numpy's positional names; with no bound, x comes back as it is (numpy 2).

    Args:
      x: a tensor, numpy array or number.
      min, max: bounds (numbers or tensors broadcasting with x); None for no bound.
      a_min, a_max: the same bounds under numpy's names (give one name of each).

    Raises:
      TypeError: x or a bound is not numeric, or a bound given under both names.
      ValueError: shapes that do not broadcast.

    >>> from rune import nx
    >>> print(nx.clip(nx.array([-2.0, 0.5, 3.0]), 0, 1))
    float64 [3] [0, 0.5, 1]
    """
    low, high = _one_bound(min, a_min, "min"), _one_bound(max, a_max, "max")
    if low is None and high is None:
        return as_tensor(x, "nx.clip")
    if low is not None:
        x = _call("nx.clip", _e.maximum, x, low)
    if high is not None:
        x = _call("nx.clip", _e.minimum, x, high)
    return x


def _one_bound(standard, numpys, name):
    if standard is not None and numpys is not None:
        raise TypeError(f"nx.clip: {name} and a_{name} name the same bound; give one of them")
    return numpys if standard is None else standard


_NOT_GIVEN = object()  # where's x1 and x2 (None is not a number, so it is an error)


def where(condition, x1=_NOT_GIVEN, x2=_NOT_GIVEN, /):
    """x1 where condition is true, x2 elsewhere; the three broadcast together.
    With the condition alone, `nx.nonzero(condition)`: the indices where it holds.

    The derivative flows to x1 where the condition holds and to x2 elsewhere;
    the condition has none. The arguments are positional (numpy's where takes
    no keywords either); x1 and x2 are the Array API standard's names.

    Args:
      condition: a boolean tensor (nonzero numbers count as true).
      x1, x2: tensors, numpy arrays or numbers; both or neither.

    Raises:
      TypeError: an argument is not numeric (None, a string).
      ValueError: only one of x and y, or shapes that do not broadcast (naming all three).

    >>> from rune import nx
    >>> x = nx.array([-1.0, 2.0])
    >>> print(nx.where(x > 0, x, 0), nx.where(x > 0))
    float64 [2] [0, 2] (Tensor(int64 [1] [1]),)
    """
    if x1 is _NOT_GIVEN and x2 is _NOT_GIVEN:
        from .sorting import nonzero  # sorting builds on this module
        return nonzero(condition)
    if x1 is _NOT_GIVEN or x2 is _NOT_GIVEN:
        raise ValueError("nx.where: give both x and y (x1 and x2), or neither (for the "
                         "indices where condition holds); got one of them")
    return _call("nx.where", _e.where, condition, x1, x2)


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


# ------------------------------------------------------------- rounding


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
