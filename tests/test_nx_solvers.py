"""nx.linalg's solvers and helpers: pinv, lstsq, matrix_power, matrix_rank, cond,
multi_dot, tensorsolve, tensorinv, and numpy 2's array-API names in np.linalg.

Values, dtypes and shapes against numpy (float64, float32, complex128; stacks),
derivatives of order 2 in both modes (beyond the census sweep's one row each),
pinv's rule against finite differences where the rank is constant, vmap
against a loop, jit against eager, bad inputs with their messages.
"""

import numpy as np
import pytest

import rune
from rune import nx
from tests.test_nx_linalg import rand
from tests.util import assert_abstract_matches, assert_vmap_matches_loop, squared_size

RNG = np.random.default_rng(14)
DTYPES = [np.float64, np.float32, np.complex128]


def well_conditioned(shape, dtype=np.float64):
    """U diag(s) V^H with singular values from 1 to 2 (and apart): any shape, any seed."""
    m, n = shape[-2:]
    k = min(m, n)
    u = np.linalg.qr(rand(shape[:-2] + (m, k), dtype))[0]
    v = np.linalg.qr(rand(shape[:-2] + (n, k), dtype))[0]
    s = np.linspace(1.0, 2.0, k)
    return np.asarray((u * s) @ np.conj(np.swapaxes(v, -1, -2)), dtype)


def graded(shape, dtype=np.float64):
    """diag(1, 2, 4...) + 0.5 + small noise: row and column sums of it and of its
    inverse well apart and no entry near 0 (where |x| bends sharply), so the
    max/min norms are smooth within a finite-difference step."""
    n = shape[-1]
    return np.asarray(np.diag(2.0 ** np.arange(n)) + 0.5 + 0.1 * rand(shape, dtype), dtype)


def hermitian(shape, dtype=np.float64):
    a = rand(shape, dtype)
    return np.asarray(a + np.conj(np.swapaxes(a, -1, -2)), dtype)


def rank_one(shape, dtype=np.float64):
    return np.asarray(rand(shape[:-1] + (1,), dtype) @ rand(shape[:-2] + (1, shape[-1]), dtype),
                      dtype)


def lstsq_numpy(*args, **kwargs):
    x, residuals, rank, s = np.linalg.lstsq(*args, **kwargs)
    return x, residuals, np.asarray(rank), s


def lstsq_rune(*args, **kwargs):
    return nx.linalg.lstsq(*args, **kwargs)


# (name, rune function, numpy function, operands (maker, shape))
R, WC, H, R1 = rand, well_conditioned, hermitian, rank_one
CASES = [
    ("pinv tall", nx.linalg.pinv, np.linalg.pinv, [(R, (4, 3))]),
    ("pinv wide stack", nx.linalg.pinv, np.linalg.pinv, [(R, (2, 3, 5))]),
    ("pinv rank one", lambda a: nx.linalg.pinv(a, 1e-5), lambda a: np.linalg.pinv(a, 1e-5),
     [(R1, (4, 3))]),
    ("pinv rcond", lambda a: nx.linalg.pinv(a, 0.5), lambda a: np.linalg.pinv(a, 0.5),
     [(R, (4, 3))]),
    ("pinv rtol None", lambda a: nx.linalg.pinv(a, rtol=None),
     lambda a: np.linalg.pinv(a, rtol=None), [(R, (3, 3))]),
    ("pinv rcond per matrix", lambda a: nx.linalg.pinv(a, np.array([1e-15, 0.6])),
     lambda a: np.linalg.pinv(a, np.array([1e-15, 0.6])), [(R, (2, 4, 3))]),
    ("pinv hermitian", lambda a: nx.linalg.pinv(a, hermitian=True),
     lambda a: np.linalg.pinv(a, hermitian=True), [(H, (2, 3, 3))]),
    ("lstsq tall", lstsq_rune, lstsq_numpy, [(R, (5, 3)), (R, (5,))]),
    ("lstsq tall, matrix b", lstsq_rune, lstsq_numpy, [(R, (5, 3)), (R, (5, 2))]),
    ("lstsq wide", lstsq_rune, lstsq_numpy, [(R, (2, 4)), (R, (2, 3))]),
    # rounding leaves the lost rank's singular values near eps: a cutoff well above
    ("lstsq rank-deficient", lambda a, b: nx.linalg.lstsq(a, b, rcond=1e-5),
     lambda a, b: lstsq_numpy(a, b, rcond=1e-5), [(R1, (5, 3)), (R, (5,))]),
    ("lstsq rcond", lambda a, b: nx.linalg.lstsq(a, b, rcond=0.5),
     lambda a, b: lstsq_numpy(a, b, rcond=0.5), [(R, (5, 3)), (R, (5,))]),
    ("matrix_rank", nx.linalg.matrix_rank, np.linalg.matrix_rank, [(R, (3, 4))]),
    ("matrix_rank stack", nx.linalg.matrix_rank, np.linalg.matrix_rank, [(R1, (2, 3, 3))]),
    ("matrix_rank wide", nx.linalg.matrix_rank, np.linalg.matrix_rank, [(R1, (3, 5))]),
    ("matrix_rank tol", lambda a: nx.linalg.matrix_rank(a, tol=1.0),
     lambda a: np.linalg.matrix_rank(a, tol=1.0), [(R, (2, 4, 4))]),
    ("matrix_rank rtol", lambda a: nx.linalg.matrix_rank(a, rtol=np.array([0.1, 0.9])),
     lambda a: np.linalg.matrix_rank(a, rtol=np.array([0.1, 0.9])), [(R, (2, 4, 4))]),
    ("matrix_rank hermitian", lambda a: nx.linalg.matrix_rank(a, hermitian=True),
     lambda a: np.linalg.matrix_rank(a, hermitian=True), [(H, (3, 3))]),
    ("matrix_rank hermitian, one triangle", lambda a: nx.linalg.matrix_rank(a, hermitian=True),
     lambda a: np.linalg.matrix_rank(a, hermitian=True),
     [(lambda s, d: np.tril(rank_one(s, d) + rank_one(s, d).T), (3, 3))]),
    ("matrix_rank vector", nx.linalg.matrix_rank, np.linalg.matrix_rank, [(R, (3,))]),
    ("multi_dot three", lambda *a: nx.linalg.multi_dot(a), lambda *a: np.linalg.multi_dot(a),
     [(R, (2, 6)), (R, (6, 3)), (R, (3, 5))]),
    ("multi_dot vectors", lambda *a: nx.linalg.multi_dot(a), lambda *a: np.linalg.multi_dot(a),
     [(R, (4,)), (R, (4, 6)), (R, (6, 2)), (R, (2, 7)), (R, (7,))]),
    ("multi_dot row", lambda *a: nx.linalg.multi_dot(a), lambda *a: np.linalg.multi_dot(a),
     [(R, (4,)), (R, (4, 6)), (R, (6, 2)), (R, (2, 7))]),
    ("multi_dot two", lambda *a: nx.linalg.multi_dot(a), lambda *a: np.linalg.multi_dot(a),
     [(R, (2, 3, 4)), (R, (4, 2))]),
    ("tensorsolve", nx.linalg.tensorsolve, np.linalg.tensorsolve,
     [(lambda s, d: well_conditioned((24, 24), d).reshape(s), (6, 4, 2, 3, 4)),
      (R, (6, 4))]),
    ("tensorsolve axes", lambda a, b: nx.linalg.tensorsolve(a, b, axes=(0, 2)),
     lambda a, b: np.linalg.tensorsolve(a, b, axes=(0, 2)),
     [(lambda s, d: well_conditioned((6, 6), d).reshape(s), (2, 3, 3, 2)), (R, (3, 2))]),
    ("tensorinv", nx.linalg.tensorinv, np.linalg.tensorinv,
     [(lambda s, d: well_conditioned((24, 24), d).reshape(s), (4, 6, 8, 3))]),
    ("tensorinv ind=1", lambda a: nx.linalg.tensorinv(a, ind=1),
     lambda a: np.linalg.tensorinv(a, ind=1),
     [(lambda s, d: well_conditioned((24, 24), d).reshape(s), (24, 8, 3))]),
    ("outer", nx.linalg.outer, np.linalg.outer, [(R, (3,)), (R, (4,))]),
    ("trace", lambda x: nx.linalg.trace(x, offset=-1), lambda x: np.linalg.trace(x, offset=-1),
     [(R, (2, 3, 4))]),
    ("trace dtype", lambda x: nx.linalg.trace(x, dtype=nx.complex128),
     lambda x: np.linalg.trace(x, dtype=np.complex128), [(R, (3, 3))]),
    ("diagonal", lambda x: nx.linalg.diagonal(x, offset=1),
     lambda x: np.linalg.diagonal(x, offset=1), [(R, (2, 3, 4))]),
    ("cross", nx.linalg.cross, np.linalg.cross, [(R, (2, 3)), (R, (3,))]),
    ("cross axis", lambda a, b: nx.linalg.cross(a, b, axis=0),
     lambda a, b: np.linalg.cross(a, b, axis=0), [(R, (3, 2)), (R, (3, 2))]),
    ("matmul", nx.linalg.matmul, np.linalg.matmul, [(R, (2, 3, 4)), (R, (4, 2))]),
    ("matrix_transpose", nx.linalg.matrix_transpose, np.linalg.matrix_transpose,
     [(R, (2, 3, 4))]),
    ("vecdot", lambda a, b: nx.linalg.vecdot(a, b, axis=0),
     lambda a, b: np.linalg.vecdot(a, b, axis=0), [(R, (3, 2)), (R, (3, 1))]),
    ("tensordot", lambda a, b: nx.linalg.tensordot(a, b, axes=1),
     lambda a, b: np.linalg.tensordot(a, b, axes=1), [(R, (2, 3)), (R, (3, 4))]),
]
CASES += [(f"matrix_power {n}", lambda a, n=n: nx.linalg.matrix_power(a, n),
           lambda a, n=n: np.linalg.matrix_power(a, n), [(WC, (2, 3, 3))])
          for n in (-7, -3, -1, 0, 1, 2, 3, 4, 6, 13)]
CASES += [(f"cond {p}", lambda a, p=p: nx.linalg.cond(a, p), lambda a, p=p: np.linalg.cond(a, p),
           [(WC, (2, 3, 3))]) for p in (None, 2, -2, "fro", "nuc", 1, -1, np.inf, -np.inf)]
CASES += [("cond wide", nx.linalg.cond, np.linalg.cond, [(R, (3, 5))])]


def make(operands, dtype):
    return [maker(shape, dtype) for maker, shape in operands]


@pytest.mark.parametrize("name,fn,np_fn,operands", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_values_match_numpy(name, fn, np_fn, operands, dtype):
    args = make(operands, dtype)
    got = fn(*[nx.array(a) for a in args])
    want = np_fn(*args)
    got, want = (got, want) if isinstance(want, tuple) else ((got,), (want,))
    tol = 2e-3 if np.dtype(dtype) == np.float32 else 1e-9
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
        np.testing.assert_allclose(g.numpy(), w, rtol=tol, atol=tol)


@pytest.mark.parametrize("n", [2, 3, 5, 13, -6])
def test_matrix_power_multiplies_in_numpys_order(n):
    # bit for bit: the same products in the same order
    a = rand((2, 4, 4))
    np.testing.assert_array_equal(nx.linalg.matrix_power(nx.array(a), n).numpy(),
                                  np.linalg.matrix_power(a, n))


def test_matrix_power_of_integers_stays_integer_until_inverted():
    a = np.array([[1, 2], [3, 4]])
    assert nx.linalg.matrix_power(nx.array(a), 3).dtype == nx.int64
    assert nx.linalg.matrix_power(nx.array(a), 0).dtype == nx.int64
    assert nx.linalg.matrix_power(nx.array(a), -1).dtype == nx.float64
    np.testing.assert_array_equal(nx.linalg.matrix_power(nx.array(a), 5).numpy(),
                                  np.linalg.matrix_power(a, 5))


@pytest.mark.parametrize("count", [3, 4, 5, 7])
def test_multi_dot_chooses_numpys_order(count):
    from numpy.linalg._linalg import _multi_dot_matrix_chain_order
    from rune.nx.linalg.products import _chain_order

    for _ in range(20):
        sizes = list(RNG.integers(1, 30, count + 1))
        arrays = [np.empty((sizes[i], sizes[i + 1])) for i in range(count)]
        expected = _multi_dot_matrix_chain_order(arrays)
        got = _chain_order(sizes)
        for i in range(count):
            for j in range(i + 1, count):
                assert got[i][j] == expected[i, j], (sizes, i, j)


# ------------------------------------------------------------ derivatives

DERIVATIVES = [
    ("pinv tall", nx.linalg.pinv, [(WC, (4, 3))]),
    ("pinv wide stack", nx.linalg.pinv, [(WC, (2, 3, 4))]),
    ("pinv square", nx.linalg.pinv, [(WC, (3, 3))]),
    ("pinv hermitian", lambda a: nx.linalg.pinv(a @ nx.conj(nx.matrix_transpose(a)),
                                                hermitian=True), [(WC, (3, 3))]),
    ("lstsq x, matrix b", lambda a, b: nx.linalg.lstsq(a, b)[0], [(WC, (5, 3)), (R, (5, 2))]),
    ("lstsq wide", lambda a, b: nx.linalg.lstsq(a, b)[0], [(WC, (2, 4)), (R, (2,))]),
    ("lstsq residuals and s", lambda a, b: nx.linalg.lstsq(a, b)[1] + nx.sum(
        nx.linalg.lstsq(a, b)[3]), [(WC, (5, 3)), (R, (5, 2))]),
    ("matrix_power 6", lambda a: nx.linalg.matrix_power(a, 6), [(WC, (2, 3, 3))]),
    ("matrix_power -3", lambda a: nx.linalg.matrix_power(a, -3), [(WC, (3, 3))]),
    ("multi_dot", lambda a, b, c, d: nx.linalg.multi_dot([a, b, c, d]),
     [(R, (3,)), (R, (3, 5)), (R, (5, 2)), (R, (2,))]),
    ("tensorsolve", lambda a, b: nx.linalg.tensorsolve(a, b),
     [(lambda s, d: well_conditioned((6, 6), d).reshape(s), (2, 3, 6)), (R, (2, 3))]),
    ("tensorinv", lambda a: nx.linalg.tensorinv(a, ind=1),
     [(lambda s, d: well_conditioned((6, 6), d).reshape(s), (6, 2, 3))]),
] + [(f"cond {p}", lambda a, p=p: nx.linalg.cond(a, p), [(graded, (2, 3, 3))])
     for p in (None, 2, -2, "fro", "nuc", 1, -1, np.inf, -np.inf)]


@pytest.mark.parametrize("name,fn,operands", DERIVATIVES, ids=[c[0] for c in DERIVATIVES])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=["float64", "complex128"])
def test_derivatives_of_order_two(name, fn, operands, dtype):
    args = tuple(nx.array(a) for a in make(operands, dtype))
    rune.check_grads(squared_size(fn), args, order=2, modes=("fwd", "rev"))


def finite_difference(f, a, da, eps=1e-6):
    return (f(a + eps * da) - f(a - eps * da)) / (2 * eps)


@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (3, 3)])
def test_pinv_derivative_at_a_rank_deficient_matrix_keeps_the_rank(shape):
    # Golub-Pereyra is exact where the rank is constant: along U dS V^H + the
    # directions of the rank-one matrix's own row and column spaces.
    u, v = rand((shape[0], 1)), rand((1, shape[1]))
    a = u @ v
    da = rand((shape[0], 1)) @ v + u @ rand((1, shape[1]))  # stays rank one to first order
    # a step of eps adds a singular value of order eps^2: the cutoff drops it
    _, tangent = rune.jvp(lambda m: nx.linalg.pinv(m, 1e-8), (nx.array(a),), (nx.array(da),))
    expected = finite_difference(lambda m: np.linalg.pinv(m, 1e-8), a, da)
    np.testing.assert_allclose(tangent.numpy(), expected, rtol=1e-6, atol=1e-6)


def test_pinv_hermitian_differentiates_along_the_hermitian_part():
    a = nx.array(hermitian((3, 3)))
    da = rand((3, 3))
    f = lambda a: nx.linalg.pinv(a, hermitian=True)  # noqa: E731
    _, t = rune.jvp(f, (a,), (nx.array(da),))
    _, t_sym = rune.jvp(f, (a,), (nx.array((da + da.T) / 2),))
    np.testing.assert_allclose(t.numpy(), t_sym.numpy(), atol=1e-12)


def test_the_rank_has_no_derivative_and_the_integer_outputs_say_so():
    a = nx.array(rand((4, 3)))
    rank = nx.linalg.lstsq(a, nx.ones(4))[2]
    assert rank.dtype == nx.int32 and rank.item() == 3
    assert nx.linalg.matrix_rank(a).dtype == nx.int64
    with pytest.raises(TypeError):
        rune.grad(lambda a: nx.linalg.matrix_rank(a))(a)


@pytest.mark.parametrize("p", ["fro", "nuc", 1, -1, np.inf, -np.inf, None, 2])
def test_cond_of_a_singular_matrix_is_inf_with_no_quiet_zero_gradient(p):
    a = nx.array([[1.0, 2.0], [2.0, 4.0]]) if p not in (None, 2) else nx.array(
        [[1.0, 0.0], [0.0, 0.0]])
    assert nx.linalg.cond(a, p).item() == np.inf
    stack = nx.stack([a, nx.array(well_conditioned((2, 2)))])
    np.testing.assert_array_equal(np.isinf(nx.linalg.cond(stack, p).numpy()), [True, False])
    with np.errstate(all="ignore"):
        g = rune.grad(lambda a: nx.linalg.cond(a, p))(a)
    assert not np.all(np.isfinite(g.numpy()))


# ------------------------------------------------------------ vmap and jit

VMAPS = [
    ("pinv", nx.linalg.pinv, [(R, (4, 3, 2))]),
    ("pinv hermitian", lambda a: nx.linalg.pinv(a, hermitian=True), [(H, (4, 3, 3))]),
    ("lstsq", lambda a, b: nx.linalg.lstsq(a, b), [(R, (4, 5, 3)), (R, (4, 5))]),
    ("matrix_power", lambda a: nx.linalg.matrix_power(a, -5), [(WC, (4, 3, 3))]),
    ("matrix_power 0", lambda a: nx.linalg.matrix_power(a, 0), [(WC, (4, 3, 3))]),
    ("matrix_rank", nx.linalg.matrix_rank, [(R1, (4, 3, 3))]),
    ("cond", nx.linalg.cond, [(R, (4, 2, 3))]),
    ("cond inf", lambda a: nx.linalg.cond(a, np.inf), [(WC, (4, 3, 3))]),
    ("multi_dot", lambda a, b: nx.linalg.multi_dot([b, a, nx.matrix_transpose(a)]),
     [(R, (4, 3, 2)), (R, (4, 3))]),
    ("tensorsolve", nx.linalg.tensorsolve,
     [(lambda s, d: np.stack([well_conditioned((6, 6), d)] * 4).reshape(s), (4, 2, 3, 6)),
      (R, (4, 2, 3))]),
    ("tensorinv", lambda a: nx.linalg.tensorinv(a, ind=1),
     [(lambda s, d: np.stack([well_conditioned((6, 6), d)] * 4).reshape(s), (4, 6, 2, 3))]),
    ("grad of pinv", rune.grad(lambda a: nx.sum(nx.linalg.pinv(a) ** 2)), [(R, (4, 3, 2))]),
]


@pytest.mark.parametrize("name,fn,operands", VMAPS, ids=[v[0] for v in VMAPS])
def test_vmap_matches_loop(name, fn, operands):
    assert_vmap_matches_loop(fn, *make(operands, np.float64))


def test_vmap_of_cond_gives_inf_only_for_the_singular_example():
    stack = np.stack([well_conditioned((2, 2)), [[1.0, 2.0], [2.0, 4.0]], np.eye(2)])
    out = rune.vmap(lambda a: nx.linalg.cond(a, 1))(nx.array(stack)).numpy()
    np.testing.assert_allclose(out, [np.linalg.cond(m, 1) for m in stack])


@pytest.mark.parametrize("name,fn,operands", VMAPS[:-1], ids=[v[0] for v in VMAPS[:-1]])
def test_jit_matches_eager(name, fn, operands):
    args = [nx.array(a[0]) for a in make(operands, np.float64)]
    for got, want in zip(rune.ptree.leaves(rune.jit(fn)(*args)), rune.ptree.leaves(fn(*args))):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12, atol=1e-12)


def test_lstsq_under_jit_returns_the_residuals_of_a_rank_deficient_tall_matrix():
    a, b = nx.array(rank_one((4, 3))), nx.array(rand((4,)))
    assert nx.linalg.lstsq(a, b)[1].shape == (0,)  # numpy's, eagerly
    x, residuals, rank, _ = rune.jit(nx.linalg.lstsq)(a, b)
    assert rank.item() == 1 and residuals.shape == (1,)
    np.testing.assert_allclose(residuals.numpy(), [np.sum((b.numpy() - a.numpy() @ x.numpy())
                                                          ** 2)])


def test_pinv_abstract_rule_matches_eager():
    for dtype in (np.float32, np.int64, np.complex64):
        assert_abstract_matches(lambda a: nx.linalg.pinv(a), nx.array(np.ones((2, 4, 3), dtype)))


# ------------------------------------------------------------------ errors

LinAlgError = np.linalg.LinAlgError
ERRORS = [
    (lambda: nx.linalg.pinv(nx.ones(3)), ValueError,
     r"nx.linalg.pinv: a must be a matrix \(or a stack of them in the last two axes\), got "
     r"shape \(3,\)"),
    (lambda: nx.linalg.pinv(nx.ones((2, 3)), hermitian=True), ValueError,
     r"nx.linalg.pinv: a must be a square matrix"),
    (lambda: nx.linalg.pinv(nx.ones((2, 2)), rcond=0.1, rtol=0.1), ValueError,
     r"nx.linalg.pinv: give rcond or rtol, not both"),
    (lambda: nx.linalg.pinv(nx.ones((2, 2)), rcond="small"), TypeError,
     r"nx.linalg.pinv: rcond must be a real number or an array of them, got 'small'"),
    (lambda: nx.linalg.lstsq(nx.ones((2, 3, 3)), nx.ones(3)), LinAlgError,
     r"nx.linalg.lstsq: expected a matrix a \(M, N\) and b \(M,\) or \(M, K\), got shapes "
     r"\(2, 3, 3\) and \(3,\)"),
    (lambda: nx.linalg.lstsq(nx.ones((3, 2)), nx.ones(2)), LinAlgError, r"\(3, 2\) and \(2,\)"),
    (lambda: nx.linalg.matrix_power(nx.ones((2, 2)), 1.5), TypeError,
     r"nx.linalg.matrix_power: the exponent n must be an integer, got 1.5"),
    (lambda: nx.linalg.matrix_power(nx.ones((2, 3)), 2), ValueError,
     r"nx.linalg.matrix_power: a must be a square matrix"),
    (lambda: nx.linalg.matrix_power(nx.ones((2, 2)), -1), LinAlgError,
     r"nx.linalg.inv: the matrix is singular"),
    (lambda: nx.linalg.matrix_rank(nx.ones((2, 2)), tol=1, rtol=1), ValueError,
     r"nx.linalg.matrix_rank: give tol or rtol, not both"),
    (lambda: nx.linalg.cond(nx.ones((2, 2)), 3), ValueError,
     r"nx.linalg.cond: invalid p 3; expected None, 2, -2, 'fro', 'nuc', 1, -1, inf or -inf"),
    (lambda: nx.linalg.cond(nx.ones((2, 3)), 1), ValueError,
     r"nx.linalg.cond: x must be a square matrix"),
    (lambda: nx.linalg.cond(nx.ones(3)), ValueError,
     r"nx.linalg.cond: x must be a matrix .* got shape \(3,\)"),
    (lambda: nx.linalg.cond(nx.ones((0, 0))), LinAlgError,
     r"nx.linalg.cond: cond is not defined on empty matrices, got shape \(0, 0\)"),
    (lambda: nx.linalg.multi_dot([nx.ones(2)]), ValueError,
     r"nx.linalg.multi_dot: expected at least two arrays, got 1"),
    (lambda: nx.linalg.multi_dot([nx.ones(2), nx.ones((2, 2, 2)), nx.ones(2)]), LinAlgError,
     r"nx.linalg.multi_dot: arrays\[1\] has shape \(2, 2, 2\); expected a matrix"),
    (lambda: nx.linalg.multi_dot([nx.ones(2), nx.ones((3, 2)), nx.ones(2)]), ValueError,
     r"arrays\[0\] of shape \(1, 2\) and arrays\[1\] of shape \(3, 2\) do not match"),
    (lambda: nx.linalg.multi_dot([nx.ones(2), nx.ones(2)], out=np.empty(())), TypeError,
     r"nx.linalg.multi_dot: out= is not supported"),
    (lambda: nx.linalg.tensorsolve(nx.ones((2, 3, 4)), nx.ones((2, 3))), LinAlgError,
     r"nx.linalg.tensorsolve: a of shape \(2, 3, 4\) and b of shape \(2, 3\) do not make a "
     r"square system"),
    (lambda: nx.linalg.tensorsolve(nx.ones((2, 2)), nx.ones(2), axes=(0, 0)), ValueError,
     r"nx.linalg.tensorsolve: axis \(0, 0\) repeats an axis"),
    (lambda: nx.linalg.tensorinv(nx.ones((2, 3)), ind=1), LinAlgError,
     r"nx.linalg.tensorinv: a of shape \(2, 3\) with ind=1 is not square: the first 1 axes "
     r"have 2 elements, the others 3"),
    (lambda: nx.linalg.tensorinv(nx.ones((2, 2)), ind=0), ValueError,
     r"nx.linalg.tensorinv: ind must be a positive integer, got 0"),
    (lambda: nx.linalg.outer(nx.ones((2, 2)), nx.ones(2)), ValueError,
     r"nx.linalg.outer: expected two vectors \(1-d\), got shapes \(2, 2\) and \(2,\)"),
    (lambda: nx.linalg.cross(nx.ones(2), nx.ones(2)), ValueError,
     r"nx.linalg.cross: both operands must be 3-vectors along axis -1, got shapes \(2,\) and "
     r"\(2,\)"),
    (lambda: nx.linalg.trace(nx.ones(3)), ValueError, r"nx.linalg.trace: x must be a matrix"),
    (lambda: nx.linalg.diagonal(nx.ones(3)), ValueError,
     r"nx.linalg.diagonal: x must be a matrix"),
]


@pytest.mark.parametrize("call,error,message", ERRORS)
def test_bad_inputs_raise_with_a_message(call, error, message):
    with pytest.raises(error, match=message):
        call()
