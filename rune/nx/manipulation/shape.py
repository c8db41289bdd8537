"""Changing array shape: ndim, reshape, ravel.

numpy's "Array manipulation: basic operations" and "changing array shape".
Each is one shape primitive (`reshape`), so every transformation applies.
"""

import math
import operator

import numpy as np

from ...primitives import shape as _s
from ..creation import as_tensor
from ..tensor import Tensor

__all__ = ["ndim", "reshape", "ravel"]


def _ints(values, what, fn) -> tuple:
    try:
        return tuple(operator.index(v) for v in (
            (values,) if hasattr(values, "__index__") else values))
    except TypeError:
        raise TypeError(f"{fn}: {what} must be an int or a sequence of ints, "
                        f"got {values!r}") from None


def _reshape(x, shape):
    return x if tuple(x.shape) == shape else _s.reshape(x, shape=shape)


def ndim(x) -> int:
    """The number of axes of x, a Python int (`x.ndim` for a tensor).

    A traced tensor's axes are known: under vmap, those of one example.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.

    Raises:
      TypeError: x is not numeric.

    >>> from rune import nx
    >>> print(nx.ndim(nx.ones((2, 3))), nx.ndim([[1.0, 2.0]]), nx.ndim(3.0))
    2 2 0
    """
    if isinstance(x, (Tensor, np.ndarray)):
        return x.ndim  # no conversion: a numpy array need not be copied to be counted
    return as_tensor(x, "nx.ndim").ndim


def reshape(x, shape, *, copy=None):
    """x with a new shape of the same size; one entry may be -1 (inferred).

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      shape: an int or a sequence of ints.
      copy: the Array API's keyword, without effect: tensors never change, so
        whether the result shares x's memory cannot be seen.

    Raises:
      TypeError: x is not numeric, or shape is not ints.
      ValueError: the sizes differ, or more than one -1.

    >>> from rune import nx
    >>> print(nx.reshape(nx.array([1.0, 2.0, 3.0, 4.0]), (2, -1)))
    float64 [2, 2]
    [[1, 2],
     [3, 4]]
    """
    x = as_tensor(x, "nx.reshape")
    return _reshape(x, _resolve_shape(tuple(x.shape), _ints(shape, "shape", "nx.reshape")))


def _resolve_shape(old, new):
    size = math.prod(old)
    if new.count(-1) > 1:
        raise ValueError(f"nx.reshape: shape {new} has more than one -1 (only one size can "
                         f"be inferred)")
    if new.count(-1) == 1:
        known = math.prod(n for n in new if n != -1)
        if known and size % known == 0:
            new = tuple(size // known if n == -1 else n for n in new)
    if math.prod(new) != size or any(n < 0 for n in new):
        raise ValueError(f"nx.reshape: cannot reshape a tensor of shape {old} "
                         f"({size} elements) into shape {new}")
    return new


def ravel(x):
    """x flattened to one axis (row-major order).

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.

    Raises:
      TypeError: x is not numeric.

    >>> from rune import nx
    >>> print(nx.ravel(nx.array([[1.0, 2.0], [3.0, 4.0]])))
    float64 [4] [1, 2, 3, 4]
    """
    x = as_tensor(x, "nx.ravel")
    return _reshape(x, (x.size,))
