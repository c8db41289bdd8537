"""The array API's linalg names: outer, trace, diagonal, cross, matrix_transpose, vecdot...

numpy 2's `numpy.linalg` added the array API standard's functions, which
act on the last axes (stacks of vectors and matrices), beside the top-level
ones of the same names (`nx.trace`, `nx.cross`...), which take axes
arguments. They exist only in the `nx.linalg` namespace.
"""

from __future__ import annotations

from . import norms as _norms
from . import products as _products
from .. import creation as _creation
from .. import indexing as _indexing
from ..creation import as_tensor
from ..manipulation import transpose_like as _transpose_like
from ..math import sums_products_differences as _sums
from .solvers import _matrices

__all__ = ["matrix_transpose", "vecdot", "tensordot", "outer", "trace", "diagonal", "cross"]


# numpy 2's np.linalg repeats these top-level functions with the same meaning.
matrix_transpose = _transpose_like.matrix_transpose
vecdot = _products.vecdot
tensordot = _products.tensordot


def outer(x1, x2):
    """The outer product of two vectors (numpy.linalg.outer: 1-d operands only).

    Args:
      x1, x2: vectors (1-d tensors, numpy arrays or lists).

    Raises:
      TypeError: an operand is not numeric.
      ValueError: an operand is not 1-d (`nx.outer` flattens instead).

    >>> from rune import nx
    >>> print(nx.linalg.outer(nx.array([1.0, 2.0]), nx.array([1.0, 10.0])))
    float64 [2, 2]
    [[ 1, 10],
     [ 2, 20]]
    """
    fn = "nx.linalg.outer"
    x1, x2 = as_tensor(x1, fn), as_tensor(x2, fn)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"{fn}: expected two vectors (1-d), got shapes {x1.shape} and "
                         f"{x2.shape} (nx.outer flattens them)")
    return _products.outer(x1, x2)


def trace(x, *, offset=0, dtype=None):
    """The trace of each matrix in x's last two axes (numpy.linalg.trace).

    Args:
      x: a tensor with at least two axes.
      offset: the diagonal: above the main one if positive, below if negative.
      dtype: the result's dtype (None: x's).

    Raises:
      TypeError: x is not numeric, or offset is not an int.
      ValueError: x has fewer than two axes.

    >>> from rune import nx
    >>> print(nx.linalg.trace(nx.reshape(nx.arange(8.0), (2, 2, 2))))
    float64 [2] [3, 11]
    """
    x = _matrices(x, "nx.linalg.trace", "x")
    out = _norms.trace(x, offset, -2, -1)
    return out if dtype is None else _creation.astype(out, dtype)


def diagonal(x, *, offset=0):
    """The diagonal of each matrix in x's last two axes (numpy.linalg.diagonal).

    Args:
      x: a tensor with at least two axes.
      offset: above the main diagonal if positive, below if negative.

    Raises:
      TypeError: x is not numeric, or offset is not an int.
      ValueError: x has fewer than two axes.

    >>> from rune import nx
    >>> print(nx.linalg.diagonal(nx.array([[1.0, 2.0], [3.0, 4.0]]), offset=1))
    float64 [1] [2]
    """
    return _indexing.diagonal(_matrices(x, "nx.linalg.diagonal", "x"), offset, -2, -1)


def cross(x1, x2, *, axis=-1):
    """The cross product of 3-vectors along `axis` (numpy.linalg.cross: 3-vectors only).

    Args:
      x1, x2: tensors whose vector axis has 3 entries; the other axes broadcast.
      axis: the vector axis of both operands and of the result.

    Raises:
      TypeError: an operand is not numeric.
      ValueError: a vector axis without 3 entries, or shapes that do not broadcast.

    >>> from rune import nx
    >>> print(nx.linalg.cross(nx.array([1.0, 0.0, 0.0]), nx.array([0.0, 1.0, 0.0])))
    float64 [3] [0, 0, 1]
    """
    fn = "nx.linalg.cross"
    x1, x2 = as_tensor(x1, fn), as_tensor(x2, fn)
    sizes = [x.shape[axis] if -x.ndim <= axis < x.ndim else None for x in (x1, x2)]
    if sizes != [3, 3]:
        raise ValueError(f"{fn}: both operands must be 3-vectors along axis {axis}, got shapes "
                         f"{x1.shape} and {x2.shape}")
    return _sums.cross(x1, x2, axis=axis)
