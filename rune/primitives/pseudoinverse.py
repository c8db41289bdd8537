"""The Moore-Penrose pseudo-inverse and least squares, with Golub and Pereyra's derivative.

numpy computes A+ from the SVD, dropping the singular values at or below
rcond times the largest. Where the rank of A does not change (no singular
value near that cutoff), A+ is a smooth function of A and

    dA+ = -A+ dA A+ + A+ A+^H dA^H (I - A A+) + (I - A+ A) dA^H A+^H A+

(G. H. Golub and V. Pereyra, SIAM J. Numer. Anal. 10(2), 1973), the rule
JAX uses. Where the rank changes, A+ jumps: it has no derivative there, and
the rule gives the derivative along perturbations that keep the rank.
The products are ordered as JAX orders them: m x n A with m >= n multiplies
the n x n factors first, m < n the m x m ones.

The least-squares solution of least norm, x = A+ b, is LAPACK's gelsd for
its value (numpy's lstsq, several times faster than forming A+), and the
same rule applied to b for its derivative:

    dx = -A+ dA x + A+ A+^H dA^H (b - A x) + (I - A+ A) dA^H A+^H x + A+ db
"""

from __future__ import annotations

import numpy as np

from ..core import Primitive, binder
from .elementwise import multiply
from . import shape as _shape
from .linalg import _adjoint, _result_dtype, _single_matrix_batch, matmul


def _pinv_impl(a, rcond, hermitian):
    return np.linalg.pinv(a, rcond=rcond, hermitian=hermitian)


def _pinv_abstract(a, rcond, hermitian):
    return a.shape[:-2] + (a.shape[-1], a.shape[-2]), _result_dtype(np.linalg.pinv, a.dtype)


def _hermitian_part(x):
    return multiply(x + _adjoint(x), 0.5)


def _pinv_jvp(t, p, a, rcond, hermitian):
    if hermitian:  # numpy reads one triangle of a: the rule follows (A + A^H) / 2, as JAX's
        a, t = _hermitian_part(a), _hermitian_part(t)
    t_h, p_h = _adjoint(t), _adjoint(p)
    m, n = a.shape[-2:]
    if m >= n:
        s = matmul(matmul(p, p_h), t_h)  # A+ A+^H dA^H
        u = matmul(matmul(t_h, p_h), p)  # dA^H A+^H A+
        return (s - matmul(matmul(s, a), p) + u - matmul(matmul(p, a), u)
                - matmul(matmul(p, t), p))
    s = matmul(p, matmul(p_h, t_h))
    u = matmul(t_h, matmul(p_h, p))
    return s - matmul(s, matmul(a, p)) + u - matmul(p, matmul(a, u)) - matmul(p, matmul(t, p))


# pinv(a, rcond=..., hermitian=...): rcond a float, or an array broadcasting
# over the stack of matrices (numpy's); the nx layer fills in numpy's default.
pinv_p = Primitive("pinv", _pinv_impl, _pinv_abstract)
pinv_p.jvp_rules = (_pinv_jvp,)
pinv_p.batch = _single_matrix_batch(pinv_p)
pinv = binder(pinv_p)


def _lstsq_impl(a, b, rcond):
    return np.linalg.lstsq(a, b, rcond=rcond)[0]


def _np_solution(a, b):
    return np.linalg.lstsq(a, b)[0]


def _lstsq_abstract(a, b, rcond):
    return (a.shape[-1],) + b.shape[1:], _result_dtype(_np_solution, a.dtype, b.dtype)


def _lstsq_jvp_a(t, x, a, b, rcond):
    p = pinv(a, rcond=rcond, hermitian=False)
    t_h, p_h = _adjoint(t), _adjoint(p)
    residual = b - matmul(a, x)
    right = matmul(t_h, matmul(p_h, x))  # dA^H A+^H x
    return (matmul(p, matmul(p_h, matmul(t_h, residual))) + right
            - matmul(p, matmul(a, right)) - matmul(p, matmul(t, x)))


def _lstsq_batch(values, dims, rcond):
    # numpy's lstsq takes one matrix; a stack solves as pinv(a) @ b, the same
    # solution (to rounding) in one vectorized product
    a, b = (v if d is None else _shape._move_to_front(v, d) for v, d in zip(values, dims))
    column = len(b.shape) - (dims[1] is not None) == 1  # b is a vector in each example
    if column:
        b = _shape.reshape(b, shape=b.shape + (1,))
    x = matmul(pinv(a, rcond=rcond, hermitian=False), b)
    return (_shape.reshape(x, shape=x.shape[:-1]) if column else x), 0


# lstsq(a, b, rcond=...): a an (M, N) matrix, b (M,) or (M, K); x of least norm
lstsq_p = Primitive("lstsq", _lstsq_impl, _lstsq_abstract)
lstsq_p.jvp_rules = (_lstsq_jvp_a,
                     lambda t, x, a, b, rcond: matmul(pinv(a, rcond=rcond, hermitian=False), t))
lstsq_p.batch = _lstsq_batch
lstsq = binder(lstsq_p)
