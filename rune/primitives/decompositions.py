"""Decompositions: the SVD's full matrices, eigh, qr and eig, one primitive per output.

A primitive here has one result, so a decomposition is a primitive for each
of its outputs (`eigh_values` and `eigh_vectors` of one matrix), each a call of
LAPACK through numpy; nx.linalg calls numpy once for all of them when no
transformation is active. The thin SVD's primitives (`svd_vectors`,
`singular_values`) live in primitives/linalg.py, beside the adjugate that uses
them.

The jvp rules are JAX's (jax/_src/lax/linalg.py), written with rune functions
so that they can be differentiated again. With dA the tangent:

    eigh   dw = Re diag(V^H S V),  dV = V (F o V^H S V)     S = (dA + dA^H) / 2
    qr     dQ = Q (dO - C) + dA R^-1,  dR = (C - dO) R       C = Q^H dA R^-1
    eig    dw = diag(V^-1 dA V),  dV = V (F o V^-1 dA V) + V diag(a)

F_ij = 1 / (w_j - w_i) off the diagonal and 0 on it: infinite where two
eigenvalues are equal, where the vectors are no function of the matrix (as in
JAX). The eigenvectors' sign or phase is the one LAPACK gives, and the
derivative is that of the vectors so normalized: eigh's keep
Im(v_i^H dv_i) = 0 (JAX's choice); eig's follow LAPACK's normalization (unit
norm, the largest component real), which fixes diag(a). QR's dO is the skew
part of C's strict lower triangle, plus i Im diag(C) for complex input (R's
diagonal stays real, as LAPACK makes it).
"""

from __future__ import annotations

import numpy as np

from ..core import Tensor
from . import elementwise as _e
from . import indexing as _i
from . import reduce as _r
from . import shape as _s
from .linalg import (_add_axis, _adjoint, _linalg_primitive, _result_dtype, _swap, einsum, matmul,
                     solve, stack_letters)

# ------------------------------------------------------------------ helpers


def _inexact_dtype(dtype):
    """The dtype numpy's linalg computes in for input of `dtype` (float64 for ints)."""
    return _result_dtype(np.linalg.inv, dtype)


def _complex_dtype(dtype):
    """eig's output dtype: the complex dtype of the input's precision."""
    return np.result_type(_inexact_dtype(dtype), np.complex64)


def _real_dtype(dtype):
    return np.finfo(_inexact_dtype(dtype)).dtype


def _diagonal(x):
    """The diagonal of the matrices in x's last two axes: an einsum, whose
    transpose puts a cotangent back on the diagonal."""
    batch = stack_letters(x)
    return einsum(x, subscripts=f"{batch}ii->{batch}i")


def _constant(value, dtype):
    """A constant mask (eye, a triangle) in the real precision of `dtype`."""
    return Tensor(np.asarray(value, np.finfo(dtype).dtype))


def _gaps_inverse(w):
    """F_ij = 1 / (w_j - w_i) off the diagonal, 0 on it (infinite at repeats, as in JAX)."""
    eye = _constant(np.eye(w.shape[-1]), w.dtype)
    return 1 / (_add_axis(w, -2) - _add_axis(w, -1) + eye) - eye


def _not_a_function(fn, case, extra, fix):
    """The jvp rule of vectors that complete a basis: it raises, as JAX does."""
    def rule(*args, **params):
        raise NotImplementedError(
            f"{fn}: no derivative {case}: {extra} are any orthonormal basis of a complement, "
            f"not a function of the matrix (JAX raises here too); {fix}")
    return (rule,)


# ------------------------------------------- the SVD's full matrices


def _np_full_svd_vectors(a, which):
    return np.linalg.svd(a, full_matrices=True)[0 if which == "u" else 2]


# U (m x m) of a tall matrix, or V^H (n x n) of a wide one, with full_matrices=True:
# nx.linalg.svd uses the thin primitives (linalg.py) for everything else.
svd_full_vectors = _linalg_primitive(
    "svd_full_vectors", _np_full_svd_vectors,
    lambda a, which: (a.shape[:-2] + (a.shape[-2 if which == "u" else -1],) * 2,
                      _inexact_dtype(a.dtype)),
    _not_a_function("nx.linalg.svd", "with full_matrices=True for a non-square matrix",
                    "the extra columns of U (rows of Vh)",
                    "pass full_matrices=False, or compute_uv=False for S alone"),
)

# --------------------------------------------------------------- eigh


def _hermitian_part(t):
    """(t + t^H) / 2: numpy reads one triangle, and JAX differentiates along this."""
    return _e.multiply(t + _adjoint(t), 0.5)


def _eigh_projected(t, v):
    """V^H S V with S the Hermitian part of the tangent."""
    return matmul(matmul(_adjoint(v), _hermitian_part(t)), v)


def _eigh_values_jvp(t, ans, a, lower):
    d = _diagonal(_eigh_projected(t, eigh_vectors(a, lower=lower)))
    return _e.real(d) if d.dtype.kind == "c" else d


def _eigh_vectors_jvp(t, v, a, lower):
    w = _e.astype(eigh_values(a, lower=lower), dtype=v.dtype)
    return matmul(v, _e.multiply(_gaps_inverse(w), _eigh_projected(t, v)))


def _uplo(lower):
    return "L" if lower else "U"


eigh_values = _linalg_primitive(
    "eigh_values", lambda a, lower: np.linalg.eigvalsh(a, UPLO=_uplo(lower)),
    lambda a, lower: (a.shape[:-1], _real_dtype(a.dtype)), (_eigh_values_jvp,))
eigh_vectors = _linalg_primitive(
    "eigh_vectors", lambda a, lower: np.linalg.eigh(a, UPLO=_uplo(lower))[1],
    lambda a, lower: (a.shape, _inexact_dtype(a.dtype)), (_eigh_vectors_jvp,))

# ----------------------------------------------------------------- qr


def _right_solve(x, r):
    """x R^-1 (x R = given), through solve on the transposes."""
    return _swap(solve(_swap(r), _swap(x)))


def _qr_square_tangents(t, q, r):
    """(dQ, dR) for A = Q R with R square (m >= n): JAX's rule (Townsend's derivation)."""
    n = r.shape[-1]
    t_rinv = _right_solve(t, r)
    c = matmul(_adjoint(q), t_rinv)
    lower = _e.multiply(c, _constant(np.tril(np.ones((n, n)), -1), c.dtype))
    d_omega = lower - _adjoint(lower)
    if c.dtype.kind == "c":  # keeps R's diagonal real, as LAPACK makes it
        d_omega = d_omega + _e.multiply(_e.astype(_e.imag(c), dtype=c.dtype) * 1j,
                                        _constant(np.eye(n), c.dtype))
    return matmul(q, d_omega - c) + t_rinv, matmul(c - d_omega, r)


def _qr_tangents(t, a):
    """(dQ, dR) of the reduced QR. A wide A = [X Y] (m < n) has Q R_X = X, the QR of
    its square part, and R = [R_X, Q^H Y]: so dR's right part is dQ^H Y + Q^H dY."""
    q, r = qr_q(a, complete=False), qr_r(a)
    m, n = a.shape[-2:]
    if m >= n:
        return _qr_square_tangents(t, q, r)
    last = len(a.shape) - 1
    square = _i.slice_axis(r, last, 0, m)
    dq, dr_x = _qr_square_tangents(_i.slice_axis(t, last, 0, m), q, square)
    y, dy = _i.slice_axis(a, last, m, n), _i.slice_axis(t, last, m, n)
    dr_y = matmul(_adjoint(dq), y) + matmul(_adjoint(q), dy)
    return dq, _s.concatenate(dr_x, dr_y, axis=last)


def _np_qr_q(a, complete):
    return np.linalg.qr(a, mode="complete" if complete else "reduced")[0]


def _qr_q_abstract(a, complete):
    m, n = a.shape[-2:]
    return a.shape[:-1] + (m if complete else min(m, n),), _inexact_dtype(a.dtype)


def _qr_q_jvp(t, ans, a, complete):
    if complete and a.shape[-2] > a.shape[-1]:
        _not_a_function("nx.linalg.qr", "of Q with mode='complete' for a tall matrix",
                        "its extra columns", "use mode='reduced', or mode='r' for R alone")[0]()
    return _qr_tangents(t, a)[0]


# Q of the reduced QR; with complete=True (nx.linalg.qr sets it only for tall
# matrices) the m x m Q of mode='complete'. R: the reduced R (k x n); the
# complete one adds zero rows (nx.linalg.qr).
qr_q = _linalg_primitive("qr_q", _np_qr_q, _qr_q_abstract, (_qr_q_jvp,))
qr_r = _linalg_primitive(
    "qr_r", lambda a: np.linalg.qr(a, mode="r"),
    lambda a: (a.shape[:-2] + (min(a.shape[-2:]),) + a.shape[-1:], _inexact_dtype(a.dtype)),
    (lambda t, ans, a: _qr_tangents(t, a)[1],))

# ----------------------------------------------------------------- eig


def _eig_projected(t, v):
    """V^-1 dA V, complex."""
    return solve(v, matmul(_e.astype(t, dtype=v.dtype), v))


def _eig_values_jvp(t, ans, a):
    return _diagonal(_eig_projected(t, eig_vectors(a)))


def _column_sums(x):
    return _r.sum(x, axis=(len(x.shape) - 2,), keepdims=False)


def _largest_component(v):
    """A one-hot mask of each column's largest |component| (LAPACK makes it real)."""
    size = _e.real(_e.multiply(v, _e.conj(v)))
    top = _r.argmax(size, axis=(len(v.shape) - 2,), keepdims=True)
    rows = _constant(np.arange(v.shape[-2]).reshape(-1, 1), v.dtype)
    return _e.astype(_e.equal(rows, top), dtype=v.dtype)


def _eig_vectors_jvp(t, v, a):
    # dW = V (F o V^-1 dA V) moves each eigenvector within no eigenspace; LAPACK's
    # normalization adds V diag(alpha): Re alpha keeps the norm (Re v^H dv = 0),
    # Im alpha keeps the largest component real (Im dv_k = 0, v_k real).
    w = eig_values(a)
    dw = matmul(v, _e.multiply(_gaps_inverse(w), _eig_projected(t, v)))
    stretch = _e.real(_column_sums(_e.multiply(_e.conj(v), dw)))
    top = _largest_component(v)
    turn = _e.imag(_column_sums(_e.multiply(top, dw))) / _e.real(_column_sums(
        _e.multiply(top, v)))
    alpha = _e.astype(stretch, dtype=v.dtype) + _e.astype(turn, dtype=v.dtype) * 1j
    return dw - _e.multiply(v, _add_axis(alpha, -2))


eig_values = _linalg_primitive(
    "eig_values", lambda a: np.linalg.eigvals(a).astype(_complex_dtype(np.asarray(a).dtype)),
    lambda a: (a.shape[:-1], _complex_dtype(a.dtype)), (_eig_values_jvp,))
eig_vectors = _linalg_primitive(
    "eig_vectors", lambda a: np.linalg.eig(a)[1].astype(_complex_dtype(np.asarray(a).dtype)),
    lambda a: (a.shape, _complex_dtype(a.dtype)), (_eig_vectors_jvp,))
