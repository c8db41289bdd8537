"""Solving equations and inverting matrices: solve, inv, lstsq, pinv, tensorsolve, tensorinv.

numpy's "Linear algebra: solving equations and inverting matrices". Each
function takes a matrix or a stack of matrices in the last two axes
(numpy's convention) and works for float32, float64, complex64 and
complex128; integer input is computed in float64, as numpy does. The
derivative rules of inv and solve are in rune/primitives/linalg.py; pinv is
a primitive (rune/primitives/pseudoinverse.py, with its derivative); the
others are compositions of nx operations.
"""

from __future__ import annotations

import numpy as np

from .. import creation as _creation
from .. import tensor as _tensor
from ...primitives import linalg as _l
from ...primitives import pseudoinverse as _p
from ...primitives import shape as _s
from ...primitives.linalg import singular_values as _singular_values
from ..creation import as_tensor
from ..manipulation import shape as _shape
from ..manipulation import transpose_like as _transpose_like
from ..math import complex as _complex
from ..math import extrema as _extrema
from ..math import sums_products_differences as _sums
from ..sorting import count_nonzero
from ..tensor import Tensor, TracedValueError
from .decompositions import _eager
from .products import _inexact, _square, LinAlgError, matmul


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
    a, b = _creation.astype(a, dtype), _creation.astype(b, dtype)
    m, n = a.shape
    rcond = np.finfo(dtype).eps * max(m, n) if rcond is None else _tolerance(rcond, fn, "rcond")
    if _eager(a) and _eager(b):  # nothing traces: numpy's one gelsd call gives all four
        x, residuals, rank, s = np.linalg.lstsq(a._value, b._value, rcond=rcond)
        return Tensor(x), Tensor(residuals), Tensor(np.array(rank, np.int32)), Tensor(s)
    x = _p.lstsq(a, b, rcond=rcond)
    s = _singular_values(a)
    cutoff = _extrema.max(s) * rcond if s.shape[0] else 0.0
    rank = _creation.astype(count_nonzero(s > cutoff), np.int32)
    if m > n and _full_rank_or_traced(rank, n, fn):
        error = b - matmul(a, x)
        residuals = _sums.sum(_complex.real(error * _complex.conj(error)), axis=0)
        residuals = _shape.reshape(residuals, (1,)) if b.ndim == 1 else residuals
    else:
        residuals = Tensor(np.zeros(0, np.finfo(dtype).dtype))
    return x, residuals, rank, s


def _full_rank_or_traced(rank, n, fn):
    try:
        return int(rank._concrete(fn, lossless=True)) == n
    except TracedValueError:
        return True


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
        _tensor.normalize_axes(tuple(axes), a.ndim, fn)  # in range, none repeated
        moved = tuple(_tensor.normalize_axis(ax, a.ndim, fn) for ax in axes)  # in order
        a = _transpose_like.transpose(a, tuple(k for k in range(a.ndim) if k not in moved) + moved)
    x_shape = a.shape[b.ndim:] if b.ndim < a.ndim else a.shape
    size = int(np.prod(x_shape, dtype=np.int64))
    if a.size != size * size or b.size != size:
        raise LinAlgError(f"{fn}: a of shape {a.shape} and b of shape {b.shape} do not make a "
                          f"square system: need prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim]) "
                          f"== b.size")
    x = solve(_shape.reshape(a, (size, size)), _shape.reshape(b, (size,)))
    return _shape.reshape(x, x_shape)


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
    inverse = inv(_shape.reshape(a, (columns, rows)))
    return _shape.reshape(inverse, a.shape[ind:] + a.shape[:ind])
