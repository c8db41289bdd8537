"""rune.scipy.linalg (issue 25): sqrtm, solve_sylvester, solve_banded against
scipy (test-only), their derivatives by check_grads, and their errors."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

import rune
from rune import nx
from rune.scipy import linalg
from tests.util import assert_vmap_matches_loop


def _random(n, seed, complex_=False, shift=3.0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((n, n)) + shift * np.eye(n)
    return a + 1j * rng.standard_normal((n, n)) if complex_ else a


SQRTM_CASES = {
    "random": [_random(n, n) for n in (1, 2, 3, 5, 8)],
    "symmetric": [(lambda a: a @ a.T + np.eye(4))(_random(4, 9, shift=0))],
    "complex": [_random(n, n, True) for n in (2, 4)],
    "negative eigenvalues, as complex": [np.diag([-4.0, 1.0, -2.0]).astype(complex),
                                         _random(3, 5, shift=-4).astype(complex)],
    "defective": [np.array([[1.0, 1.0], [0.0, 1.0]]), np.array([[4.0, 1.0, 0.0],
                                                                  [0.0, 4.0, 1.0],
                                                                  [0.0, 0.0, 4.0]])],
    "rotation (complex eigenvalues)": [np.array([[0.6, -0.8], [0.8, 0.6]])],
}


@pytest.mark.parametrize("kind", SQRTM_CASES)
def test_sqrtm_matches_scipy_and_squares_back(kind):
    for a in SQRTM_CASES[kind]:
        x = linalg.sqrtm(nx.array(a)).numpy()
        assert x.dtype == a.dtype
        scale = max(1.0, np.abs(a).max())
        np.testing.assert_allclose(x, sl.sqrtm(a), atol=1e-12 * scale, err_msg=kind)
        np.testing.assert_allclose(x @ x, a, atol=1e-12 * scale, err_msg=kind)


def test_sqrtm_takes_stacks_one_matrix_at_a_time():
    stack = np.stack([_random(3, 1), _random(3, 2), _random(3, 3)]).reshape(3, 1, 3, 3)
    x = linalg.sqrtm(nx.array(stack)).numpy()
    for i in range(3):
        np.testing.assert_allclose(x[i, 0], sl.sqrtm(stack[i, 0]), atol=1e-13)
    assert_vmap_matches_loop(linalg.sqrtm, nx.array(stack[:, 0]))


def test_sqrtm_differentiates_to_order_two():
    rune.check_grads(linalg.sqrtm, (nx.array(_random(3, 4)),), order=2)
    rune.check_grads(linalg.sqrtm, (nx.array(_random(2, 6, True)),), order=2)
    spd = (lambda a: a @ a.T + np.eye(3))(_random(3, 7, shift=0))
    rune.check_grads(linalg.sqrtm, (nx.array(spd),), order=2)
    # d sqrtm at the identity is dA / 2
    direction = _random(3, 8)
    _, tangent = rune.jvp(linalg.sqrtm, (nx.eye(3),), (nx.array(direction),))
    np.testing.assert_allclose(tangent.numpy(), direction / 2, atol=1e-14)
    g = rune.jit(rune.grad(lambda a: nx.sum(linalg.sqrtm(a))))
    a = nx.array(_random(3, 4))
    np.testing.assert_allclose(g(a).numpy(), rune.grad(lambda a: nx.sum(linalg.sqrtm(a)))(a)
                               .numpy(), rtol=1e-13)


def test_sqrtm_errors_say_what_was_wrong():
    with pytest.raises(ValueError, match="negative real eigenvalue.*pass the matrix as complex"):
        linalg.sqrtm(nx.array(np.diag([-1.0, 2.0])))
    with pytest.raises(ValueError, match="a must be a square matrix.*got shape \\(2, 3\\)"):
        linalg.sqrtm(nx.zeros((2, 3)))
    with pytest.raises(ValueError, match="inf or nan"):
        linalg.sqrtm(nx.array([[np.nan, 0.0], [0.0, 1.0]]))
    np.testing.assert_allclose(linalg.sqrtm(np.array([[4, 0], [0, 9]])).numpy(), [[2, 0], [0, 3]])


# --------------------------------------------------------- solve_sylvester


@pytest.mark.parametrize("n, m, complex_", [(1, 1, False), (3, 2, False), (4, 5, False),
                                            (3, 3, True)])
def test_solve_sylvester_matches_scipy(n, m, complex_):
    a, b = _random(n, 1, complex_), _random(m, 2, complex_)
    q = np.random.default_rng(3).standard_normal((n, m))
    x = linalg.solve_sylvester(nx.array(a), nx.array(b), nx.array(q)).numpy()
    np.testing.assert_allclose(x, sl.solve_sylvester(a, b, q), atol=1e-13)
    np.testing.assert_allclose(a @ x + x @ b, q, atol=1e-13)


def test_solve_sylvester_differentiates_in_every_argument():
    a, b = nx.array(_random(3, 1)), nx.array(_random(2, 2))
    q = nx.array(np.random.default_rng(3).standard_normal((3, 2)))
    rune.check_grads(linalg.solve_sylvester, (a, b, q), order=2)


def test_solve_sylvester_errors_name_the_argument():
    eye = nx.eye(2)
    with pytest.raises(ValueError, match="q must have shape .*\\(2, 3\\)"):
        linalg.solve_sylvester(eye, nx.eye(3), nx.zeros((3, 2)))
    with pytest.raises(ValueError, match="b must be a square matrix"):
        linalg.solve_sylvester(eye, nx.zeros((2, 3)), nx.zeros((2, 2)))
    with pytest.raises(np.linalg.LinAlgError, match="share an eigenvalue"):
        linalg.solve_sylvester(eye, -eye, eye)


# ------------------------------------------------------------ solve_banded


def _band(lower, upper, n, seed):
    """scipy's band storage of a random diagonally dominant banded matrix."""
    rng = np.random.default_rng(seed)
    ab = rng.standard_normal((lower + upper + 1, n))
    ab[upper] += 2 * (lower + upper + 1)
    return ab


@pytest.mark.parametrize("lower, upper", [(0, 0), (1, 1), (2, 1), (0, 2), (3, 0), (5, 5)])
@pytest.mark.parametrize("rhs", [(6,), (6, 2)])
def test_solve_banded_matches_scipy(lower, upper, rhs):
    ab = _band(lower, upper, 6, lower * 7 + upper)
    b = np.random.default_rng(1).standard_normal(rhs)
    x = linalg.solve_banded((lower, upper), nx.array(ab), nx.array(b)).numpy()
    np.testing.assert_allclose(x, sl.solve_banded((lower, upper), ab, b), rtol=1e-12, atol=1e-14)


def test_solve_banded_differentiates_in_the_band_and_b():
    ab, b = nx.array(_band(1, 2, 5, 3)), nx.array(np.arange(5.0))
    rune.check_grads(lambda ab, b: linalg.solve_banded((1, 2), ab, b), (ab, b), order=2)
    assert_vmap_matches_loop(lambda b: linalg.solve_banded((1, 2), ab, b),
                             nx.array(np.arange(10.0).reshape(2, 5)))


def test_solve_banded_errors_name_the_argument():
    ab = nx.array(_band(1, 1, 4, 0))
    with pytest.raises(ValueError, match="ab must have l \\+ u \\+ 1 = 4 rows"):
        linalg.solve_banded((2, 1), ab, nx.zeros(4))
    with pytest.raises(ValueError, match="b must be \\(n,\\) or \\(n, k\\) with n = 4"):
        linalg.solve_banded((1, 1), ab, nx.zeros(3))
    with pytest.raises(ValueError, match="l_and_u must be \\(l, u\\)"):
        linalg.solve_banded((1, -1), ab, nx.zeros(4))
    with pytest.raises(np.linalg.LinAlgError, match="singular"):
        linalg.solve_banded((1, 1), nx.zeros((3, 4)), nx.zeros(4))
