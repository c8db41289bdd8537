"""Products and linear algebra: matmul, einsum, inv, solve, det, slogdet, cholesky, SVD.

matmul and einsum are bilinear: linear in each operand with the others held
fixed, which is how a jvp rule uses them (one tangent, constant partners).
So each gives a jvp rule per operand (the product with the tangent in that
slot) and a transpose rule per operand (the product of the cotangent with the
partners, brought back to the operand's shape). Transposes do not conjugate
(JAX's convention): the cotangent of x in x @ y is ct @ y^T.

The factorizations' jvp rules are the classical matrix identities, written
with rune functions so that they can be differentiated again:

    d inv(A)      = -inv(A) dA inv(A)
    d solve(A, B) = solve(A, dB - dA X)            X = solve(A, B)
    d det(A)      = trace(adj(A) dA)               adj: the adjugate (LU or SVD)
    d log|det A|  = Re trace(solve(A, dA))
    d cholesky(A) = L Phi(L^-1 dA L^-H)            Phi: lower triangle, half the diagonal
    d s, dU, dV   = JAX's SVD rule (Townsend)      s: singular values, U, V: vectors

numpy's linalg functions broadcast over leading axes, so their batch rules
move the batch axis to the front and call the primitive once.

Parameters reach the primitives normalized by `rune.nx`: einsum's subscripts
are explicit (`'ij,jk->ik'`, no `...`, no implicit output).
"""

from __future__ import annotations

import functools
import string

import numpy as np

from ..core import Primitive, Tensor, binder
from . import reduce as _reduce
from . import shape as _shape
from .elementwise import (conj, divide, equal, fit, imag, multiply, negative, real,
                          where)

# ------------------------------------------------------------------ helpers


def _swap(x):
    """x with its last two axes exchanged (the plain matrix transpose)."""
    n = len(x.shape)
    return _shape.transpose(x, axes=tuple(range(n - 2)) + (n - 1, n - 2))


def _adjoint(x):
    """The conjugate transpose; the plain transpose for real x."""
    return conj(_swap(x)) if x.dtype.kind == "c" else _swap(x)


def _add_axis(x, position):
    """x with a new axis of size 1 at `position` (a non-negative int or -1)."""
    shape = list(x.shape)
    shape.insert(position if position >= 0 else len(shape) + 1 + position, 1)
    return _shape.reshape(x, shape=tuple(shape))


@functools.lru_cache(maxsize=None)
def _result_dtype(fn, *dtypes):
    """The dtype numpy's `fn` returns for arguments of these dtypes (from 1x1 samples)."""
    return np.asarray(fn(*[np.eye(1, dtype=d) for d in dtypes])).dtype


def _single_matrix_batch(prim):
    """vmap rule of a one-operand linalg primitive: numpy broadcasts leading axes."""
    return lambda values, dims, **params: (
        prim.bind(_shape._move_to_front(values[0], dims[0]), **params), 0)


# ------------------------------------------------------------------- matmul


def matmul_shape(x_shape, y_shape, fn="nx.matmul"):
    """The shape of x @ y under numpy's rules, or a ValueError naming both shapes."""
    for name, shape in (("x1", x_shape), ("x2", y_shape)):
        if len(shape) == 0:
            raise ValueError(f"{fn}: {name} is 0-d (shape ()); matmul needs at least one "
                             f"axis (use nx.multiply to scale by a scalar)")
    k_x = x_shape[-1]
    k_y = y_shape[-2] if len(y_shape) > 1 else y_shape[0]
    if k_x != k_y:
        where = "second-to-last" if len(y_shape) > 1 else "only"
        raise ValueError(
            f"{fn}: shapes {tuple(x_shape)} and {tuple(y_shape)} do not match: the last axis "
            f"of x1 has size {k_x} but the {where} axis of x2 has size {k_y} (these are "
            f"the contracted axes)"
        )
    x_batch, y_batch = x_shape[:-2], y_shape[:-2]
    try:
        batch = np.broadcast_shapes(x_batch, y_batch)
    except ValueError:
        raise ValueError(
            f"{fn}: shapes {tuple(x_shape)} and {tuple(y_shape)} do not match: their "
            f"leading (batch) axes {tuple(x_batch)} and {tuple(y_batch)} do not broadcast"
        ) from None
    return batch + x_shape[-2:-1] + y_shape[-1:] if len(y_shape) > 1 else batch + x_shape[-2:-1]


def _matmul_abstract(x, y):
    return matmul_shape(x.shape, y.shape), np.result_type(x.dtype, y.dtype)


def _matmul_ct_x(ct, x, y):
    """Cotangent of x in x @ y: ct @ y^T, summed over the axes that broadcast x."""
    if len(y.shape) == 1:  # out[..., n] = sum_k x[..., n, k] y[k]
        g = multiply(_add_axis(ct, -1), y)
    elif len(x.shape) == 1 and len(y.shape) == 2:  # out[m] = sum_k x[k] y[k, m]
        g = matmul(y, ct)
    elif len(x.shape) == 1:  # out[..., m] = sum_k x[k] y[..., k, m]
        g = matmul(y, _add_axis(ct, -1))
        g = _shape.reshape(g, shape=g.shape[:-1])
    else:
        g = matmul(ct, _swap(y))
    return fit(g, x)


def _matmul_ct_y(ct, x, y):
    """Cotangent of y in x @ y: x^T @ ct, summed over the axes that broadcast y."""
    if len(x.shape) == 1:  # out[..., m] = sum_k x[k] y[..., k, m]
        g = multiply(x, ct) if len(y.shape) == 1 else multiply(_add_axis(x, -1),
                                                                _add_axis(ct, -2))
    elif len(y.shape) == 1 and len(x.shape) == 2:  # out[n] = sum_k x[n, k] y[k]
        g = matmul(ct, x)
    elif len(y.shape) == 1:  # out[..., n] = sum_k x[..., n, k] y[k]
        g = matmul(_add_axis(ct, -2), x)
    else:
        g = matmul(_swap(x), ct)
    return fit(g, y)


def _matmul_batch(values, dims):
    x, y = values
    example = [v.shape[:d] + v.shape[d + 1:] if d is not None else v.shape
               for v, d in zip(values, dims)]
    x_vector, y_vector = (len(e) == 1 for e in example)
    # Vectors against one matrix (a Jacobian's rows, a batch of inputs): the
    # batch is a matrix, and one matrix product does it.
    if dims[1] is None and len(y.shape) == 2 and x_vector:
        return matmul(_shape._move_to_front(x, dims[0]), y), 0
    if dims[0] is None and len(x.shape) == 2 and y_vector:
        return matmul(x, _shape.moveaxis(y, dims[1], 1)), 1
    # Batch axes go first. A vector per example would then read as a matrix
    # (its batch axis as rows): make it one, a row for x and a column for y,
    # and take the added axis out of the product.
    promoted = False
    if dims[0] is not None:
        x = _shape._move_to_front(x, dims[0])
        if x_vector:
            x, promoted = _add_axis(x, 1), True
    if dims[1] is not None:
        y = _shape._move_to_front(y, dims[1])
        if y_vector:
            y, promoted = _add_axis(y, -1), True
    front = [None if d is None else 0 for d in dims]
    cores = [2 if d is not None else min(len(v.shape), 2) for v, d in zip((x, y), dims)]
    out = matmul(*_shape.align_batch([x, y], front, cores))
    if promoted:
        out = _shape.reshape(out, shape=out.shape[:1] + matmul_shape(*example))
    return out, 0


# impl is numpy's own: nx.matmul turns numpy's shape errors into ours, so the
# eager path pays nothing for the message.
matmul_p = Primitive("matmul", np.matmul, _matmul_abstract)
matmul_p.jvp_rules = (lambda t, ans, x, y: matmul(t, y), lambda t, ans, x, y: matmul(x, t))
matmul_p.transpose_rules = (_matmul_ct_x, _matmul_ct_y)
matmul_p.batch = _matmul_batch
matmul_p.multilinear = True
matmul = binder(matmul_p, 2)

# ------------------------------------------------------------------- einsum


def split_subscripts(subscripts):
    """'ij,jk->ik' -> (['ij', 'jk'], 'ik'), for normalized subscripts."""
    inputs, output = subscripts.split("->")
    return inputs.split(","), output


def unused_letters(subscripts):
    """Letters that `subscripts` does not use, in order: names for new axes."""
    return [c for c in string.ascii_letters if c not in subscripts]


def einsum_sizes(terms, shapes):
    """{letter: size} over all operands; a size of 1 broadcasts, as in numpy."""
    sizes = {}
    for term, shape in zip(terms, shapes):
        for c, n in zip(term, shape):
            if sizes.get(c, 1) == 1:
                sizes[c] = n
    return sizes


@functools.lru_cache(maxsize=512)
def _einsum_plan(subscripts, shapes):
    """numpy's `optimize` argument: False for small work, else a contraction path.

    np.einsum's own loops are fastest for small operands; large contractions
    need the path (which calls BLAS). Finding a path costs tens of
    microseconds, so it is found once per subscripts and shapes.
    """
    sizes = einsum_sizes(split_subscripts(subscripts)[0], shapes)
    if len(shapes) < 2 or int(np.prod(list(sizes.values()), dtype=np.float64)) <= 1 << 15:
        return False
    samples = [np.broadcast_to(np.empty((), np.float64), s) for s in shapes]
    return np.einsum_path(subscripts, *samples, optimize="greedy")[0]


def _einsum_impl(*operands, subscripts):
    plan = _einsum_plan(subscripts, tuple(np.shape(o) for o in operands))
    return np.einsum(subscripts, *operands, optimize=plan)


def _einsum_abstract(*operands, subscripts):
    terms, output = split_subscripts(subscripts)
    sizes = einsum_sizes(terms, [o.shape for o in operands])
    return tuple(sizes[c] for c in output), np.result_type(*[o.dtype for o in operands])


def _einsum_jvp(i):
    def rule(t, ans, *operands, subscripts):
        return einsum(*operands[:i], t, *operands[i + 1:], subscripts=subscripts)
    return rule


def _einsum_transpose(i):
    """Cotangent of operand i: einsum of the cotangent with the other operands.

    Two kinds of operand axes need more than that. An index that appears
    nowhere else (summed over in operand i alone, 'ij->i') gets the cotangent
    broadcast along it: a vector of ones supplies the index. An index repeated
    in operand i ('ii->i', a diagonal) gets the cotangent on that diagonal:
    each repeat is renamed and tied to the first by an identity matrix.
    """

    def rule(ct, *operands, subscripts):
        terms, output = split_subscripts(subscripts)
        var = operands[i]
        target = terms[i]
        sizes = dict(zip(target, var.shape))
        fresh = iter(unused_letters(subscripts))
        others = [(term, op) for j, (term, op) in enumerate(zip(terms, operands)) if j != i]
        parts = [(output, ct)] + others
        renamed = ""
        for c in target:
            if c in renamed:  # a repeat: a new name, tied to c by the identity
                new = next(fresh)
                parts.append((c + new, Tensor(np.eye(sizes[c], dtype=ct.dtype))))
                c = new
            renamed += c
        present = output + "".join(term for term, _ in others)
        for c in dict.fromkeys(target):
            if c not in present:  # summed in operand i alone: broadcast along it
                parts.append((c, Tensor(np.ones(sizes[c], dtype=ct.dtype))))
        spec = ",".join(term for term, _ in parts) + "->" + renamed
        return fit(einsum(*[op for _, op in parts], subscripts=spec), var)

    return rule


def _einsum_batch(values, dims, subscripts):
    terms, output = split_subscripts(subscripts)
    b = unused_letters(subscripts)[0]  # nx.einsum leaves at least one letter free
    moved = []
    for k, (v, d) in enumerate(zip(values, dims)):
        if d is not None:
            moved.append(_shape._move_to_front(v, d))
            terms[k] = b + terms[k]
        else:
            moved.append(v)
    return einsum(*moved, subscripts=",".join(terms) + "->" + b + output), 0


# numpy's einsum takes at most 64 operands: one rule for each position.
_MAX_OPERANDS = 64


einsum_p = Primitive("einsum", _einsum_impl, _einsum_abstract)
einsum_p.jvp_rules = tuple(_einsum_jvp(i) for i in range(_MAX_OPERANDS))
einsum_p.transpose_rules = tuple(_einsum_transpose(i) for i in range(_MAX_OPERANDS))
einsum_p.batch = _einsum_batch
einsum_p.multilinear = True
einsum = binder(einsum_p)


def stack_letters(x):
    """einsum letters for the leading (stack) axes of matrices x, avoiding 'ijk'."""
    return "".join(unused_letters("ijk")[: len(x.shape) - 2])


def trace(x):
    """The trace over the last two axes (an einsum, so it transposes to a diagonal)."""
    batch = stack_letters(x)
    return einsum(x, subscripts=f"{batch}ii->{batch}")


# ----------------------------------------------------------------- linalg


def _square_abstract(fn):
    return lambda a: (a.shape, _result_dtype(fn, a.dtype))


def _scalar_abstract(fn):
    return lambda a: (a.shape[:-2], _result_dtype(fn, a.dtype))


def _guarded(fn, name, what):
    """numpy's `fn`, re-raising a LinAlgError with a message naming the rune function."""
    def impl(*args):
        try:
            return fn(*args)
        except np.linalg.LinAlgError as e:
            raise np.linalg.LinAlgError(f"{name}: {what} (numpy: {e})") from None
    return impl


def _linalg_primitive(name, impl, abstract_eval, jvp_rules):
    prim = Primitive(name, impl, abstract_eval)
    prim.jvp_rules = jvp_rules
    prim.batch = _single_matrix_batch(prim)
    return binder(prim)


inv = _linalg_primitive(
    "inv", _guarded(np.linalg.inv, "nx.linalg.inv", "the matrix is singular"),
    _square_abstract(np.linalg.inv),
    (lambda t, ans, a: negative(matmul(matmul(ans, t), ans)),),
)


def _solve_abstract(a, b):
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return batch + b.shape[-2:], _result_dtype(np.linalg.solve, a.dtype, b.dtype)


def _solve_batch(values, dims):
    return solve(*_shape.align_batch(values, dims, 2)), 0


# solve(a, b) with b a stack of matrices (nx.linalg.solve makes a vector b one):
# linear in b, so b gets a transpose rule: ct_b = solve(a^T, ct).
solve_p = Primitive("solve", _guarded(np.linalg.solve, "nx.linalg.solve", "the matrix a is "
                                      "singular"), _solve_abstract)
solve_p.jvp_rules = (lambda t, ans, a, b: negative(solve(a, matmul(t, ans))),
                     lambda t, ans, a, b: solve(a, t))
solve_p.transpose_rules = (None, lambda ct, a, b: fit(solve(_swap(a), ct), b))
solve_p.batch = _solve_batch
solve = binder(solve_p, 2)

# ---------------------------------------------- det and the adjugate
#
# det is a polynomial, and its derivative is one too: d det(A) = trace(adj(A) dA),
# with adj(A) the adjugate, det(A) inv(A) where A is invertible. Near a
# singular matrix and at one, the adjugate comes from the SVD A = U S V^H:
# adj(A) = det(U) det(V^H) V C U^H, C = diag(c), c_i the product of the
# singular values other than s_i (no division by any).


def _np_products_of_others(s):
    """out[..., i] = prod over j != i of s[..., j], without dividing by s[..., i]."""
    ones = np.ones(s.shape[:-1] + (1,), s.dtype)
    before = np.concatenate([ones, np.cumprod(s[..., :-1], axis=-1)], axis=-1)
    flipped = np.flip(s, axis=-1)
    after = np.concatenate([ones, np.cumprod(flipped[..., :-1], axis=-1)], axis=-1)
    return before * np.flip(after, axis=-1)


# Below this condition number det(A) inv(A) (LU, several times faster than the
# SVD) loses at most a few digits more than the SVD's adjugate.
_LU_CONDITION = 1e4


def _np_adjugate(a):
    a = np.asarray(a)
    dtype = _result_dtype(np.linalg.inv, a.dtype)
    if a.shape[-1] == 0 or not np.all(np.isfinite(a)):  # the SVD does not take them
        return np.full(a.shape, np.nan if a.size else 0, dtype)
    with np.errstate(all="ignore"):
        try:
            inverse = np.linalg.inv(a)
        except np.linalg.LinAlgError:  # exactly singular
            inverse = None
        if inverse is not None:
            condition = np.linalg.norm(a, 1, axis=(-2, -1)) * np.linalg.norm(inverse, 1,
                                                                              axis=(-2, -1))
            if np.all(condition < _LU_CONDITION):
                return np.linalg.det(a)[..., None, None] * inverse
    u, s, vh = np.linalg.svd(a)
    phase = np.linalg.det(u) * np.linalg.det(vh)
    others = _np_products_of_others(s).astype(u.dtype)
    v_c = np.conj(np.swapaxes(vh, -1, -2)) * others[..., None, :]
    return phase[..., None, None] * (v_c @ np.conj(np.swapaxes(u, -1, -2)))


def _pairs_excluded_products(s):
    """P[..., i, j] = prod of the singular values other than s_i and s_j (i != j), 0 on
    the diagonal: a product of primitives, so that it can be differentiated."""
    k = s.shape[-1]
    index = np.arange(k)
    left_out = (index[:, None, None] == index) | (index[None, :, None] == index)  # [i, j, l]
    kept = where(Tensor(left_out), 1, _add_axis(_add_axis(s, -2), -2))
    off_diagonal = Tensor(1 - np.eye(k, dtype=np.finfo(s.dtype).dtype))
    return multiply(_reduce.prod(kept, axis=(len(kept.shape) - 1,), keepdims=False),
                    off_diagonal)


def _adjugate_jvp(t, ans, a):
    # With A = U S V^H and E = U^H dA V: d adj(A) = det(U) det(V^H) V M U^H, where
    # M_ii = sum_{k != i} P_ik E_kk and M_ij = -P_ij E_ij. It is the derivative of
    # det(A) inv(A) written without a division, so it holds at singular A too.
    u, vh, s = svd_vectors(a, which="u"), svd_vectors(a, which="vh"), singular_values(a)
    v = _adjoint(vh)
    e = matmul(matmul(_adjoint(u), t), v)
    pairs = _pairs_excluded_products(s)
    batch = stack_letters(a)
    diagonal = einsum(pairs, e, subscripts=f"{batch}ij,{batch}jj->{batch}i")
    eye = Tensor(np.eye(s.shape[-1], dtype=s.dtype))
    m = multiply(_add_axis(diagonal, -1), eye) - multiply(pairs, e)
    phase = multiply(det(u), det(vh))
    return multiply(_add_axis(_add_axis(phase, -1), -1), matmul(matmul(v, m), _adjoint(u)))


adjugate = _linalg_primitive("adjugate", _np_adjugate, _square_abstract(np.linalg.inv),
                             (_adjugate_jvp,))


def _det_jvp(t, ans, a):
    batch = stack_letters(a)
    return einsum(adjugate(a), t, subscripts=f"{batch}ji,{batch}ij->{batch}")


det = _linalg_primitive("det", np.linalg.det, _scalar_abstract(np.linalg.det), (_det_jvp,))


def _logabsdet_jvp(t, ans, a):
    d = trace(solve(a, t))
    return real(d) if d.dtype.kind == "c" else d


def _sign_jvp(t, ans, a):
    # A real determinant's sign is piecewise constant; a complex one turns
    # with the phase of det: d sign = sign * i Im trace(solve(a, da)).
    if a.dtype.kind != "c":
        return None
    return multiply(imag(trace(solve(a, t))), ans * 1j)


def _np_logabsdet(a):
    return np.linalg.slogdet(a)[1]


def _np_sign_of_det(a):
    return np.linalg.slogdet(a)[0]


logabsdet = _linalg_primitive("logabsdet", _np_logabsdet, _scalar_abstract(_np_logabsdet),
                              (_logabsdet_jvp,))
sign_of_det = _linalg_primitive("sign_of_det", _np_sign_of_det,
                                _scalar_abstract(_np_sign_of_det), (_sign_jvp,))


def _phi_mask(n, dtype):
    """1 below the diagonal, 1/2 on it, 0 above: the Phi of the Cholesky rule."""
    return Tensor((np.tril(np.ones((n, n))) - 0.5 * np.eye(n)).astype(np.finfo(dtype).dtype))


def _cholesky_jvp(t, L, a):
    # Only dA's Hermitian part moves L (numpy reads one triangle of a
    # symmetric matrix); symmetrizing first, as JAX does, gives the
    # derivative for symmetric perturbations.
    sym = multiply(t + _adjoint(t), 0.5)
    inner = solve(L, _adjoint(solve(L, sym)))  # L^-1 sym L^-H, Hermitian
    return matmul(L, multiply(inner, _phi_mask(L.shape[-1], L.dtype)))


cholesky = _linalg_primitive(
    "cholesky",
    _guarded(np.linalg.cholesky, "nx.linalg.cholesky",
             "the matrix is not positive definite: the Cholesky factorization needs a "
             "Hermitian (symmetric) positive-definite matrix"),
    _square_abstract(np.linalg.cholesky),
    (_cholesky_jvp,),
)

# ----------------------------------------------- the SVD, for norms and det


def _svd_vectors_jvp(t, ans, a, which):
    # JAX's rule (Townsend, "Differentiating the singular value decomposition"),
    # for A = U S V^H (m x n, k = min(m, n)) and dS = U^H dA V:
    #   dU = U (F o (dS S + S dS^H) + D) + (1 - U U^H) dA V S^-1     (the last if m > k)
    #   dV = V (F o (S dS + dS^H S))      + (1 - V V^H) dA^H U S^-1   (the last if n > k)
    # F_ij = 1 / (s_j^2 - s_i^2) off the diagonal (infinite at repeated singular
    # values, where the vectors are not functions of A), D = diag(i Im dS_ii) / s.
    u, vh, s = svd_vectors(a, which="u"), svd_vectors(a, which="vh"), singular_values(a)
    v = _adjoint(vh)
    s_row, s_col = _add_axis(s, -2), _add_axis(s, -1)  # s_j across a row, s_i down a column
    eye = Tensor(np.eye(s.shape[-1], dtype=s.dtype))
    f = 1 / ((s_row + s_col) * (s_row - s_col) + eye) - eye
    ds = matmul(matmul(_adjoint(u), t), v)
    m, n = a.shape[-2:]
    if which == "u":
        dss = multiply(ds, s_row)
        is_zero = equal(s, 0)
        s_inv = where(is_zero, 0, 1 / where(is_zero, 1, s))
        d = multiply(ds - _adjoint(ds), multiply(_add_axis(s_inv, -2), eye) * 0.5)
        du = matmul(u, multiply(f, dss + _adjoint(dss)) + d)
        if m > n:
            dav = matmul(t, v)
            du = du + divide(dav - matmul(u, matmul(_adjoint(u), dav)), s_row)
        return du
    sds = multiply(s_col, ds)
    dv = matmul(v, multiply(f, sds + _adjoint(sds)))
    if n > m:
        dahu = matmul(_adjoint(t), u)
        dv = dv + divide(dahu - matmul(v, matmul(vh, dahu)), s_row)
    return _adjoint(dv)


# The singular vectors (U and V^H of the thin SVD), for the derivatives of the
# singular values and of the adjugate.
svd_vectors = _linalg_primitive(
    "svd_vectors",
    lambda a, which: np.linalg.svd(a, full_matrices=False)[0 if which == "u" else 2],
    lambda a, which: (a.shape[:-1] + (min(a.shape[-2:]),) if which == "u"
                      else a.shape[:-2] + (min(a.shape[-2:]),) + a.shape[-1:],
                      _result_dtype(np.linalg.inv, a.dtype)),
    (_svd_vectors_jvp,),
)


def _singular_values_jvp(t, ans, a):
    # d s_i = Re(u_i^H dA v_i)
    u = svd_vectors(a, which="u")
    vh = svd_vectors(a, which="vh")
    batch = stack_letters(a)
    d = einsum(conj(u) if u.dtype.kind == "c" else u, t, conj(vh) if vh.dtype.kind == "c" else vh,
               subscripts=f"{batch}ji,{batch}jk,{batch}ik->{batch}i")
    return real(d) if d.dtype.kind == "c" else d


def _np_singular_values(a):
    return np.linalg.svd(a, compute_uv=False)


singular_values = _linalg_primitive(
    "singular_values", _np_singular_values,
    lambda a: (a.shape[:-2] + (min(a.shape[-2:]),), _result_dtype(_np_singular_values, a.dtype)),
    (_singular_values_jvp,),
)
