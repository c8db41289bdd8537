"""numpy 2 and array-API names: `acos`, `concat`, `vecdot`, `cumulative_sum`...

numpy 2 adopted the array API standard's names beside its own. The aliases
are the same functions (`nx.acos is nx.arccos`); the others are short
compositions with the standard's arguments. `Tensor.mT` is
`matrix_transpose`; `nx.linalg` has `vector_norm`, `matrix_norm` and
`svdvals`.
"""

from __future__ import annotations

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import indexing as _ix
from . import math as _math
from . import trigonometry as _trig
from . import shapes as _shapes
from .creation import as_tensor, _astype
from .products import matmul
from .reductions import cumprod, cumsum, normalize_axis, sum as _sum
from .tensor import Tensor

__all__ = [
    "acos", "asin", "atan", "atan2", "acosh", "asinh", "atanh", "pow", "concat",
    "permute_dims", "matrix_transpose", "vecdot", "matvec", "vecmat", "unstack",
    "cumulative_sum", "cumulative_prod",
]

acos, asin, atan, atan2 = _trig.arccos, _trig.arcsin, _trig.arctan, _trig.arctan2
acosh, asinh, atanh = _trig.arccosh, _trig.arcsinh, _trig.arctanh
pow = _math.power  # noqa: A001  (the standard's name)
concat = _shapes.concatenate
permute_dims = _shapes.transpose


def matrix_transpose(x):
    """x with its last two axes swapped: a stack of matrices, each transposed.

    Args:
      x: a tensor with at least two axes (or a numpy array, nested lists).

    Raises:
      TypeError: x is not numeric.
      ValueError: x has fewer than two axes.

    >>> from rune import nx
    >>> print(nx.matrix_transpose(nx.ones((5, 2, 3))).shape)
    (5, 3, 2)
    """
    x = as_tensor(x, "nx.matrix_transpose")
    if x.ndim < 2:
        raise ValueError(f"nx.matrix_transpose: expected a tensor with at least 2 axes, got "
                         f"shape {x.shape}")
    return _shapes.swapaxes(x, -1, -2)


def _conj(x):
    return _e.conj(x) if x.dtype.kind == "c" else x


def vecdot(x1, x2, axis=-1):
    """The dot product of vectors along `axis`, conj(x1) . x2; other axes broadcast.

    Args:
      x1, x2: tensors (or numpy arrays, nested lists) that broadcast together.
      axis: the axis of the vectors (an int; negative counts from the end).

    Raises:
      TypeError: an argument is not numeric.
      ValueError: shapes that do not broadcast, or sizes along axis that differ.

    >>> from rune import nx
    >>> print(nx.vecdot(nx.array([[1.0, 2.0], [3.0, 4.0]]), nx.array([1.0, 1.0])))
    float64 [2] [3, 7]
    """
    x1, x2 = as_tensor(x1, "nx.vecdot"), as_tensor(x2, "nx.vecdot")
    n1, n2 = x1.shape[axis:][:1], x2.shape[axis:][:1]
    if n1 != n2:
        raise ValueError(f"nx.vecdot: the vectors along axis {axis} have sizes {n1} and {n2} "
                         f"(shapes {x1.shape} and {x2.shape})")
    products = _math.multiply(_conj(x1), x2)
    # numpy's sum widens small integers (uint8 to uint64); numpy's vecdot does not
    return _sum(products, axis=axis, dtype=products.dtype)


def matvec(x1, x2):
    """Matrix times vector over the last axes: (..., m, n) and (..., n) give (..., m).

    Args:
      x1: a tensor of matrices (at least two axes).
      x2: a tensor of vectors (at least one axis); leading axes broadcast.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: too few axes, or sizes that do not match.

    >>> from rune import nx
    >>> print(nx.matvec(nx.array([[1.0, 2.0], [3.0, 4.0]]), nx.array([1.0, 1.0])))
    float64 [2] [3, 7]
    """
    x1, x2 = as_tensor(x1, "nx.matvec"), as_tensor(x2, "nx.matvec")
    if x1.ndim < 2 or x2.ndim < 1:
        raise ValueError(f"nx.matvec: expected matrices and vectors, got shapes {x1.shape} "
                         f"and {x2.shape}")
    return matmul(x1, _shapes.expand_dims(x2, -1))[..., 0]


def vecmat(x1, x2):
    """Vector times matrix over the last axes, conj(x1) @ x2: (..., n) and (..., n, m)
    give (..., m).

    Args:
      x1: a tensor of vectors (at least one axis), conjugated if complex.
      x2: a tensor of matrices (at least two axes); leading axes broadcast.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: too few axes, or sizes that do not match.

    >>> from rune import nx
    >>> print(nx.vecmat(nx.array([1.0, 1.0]), nx.array([[1.0, 2.0], [3.0, 4.0]])))
    float64 [2] [4, 6]
    """
    x1, x2 = as_tensor(x1, "nx.vecmat"), as_tensor(x2, "nx.vecmat")
    if x1.ndim < 1 or x2.ndim < 2:
        raise ValueError(f"nx.vecmat: expected vectors and matrices, got shapes {x1.shape} "
                         f"and {x2.shape}")
    return matmul(_shapes.expand_dims(_conj(x1), -2), x2)[..., 0, :]


def unstack(x, axis=0):
    """The slices of x along `axis`, as a tuple (the inverse of `nx.stack`).

    Args:
      x: a tensor with at least one axis (or a numpy array, nested lists).
      axis: an int; negative counts from the end.

    Raises:
      TypeError: x is not numeric, or axis is not an int.
      ValueError: x is 0-d, or axis is out of range.

    >>> from rune import nx
    >>> a, b = nx.unstack(nx.array([[1.0, 2.0], [3.0, 4.0]]), axis=1)
    >>> print(a, b)
    float64 [2] [1, 3] float64 [2] [2, 4]
    """
    x = as_tensor(x, "nx.unstack")
    if x.ndim == 0:
        raise ValueError("nx.unstack: a 0-d tensor has no axis to unstack")
    a = normalize_axis(axis, x.ndim, "nx.unstack")
    lead = _ix.full_index(x.shape[:a])
    return tuple(_ix.slice_(x, index=lead + (i,)) for i in range(x.shape[a]))


def _cumulative(x, axis, dtype, include_initial, scan, start, fn):
    x = as_tensor(x, fn)
    if dtype is not None:
        x = _astype(x, dtype, fn)
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"{fn}: axis must be given for a tensor with more than one axis "
                             f"(shape {x.shape})")
        axis = 0
    if x.ndim == 0:
        x = _shapes.reshape(x, (1,))
    a = normalize_axis(axis, x.ndim, fn)
    out = scan(x, axis=a)
    if dtype is not None and out.dtype != x.dtype:  # numpy's scan widens small integers
        out = _astype(out, x.dtype, fn)
    if not include_initial:
        return out
    shape = tuple(x.shape)
    first = Tensor(np.full(shape[:a] + (1,) + shape[a + 1:], start, dtype=out.dtype))
    return _shapes.concatenate([first, out], axis=a)


def cumulative_sum(x, axis=None, dtype=None, include_initial=False):
    """Running sums along `axis` (the array API's cumsum), optionally starting with 0.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: an int; may be None only for a tensor with at most one axis.
      dtype: the dtype to sum in, or None for x's.
      include_initial: put the empty sum, 0, first (the result is one longer).

    Raises:
      TypeError: x is not numeric, axis is not an int, or an unknown dtype.
      ValueError: axis None for a tensor of two axes or more, or out of range.

    >>> from rune import nx
    >>> print(nx.cumulative_sum(nx.array([1.0, 2.0, 3.0]), include_initial=True))
    float64 [4] [0, 1, 3, 6]
    """
    return _cumulative(x, axis, dtype, include_initial, cumsum, 0, "nx.cumulative_sum")


def cumulative_prod(x, axis=None, dtype=None, include_initial=False):
    """Running products along `axis` (the array API's cumprod), optionally starting with 1.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: an int; may be None only for a tensor with at most one axis.
      dtype: the dtype to multiply in, or None for x's.
      include_initial: put the empty product, 1, first (the result is one longer).

    Raises:
      TypeError: x is not numeric, axis is not an int, or an unknown dtype.
      ValueError: axis None for a tensor of two axes or more, or out of range.

    >>> from rune import nx
    >>> print(nx.cumulative_prod(nx.array([1.0, 2.0, 3.0]), include_initial=True))
    float64 [4] [1, 1, 2, 6]
    """
    return _cumulative(x, axis, dtype, include_initial, cumprod, 1, "nx.cumulative_prod")
