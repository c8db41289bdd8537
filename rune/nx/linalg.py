"""`nx.linalg`: inverse, solve, determinants, Cholesky, norms (the solvers and
numpy 2's array-API names are in rune/nx/solvers.py, re-exported at the end).

Each function takes a matrix or a stack of matrices in the last two axes
(numpy's convention) and works for float32, float64, complex64 and
complex128; integer input is computed in float64, as numpy does. The
derivative rules are in rune/primitives/linalg.py; norm is a composition.
"""

from collections import namedtuple

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import linalg as _l
from ..primitives import reduce as _r
from ..primitives import shape as _s
from .aliases import matrix_transpose
from .creation import as_tensor
from .decompositions import eig, eigh, eigvals, eigvalsh, qr, svd
from .reductions import normalize_axes

__all__ = ["inv", "solve", "det", "slogdet", "cholesky", "norm", "vector_norm", "matrix_norm",
           "svdvals", "svd", "eigh", "eigvalsh", "eig", "eigvals", "qr", "pinv", "lstsq",
           "matrix_power", "matrix_rank", "cond", "multi_dot", "tensorsolve", "tensorinv",
           "matmul", "matrix_transpose", "vecdot", "tensordot", "outer", "trace", "diagonal",
           "cross"]

LinAlgError = np.linalg.LinAlgError


def _square(a, fn, name="a"):
    """a as a tensor holding square matrices in its last two axes, or a ValueError."""
    a = as_tensor(a, fn)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{fn}: {name} must be a square matrix (or a stack of them in the "
                         f"last two axes), got shape {a.shape}")
    return a


def inv(a):
    """The inverse of a square matrix (of each matrix in a stack).

    Derivative: d inv(A) = -inv(A) dA inv(A).

    Args:
      a: a square matrix (M, M), or a stack of them (..., M, M).

    Raises:
      TypeError: a is not numeric.
      ValueError: a is not square in its last two axes.
      LinAlgError: a is singular (numpy.linalg.LinAlgError, a ValueError).

    >>> from rune import nx
    >>> print(nx.linalg.inv(nx.array([[2., 0.], [0., 4.]])))
    float64 [2, 2]
    [[ 0.5,    0],
     [   0, 0.25]]
    """
    return _l.inv(_square(a, "nx.linalg.inv"))


def solve(a, b):
    """The solution x of a @ x = b.

    Derivative: dx = solve(a, db - da x).

    Args:
      a: a square matrix (..., M, M).
      b: a vector (M,), or a matrix (..., M, K) (several right-hand sides);
        leading axes of a and b broadcast, as in numpy 2.

    Returns:
      x, of shape (..., M) for a vector b, (..., M, K) otherwise.

    Raises:
      TypeError: a or b is not numeric.
      ValueError: a not square, b's rows not matching a's size, or leading
        axes that do not broadcast.
      LinAlgError: a is singular.

    >>> from rune import nx
    >>> print(nx.linalg.solve(nx.array([[2., 0.], [0., 4.]]), nx.array([1., 1.])))
    float64 [2] [0.5, 0.25]
    """
    a = _square(a, "nx.linalg.solve")
    b = as_tensor(b, "nx.linalg.solve")
    m = a.shape[-1]
    vector = b.ndim == 1
    if b.ndim == 0 or b.shape[0 if vector else -2] != m:
        raise ValueError(
            f"nx.linalg.solve: b of shape {b.shape} does not fit a of shape {a.shape}: b must "
            f"be a vector of size {m} or a matrix (..., {m}, K)"
        )
    if vector:
        return _s.reshape(_l.solve(a, _s.reshape(b, shape=(m, 1))), shape=a.shape[:-1])
    try:
        np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        raise ValueError(f"nx.linalg.solve: the leading (batch) axes of a {a.shape} and b "
                         f"{b.shape} do not broadcast") from None
    return _l.solve(a, b)


def det(a):
    """The determinant of a square matrix (of each matrix in a stack).

    Derivative: d det(A) = trace(adj(A) dA), adj(A) the adjugate: det(A)
    inv(A) where A is well-conditioned, from the SVD near and at singular
    matrices, so the gradient at [[1, 2], [2, 4]] is [[4, -2], [-2, 1]].
    Second derivatives hold everywhere as well; a third goes through the
    singular vectors and is NaN where singular values repeat.

    Args:
      a: a square matrix (M, M), or a stack of them (..., M, M).

    Raises:
      TypeError: a is not numeric.
      ValueError: a is not square in its last two axes.

    >>> from rune import nx
    >>> print(nx.linalg.det(nx.array([[1., 2.], [3., 4.]])))
    float64 [] -2.0000000000000004
    """
    return _l.det(_square(a, "nx.linalg.det"))


def slogdet(a):
    """The sign and the log of the absolute value of the determinant.

    Derivatives: d logabsdet = Re trace(solve(A, dA)). The sign of a real
    determinant is piecewise constant (derivative zero); a complex one turns:
    d sign = sign * i Im trace(solve(A, dA)).

    Args:
      a: a square matrix (M, M), or a stack of them (..., M, M).

    Returns:
      A namedtuple `(sign, logabsdet)` (as numpy's) with det(a) = sign * exp(logabsdet): sign is
      1, -1 or 0 for real a, a unit complex number for complex a; logabsdet
      is real (-inf for a singular a).

    Raises:
      TypeError: a is not numeric.
      ValueError: a is not square in its last two axes.

    >>> from rune import nx
    >>> sign, logabsdet = nx.linalg.slogdet(nx.array([[1., 2.], [3., 4.]]))
    >>> print(sign, logabsdet)
    float64 [] -1 float64 [] 0.6931471805599455
    """
    a = _square(a, "nx.linalg.slogdet")
    return SlogdetResult(_l.sign_of_det(a), _l.logabsdet(a))


SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])


def cholesky(a, upper=False):
    """The lower-triangular L with L @ L^H = a, for a Hermitian positive-definite a.

    Only the lower triangle of a is read (as in numpy). The derivative is
    taken along the Hermitian part of dA (dA + dA^H) / 2, as JAX does: the
    derivative for symmetric perturbations, which is what a function of a
    symmetric matrix needs. dL = L Phi(L^-1 dA L^-H), Phi keeping the lower
    triangle and half the diagonal.

    Args:
      a: a square matrix (M, M), or a stack of them (..., M, M).
      upper: return the upper-triangular U = L^H (with U^H U = a) instead
        (the Array API's keyword).

    Raises:
      TypeError: a is not numeric.
      ValueError: a is not square in its last two axes.
      LinAlgError: a is not positive definite (the factorization fails).

    >>> from rune import nx
    >>> print(nx.linalg.cholesky(nx.array([[4., 2.], [2., 2.]])))
    float64 [2, 2]
    [[2, 0],
     [1, 1]]
    """
    lower = _l.cholesky(_square(a, "nx.linalg.cholesky"))
    return _e.conj(matrix_transpose(lower)) if upper else lower


# -------------------------------------------------------------------- norm

_VECTOR_ORDS = "None, 2, 1, inf, -inf, 0 or another number"
_MATRIX_ORDS = "None, 'fro', 'nuc', 1, -1, 2, -2, inf or -inf"


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002  (numpy's name)
    """A vector or matrix norm (numpy.linalg.norm).

    The Euclidean norm at x = 0 has a NaN gradient (0 * inf from sqrt'(0)),
    as in JAX; guard it with the double-where trick (see the docs' "Kinks
    and NaNs" page). The singular-value norms ('nuc', 2, -2) differentiate
    through the SVD's rule, which needs distinct singular values from the
    second derivative on (infinite where two are equal, as in JAX).

    Args:
      x: a tensor (or numpy array, nested lists).
      ord: the norm. Vectors: None or 2 (Euclidean), 1, inf (max |x|), -inf
        (min |x|), 0 (the number of non-zeros), or any number p
        (sum |x|^p)^(1/p). Matrices: None or 'fro' (Frobenius), 'nuc' (sum of
        singular values), 1 / -1 (max / min column sum of |x|), inf / -inf
        (max / min row sum), 2 / -2 (largest / smallest singular value).
      axis: None (all of x as a vector when ord is None; otherwise x must be
        1-d or 2-d), an int (vector norms along it) or a pair of ints (matrix
        norms over those two axes).
      keepdims: keep the normed axes with size 1.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an unknown ord for the kind of norm, an axis out of range,
        more than two axes, or ord given with axis=None for a tensor that is
        neither 1-d nor 2-d.

    >>> from rune import nx
    >>> print(nx.linalg.norm(nx.array([3., 4.])), nx.linalg.norm(nx.array([3., -4.]), ord=1))
    float64 [] 5 float64 [] 7
    """
    x = as_tensor(x, "nx.linalg.norm")
    if x.dtype.kind not in "fc":
        x = _e.astype(x, dtype=np.dtype(np.float64))
    fn = "nx.linalg.norm"
    if axis is None:
        if ord is None:
            return _vector_norm(x, 2, tuple(range(x.ndim)), keepdims)
        if x.ndim not in (1, 2):
            raise ValueError(f"{fn}: ord={ord!r} with axis=None needs a 1-d or 2-d tensor, got "
                             f"shape {x.shape}; pass axis (an int, or a pair for matrix norms)")
        axis = tuple(range(x.ndim))
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    positions = normalize_axes(axes, x.ndim, fn)
    if len(set(positions)) != len(axes):
        raise ValueError(f"{fn}: axis={axis!r} repeats an axis")
    if len(axes) == 1:
        return _vector_norm(x, 2 if ord is None else ord, positions, keepdims)
    if len(axes) == 2:
        rows, cols = (a % x.ndim for a in axes)
        return _matrix_norm(x, ord, rows, cols, keepdims)
    raise ValueError(f"{fn}: axis={axis!r} names {len(axes)} axes; a norm is over one axis "
                     f"(vector) or two (matrix)")


def _abs_squared(x):
    return _e.real(_e.multiply(x, _e.conj(x))) if x.dtype.kind == "c" else _e.multiply(x, x)


def _vector_norm(x, ord, axes, keepdims):
    if isinstance(ord, str) or ord is None:
        raise ValueError(f"nx.linalg.norm: invalid ord {ord!r} for a vector norm; expected "
                         f"{_VECTOR_ORDS}")
    if ord == 2:
        return _e.sqrt(_r.sum(_abs_squared(x), axis=axes, keepdims=keepdims))
    size = _e.absolute(x)
    if ord == np.inf:
        return _r.max(size, axis=axes, keepdims=keepdims)
    if ord == -np.inf:
        return _r.min(size, axis=axes, keepdims=keepdims)
    if ord == 0:
        return _r.sum(_e.astype(_e.not_equal(x, 0), dtype=size.dtype), axis=axes,
                      keepdims=keepdims)
    if ord == 1:
        return _r.sum(size, axis=axes, keepdims=keepdims)
    return _e.power(_r.sum(_e.power(size, ord), axis=axes, keepdims=keepdims), 1.0 / ord)


def _matrix_norm(x, ord, rows, cols, keepdims):
    axes = tuple(sorted((rows, cols)))
    if ord in (None, "fro"):
        return _e.sqrt(_r.sum(_abs_squared(x), axis=axes, keepdims=keepdims))
    if ord in ("nuc", 2, -2):
        last = tuple(a for a in range(x.ndim) if a not in axes) + (rows, cols)
        s = _l.singular_values(_s.transpose(x, axes=last))
        out = {"nuc": lambda: _r.sum(s, axis=(s.ndim - 1,), keepdims=False),
               2: lambda: _r.max(s, axis=(s.ndim - 1,), keepdims=False),
               -2: lambda: _r.min(s, axis=(s.ndim - 1,), keepdims=False)}[ord]()
        if keepdims:
            out = _s.reshape(out, shape=tuple(1 if a in axes else n
                                              for a, n in enumerate(x.shape)))
        return out
    if ord in (1, -1, np.inf, -np.inf):
        summed, extreme = (rows, cols) if ord in (1, -1) else (cols, rows)
        sums = _r.sum(_e.absolute(x), axis=(summed,), keepdims=True)
        pick = _r.max if ord in (1, np.inf) else _r.min
        out = pick(sums, axis=(extreme,), keepdims=True)
        if not keepdims:
            out = _s.reshape(out, shape=tuple(n for a, n in enumerate(x.shape) if a not in axes))
        return out
    raise ValueError(f"nx.linalg.norm: invalid ord {ord!r} for a matrix norm; expected "
                     f"{_MATRIX_ORDS}")


def vector_norm(x, axis=None, keepdims=False, ord=2):  # noqa: A002  (the standard's name)
    """A vector norm over `axis` (numpy.linalg.vector_norm): all axes by default.

    Args:
      x: a tensor (or numpy array, nested lists).
      axis: None (every element, as one vector), an int or a tuple of ints.
      keepdims: keep the normed axes with size 1.
      ord: 2 (Euclidean), 1, inf, -inf, 0 or another number (see `norm`).

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an unknown ord, or an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.linalg.vector_norm(nx.array([[3.0], [4.0]])))
    float64 [] 5
    """
    fn = "nx.linalg.vector_norm"
    x = _inexact(as_tensor(x, fn))
    axes = tuple(range(x.ndim)) if axis is None else axis
    positions = normalize_axes(axes, x.ndim, fn)
    if len(set(positions)) != len(positions):
        raise ValueError(f"{fn}: axis={axis!r} repeats an axis")
    return _vector_norm(x, ord, positions, keepdims)


def matrix_norm(x, keepdims=False, ord="fro"):  # noqa: A002  (the standard's name)
    """A matrix norm over the last two axes (numpy.linalg.matrix_norm).

    Args:
      x: a tensor with at least two axes (or numpy array, nested lists).
      keepdims: keep the last two axes with size 1.
      ord: 'fro', 'nuc', 1, -1, 2, -2, inf or -inf (see `norm`).

    Raises:
      TypeError: x is not numeric.
      ValueError: fewer than two axes, or an unknown ord.

    >>> from rune import nx
    >>> print(nx.linalg.matrix_norm(nx.array([[3.0, 0.0], [0.0, 4.0]]), ord=1))
    float64 [] 4
    """
    x = _inexact(as_tensor(x, "nx.linalg.matrix_norm"))
    if x.ndim < 2:
        raise ValueError(f"nx.linalg.matrix_norm: expected at least 2 axes, got shape {x.shape}")
    return _matrix_norm(x, ord, x.ndim - 2, x.ndim - 1, keepdims)


def svdvals(x):
    """The singular values of the matrices in x's last two axes, largest first.

    Differentiable to any order where the singular values are distinct (the
    derivative of a repeated one is infinite, as in JAX).

    Args:
      x: a tensor with at least two axes (or numpy array, nested lists).

    Raises:
      TypeError: x is not numeric.
      ValueError: fewer than two axes.

    >>> from rune import nx
    >>> print(nx.round(nx.linalg.svdvals(nx.array([[0.0, 2.0], [3.0, 0.0]])), 12))
    float64 [2] [3, 2]
    """
    x = _inexact(as_tensor(x, "nx.linalg.svdvals"))
    if x.ndim < 2:
        raise ValueError(f"nx.linalg.svdvals: expected at least 2 axes, got shape {x.shape}")
    return _l.singular_values(x)


def _inexact(x):
    return x if x.dtype.kind in "fc" else _e.astype(x, dtype=np.dtype(np.float64))


# solvers.py composes the functions above: imported once they exist.
from .solvers import (cond, cross, diagonal, lstsq, matmul, matrix_power, matrix_rank,  # noqa: E402
                      matrix_transpose, multi_dot, outer, pinv, tensordot, tensorinv,
                      tensorsolve, trace, vecdot)
