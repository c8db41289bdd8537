"""`nx.linalg`'s solvers and helpers: pinv, lstsq, matrix_power, matrix_rank,
cond, multi_dot, tensorsolve, tensorinv, and numpy 2's array-API names.

pinv is a primitive (rune/primitives/pseudoinverse.py, with its derivative);
the others are compositions of nx operations, so their derivatives are those
of matmul, inv, solve, the singular values and pinv. rune/nx/linalg.py
re-exports them.
"""

from __future__ import annotations

import operator

import numpy as np

from ..primitives import pseudoinverse as _p
from ..primitives.linalg import singular_values as _singular_values
from . import aliases as _aliases
from . import comparisons as _c
from . import differences as _differences
from . import indexing as _indexing
from . import math as _m
from . import products as _products
from . import reductions as _reductions
from . import shapes as _shapes
from .creation import as_tensor, eye
from .decompositions import _eager
from .linalg import LinAlgError, _inexact, _square, eigvalsh, inv, norm, slogdet, solve
from .products import matmul
from .statistics import count_nonzero
from .tensor import Tensor, TracedValueError

__all__ = ["pinv", "lstsq", "matrix_power", "matrix_rank", "cond", "multi_dot", "tensorsolve",
           "tensorinv", "matmul", "matrix_transpose", "vecdot", "tensordot", "outer", "trace",
           "diagonal", "cross"]

# numpy 2's np.linalg repeats these top-level functions with the same meaning.
matrix_transpose = _aliases.matrix_transpose
vecdot = _aliases.vecdot
tensordot = _products.tensordot


def _matrices(a, fn, name="a"):
    """a as a tensor of matrices (at least two axes), or a ValueError naming it."""
    a = as_tensor(a, fn)
    if a.ndim < 2:
        raise ValueError(f"{fn}: {name} must be a matrix (or a stack of them in the last two "
                         f"axes), got shape {a.shape}")
    return a


def _tolerance(value, fn, name):
    """A relative or absolute tolerance: a float, or a numpy array that broadcasts
    over the stack of matrices (read as numbers: it is not differentiated)."""
    array = np.asarray(value.numpy() if isinstance(value, Tensor) else value)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{fn}: {name} must be a real number or an array of them, got "
                        f"{value!r}")
    return float(array) if array.ndim == 0 else array.astype(np.float64)


def _default_rtol(a):
    """numpy's relative cutoff when none is given: max(M, N) * eps."""
    return max(a.shape[-2:]) * np.finfo(a.dtype).eps


# -------------------------------------------------------------------- pinv

_UNSET = object()


def pinv(a, rcond=None, hermitian=False, *, rtol=_UNSET):
    """The Moore-Penrose pseudo-inverse of a matrix (of each matrix in a stack).

    Singular values at or below rcond times the largest count as zero, as in
    numpy. Derivative (Golub and Pereyra, as JAX): dA+ = -A+ dA A+ +
    A+ A+^H dA^H (I - A A+) + (I - A+ A) dA^H A+^H A+, exact where the rank
    is constant. Where the rank changes (a singular value crosses the cutoff)
    the pseudo-inverse jumps and is not differentiable: the rule then gives
    the derivative along perturbations that keep the rank, as in JAX.

    Args:
      a: a matrix (M, N), or a stack of them (..., M, N).
      rcond: the relative cutoff: a number, or an array broadcasting over the
        stack. Default 1e-15 (numpy's), unless rtol is given.
      hermitian: a is Hermitian (square): numpy then uses the eigenvalues and
        reads one triangle; the derivative is taken along (dA + dA^H) / 2.
      rtol: the array API's name for rcond; rtol=None means max(M, N) * eps.

    Raises:
      TypeError: a is not numeric, or rcond/rtol is not a real number.
      ValueError: a has fewer than two axes, a is not square with
        hermitian=True, or both rcond and rtol are given.

    >>> from rune import nx
    >>> print(nx.linalg.pinv(nx.array([[1.0, 0.0], [0.0, 2.0], [0.0, 0.0]])))
    float64 [2, 3]
    [[  1,   0,   0],
     [  0, 0.5,   0]]
    """
    fn = "nx.linalg.pinv"
    a = _inexact(_square(a, fn) if hermitian else _matrices(a, fn))
    if rcond is None:
        rcond = 1e-15 if rtol is _UNSET else _default_rtol(a) if rtol is None else rtol
    elif rtol is not _UNSET:
        raise ValueError(f"{fn}: give rcond or rtol, not both (rcond={rcond!r}, rtol={rtol!r})")
    return _p.pinv(a, rcond=_tolerance(rcond, fn, "rcond"), hermitian=bool(hermitian))


# ------------------------------------------------------------------- lstsq


def lstsq(a, b, rcond=None):
    r"""The least-squares solution x of a @ x = b (numpy.linalg.lstsq).

    x is pinv(a, rcond) @ b, the solution of least norm, computed as numpy
    does (LAPACK's gelsd); its derivative is pinv's (Golub and Pereyra),
    exact where the rank of a is constant.

    Args:
      a: a matrix (M, N) (numpy's lstsq does not take stacks).
      b: a vector (M,) or a matrix (M, K).
      rcond: singular values at or below rcond times the largest count as
        zero; None (the default) means max(M, N) * eps.

    Returns:
      `(x, residuals, rank, s)` as numpy: x of shape (N,) or (N, K); the
      squared residual norms |b - a x|^2 of shape (K,) ((1,) for a vector
      b) when the rank is N < M, else of shape (0,); the rank (an int32
      tensor, no derivative); the singular values s of a. Under rune.jit and
      rune.vmap the rank is not known while tracing, so an a with M > N
      always gets the residuals (as in JAX).

    Raises:
      TypeError: a or b is not numeric, or rcond is not a real number.
      LinAlgError: a is not 2-d, b not 1-d or 2-d, or their rows differ
        (numpy.linalg.LinAlgError, a ValueError).

    >>> from rune import nx
    >>> x, residuals, rank, s = nx.linalg.lstsq(nx.array([[1.0, 0.0], [1.0, 1.0],
    ...                                                  [1.0, 2.0]]), nx.array([1.0, 2.0, 2.0]))
    >>> print(nx.round(x, 12), nx.round(residuals, 12), rank, sep="\n")
    float64 [2] [1.166666666667, 0.5]
    float64 [1] [0.166666666667]
    int32 [] 2
    """
    fn = "nx.linalg.lstsq"
    a, b = as_tensor(a, fn), as_tensor(b, fn)
    if a.ndim != 2 or b.ndim not in (1, 2) or b.shape[0] != a.shape[0]:
        raise LinAlgError(f"{fn}: expected a matrix a (M, N) and b (M,) or (M, K), got shapes "
                          f"{a.shape} and {b.shape}")
    dtype = np.result_type(_inexact(a).dtype, _inexact(b).dtype)  # numpy's common type
    a, b = _m.astype(a, dtype), _m.astype(b, dtype)
    m, n = a.shape
    rcond = np.finfo(dtype).eps * max(m, n) if rcond is None else _tolerance(rcond, fn, "rcond")
    if _eager(a) and _eager(b):  # nothing traces: numpy's one gelsd call gives all four
        x, residuals, rank, s = np.linalg.lstsq(a._value, b._value, rcond=rcond)
        return Tensor(x), Tensor(residuals), Tensor(np.array(rank, np.int32)), Tensor(s)
    x = _p.lstsq(a, b, rcond=rcond)
    s = _singular_values(a)
    cutoff = _reductions.max(s) * rcond if s.shape[0] else 0.0
    rank = _m.astype(count_nonzero(s > cutoff), np.int32)
    if m > n and _full_rank_or_traced(rank, n, fn):
        error = b - matmul(a, x)
        residuals = _reductions.sum(_m.real(error * _m.conj(error)), axis=0)
        residuals = _shapes.reshape(residuals, (1,)) if b.ndim == 1 else residuals
    else:
        residuals = Tensor(np.zeros(0, np.finfo(dtype).dtype))
    return x, residuals, rank, s


def _full_rank_or_traced(rank, n, fn):
    try:
        return int(rank._concrete(fn, lossless=True)) == n
    except TracedValueError:
        return True


# ----------------------------------------------------------- matrix_power


def matrix_power(a, n):
    r"""a multiplied by itself n times (numpy.linalg.matrix_power), for each matrix
    in a stack: the identity for n = 0, powers of inv(a) for n < 0.

    The products are numpy's (repeated squaring beyond n = 3), so the values
    are numpy's; the derivative is that of matmul and inv.

    Args:
      a: a square matrix (M, M), or a stack of them (..., M, M).
      n: an integer (a Python int, a numpy integer, or anything with `__index__`).

    Raises:
      TypeError: a is not numeric, or n is not an integer.
      ValueError: a is not square in its last two axes.
      LinAlgError: n < 0 and a is singular.

    >>> from rune import nx
    >>> a = nx.array([[1.0, 1.0], [0.0, 1.0]])
    >>> print(nx.linalg.matrix_power(a, 5), nx.linalg.matrix_power(a, -2), sep="\n")
    float64 [2, 2]
    [[1, 5],
     [0, 1]]
    float64 [2, 2]
    [[ 1, -2],
     [ 0,  1]]
    """
    fn = "nx.linalg.matrix_power"
    a = _square(a, fn)
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"{fn}: the exponent n must be an integer, got {n!r}") from None
    if n == 0:
        return _shapes.broadcast_to(eye(a.shape[-1], dtype=a.dtype), a.shape)
    if n < 0:
        a, n = inv(a), -n
    if n <= 3:
        result = a
        for _ in range(n - 1):
            result = matmul(result, a)
        return result
    power = result = None  # numpy's order of products: a^(2^k) for each bit of n
    while n > 0:
        power = a if power is None else matmul(power, power)
        n, bit = divmod(n, 2)
        if bit:
            result = power if result is None else matmul(result, power)
    return result


# ------------------------------------------------------------ matrix_rank


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):  # noqa: N803  (numpy's name)
    """The number of singular values above a tolerance (numpy.linalg.matrix_rank).

    An integer: it has no derivative (the census lists it so).

    Args:
      A: a matrix (M, N) or a stack of them; a vector or a number has rank 1
        unless it is all zeros.
      tol: the absolute tolerance (a number, or an array broadcasting over
        the stack); default rtol times the largest singular value.
      hermitian: A is Hermitian: the singular values are then the absolute
        eigenvalues (eigvalsh, reading the lower triangle), as in numpy.
      rtol: the relative tolerance; default max(M, N) * eps.

    Returns:
      An int64 tensor of the stack's shape.

    Raises:
      TypeError: A is not numeric, or tol/rtol is not a real number.
      ValueError: both tol and rtol are given.

    >>> from rune import nx
    >>> print(nx.linalg.matrix_rank(nx.array([[1.0, 2.0], [2.0, 4.0]])))
    int64 [] 1
    """
    fn = "nx.linalg.matrix_rank"
    A = as_tensor(A, fn)  # noqa: N806
    if tol is not None and rtol is not None:
        raise ValueError(f"{fn}: give tol or rtol, not both (tol={tol!r}, rtol={rtol!r})")
    if A.ndim < 2:
        return _m.astype(_reductions.any(A != 0), np.int64)
    A = _inexact(A)  # noqa: N806
    s = _m.abs(eigvalsh(A)) if hermitian else _singular_values(A)
    if tol is None:
        rtol = _default_rtol(s) if rtol is None else _tolerance(rtol, fn, "rtol")
        largest = _reductions.max(s, axis=-1, keepdims=True) if s.shape[-1] else 0.0
        tol = largest * _last_axis(rtol)
    else:
        tol = _last_axis(_tolerance(tol, fn, "tol"))
    return _m.astype(count_nonzero(s > tol, axis=-1), np.int64)


def _last_axis(value):
    """A tolerance per matrix as a column against the singular values' last axis."""
    return value[..., None] if isinstance(value, np.ndarray) else value


# ------------------------------------------------------------------- cond

_COND_NUMBERS = (1, -1, 2, -2, np.inf, -np.inf)


def cond(x, p=None):
    """The condition number of a matrix (of each in a stack), numpy.linalg.cond.

    p = None, 2 or -2: the ratio of the largest and smallest singular values
    (any shape of matrix); the other p: norm(x, p) * norm(inv(x), p) (square
    matrices). A singular matrix has condition number inf, as in numpy; there
    the derivative does not exist and comes out inf or NaN. The derivative
    is that of the singular values (distinct ones from the second derivative
    on) or of the norms and inv. Under rune.jit, a singular matrix with p
    other than None, 2, -2 raises LinAlgError (inv's), as the traced graph
    cannot branch on it.

    Args:
      x: a matrix (M, N), or a stack of them (..., M, N).
      p: None, 2, -2, 'fro', 'nuc', 1, -1, inf or -inf.

    Raises:
      TypeError: x is not numeric.
      ValueError: x has fewer than two axes, p is not one of the above, or
        x is not square for a p other than None, 2, -2.
      LinAlgError: x is empty.

    >>> from rune import nx
    >>> print(nx.linalg.cond(nx.array([[1.0, 0.0], [0.0, 4.0]])),
    ...       nx.linalg.cond(nx.array([[1.0, 1.0], [0.0, 1.0]]), 1))
    float64 [] 4 float64 [] 4
    """
    fn = "nx.linalg.cond"
    x = _inexact(_matrices(x, fn, "x"))
    if not (p is None or p in (("fro", "nuc") if isinstance(p, str) else _COND_NUMBERS)):
        raise ValueError(f"{fn}: invalid p {p!r}; expected None, 2, -2, 'fro', 'nuc', 1, -1, "
                         f"inf or -inf")
    if 0 in x.shape[-2:]:
        raise LinAlgError(f"{fn}: cond is not defined on empty matrices, got shape {x.shape}")
    with np.errstate(divide="ignore", invalid="ignore"):
        if p is None or p in (2, -2):
            s = _singular_values(x)
            largest, smallest = s[..., 0], s[..., -1]
            r = smallest / largest if p == -2 else largest / smallest
        else:
            r = _norm_times_inverse_norm(_square(x, fn, "x"), p)
        return _nan_means_inf(r, x)


def _nan_means_inf(r, x):
    """numpy's rule: a NaN condition number (0/0, inf/inf) is inf, unless x holds a NaN."""
    try:
        if not np.isnan(r._concrete("nx.linalg.cond", lossless=True)).any():
            return r  # the common case, without six more operations
    except TracedValueError:
        pass
    nan_free = _c.logical_not(_reductions.any(_c.isnan(x), axis=(x.ndim - 2, x.ndim - 1)))
    return _c.where(_c.logical_and(_c.isnan(r), nan_free), np.inf, r)


def _norm_times_inverse_norm(x, p):
    axes = (-2, -1)
    try:
        return norm(x, p, axis=axes) * norm(inv(x), p, axis=axes)
    except LinAlgError:  # some matrix of the stack is singular: inf there, as numpy
        pass
    # slogdet's sign is 0 exactly where LU finds a zero pivot, where inv fails
    singular = slogdet(x)[0] == 0
    matrix_of_flags = _shapes.reshape(singular, singular.shape + (1, 1))
    safe = _c.where(matrix_of_flags, eye(x.shape[-1], dtype=x.dtype), x)
    size = norm(x, p, axis=axes)
    # inf * size: infinite, with an infinite or NaN derivative rather than a quiet 0
    return _c.where(singular, size * np.inf, size * norm(inv(safe), p, axis=axes))


# -------------------------------------------------------------- multi_dot


def multi_dot(arrays, *, out=None):
    """The product of several matrices, in the cheapest order (numpy.linalg.multi_dot).

    The order is numpy's (the fewest scalar multiplications, by the matrix
    chain algorithm), so the values are numpy's.

    Args:
      arrays: a sequence of at least two tensors: matrices, except that the
        first may be a vector (a row) and the last a vector (a column). With
        two, it is `nx.dot` of them.
      out: not supported (tensors are immutable).

    Raises:
      TypeError: an operand is not numeric, or out is given.
      ValueError: fewer than two arrays, an operand that is not a matrix
        (LinAlgError, as numpy), or neighbours whose sizes do not match.

    >>> from rune import nx
    >>> a, b = nx.ones((10, 100)), nx.ones((100, 5))
    >>> print(nx.linalg.multi_dot([a, b, nx.ones(5)]).shape)
    (10,)
    """
    fn = "nx.linalg.multi_dot"
    if out is not None:
        raise TypeError(f"{fn}: out= is not supported (tensors are immutable); use the result")
    arrays = [as_tensor(a, fn) for a in arrays]
    if len(arrays) < 2:
        raise ValueError(f"{fn}: expected at least two arrays, got {len(arrays)}")
    if len(arrays) == 2:
        return _products.dot(*arrays)
    row, column = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if row:
        arrays[0] = _shapes.reshape(arrays[0], (1, -1))
    if column:
        arrays[-1] = _shapes.reshape(arrays[-1], (-1, 1))
    for i, a in enumerate(arrays):
        if a.ndim != 2:
            raise LinAlgError(f"{fn}: arrays[{i}] has shape {a.shape}; expected a matrix (the "
                              f"first and the last may be vectors)")
    for i in range(len(arrays) - 1):
        if arrays[i].shape[1] != arrays[i + 1].shape[0]:
            raise ValueError(f"{fn}: arrays[{i}] of shape {arrays[i].shape} and arrays[{i + 1}] "
                             f"of shape {arrays[i + 1].shape} do not match")
    split = _chain_order([a.shape[0] for a in arrays] + [arrays[-1].shape[1]])
    result = _chain_product(arrays, split, 0, len(arrays) - 1)
    if row and column:
        return _shapes.reshape(result, ())
    return _shapes.reshape(result, (-1,)) if row or column else result


def _chain_order(sizes):
    """split[i][j]: where the cheapest product of matrices i..j splits (matrix i
    is sizes[i] x sizes[i + 1]); numpy's dynamic programme, ties to the left."""
    n = len(sizes) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = np.inf
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + sizes[i] * sizes[k + 1] * sizes[j + 1]
                if q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


def _chain_product(arrays, split, i, j):
    if i == j:
        return arrays[i]
    k = split[i][j]
    return matmul(_chain_product(arrays, split, i, k), _chain_product(arrays, split, k + 1, j))


# --------------------------------------------------- tensorsolve, tensorinv


def tensorsolve(a, b, axes=None):
    """The x with tensordot(a, x, x.ndim) = b (numpy.linalg.tensorsolve).

    a's trailing axes (after b's ndim) are x's shape; a is solved as the
    square matrix of that reshape, so the derivative is solve's.

    Args:
      a: a tensor whose first b.ndim axes and the rest have equal sizes in
        product.
      b: the right-hand side.
      axes: axes of a to move to the end first (numpy's), or None.

    Raises:
      TypeError: a or b is not numeric.
      ValueError: an axis out of range or repeated.
      LinAlgError: the sizes do not make a square matrix, or it is singular
        (numpy.linalg.LinAlgError, a ValueError).

    >>> from rune import nx
    >>> a = nx.reshape(nx.eye(6) * 2.0, (2, 3, 6))
    >>> print(nx.linalg.tensorsolve(a, nx.ones((2, 3))).shape)
    (6,)
    """
    fn = "nx.linalg.tensorsolve"
    a, b = as_tensor(a, fn), as_tensor(b, fn)
    if axes is not None:
        _reductions.normalize_axes(tuple(axes), a.ndim, fn)  # in range, none repeated
        moved = tuple(_reductions.normalize_axis(ax, a.ndim, fn) for ax in axes)  # in order
        a = _shapes.transpose(a, tuple(k for k in range(a.ndim) if k not in moved) + moved)
    x_shape = a.shape[b.ndim:] if b.ndim < a.ndim else a.shape
    size = int(np.prod(x_shape, dtype=np.int64))
    if a.size != size * size or b.size != size:
        raise LinAlgError(f"{fn}: a of shape {a.shape} and b of shape {b.shape} do not make a "
                          f"square system: need prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim]) "
                          f"== b.size")
    x = solve(_shapes.reshape(a, (size, size)), _shapes.reshape(b, (size,)))
    return _shapes.reshape(x, x_shape)


def tensorinv(a, ind=2):
    """The inverse of a under tensordot (numpy.linalg.tensorinv): the shape
    a.shape[ind:] + a.shape[:ind], with tensordot(tensorinv(a), a, ind) the identity.

    a is inverted as the square matrix of its reshape, so the derivative is inv's.

    Args:
      a: a tensor whose first `ind` axes and the rest have equal sizes in product.
      ind: a positive integer.

    Raises:
      TypeError: a is not numeric.
      ValueError: ind is not a positive integer; the sizes do not make a
        square matrix (LinAlgError, as numpy), or it is singular.

    >>> from rune import nx
    >>> print(nx.linalg.tensorinv(nx.reshape(nx.eye(6) * 2.0, (6, 2, 3)), ind=1).shape)
    (2, 3, 6)
    """
    fn = "nx.linalg.tensorinv"
    a = as_tensor(a, fn)
    if not isinstance(ind, (int, np.integer)) or isinstance(ind, bool) or ind <= 0:
        raise ValueError(f"{fn}: ind must be a positive integer, got {ind!r}")
    rows = int(np.prod(a.shape[:ind], dtype=np.int64))
    columns = int(np.prod(a.shape[ind:], dtype=np.int64))
    if rows != columns:
        raise LinAlgError(f"{fn}: a of shape {a.shape} with ind={ind} is not square: the first "
                          f"{ind} axes have {rows} elements, the others {columns}")
    inverse = inv(_shapes.reshape(a, (columns, rows)))
    return _shapes.reshape(inverse, a.shape[ind:] + a.shape[:ind])


# --------------------------------------- numpy 2's array-API names, restricted


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
    out = _indexing.trace(x, offset, -2, -1)
    return out if dtype is None else _m.astype(out, dtype)


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
    return _differences.cross(x1, x2, axis=axis)
