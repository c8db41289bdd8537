"""nx.linalg: inv, solve, det, slogdet, cholesky, norm.

Values against numpy (float64, float32, complex128; stacks of matrices),
derivatives of order 2 in both modes on well-conditioned inputs, abstract
rules, vmap against a loop, bad inputs with their messages.
"""

import numpy as np
import pytest

import rune
from rune import nx
from rune.primitives.linalg import singular_values, svd_vectors
from tests.util import (assert_abstract_matches, assert_vmap_matches_loop, random_value,
                        squared_size)

RNG = np.random.default_rng(1)


def rand(shape, dtype=np.float64):
    return random_value(RNG, shape, dtype)


def well_conditioned(shape, dtype=np.float64):
    """A + n I: far from singular."""
    n = shape[-1]
    return np.asarray(rand(shape, dtype) + n * np.eye(n), dtype)


def positive_definite(shape, dtype=np.float64):
    """A A^H + n I: Hermitian positive definite."""
    a = rand(shape, dtype)
    n = shape[-1]
    return np.asarray(a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n), dtype)


def hermitian_part(a):
    """(a + a^H) / 2: cholesky reads one triangle, so its derivative is along this."""
    swapped = nx.einsum("...ij->...ji", a)
    return (a + nx.conj(swapped)) * 0.5


def cholesky_of_hermitian(a):
    return nx.linalg.cholesky(hermitian_part(a))


def sign_of_det(a):
    return nx.linalg.slogdet(a)[0]


def logabsdet(a):
    return nx.linalg.slogdet(a)[1]


def np_sign(a):
    return np.linalg.slogdet(a)[0]


def np_logabsdet(a):
    return np.linalg.slogdet(a)[1]


def np_cholesky_of_hermitian(a):
    return np.linalg.cholesky((a + np.conj(np.swapaxes(a, -1, -2))) / 2)


# (name, rune function, numpy function, operand makers)
WC, PD = well_conditioned, positive_definite
CASES = [
    ("inv", nx.linalg.inv, np.linalg.inv, [(WC, (3, 3))]),
    ("inv stack", nx.linalg.inv, np.linalg.inv, [(WC, (2, 3, 3))]),
    ("solve vector", nx.linalg.solve, np.linalg.solve, [(WC, (3, 3)), (rand, (3,))]),
    ("solve matrix", nx.linalg.solve, np.linalg.solve, [(WC, (3, 3)), (rand, (3, 2))]),
    ("solve stack, vector", nx.linalg.solve, np.linalg.solve, [(WC, (2, 3, 3)), (rand, (3,))]),
    ("solve broadcast b", nx.linalg.solve, np.linalg.solve, [(WC, (3, 3)), (rand, (2, 3, 4))]),
    ("solve broadcast a", nx.linalg.solve, np.linalg.solve,
     [(WC, (2, 1, 3, 3)), (rand, (4, 3, 2))]),
    ("det", nx.linalg.det, np.linalg.det, [(WC, (3, 3))]),
    ("det stack", nx.linalg.det, np.linalg.det, [(WC, (2, 3, 3))]),
    ("slogdet logabsdet", logabsdet, np_logabsdet, [(WC, (2, 3, 3))]),
    ("slogdet sign", sign_of_det, np_sign, [(WC, (2, 3, 3))]),
    ("cholesky", cholesky_of_hermitian, np_cholesky_of_hermitian, [(PD, (3, 3))]),
    ("cholesky stack", cholesky_of_hermitian, np_cholesky_of_hermitian, [(PD, (2, 3, 3))]),
]

NORMS = [  # (kwargs, shape); all differentiable twice
    ({}, (4,)),
    ({}, (2, 3, 2)),
    ({"ord": 2}, (4,)),
    ({"ord": 1}, (4,)),
    ({"ord": np.inf}, (4,)),
    ({"ord": -np.inf}, (4,)),
    ({"ord": 3}, (4,)),
    ({"ord": 0.5}, (4,)),
    ({"axis": 1}, (2, 3)),
    ({"axis": -1, "keepdims": True}, (2, 3)),
    ({"ord": 1, "axis": 0}, (2, 3)),
    ({"ord": "fro"}, (2, 3)),
    ({}, (2, 3)),
    ({"ord": 1}, (3, 3)),
    ({"ord": -1}, (3, 3)),
    ({"ord": np.inf}, (3, 3)),
    ({"ord": -np.inf}, (3, 3)),
    ({"ord": "fro", "axis": (0, 2)}, (2, 3, 4)),
    ({"ord": np.inf, "axis": (2, 0), "keepdims": True}, (2, 3, 4)),
]
SVD_NORMS = [  # differentiable once
    ({"ord": "nuc"}, (3, 4)),
    ({"ord": 2}, (4, 3)),
    ({"ord": -2}, (3, 3)),
    ({"ord": "nuc", "axis": (2, 1), "keepdims": True}, (2, 3, 4)),
]


def norm_case(kwargs, shape):
    return (f"norm {kwargs} {shape}", lambda x: nx.linalg.norm(x, **kwargs),
            lambda x: np.linalg.norm(x, **kwargs), [(rand, shape)])


CASES += [norm_case(kwargs, shape) for kwargs, shape in NORMS]
SVD_CASES = [norm_case(kwargs, shape) for kwargs, shape in SVD_NORMS]
ALL = CASES + SVD_CASES
IDS = [c[0] for c in CASES]
ALL_IDS = [c[0] for c in ALL]
DTYPES = [np.float64, np.float32, np.complex128]


def make(makers, dtype):
    return [maker(shape, dtype) for maker, shape in makers]


@pytest.mark.parametrize("name,fn,np_fn,makers", ALL, ids=ALL_IDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_values_match_numpy(name, fn, np_fn, makers, dtype):
    args = make(makers, dtype)
    out = fn(*[nx.array(a) for a in args])
    expected = np.asarray(np_fn(*args))
    assert out.dtype == expected.dtype
    assert out.shape == expected.shape
    tol = 1e-4 if np.dtype(dtype) == np.float32 else 1e-12
    np.testing.assert_allclose(out.numpy(), expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("name,fn,np_fn,makers", ALL, ids=ALL_IDS)
def test_abstract_rule_matches_eager(name, fn, np_fn, makers):
    assert_abstract_matches(fn, *[nx.array(a) for a in make(makers, np.float64)])


def along(f, direction):
    """Re sum(f * direction): a real scalar that sees f's phase (|sign|^2 is 1)."""
    return lambda *args: nx.real(nx.sum(f(*args) * direction))


@pytest.mark.parametrize("name,fn,np_fn,makers", CASES, ids=IDS)
def test_derivatives_float64(name, fn, np_fn, makers):
    args = tuple(nx.array(a) for a in make(makers, np.float64))
    rune.check_grads(fn, args, order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("name,fn,np_fn,makers", CASES, ids=IDS)
def test_derivatives_complex128(name, fn, np_fn, makers):
    args = tuple(nx.array(a) for a in make(makers, np.complex128))
    if name == "slogdet sign":
        f = along(fn, nx.array(rand((2,), np.complex128)))
    else:
        f = squared_size(fn)
    rune.check_grads(f, args, order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("name,fn,np_fn,makers", SVD_CASES, ids=[c[0] for c in SVD_CASES])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=["float64", "complex128"])
def test_singular_value_norms_differentiate_twice(name, fn, np_fn, makers, dtype):
    # Second derivatives go through the singular vectors' rule (issue 19).
    args = tuple(nx.array(a) for a in make(makers, dtype))
    rune.check_grads(squared_size(fn), args, order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("ord", [2, -2, "nuc"])
def test_hessians_of_singular_value_norms_match_finite_differences(ord):
    x = rand((3, 4))
    norm = lambda x: nx.linalg.norm(x, ord=ord)  # noqa: E731
    hessian = rune.hessian(norm)(nx.array(x)).numpy().reshape(12, 12)
    grad = lambda x: rune.grad(norm)(nx.array(x)).numpy().reshape(12)  # noqa: E731
    eps = 1e-6
    columns = []
    for k in range(12):
        step = np.zeros(12)
        step[k] = eps
        step = step.reshape(3, 4)
        columns.append((grad(x + step) - grad(x - step)) / (2 * eps))
    np.testing.assert_allclose(hessian, np.stack(columns, axis=1), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(hessian, hessian.T, rtol=1e-10, atol=1e-12)


def reconstructed(a):
    """U diag(s^2) V^H from the singular vectors: unchanged by their phases."""
    u = svd_vectors(a, which="u")
    vh = svd_vectors(a, which="vh")
    s = singular_values(a)
    return nx.matmul(u * nx.astype(s * s, u.dtype)[..., None, :], vh)


def first_projector(a):
    """u_1 u_1^H, the projector on the first left singular vector (phase-free)."""
    u = svd_vectors(a, which="u")[..., :, :1]
    return nx.matmul(u, nx.conj(nx.swapaxes(u, -1, -2)))


def right_projector(a):
    vh = svd_vectors(a, which="vh")[..., -1:, :]
    return nx.matmul(nx.conj(nx.swapaxes(vh, -1, -2)), vh)


@pytest.mark.parametrize("fn", [reconstructed, first_projector, right_projector])
@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4), (2, 3, 2)])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=["float64", "complex128"])
def test_singular_vectors_have_derivatives(fn, shape, dtype):
    a = nx.array(rand(shape, dtype))
    rune.check_grads(squared_size(fn), (a,), order=2, modes=("fwd", "rev"))


def test_the_real_sign_has_a_zero_derivative():
    a = nx.array(well_conditioned((3, 3)))
    assert str(rune.grad(lambda a: nx.sum(sign_of_det(a)))(a)) == str(nx.array(np.zeros((3, 3))))


def test_derivative_formulas():
    a = well_conditioned((3, 3))
    g = rune.grad(nx.linalg.det)(nx.array(a))
    np.testing.assert_allclose(g.numpy(), np.linalg.det(a) * np.linalg.inv(a).T)
    g = rune.grad(logabsdet)(nx.array(a))
    np.testing.assert_allclose(g.numpy(), np.linalg.inv(a).T)
    x = nx.array([3.0, 4.0])
    np.testing.assert_allclose(rune.grad(nx.linalg.norm)(x).numpy(), [0.6, 0.8])


def test_norm_at_zero_has_a_nan_gradient():
    with np.errstate(divide="ignore", invalid="ignore"):  # 0 * inf, on purpose
        g = rune.grad(nx.linalg.norm)(nx.array([0.0, 0.0]))
    assert np.isnan(g.numpy()).all()


def test_max_norm_ties_share_the_gradient():
    g = rune.grad(lambda x: nx.linalg.norm(x, ord=np.inf))(nx.array([1.0, -3.0, 3.0]))
    assert str(g) == "float64 [3] [0, -0.5, 0.5]"


def cofactors(a):
    """The cofactor matrix from its definition: signed minors (the reference)."""
    n = a.shape[0]
    out = np.empty_like(a)
    for i in range(n):
        for j in range(n):
            minor = np.delete(np.delete(a, i, axis=0), j, axis=1)
            out[i, j] = (-1) ** (i + j) * (np.linalg.det(minor) if n > 1 else 1.0)
    return out


SINGULAR = [
    [[1.0, 2.0], [2.0, 4.0]],  # rank 1 (JAX: the gradient is [[4, -2], [-2, 1]])
    [[0.0, 0.0], [0.0, 0.0]],  # rank 0: the gradient is 0
    [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]],  # rank 2
    [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [-1.0, -2.0, -3.0]],  # rank 1: the gradient is 0
    [[2.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 0.0]],  # rank 2, diagonal
]


@pytest.mark.parametrize("a", SINGULAR, ids=lambda a: f"{len(a)}x{len(a)}")
def test_det_gradient_at_singular_matrices_is_the_cofactor_matrix(a):
    a = np.array(a)
    assert abs(np.linalg.det(a)) < 1e-12
    expected = cofactors(a)
    for route in (rune.grad(nx.linalg.det), rune.jacfwd(nx.linalg.det),
                  rune.jacrev(nx.linalg.det)):
        np.testing.assert_allclose(route(nx.array(a)).numpy(), expected, atol=1e-12)


def test_det_gradient_of_the_jax_example():
    g = rune.grad(nx.linalg.det)(nx.array([[1.0, 2.0], [2.0, 4.0]]))
    np.testing.assert_allclose(g.numpy(), [[4.0, -2.0], [-2.0, 1.0]], atol=1e-14)


def test_det_gradient_at_a_complex_singular_matrix():
    a = np.array([[1.0 + 1j, 2.0], [1.0 + 1j, 2.0]])
    np.testing.assert_allclose(rune.jacfwd(nx.linalg.det, holomorphic=True)(nx.array(a)).numpy(),
                               cofactors(a), atol=1e-12)


def test_det_gradient_near_a_singular_matrix():
    a = np.array([[1.0, 2.0], [2.0, 4.0 + 1e-9]])
    np.testing.assert_allclose(rune.grad(nx.linalg.det)(nx.array(a)).numpy(), cofactors(a),
                               rtol=1e-12)


def test_cholesky_derivative_follows_jax_symmetrization():
    # Along a non-symmetric dA the rule uses (dA + dA^T) / 2.
    a = nx.array(positive_definite((3, 3)))
    da = rand((3, 3))
    _, t = rune.jvp(nx.linalg.cholesky, (a,), (nx.array(da),))
    _, t_sym = rune.jvp(nx.linalg.cholesky, (a,), (nx.array((da + da.T) / 2),))
    np.testing.assert_allclose(t.numpy(), t_sym.numpy(), atol=1e-12)
    assert np.allclose(np.triu(t.numpy(), 1), 0)


@pytest.mark.parametrize("fn", [nx.linalg.inv, nx.linalg.det, logabsdet, nx.linalg.norm,
                                cholesky_of_hermitian])
def test_float32_gradients_stay_float32(fn):
    a = nx.array(positive_definite((3, 3), np.float32))
    assert rune.grad(lambda a: nx.sum(fn(a)))(a).dtype == nx.float32


def test_integer_input_is_computed_in_float64():
    out = nx.linalg.inv(nx.array([[2, 0], [0, 4]]))
    assert out.dtype == nx.float64
    assert nx.linalg.norm(nx.array([3, 4])).item() == 5.0


# ------------------------------------------------------------------- vmap

VMAPS = [
    ("inv", nx.linalg.inv, [(WC, (4, 3, 3))]),
    ("solve both", nx.linalg.solve, [(WC, (4, 3, 3)), (rand, (4, 3))]),
    ("solve matrix b", nx.linalg.solve, [(WC, (4, 3, 3)), (rand, (4, 3, 2))]),
    ("solve a only", lambda a: nx.linalg.solve(a, B32), [(WC, (4, 3, 3))]),
    ("solve b only", lambda b: nx.linalg.solve(A233, b), [(rand, (4, 3, 2))]),
    ("solve b only, vector", lambda b: nx.linalg.solve(A233, b), [(rand, (4, 3))]),
    ("det", nx.linalg.det, [(WC, (4, 2, 3, 3))]),
    ("slogdet", lambda a: nx.linalg.slogdet(a), [(WC, (4, 3, 3))]),
    ("cholesky", nx.linalg.cholesky, [(PD, (4, 3, 3))]),
    ("norm", nx.linalg.norm, [(rand, (4, 3))]),
    ("norm inf", lambda x: nx.linalg.norm(x, ord=np.inf, axis=0), [(rand, (4, 3, 2))]),
    ("norm nuc", lambda x: nx.linalg.norm(x, ord="nuc"), [(rand, (4, 3, 2))]),
    ("grad of logabsdet", rune.grad(logabsdet), [(WC, (4, 3, 3))]),
]
B32 = rand((3, 2))
A233 = well_conditioned((2, 3, 3))


@pytest.mark.parametrize("name,fn,makers", VMAPS, ids=[v[0] for v in VMAPS])
def test_vmap_matches_loop(name, fn, makers):
    assert_vmap_matches_loop(fn, *make(makers, np.float64))


def test_jacobian_of_inv():
    a = nx.array(well_conditioned((2, 2)))
    inv_a = np.linalg.inv(a.numpy())
    expected = -np.einsum("ik,lj->ijkl", inv_a, inv_a)
    for jac in (rune.jacfwd, rune.jacrev):
        np.testing.assert_allclose(jac(nx.linalg.inv)(a).numpy(), expected, atol=1e-12)


def test_hessian_of_logabsdet():
    # d^2 log|det A| [dA, dB] = -trace(A^-1 dA A^-1 dB): H[i,j,k,l] = -A^-1[l,i] A^-1[j,k]
    a = nx.array(well_conditioned((3, 3)))
    inv_a = np.linalg.inv(a.numpy())
    expected = -np.einsum("li,jk->ijkl", inv_a, inv_a)
    np.testing.assert_allclose(rune.hessian(logabsdet)(a).numpy(), expected, atol=1e-12)


# ------------------------------------------------------------------ errors

ERRORS = [
    (lambda: nx.linalg.inv(nx.array(rand((2, 3)))), ValueError,
     r"nx.linalg.inv: a must be a square matrix \(or a stack of them in the last two axes\), "
     r"got shape \(2, 3\)"),
    (lambda: nx.linalg.inv(nx.array(rand((3,)))), ValueError, r"got shape \(3,\)"),
    (lambda: nx.linalg.inv(nx.array([[1.0, 2.0], [2.0, 4.0]])), np.linalg.LinAlgError,
     r"nx.linalg.inv: the matrix is singular"),
    (lambda: nx.linalg.solve(nx.array(rand((2, 3))), nx.array(rand((2,)))), ValueError,
     r"nx.linalg.solve: a must be a square matrix .* got shape \(2, 3\)"),
    (lambda: nx.linalg.solve(nx.array(rand((3, 3))), nx.array(rand((2,)))), ValueError,
     r"b of shape \(2,\) does not fit a of shape \(3, 3\): b must be a vector of size 3 or a "
     r"matrix \(..., 3, K\)"),
    (lambda: nx.linalg.solve(nx.array(rand((2, 3, 3))), nx.array(rand((4, 3, 1)))), ValueError,
     r"leading \(batch\) axes of a \(2, 3, 3\) and b \(4, 3, 1\) do not broadcast"),
    (lambda: nx.linalg.det(nx.array(rand((2, 3)))), ValueError, r"nx.linalg.det: a must be"),
    (lambda: nx.linalg.cholesky(nx.array([[1.0, 2.0], [2.0, 1.0]])), np.linalg.LinAlgError,
     r"nx.linalg.cholesky: the matrix is not positive definite: the Cholesky factorization "
     r"needs a Hermitian \(symmetric\) positive-definite matrix"),
    (lambda: nx.linalg.norm(nx.array(rand((3,))), ord="fro"), ValueError,
     r"invalid ord 'fro' for a vector norm"),
    (lambda: nx.linalg.norm(nx.array(rand((3, 3))), ord=3), ValueError,
     r"invalid ord 3 for a matrix norm"),
    (lambda: nx.linalg.norm(nx.array(rand((2, 3, 3))), ord=1), ValueError,
     r"ord=1 with axis=None needs a 1-d or 2-d tensor, got shape \(2, 3, 3\)"),
    (lambda: nx.linalg.norm(nx.array(rand((2, 3))), axis=2), ValueError,
     r"nx.linalg.norm: axis 2 is out of range for a tensor with 2 axes"),
    (lambda: nx.linalg.norm(nx.array(rand((2, 3, 3))), axis=(0, 1, 2)), ValueError,
     r"names 3 axes"),
    (lambda: nx.linalg.norm(nx.array(rand((2, 3))), axis=(1, -1)), ValueError,
     r"repeats an axis"),
    (lambda: nx.linalg.norm(nx.array(rand((2, 3))), axis=1.5), TypeError,
     r"nx.linalg.norm: axis must be an int, got float"),
    (lambda: nx.linalg.inv(None), TypeError, r"nx.linalg.inv: expected numbers, got NoneType"),
    (lambda: nx.linalg.solve(nx.array(np.eye(2)), [["a"], ["b"]]), TypeError,
     r"nx.linalg.solve: expected numbers, got list data of numpy dtype <U1"),
]


@pytest.mark.parametrize("call,error,message", ERRORS)
def test_bad_inputs_raise_with_a_message(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_linalg_errors_are_value_errors():
    assert issubclass(np.linalg.LinAlgError, ValueError)
    with pytest.raises(ValueError):
        nx.linalg.cholesky(nx.array(-np.eye(2)))
