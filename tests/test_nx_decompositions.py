"""nx.linalg's decompositions: svd, eigh, eigvalsh, eig, eigvals, qr.

Values against numpy, eager (numpy once) and traced (one primitive per
output, under jit); derivatives of order 2 in both modes for float64 and
complex128 at well-conditioned random inputs; vmap against a loop; what
happens where the vectors are no function of the matrix (repeated values,
the complement columns of full matrices); bad inputs with their messages.

Vectors' signs and phases are LAPACK's. Where the derivative is that of the
vectors themselves (real eigh and SVD, eig, qr) the check differentiates the
vectors directly: central differences of numpy's own output agree. Complex
eigh and SVD vectors carry a phase that LAPACK does not fix smoothly, so
their checks go through functions the phases do not change (v v^H, |v|^2,
U diag(S) Vh), as JAX's tests do.
"""

import zlib

import numpy as np
import pytest

import rune
from rune import nx
from tests.util import assert_abstract_matches, assert_vmap_matches_loop, random_value

RNG = np.random.default_rng(14)


def rand(shape, dtype=np.float64):
    return random_value(RNG, shape, dtype)


def hermitian_part(a):
    """(a + a^H) / 2: eigh reads one triangle and is differentiated along this."""
    return (a + nx.conj(nx.swapaxes(a, -1, -2))) * 0.5


def np_hermitian_part(a):
    return (a + np.conj(np.swapaxes(a, -1, -2))) / 2


def adjoint(x):
    return nx.conj(nx.swapaxes(x, -1, -2))


SHAPES = [(3, 3), (4, 2), (2, 4), (2, 3, 2)]  # square, tall, wide, a stack
DTYPES = [np.float64, np.float32, np.complex128]
DTYPE_IDS = ["float64", "float32", "complex128"]


def assert_same(got, want, dtype):
    got = np.asarray(got)
    assert got.dtype == np.asarray(want).dtype and got.shape == np.shape(want)
    tol = 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def eager_and_jitted(fn, a):
    """fn's outputs eagerly (numpy once) and under jit (a primitive per output)."""
    return fn(nx.array(a)), rune.jit(fn)(nx.array(a))


# ---------------------------------------------------------------- values


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_matches_numpy(shape, dtype, full_matrices):
    a = rand(shape, dtype)
    want = np.linalg.svd(a, full_matrices=full_matrices)
    for got in eager_and_jitted(lambda x: nx.linalg.svd(x, full_matrices=full_matrices), a):
        assert type(got).__name__ == "SVDResult" and got._fields == ("U", "S", "Vh")
        for g, w in zip(got, want):
            assert_same(g, w, dtype)
    for got in eager_and_jitted(lambda x: nx.linalg.svd(x, compute_uv=False), a):
        assert_same(got, np.linalg.svd(a, compute_uv=False), dtype)


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4)])
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_hermitian_svd_matches_numpy(shape, dtype):
    a = np_hermitian_part(rand(shape, dtype))
    want = np.linalg.svd(a, hermitian=True)
    for got in eager_and_jitted(lambda x: nx.linalg.svd(x, hermitian=True), a):
        assert type(got).__name__ == "SVDResult"
        for g, w in zip(got, want):
            assert_same(g, w, dtype)
    for got in eager_and_jitted(lambda x: nx.linalg.svd(x, hermitian=True, compute_uv=False), a):
        assert_same(got, np.linalg.svd(a, hermitian=True, compute_uv=False), dtype)


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4)])
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("uplo", ["L", "U", "u"])
def test_eigh_and_eigvalsh_match_numpy(shape, dtype, uplo):
    a = rand(shape, dtype)  # not Hermitian: numpy reads one triangle, and so do we
    want = np.linalg.eigh(a, UPLO=uplo)
    for got in eager_and_jitted(lambda x: nx.linalg.eigh(x, UPLO=uplo), a):
        assert type(got).__name__ == "EighResult"
        assert got._fields == ("eigenvalues", "eigenvectors")
        for g, w in zip(got, want):
            assert_same(g, w, dtype)
    for got in eager_and_jitted(lambda x: nx.linalg.eigvalsh(x, UPLO=uplo), a):
        assert_same(got, np.linalg.eigvalsh(a, UPLO=uplo), dtype)


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4)])
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_eig_and_eigvals_match_numpy_as_complex(shape, dtype):
    a = rand(shape, dtype)
    complex_dtype = np.result_type(dtype, np.complex64)
    want = [w.astype(complex_dtype) for w in np.linalg.eig(a)]
    for got in eager_and_jitted(nx.linalg.eig, a):
        assert type(got).__name__ == "EigResult"
        assert got._fields == ("eigenvalues", "eigenvectors")
        for g, w in zip(got, want):
            assert_same(g, w, complex_dtype)
    for got in eager_and_jitted(nx.linalg.eigvals, a):
        assert_same(got, np.linalg.eigvals(a).astype(complex_dtype), complex_dtype)


def test_eig_of_a_real_spectrum_is_complex_where_numpy_gives_real():
    # numpy's dtype depends on the values; a traced function's cannot (JAX: complex too)
    a = np.diag([1.0, 2.0])
    assert np.linalg.eig(a).eigenvalues.dtype == np.float64
    assert str(nx.linalg.eigvals(nx.array(a))) == "complex128 [2] [1+0i, 2+0i]"


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr_matches_numpy(shape, dtype, mode):
    a = rand(shape, dtype)
    want = np.linalg.qr(a, mode=mode)
    for got in eager_and_jitted(lambda x: nx.linalg.qr(x, mode=mode), a):
        if mode == "r":
            assert_same(got, want, dtype)
            continue
        assert type(got).__name__ == "QRResult" and got._fields == ("Q", "R")
        for g, w in zip(got, want):
            assert_same(g, w, dtype)


def test_integer_input_is_computed_in_float64():
    a = np.array([[2, 1], [1, 2]])
    assert nx.linalg.svd(a).S.dtype == nx.float64
    assert nx.linalg.eigh(a).eigenvectors.dtype == nx.float64
    assert nx.linalg.eig(a).eigenvalues.dtype == nx.complex128
    assert nx.linalg.qr(a).Q.dtype == nx.float64


DECOMPOSITIONS = [
    ("svd", lambda a: nx.linalg.svd(a), (2, 4, 3)),
    ("svd thin", lambda a: nx.linalg.svd(a, full_matrices=False), (2, 3, 4)),
    ("svd values", lambda a: nx.linalg.svd(a, compute_uv=False), (4, 3)),
    ("svd hermitian", lambda a: nx.linalg.svd(a, hermitian=True), (2, 3, 3)),
    ("eigh", nx.linalg.eigh, (2, 3, 3)),
    ("eigvalsh", lambda a: nx.linalg.eigvalsh(a, UPLO="U"), (3, 3)),
    ("eig", nx.linalg.eig, (2, 3, 3)),
    ("eigvals", nx.linalg.eigvals, (3, 3)),
    ("qr", nx.linalg.qr, (2, 4, 3)),
    ("qr complete", lambda a: nx.linalg.qr(a, mode="complete"), (4, 3)),
    ("qr r", lambda a: nx.linalg.qr(a, mode="r"), (3, 4)),
]


@pytest.mark.parametrize("name,fn,shape", DECOMPOSITIONS, ids=[d[0] for d in DECOMPOSITIONS])
@pytest.mark.parametrize("dtype", [np.float64, np.complex64], ids=["float64", "complex64"])
def test_abstract_rules_match_eager(name, fn, shape, dtype):
    assert_abstract_matches(fn, nx.array(rand(shape, dtype)))


@pytest.mark.parametrize("name,fn,shape", DECOMPOSITIONS, ids=[d[0] for d in DECOMPOSITIONS])
def test_vmap_matches_loop(name, fn, shape):
    assert_vmap_matches_loop(fn, nx.array(rand((3,) + shape)))


# ----------------------------------------------------------- derivatives


def reconstructed(a):
    """U diag(S^2) Vh: a function of a that every phase of the vectors leaves alone."""
    u, s, vh = nx.linalg.svd(a, full_matrices=False)
    return (u * nx.astype(s * s, u.dtype)[..., None, :]) @ vh


def projectors(vectors):
    """v_i v_i^H for each column, weighted by i + 1: free of phases, sees every vector."""
    def f(a):
        v = vectors(a)
        weights = nx.astype(nx.arange(1.0, v.shape[-1] + 1), v.dtype)
        return (v * weights) @ adjoint(v)
    return f


def svd_u(a):
    return nx.linalg.svd(a, full_matrices=False).U


def svd_vh(a):
    return nx.linalg.svd(a, full_matrices=False).Vh


def eigh_vectors(a):
    return nx.linalg.eigh(hermitian_part(a)).eigenvectors


def eigh_vectors_upper(a):
    return nx.linalg.eigh(hermitian_part(a), UPLO="U").eigenvectors


# (name, function, shape, dtypes): each differentiated to order 2 in both modes
DERIVATIVES = [
    ("svd values", lambda a: nx.linalg.svd(a, compute_uv=False), (3, 4), "both"),
    ("svd values of a square full svd", lambda a: nx.linalg.svd(a).S, (3, 3), "both"),
    ("svd U, tall", svd_u, (4, 3), "real"),
    ("svd Vh, wide", svd_vh, (2, 4), "real"),
    ("svd U and Vh, square stack", lambda a: svd_u(a) @ svd_vh(a), (2, 3, 3), "real"),
    ("svd square full matrices", lambda a: nx.linalg.svd(a).U @ nx.linalg.svd(a).Vh, (3, 3),
     "real"),
    ("svd U diag(S^2) Vh, tall", reconstructed, (4, 2), "both"),
    ("svd U diag(S^2) Vh, wide", reconstructed, (2, 3), "both"),
    ("svd projectors of U", projectors(svd_u), (4, 3), "both"),
    ("svd projectors of V", projectors(lambda a: adjoint(svd_vh(a))), (2, 4), "both"),
    ("svd hermitian", lambda a: nx.linalg.svd(hermitian_part(a), hermitian=True).Vh, (3, 3),
     "real"),
    ("svd hermitian, values", lambda a: nx.linalg.svd(hermitian_part(a), hermitian=True,
                                                      compute_uv=False), (2, 3, 3), "both"),
    ("svd hermitian, phase-free", lambda a: (lambda u, s, vh: (u * s) @ vh)(
        *nx.linalg.svd(hermitian_part(a), hermitian=True)), (3, 3), "both"),
    ("eigvalsh", lambda a: nx.linalg.eigvalsh(hermitian_part(a)), (2, 3, 3), "both"),
    ("eigh values, upper", lambda a: nx.linalg.eigh(hermitian_part(a), UPLO="U")[0], (3, 3),
     "both"),
    ("eigh vectors", eigh_vectors, (3, 3), "real"),
    ("eigh vectors, upper, stack", eigh_vectors_upper, (2, 3, 3), "real"),
    ("eigh projectors", projectors(eigh_vectors), (3, 3), "both"),
    ("eigh |v|^2", lambda a: nx.abs(eigh_vectors_upper(a)) ** 2, (3, 3), "both"),
    ("eigvals", nx.linalg.eigvals, (3, 3), "both"),
    ("eig values, stack", lambda a: nx.linalg.eig(a).eigenvalues, (2, 3, 3), "both"),
    ("eig vectors", lambda a: nx.linalg.eig(a).eigenvectors, (3, 3), "both"),
    ("eig vectors, stack", lambda a: nx.linalg.eig(a).eigenvectors, (2, 4, 4), "both"),
    ("qr Q, tall", lambda a: nx.linalg.qr(a).Q, (4, 3), "both"),
    ("qr R, tall", lambda a: nx.linalg.qr(a).R, (4, 3), "both"),
    ("qr Q, square stack", lambda a: nx.linalg.qr(a).Q, (2, 3, 3), "both"),
    ("qr Q, wide", lambda a: nx.linalg.qr(a).Q, (2, 4), "both"),
    ("qr R, wide", lambda a: nx.linalg.qr(a).R, (2, 4), "both"),
    ("qr r, wide stack", lambda a: nx.linalg.qr(a, mode="r"), (2, 2, 3), "both"),
    ("qr complete R, tall", lambda a: nx.linalg.qr(a, mode="r"), (4, 2), "both"),
    ("qr complete, wide", lambda a: nx.linalg.qr(a, mode="complete").Q, (2, 3), "both"),
]
DERIVATIVE_CASES = [
    pytest.param(fn, shape, dtype, id=f"{name}-{np.dtype(dtype).name}")
    for name, fn, shape, which in DERIVATIVES
    for dtype in (np.float64, np.complex128) if which == "both" or dtype is np.float64]


def well_spread(shape, dtype, seed):
    """A random matrix plus diag(3, 6, 9...) in its leading square: eigen- and
    singular values apart and a well-conditioned leading block (R invertible),
    so that central differences at eps 1e-4 see the second derivatives."""
    m, n = shape[-2:]
    spread = np.eye(m, n) * 3 * np.arange(1, n + 1)
    return np.asarray(random_value(np.random.default_rng(seed), shape, dtype) + spread, dtype)


@pytest.mark.parametrize("fn,shape,dtype", DERIVATIVE_CASES)
def test_derivatives_of_order_two(fn, shape, dtype, request):
    a = well_spread(shape, dtype, seed=zlib.crc32(request.node.callspec.id.encode()))
    rune.check_grads(fn, (nx.array(a),), order=2, modes=("fwd", "rev"))


def test_eig_of_a_real_matrix_with_complex_eigenvalues():
    # a rotation-like matrix: a conjugate pair, whose vectors LAPACK turns so that
    # their largest component is real; the derivative keeps that normalization
    a = nx.array([[0.0, -2.0, 0.3], [1.5, 0.1, 0.2], [0.4, -0.3, 1.0]])
    assert np.iscomplex(np.linalg.eigvals(a.numpy())).sum() == 2
    rune.check_grads(lambda a: nx.linalg.eig(a).eigenvectors, (a,), order=2,
                     modes=("fwd", "rev"))
    rune.check_grads(nx.linalg.eigvals, (a,), order=2, modes=("fwd", "rev"))


def test_eigenvalue_gradients_are_the_classical_formulas():
    a = rand((3, 3))
    s = (a + a.T) / 2
    w, v = np.linalg.eigh(s)
    g = rune.grad(lambda a: nx.linalg.eigvalsh(a)[2])(nx.array(s))
    np.testing.assert_allclose(g.numpy(), np.outer(v[:, 2], v[:, 2]), atol=1e-12)
    # general: d lambda_i = (V^-1)_i dA v_i, so the gradient of Re lambda_i (real a) is
    # Re outer((V^-1)_i, v_i)
    w, v = np.linalg.eig(a)
    left = np.linalg.inv(v)
    g = rune.grad(lambda a: nx.real(nx.linalg.eigvals(a)[0]))(nx.array(a))
    np.testing.assert_allclose(g.numpy(), np.real(np.outer(left[0], v[:, 0])), atol=1e-12)


def test_singular_value_gradient_is_u_v_transposed():
    a = rand((4, 3))
    u, s, vh = np.linalg.svd(a)
    g = rune.grad(lambda a: nx.linalg.svd(a, full_matrices=False).S[0])(nx.array(a))
    np.testing.assert_allclose(g.numpy(), np.outer(u[:, 0], vh[0]), atol=1e-12)


def test_eigh_derivative_is_along_the_hermitian_part():
    # as for cholesky (and JAX): numpy reads one triangle, the rule symmetrizes dA
    a = nx.array(np_hermitian_part(rand((3, 3))))
    da = rand((3, 3))
    _, t = rune.jvp(lambda a: nx.linalg.eigh(a).eigenvectors, (a,), (nx.array(da),))
    _, t_sym = rune.jvp(lambda a: nx.linalg.eigh(a).eigenvectors, (a,),
                        (nx.array(np_hermitian_part(da)),))
    np.testing.assert_allclose(t.numpy(), t_sym.numpy(), atol=1e-12)


# ------------------------------ where the vectors are no function of the matrix


@pytest.mark.parametrize("fn", [
    lambda a: nx.linalg.eigh(a).eigenvectors,
    lambda a: nx.linalg.svd(a, full_matrices=False).U,
    lambda a: nx.linalg.eig(a).eigenvectors,
], ids=["eigh", "svd", "eig"])
def test_repeated_values_give_no_finite_vector_derivative(fn):
    a = nx.array(np.diag([1.0, 1.0, 2.0]))  # a repeated eigen- and singular value
    with np.errstate(all="ignore"):
        g = rune.grad(lambda a: nx.sum(nx.real(fn(a)[:, 0])))(a)
        _, t = rune.jvp(fn, (a,), (nx.array(rand((3, 3))),))
    assert not np.isfinite(g.numpy()).all()
    assert not np.isfinite(t.numpy()).all()


def test_repeated_eigenvalues_still_have_value_derivatives():
    g = rune.grad(lambda a: nx.sum(nx.linalg.eigvalsh(a)))(nx.eye(3))
    np.testing.assert_allclose(g.numpy(), np.eye(3), atol=1e-15)  # the trace's gradient


@pytest.mark.parametrize("fn,message", [
    (lambda a: nx.linalg.svd(a).U, r"nx.linalg.svd: no derivative with full_matrices=True "
                                   r"for a non-square matrix.*pass full_matrices=False"),
    (lambda a: nx.linalg.svd(nx.swapaxes(a, 0, 1)).Vh, r"nx.linalg.svd: no derivative with "
                                                       r"full_matrices=True"),
    (lambda a: nx.linalg.qr(a, mode="complete").Q, r"nx.linalg.qr: no derivative of Q with "
                                                   r"mode='complete' for a tall matrix"),
], ids=["svd U tall", "svd Vh wide", "qr complete Q tall"])
@pytest.mark.parametrize("mode", ["fwd", "rev"])
def test_complement_vectors_raise_rather_than_differentiate(fn, message, mode):
    a = nx.array(rand((4, 2)))
    with pytest.raises(NotImplementedError, match=message):
        if mode == "fwd":
            rune.jvp(fn, (a,), (a,))
        else:
            rune.grad(lambda a: nx.sum(fn(a)))(a)


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize("call,error,message", [
    (lambda: nx.linalg.svd(nx.array([1.0, 2.0])), ValueError,
     r"nx.linalg.svd: a must be a matrix \(or a stack of them in the last two axes\), got "
     r"shape \(2,\)"),
    (lambda: nx.linalg.eigh(nx.ones((2, 3))), ValueError,
     r"nx.linalg.eigh: a must be a square matrix .*got shape \(2, 3\)"),
    (lambda: nx.linalg.eigvalsh(nx.eye(2), UPLO="X"), ValueError,
     r"nx.linalg.eigvalsh: UPLO must be 'L' or 'U' \(the triangle to read\), got 'X'"),
    (lambda: nx.linalg.eig(nx.ones((3, 2))), ValueError, r"nx.linalg.eig: a must be a square"),
    (lambda: nx.linalg.eigvals(nx.ones(3)), ValueError, r"nx.linalg.eigvals: a must be"),
    (lambda: nx.linalg.qr(nx.eye(2), mode="raw"), ValueError,
     r"nx.linalg.qr: mode must be one of 'reduced', 'complete', 'r', got 'raw' \(numpy's "
     r"'raw' is not provided\)"),
    (lambda: nx.linalg.qr(nx.ones(2)), ValueError, r"nx.linalg.qr: a must be a matrix"),
    (lambda: nx.linalg.svd(nx.ones((2, 3)), hermitian=True), ValueError,
     r"nx.linalg.svd: a must be a square matrix .*got shape \(2, 3\)"),
    (lambda: nx.linalg.svd("ab"), TypeError, r"nx.linalg.svd"),
])
def test_bad_input_is_named(call, error, message):
    with pytest.raises(error, match=message):
        call()
