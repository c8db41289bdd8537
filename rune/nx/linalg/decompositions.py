"""Decompositions and eigenvalues: cholesky, qr, svd, eig, eigh, eigvals, eigvalsh, svdvals.

numpy's "Linear algebra: decompositions" and "matrix eigenvalues".

Each takes a matrix or a stack of matrices in the last two axes and returns
what numpy 2 returns, with numpy's result names (`SVDResult`, `EighResult`,
`EigResult`, `QRResult`: namedtuples). With no transformation active, numpy
computes the decomposition once; under one, each output is a primitive of
rune/primitives/decompositions.py (the thin SVD's are in primitives/linalg.py),
whose rules are JAX's.

Derivatives of eigen- and singular vectors exist only where the values they
belong to are distinct: at a repeated value the vectors are no function of the
matrix, and the derivative is inf or nan (never a finite wrong number), as in
JAX. Vectors carry the sign or phase LAPACK gives them; the derivative is that
of the vectors as normalized (see each function).
"""

from collections import namedtuple

import numpy as np

from ...primitives import decompositions as _d
from ...primitives import elementwise as _e
from ...primitives import linalg as _l
from ...primitives import shape as _s
from ..creation import as_tensor
from ..indexing import take_along_axis
from ..manipulation.rearranging import flip
from ..manipulation.transpose_like import matrix_transpose
from ..math.miscellaneous import absolute, sign
from ..sorting import argsort, sort
from ..tensor import Tensor
from .products import LinAlgError, _inexact, _square  # noqa: F401  (LinAlgError: Raises:)


SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])
EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
QRResult = namedtuple("QRResult", ["Q", "R"])


def _matrices(a, fn, square=False):
    """a as an inexact tensor of matrices in its last two axes (integers computed in
    float64, as numpy does), or a ValueError naming the shape."""
    a = as_tensor(a, fn)
    if a.ndim < 2 or (square and a.shape[-1] != a.shape[-2]):
        what = "a square matrix" if square else "a matrix"
        raise ValueError(f"{fn}: a must be {what} (or a stack of them in the last two axes), "
                         f"got shape {a.shape}")
    return a if a.dtype.kind in "fc" else _e.astype(a, dtype=np.dtype(np.float64))


def _eager(a):
    """True when no transformation sees a: numpy may then compute all outputs at once."""
    return type(a) is Tensor


def _tensors(kind, values):
    return kind(*(Tensor(v) for v in values))


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """The singular value decomposition a = U @ diag(S) @ Vh (numpy.linalg.svd).

    Derivatives (JAX's rule): dS = Re diag(U^H dA V); U and Vh need distinct,
    nonzero singular values (inf or nan where two are equal, as in JAX).
    Vectors carry LAPACK's signs (phases, for complex a); the derivative is
    that of those vectors, with Im(u_i^H du_i) = 0 fixing a complex phase, so
    check a derivative through a function the phases do not change, such as
    U @ diag(S) @ Vh, |U|^2 or U[:, i] U[:, i]^H. With full_matrices=True
    and a non-square a, the extra columns of U (rows of Vh) are any basis of
    a complement: differentiating svd(a) then raises NotImplementedError, as
    in JAX, even if only S is used; pass full_matrices=False (or
    compute_uv=False for S alone).

    Args:
      a: a matrix (M, N), or a stack of them (..., M, N).
      full_matrices: U of shape (..., M, M) and Vh (..., N, N) if True;
        (..., M, K) and (..., K, N), K = min(M, N), if False.
      compute_uv: False returns S alone.
      hermitian: a is Hermitian (real symmetric): computed as numpy does,
        from `eigh` (S = |eigenvalues| largest first, their signs moved
        into Vh), with eigh's derivatives; only the lower triangle is read.

    Returns:
      SVDResult(U, S, Vh), S real and largest first; S alone if
      compute_uv=False.

    Raises:
      TypeError: a is not numeric.
      ValueError: a has fewer than two axes, or hermitian=True and a is not
        square.
      LinAlgError: the SVD did not converge.

    >>> from rune import nx
    >>> U, S, Vh = nx.linalg.svd(nx.array([[3., 0.], [0., -2.]]))
    >>> print(S)
    float64 [2] [3, 2]
    >>> print(nx.round(U @ nx.diag(S) @ Vh, 12))
    float64 [2, 2]
    [[ 3,  0],
     [ 0, -2]]
    """
    fn = "nx.linalg.svd"
    a = _matrices(a, fn, square=hermitian)
    if hermitian:
        return _hermitian_svd(a, compute_uv)
    if not compute_uv:
        return Tensor(np.linalg.svd(a._value, compute_uv=False)) if _eager(a) \
            else _l.singular_values(a)
    if _eager(a):
        return _tensors(SVDResult, np.linalg.svd(a._value, full_matrices=bool(full_matrices)))
    m, n = a.shape[-2:]
    full_u = full_matrices and m > n
    full_vh = full_matrices and n > m
    u = _d.svd_full_vectors(a, which="u") if full_u else _l.svd_vectors(a, which="u")
    vh = _d.svd_full_vectors(a, which="vh") if full_vh else _l.svd_vectors(a, which="vh")
    return SVDResult(u, _l.singular_values(a), vh)


def _hermitian_svd(a, compute_uv):
    """numpy's svd(a, hermitian=True), the same composition: eigh, |w| largest
    first, and the signs of w moved into Vh."""
    if not compute_uv:
        return flip(sort(absolute(eigvalsh(a))), axis=-1)
    w, u = eigh(a)
    order = flip(argsort(absolute(w)), axis=-1)
    s = take_along_axis(absolute(w), order, axis=-1)
    signs = take_along_axis(sign(w), order, axis=-1)
    u = take_along_axis(u, order[..., None, :], axis=-1)
    vh = _l._adjoint(u * signs[..., None, :])
    return SVDResult(u, s, vh)


def _lower(uplo, fn):
    if not isinstance(uplo, str) or uplo.upper() not in ("L", "U"):
        raise ValueError(f"{fn}: UPLO must be 'L' or 'U' (the triangle to read), got {uplo!r}")
    return uplo.upper() == "L"


def eigh(a, UPLO="L"):  # noqa: N803  (numpy's name)
    """Eigenvalues and eigenvectors of a Hermitian (real symmetric) matrix (numpy.linalg.eigh).

    Only one triangle of a is read (UPLO). Derivatives are JAX's, taken
    along the Hermitian part S = (dA + dA^H) / 2 of the tangent (what a
    function of a symmetric matrix needs; JAX symmetrizes too):
    dw = Re diag(V^H S V), dV = V (F o V^H S V), F_ij = 1 / (w_j - w_i) off
    the diagonal. Repeated eigenvalues make F infinite: eigenvector
    derivatives there are inf or nan, as in JAX. Eigenvectors carry LAPACK's
    signs (phases, for complex a); their derivative keeps Im(v_i^H dv_i) = 0.

    Args:
      a: a Hermitian matrix (M, M), or a stack of them (..., M, M).
      UPLO: 'L' (read the lower triangle, numpy's default) or 'U'.

    Returns:
      EighResult(eigenvalues, eigenvectors): eigenvalues real, ascending,
      shape (..., M); eigenvectors the columns of (..., M, M).

    Raises:
      TypeError: a is not numeric.
      ValueError: a is not square in its last two axes, or UPLO is not 'L'/'U'.
      LinAlgError: the decomposition did not converge.

    >>> from rune import nx
    >>> w, v = nx.linalg.eigh(nx.array([[2., 1.], [1., 2.]]))
    >>> print(nx.round(w, 12))
    float64 [2] [1, 3]
    >>> print(nx.round(nx.abs(v), 6))
    float64 [2, 2]
    [[0.707107, 0.707107],
     [0.707107, 0.707107]]
    """
    fn = "nx.linalg.eigh"
    a = _matrices(a, fn, square=True)
    lower = _lower(UPLO, fn)
    if _eager(a):
        return _tensors(EighResult, np.linalg.eigh(a._value, UPLO=_d._uplo(lower)))
    return EighResult(_d.eigh_values(a, lower=lower), _d.eigh_vectors(a, lower=lower))


def eigvalsh(a, UPLO="L"):  # noqa: N803  (numpy's name)
    """The eigenvalues of a Hermitian (real symmetric) matrix, ascending (numpy.linalg.eigvalsh).

    Derivative: dw = Re diag(V^H S V), S = (dA + dA^H) / 2 (see `eigh`);
    second derivatives go through the eigenvectors and need distinct
    eigenvalues.

    Args:
      a: a Hermitian matrix (M, M), or a stack of them (..., M, M).
      UPLO: 'L' (read the lower triangle, numpy's default) or 'U'.

    Raises:
      TypeError: a is not numeric.
      ValueError: a is not square in its last two axes, or UPLO is not 'L'/'U'.

    >>> from rune import nx
    >>> print(nx.round(nx.linalg.eigvalsh(nx.array([[2., 1.], [1., 2.]])), 12))
    float64 [2] [1, 3]
    """
    fn = "nx.linalg.eigvalsh"
    a = _matrices(a, fn, square=True)
    return _d.eigh_values(a, lower=_lower(UPLO, fn))


def eig(a):
    """Eigenvalues and right eigenvectors of a general square matrix (numpy.linalg.eig).

    Both are complex (complex64 for float32 or complex64 input, complex128
    otherwise), as in JAX: numpy returns real arrays when every eigenvalue of
    a real matrix is real, a dtype that depends on the values, which a traced
    function cannot have. Each eigenvector has unit norm and its largest
    component real (LAPACK's normalization), and its derivative keeps that
    normalization (the sign LAPACK picks can flip between nearby matrices:
    the derivative is that of the smooth piece a is on). Derivatives: dw = diag(V^-1 dA V),
    dV = V (F o V^-1 dA V) + V diag(alpha), F_ij = 1 / (w_j - w_i) off the
    diagonal, alpha restoring the normalization; inf or nan at repeated
    eigenvalues, where the vectors are no function of the matrix.

    Args:
      a: a square matrix (M, M), or a stack of them (..., M, M).

    Returns:
      EigResult(eigenvalues, eigenvectors): shapes (..., M) and (..., M, M),
      the eigenvectors in the columns, in LAPACK's order (not sorted).

    Raises:
      TypeError: a is not numeric.
      ValueError: a is not square in its last two axes.
      LinAlgError: the decomposition did not converge.

    >>> from rune import nx
    >>> w, v = nx.linalg.eig(nx.array([[0., -1.], [1., 0.]]))
    >>> print(w)
    complex128 [2] [0+1i, 0-1i]
    """
    a = _matrices(a, "nx.linalg.eig", square=True)
    if _eager(a):
        dtype = _d._complex_dtype(a.dtype)
        return _tensors(EigResult, (r.astype(dtype) for r in np.linalg.eig(a._value)))
    return EigResult(_d.eig_values(a), _d.eig_vectors(a))


def eigvals(a):
    """The eigenvalues of a general square matrix, complex (numpy.linalg.eigvals).

    Complex always, as `eig` says why. Derivative: dw = diag(V^-1 dA V),
    V the eigenvectors; second derivatives need distinct eigenvalues.

    Args:
      a: a square matrix (M, M), or a stack of them (..., M, M).

    Raises:
      TypeError: a is not numeric.
      ValueError: a is not square in its last two axes.

    >>> from rune import nx
    >>> print(nx.linalg.eigvals(nx.array([[2., 0.], [0., 3.]])))
    complex128 [2] [2+0i, 3+0i]
    """
    return _d.eig_values(_matrices(a, "nx.linalg.eigvals", square=True))


_QR_MODES = ("reduced", "complete", "r")


def qr(a, mode="reduced"):
    """The QR decomposition a = Q @ R, Q with orthonormal columns, R upper triangular.

    Signs are LAPACK's (Householder reflections: R's diagonal may be
    negative; it is real for complex a). Derivatives are JAX's
    (Townsend's derivation), need R invertible, i.e. a of full rank, and
    cover wide matrices too (Q R_X = X for the square left part X of
    a = [X Y], and R = [R_X, Q^H Y]). Q of mode='complete' for a tall a
    (M > N) has M - N columns that are any basis of a complement:
    differentiating it raises NotImplementedError, as in JAX, even if only R
    is used; use mode='reduced' (or mode='r' for R alone).

    Args:
      a: a matrix (M, N), or a stack of them (..., M, N).
      mode: 'reduced' (Q (..., M, K), R (..., K, N), K = min(M, N)),
        'complete' (Q (..., M, M), R (..., M, N)) or 'r' (R alone, (..., K, N)).

    Returns:
      QRResult(Q, R), or R alone for mode='r'.

    Raises:
      TypeError: a is not numeric.
      ValueError: a has fewer than two axes, or an unknown mode (numpy's
        'raw' is not provided).

    >>> from rune import nx
    >>> Q, R = nx.linalg.qr(nx.array([[3., 1.], [4., 2.]]))
    >>> print(nx.round(R, 12))
    float64 [2, 2]
    [[  -5, -2.2],
     [   0,  0.4]]
    """
    fn = "nx.linalg.qr"
    if mode not in _QR_MODES:
        raise ValueError(f"{fn}: mode must be one of {', '.join(map(repr, _QR_MODES))}, got "
                         f"{mode!r} (numpy's 'raw' is not provided)")
    a = _matrices(a, fn)
    if _eager(a):
        out = np.linalg.qr(a._value, mode=mode)
        return Tensor(out) if mode == "r" else _tensors(QRResult, out)
    r = _d.qr_r(a)
    if mode == "r":
        return r
    m, n = a.shape[-2:]
    if mode == "complete" and m > n:
        zeros = Tensor(np.zeros(r.shape[:-2] + (m - n, n), r.dtype))
        return QRResult(_d.qr_q(a, complete=True),
                        _s.concatenate(r, zeros, axis=len(r.shape) - 2))
    return QRResult(_d.qr_q(a, complete=False), r)


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
