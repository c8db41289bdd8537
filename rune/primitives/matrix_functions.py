"""The principal matrix square root (scipy.linalg.sqrtm) as a primitive, and the
Sylvester solve A X + X B = Q that its derivative needs.

sqrtm's numpy impl diagonalizes: X = V sqrt(L) V^-1 from numpy's eig (eigh
for a Hermitian matrix), which is accurate while V is well-conditioned
(cond(V) < 1e8); for a matrix near a defective one, where V is not, it runs
the Denman-Beavers iteration Y <- (Y + Z^-1) / 2, Z <- (Z + Y^-1) / 2 from
Y = A, Z = I to convergence. The dtype follows the input's: a real matrix
whose principal root is complex (a negative real eigenvalue) raises,
saying to pass it as complex (scipy returns complex there, JAX always
does: a traced dtype cannot depend on the values).

Derivative: X dX + dX X = dA, so dX = sylvester(X, X, dA), every order (the
rule is written with primitives). The Sylvester solve forms the Kronecker
system (I (x) A + B^T (x) I) vec X = vec Q, of size n m: O(n^3 m^3), for the
small and moderate matrices this is for (no Schur decomposition in numpy).
"""

from __future__ import annotations

import numpy as np

from ..core import Primitive, Tensor, binder
from . import shape as _shape
from .elementwise import add, multiply
from .linalg import _single_matrix_batch, _swap, solve

_WELL_CONDITIONED = 1e8  # cond(V) below this: the eigendecomposition's root is accurate
_DB_STEPS = 100


def _db_iteration(a):
    """The principal square root by Denman-Beavers, to convergence (or LinAlgError)."""
    y, z = a, np.eye(a.shape[-1], dtype=a.dtype)
    for _ in range(_DB_STEPS):
        y_next, z = (y + np.linalg.inv(z)) / 2, (z + np.linalg.inv(y)) / 2
        done = np.linalg.norm(y_next - y) <= 1e-15 * a.shape[-1] * np.linalg.norm(y_next)
        y = y_next
        if done:
            return y
    raise np.linalg.LinAlgError("rune.scipy.linalg.sqrtm: the Denman-Beavers iteration did "
                                "not converge (the matrix may have no square root)")


def _sqrtm_one(a):
    if not np.all(np.isfinite(a)):
        raise ValueError("rune.scipy.linalg.sqrtm: the matrix holds inf or nan")
    hermitian = np.array_equal(a, a.conj().T)
    w, v = np.linalg.eigh(a) if hermitian else np.linalg.eig(a)
    if a.dtype.kind != "c" and np.any((np.imag(w) == 0) & (np.real(w) < 0)):
        raise ValueError("rune.scipy.linalg.sqrtm: the real matrix has a negative real "
                         "eigenvalue, so its principal square root is complex: pass the "
                         "matrix as complex (a.astype(nx.complex128)) to get it")
    with np.errstate(invalid="ignore"):
        root = np.sqrt(w.astype(np.result_type(w, np.complex64)))
    if hermitian:
        x = (v * root) @ v.conj().T
    elif np.linalg.cond(v) < _WELL_CONDITIONED:
        x = np.linalg.solve(v.T, (v * root).T).T  # V diag(root) V^-1
    else:
        x = _db_iteration(a.astype(np.result_type(a, np.complex64)))
    return (x.real if a.dtype.kind != "c" else x).astype(a.dtype)


def _sqrtm_impl(a):
    a = np.asarray(a)
    if a.dtype.kind not in "fc":
        a = a.astype(np.float64)
    out = np.empty_like(a)
    for index in np.ndindex(a.shape[:-2]):  # one matrix at a time
        out[index] = _sqrtm_one(a[index])
    return out


def _sqrtm_abstract(a):
    kind = np.dtype(a.dtype).kind
    return a.shape, np.dtype(a.dtype) if kind in "fc" else np.dtype(np.float64)


def sylvester(a, b, q):
    """X with A X + X B = Q, for stacks (..., n, n), (..., m, m), (..., n, m), by the
    Kronecker system K vec X = vec Q, K[(i, j), (k, l)] = A[i, k] d_jl + d_ik B[l, j]."""
    n, m = a.shape[-1], b.shape[-1]
    lead_a, lead_b = a.shape[:-2], b.shape[:-2]
    eye_m = Tensor(np.eye(m, dtype=b.dtype).reshape(m, 1, m))
    eye_n = Tensor(np.eye(n, dtype=a.dtype).reshape(n, 1, n, 1))
    left = multiply(_shape.reshape(a, shape=lead_a + (n, 1, n, 1)), eye_m)
    right = multiply(eye_n, _shape.reshape(_swap(b), shape=lead_b + (1, m, 1, m)))
    both = add(left, right)
    k = _shape.reshape(both, shape=both.shape[:-4] + (n * m, n * m))
    vec = _shape.reshape(q, shape=q.shape[:-2] + (n * m, 1))
    return _shape.reshape(solve(k, vec), shape=np.broadcast_shapes(
        k.shape[:-2], vec.shape[:-2]) + (n, m))


sqrtm_p = Primitive("sqrtm", _sqrtm_impl, _sqrtm_abstract)
sqrtm_p.jvp_rules = (lambda t, x, a: sylvester(x, x, t),)
sqrtm_p.batch = _single_matrix_batch(sqrtm_p)
sqrtm = binder(sqrtm_p)
