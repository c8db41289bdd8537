"""Norms and other numbers: norm, cond, det, slogdet, matrix_rank, trace.

numpy's "Linear algebra: norms and other numbers", with numpy 2's
`vector_norm` and `matrix_norm`. det and slogdet are primitives
(rune/primitives/linalg.py); norm, cond and matrix_rank are compositions,
so their derivatives are those of the singular values, inv and the norms.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .. import creation as _creation
from .. import indexing as _indexing
from .. import logic as _logic
from ...primitives import elementwise as _e
from ...primitives import linalg as _l
from ...primitives import reduce as _r
from ...primitives import shape as _s
from ...primitives.linalg import singular_values as _singular_values
from ..creation import as_tensor, eye
from ..indexing import _diagonal
from ..manipulation import shape as _shape
from ..math import extrema as _extrema
from ..math import miscellaneous as _misc
from ..sorting import count_nonzero
from ..tensor import normalize_axes, TracedValueError
from .decompositions import eigvalsh
from .products import _inexact, _square, LinAlgError
from .solvers import _default_rtol, _matrices, _tolerance, inv

__all__ = ["trace"]


def trace(x, offset=0, axis1=0, axis2=1):
    """The sum of the diagonal of x over axes (axis1, axis2).

    Args:
      x: a tensor with at least two axes (or a numpy array, nested lists).
      offset: an int: above the main diagonal if positive, below if negative.
      axis1, axis2: the two axes (distinct ints).

    Raises:
      TypeError: x is not numeric, or offset or an axis is not an int.
      ValueError: fewer than two axes, an axis out of range, or axis1 == axis2.

    >>> from rune import nx
    >>> print(nx.trace(nx.array([[1.0, 2.0], [3.0, 4.0]])))
    float64 [] 5
    """
    d = _diagonal(x, offset, axis1, axis2, "nx.trace")
    return _r.sum(d, axis=(len(d.shape) - 1,), keepdims=False)


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
        return _creation.astype(_logic.any(A != 0), np.int64)
    A = _inexact(A)  # noqa: N806
    s = _misc.abs(eigvalsh(A)) if hermitian else _singular_values(A)
    if tol is None:
        rtol = _default_rtol(s) if rtol is None else _tolerance(rtol, fn, "rtol")
        largest = _extrema.max(s, axis=-1, keepdims=True) if s.shape[-1] else 0.0
        tol = largest * _last_axis(rtol)
    else:
        tol = _last_axis(_tolerance(tol, fn, "tol"))
    return _creation.astype(count_nonzero(s > tol, axis=-1), np.int64)


def _last_axis(value):
    """A tolerance per matrix as a column against the singular values' last axis."""
    return value[..., None] if isinstance(value, np.ndarray) else value


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
    nan_free = _logic.logical_not(_logic.any(_logic.isnan(x), axis=(x.ndim - 2, x.ndim - 1)))
    return _indexing.where(_logic.logical_and(_logic.isnan(r), nan_free), np.inf, r)


def _norm_times_inverse_norm(x, p):
    axes = (-2, -1)
    try:
        return norm(x, p, axis=axes) * norm(inv(x), p, axis=axes)
    except LinAlgError:  # some matrix of the stack is singular: inf there, as numpy
        pass
    # slogdet's sign is 0 exactly where LU finds a zero pivot, where inv fails
    singular = slogdet(x)[0] == 0
    matrix_of_flags = _shape.reshape(singular, singular.shape + (1, 1))
    safe = _indexing.where(matrix_of_flags, eye(x.shape[-1], dtype=x.dtype), x)
    size = norm(x, p, axis=axes)
    # inf * size: infinite, with an infinite or NaN derivative rather than a quiet 0
    return _indexing.where(singular, size * np.inf, size * norm(inv(safe), p, axis=axes))
