"""Issue 25's missing scipy names: norm.sf and logsf, chi2, and the special
functions added with them, compared with scipy (test-only) on dense grids."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sp
import scipy.stats as st

import rune
from rune import nx
from rune.scipy import special, stats
from tests.util import assert_vmap_matches_loop

# ------------------------------------------------------------- norm.sf, logsf


def test_norm_sf_and_logsf_keep_their_digits_in_both_tails():
    x = np.concatenate([np.linspace(-40, 40, 161), [-1e3, 1e3, 1e-9, 37.5, 38.5]])
    # sf = erfc(z / sqrt 2) / 2: the rounding of z / sqrt 2 costs about z^2 eps
    # relative far out (scipy's ndtr too: both within 2e-13 of mpmath to z = 38)
    for loc, scale in ((0.0, 1.0), (0.5, 2.0)):
        np.testing.assert_allclose(stats.norm.sf(nx.array(x), loc, scale).numpy(),
                                   st.norm.sf(x, loc, scale), rtol=4e-13, atol=1e-300)
        np.testing.assert_allclose(stats.norm.logsf(nx.array(x), loc, scale).numpy(),
                                   st.norm.logsf(x, loc, scale), rtol=4e-13, atol=1e-300)
    # 1 - cdf is 0 from x = 8.3 on; sf and logsf are not
    assert stats.norm.sf(30.0).item() == pytest.approx(4.906713927148187e-198, rel=1e-13)


@pytest.mark.parametrize("f", ["sf", "logsf"])
def test_norm_sf_and_logsf_differentiate_in_x_loc_and_scale(f):
    fn = getattr(stats.norm, f)
    rune.check_grads(fn, (nx.array([-3.0, 0.2, 5.0, 30.0]), nx.array(0.5), nx.array(1.5)),
                     order=2)
    x = nx.array([-2.0, 0.0, 3.0])  # d sf / dx is minus the density
    g = rune.grad(lambda x: nx.sum(stats.norm.sf(x)))(x)
    np.testing.assert_allclose(g.numpy(), -st.norm.pdf(x.numpy()), rtol=1e-14)


# ------------------------------------------------------------------- chi2

CHI2_POINTS = np.array([-1.0, 0.0, 1e-8, 0.3, 1.0, 2.5, 7.0, 30.0, 150.0, 600.0])


@pytest.mark.parametrize("f", ["pdf", "logpdf", "cdf", "logcdf", "sf", "logsf"])
@pytest.mark.parametrize("df, loc, scale", [(1.0, 0.0, 1.0), (2.0, 0.0, 1.0), (3.5, 0.0, 1.0),
                                            (40.0, 0.0, 1.0), (4.0, -0.5, 2.0)])
def test_chi2_matches_scipy(f, df, loc, scale):
    with np.errstate(divide="ignore"):
        expected = getattr(st.chi2, f)(CHI2_POINTS, df, loc, scale)
        got = getattr(stats.chi2, f)(nx.array(CHI2_POINTS), df, loc, scale).numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-300)


@pytest.mark.parametrize("f", ["logpdf", "cdf", "logcdf", "sf", "logsf"])
def test_chi2_differentiates_in_x_df_loc_and_scale(f):
    fn = getattr(stats.chi2, f)
    x = nx.array([0.4, 2.0, 9.0])
    rune.check_grads(lambda x, loc, scale: fn(x, 3.0, loc, scale),
                     (x, nx.array(-0.2), nx.array(1.3)), order=2)
    rune.check_grads(lambda df: fn(x, df), (nx.array(3.0),), order=1)  # once in df, as gammainc


def test_chi2_under_vmap_and_jit():
    x = nx.array([[0.2, 1.0], [3.0, 2.0]])
    assert_vmap_matches_loop(lambda x: stats.chi2.logsf(x, 3.0), x)
    g = rune.grad(lambda x: nx.sum(stats.chi2.logpdf(x, 2.5)))
    np.testing.assert_allclose(rune.jit(g)(x).numpy(), g(x).numpy(), rtol=1e-14)


def test_gammainc_keeps_its_digits_far_below_a_large_shape():
    # found by chi2.cdf(1e-8, df=40): for a >= 20, log(x^a e^-x / gamma(a)) took
    # log1p((x - a) / a), which rounds x away where x << a (1.6e-6 wrong here)
    a = np.array([20.0, 25.0, 60.0, 300.0])
    for x in (5e-9, 1e-3, 0.5):
        np.testing.assert_allclose(special.gammainc(nx.array(a), x).numpy(), sp.gammainc(a, x),
                                   rtol=1e-12)
        np.testing.assert_allclose(special.gammaincc(nx.array(a), 1 / x).numpy(),
                                   sp.gammaincc(a, 1 / x), rtol=1e-12)


# ------------------------------------------------- gammasgn, rgamma, multigammaln

GAMMA_EDGES = np.array([0.0, -0.0, -1.0, -2.0, -3.0, -200.0, np.inf, -np.inf, np.nan, 171.7,
                        200.0, -200.5, -170.5])


def test_gammasgn_and_rgamma_match_scipy_on_a_grid_and_at_the_poles():
    x = np.concatenate([np.linspace(-30.25, 180.0, 2001), np.linspace(-3, 3, 601)[1::2],
                        GAMMA_EDGES])
    np.testing.assert_array_equal(special.gammasgn(nx.array(x)).numpy(), sp.gammasgn(x))
    assert special.gammasgn(nx.array(x, dtype=nx.float32)).dtype == nx.float32
    assert special.gammasgn(nx.array([3, -2])).dtype == sp.gammasgn(np.array([3, -2])).dtype
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(special.rgamma(nx.array(x)).numpy(), sp.rgamma(x),
                                   rtol=1e-13, atol=1e-300)
    assert special.rgamma(nx.array(x, dtype=nx.float32)).dtype == nx.float32


def test_rgamma_differentiates_through_the_poles():
    x = nx.array([-2.3, -0.6, 0.2, 0.7, 3.0, 30.0])
    rune.check_grads(special.rgamma, (x,), order=2)
    # at -n the derivative of 1/gamma is (-1)^n n!; elsewhere -digamma(x) / gamma(x)
    poles = nx.array([0.0, -1.0, -2.0, -3.0])
    g = rune.grad(lambda x: nx.sum(special.rgamma(x)))
    np.testing.assert_allclose(g(poles).numpy(), [1.0, -1.0, 2.0, -6.0], rtol=1e-14)
    np.testing.assert_allclose(g(x).numpy(), -sp.digamma(x.numpy()) * sp.rgamma(x.numpy()),
                               rtol=1e-12)
    rune.check_grads(special.rgamma, (poles,), order=2)
    assert rune.grad(lambda x: nx.sum(special.gammasgn(x)))(x).numpy().tolist() == [0.0] * 6


@pytest.mark.parametrize("d", [1, 2, 3, 7])
def test_multigammaln_matches_scipy_and_is_nan_outside_its_domain(d):
    a = np.linspace((d - 1) / 2 + 0.01, 60, 300)
    np.testing.assert_allclose(special.multigammaln(nx.array(a), d).numpy(),
                               sp.multigammaln(a, d), rtol=1e-13)
    assert np.isnan(special.multigammaln(nx.array([(d - 1) / 2, -1.0]), d).numpy()).all()
    g = rune.grad(lambda a: nx.sum(special.multigammaln(a, d)))(nx.array(a[:5]))
    expected = sum(sp.digamma(a[:5] - j / 2) for j in range(d))
    np.testing.assert_allclose(g.numpy(), expected, rtol=1e-12)


@pytest.mark.parametrize("d", [0, 2.0, True, "3"])
def test_multigammaln_rejects_a_dimension_that_is_not_a_positive_int(d):
    with pytest.raises(ValueError, match="d must be a positive int.*got"):
        special.multigammaln(3.0, d)


def test_gamma_family_under_vmap_and_jit():
    x = nx.array([[0.2, -1.5], [3.0, 2.0]])
    for fn in (special.rgamma, lambda a: special.multigammaln(nx.abs(a) + 2, 3)):
        assert_vmap_matches_loop(fn, x)
        g = rune.grad(lambda x, fn=fn: nx.sum(fn(x)))
        np.testing.assert_allclose(rune.jit(g)(x).numpy(), g(x).numpy(), rtol=1e-14)


# ------------------------------------------- Bessel functions of integer order

BESSEL_GRID = np.concatenate([np.linspace(-1000, 1000, 20001), np.linspace(-30, 30, 6001),
                              [1e-300, 1e-10, 1.9999, 2.0, 2.0001, 24.9999, 25.0, 25.0001,
                               np.inf, -np.inf, np.nan, 0.0, -0.0]])


def _assert_close_to_scipy(got, expected, bound):
    """|got - expected| <= bound * max(1, |expected|), and the same nan and inf places."""
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
    np.testing.assert_array_equal(np.isposinf(got), np.isposinf(expected))
    np.testing.assert_array_equal(np.isneginf(got), np.isneginf(expected))
    finite = np.isfinite(expected)
    error = np.abs(got[finite] - expected[finite]) / np.maximum(1, np.abs(expected[finite]))
    assert error.max() <= bound, (error.max(), got[finite][error.argmax()])


@pytest.mark.parametrize("name, n", [("j0", None), ("j1", None), ("y0", None), ("y1", None),
                                     ("jn", 0), ("jn", 2), ("jn", 5), ("jn", 10), ("jn", -3),
                                     ("yn", 2), ("yn", 7), ("yn", -4)])
def test_bessel_functions_match_scipy_on_a_dense_grid(name, n):
    args = () if n is None else (n,)
    with np.errstate(all="ignore"):
        expected = getattr(sp, name)(*args, BESSEL_GRID)
        got = getattr(special, name)(*args, nx.array(BESSEL_GRID)).numpy()
    _assert_close_to_scipy(got, expected, 3e-15)
    assert getattr(special, name)(*args, nx.array([1.5], dtype=nx.float32)).dtype == nx.float32


@pytest.mark.parametrize("n", [30, 100])
def test_bessel_functions_of_high_order_match_scipy(n):
    x = np.concatenate([np.linspace(0.1, 1000, 8001), [n - 0.5, n, n + 0.5]])
    _assert_close_to_scipy(special.jn(n, nx.array(x)).numpy(), sp.jn(n, x), 2e-14 * n / 30)
    x = x[sp.yn(n, x) > -1e300]  # where scipy's does not overflow
    _assert_close_to_scipy(special.yn(n, nx.array(x)).numpy(), sp.yn(n, x), 2e-15 * n)


def test_bessel_derivatives_are_the_recurrence_to_order_three():
    x = nx.array([0.3, 1.9, 2.1, 7.0, 24.0, 26.0, 80.0])
    for fn in (special.j0, special.j1, special.y0, special.y1, lambda x: special.jn(4, x),
               lambda x: special.yn(3, x), lambda x: special.jn(-2, -x)):
        rune.check_grads(fn, (x,), order=3)
    g = rune.grad(lambda x: nx.sum(special.j0(x)))
    np.testing.assert_allclose(g(x).numpy(), -sp.j1(x.numpy()), rtol=1e-13, atol=1e-16)
    g = rune.grad(lambda x: nx.sum(special.yn(3, x)))
    np.testing.assert_allclose(g(x).numpy(), sp.yvp(3, x.numpy()), rtol=1e-12)
    # at 0: j1' = 1/2, j0'' = -1/2, jn(2)'' = 1/4
    zero = nx.array(0.0)
    assert rune.grad(special.j1)(zero).item() == pytest.approx(0.5, abs=1e-15)
    assert rune.grad(rune.grad(special.j0))(zero).item() == pytest.approx(-0.5, abs=1e-15)
    assert rune.grad(rune.grad(lambda x: special.jn(2, x)))(zero).item() == pytest.approx(0.25)


def test_bessel_orders_are_whole_numbers_and_may_be_arrays():
    x = nx.array([[0.5], [3.0]])
    orders = np.array([0, 1, 4])
    np.testing.assert_allclose(special.jn(orders, x).numpy(), sp.jn(orders, x.numpy()),
                               rtol=1e-13)
    np.testing.assert_allclose(special.yn(orders, x).numpy(), sp.yn(orders, x.numpy()),
                               rtol=1e-13)
    with pytest.raises(ValueError, match="jn: n must be a whole number, got 1.5"):
        special.jn(1.5, x)
    with pytest.raises(TypeError, match="y0"):
        special.y0(nx.array([1j]))


def test_bessel_functions_under_vmap_and_jit():
    x = nx.array([[0.2, 1.0, 30.0], [3.0, 2.0, 12.0]])
    for fn in (special.j0, special.y1, lambda x: special.jn(3, x), lambda x: special.yn(2, x)):
        assert_vmap_matches_loop(fn, x)
        g = rune.grad(lambda x, fn=fn: nx.sum(fn(x)))
        np.testing.assert_allclose(rune.jit(g)(x).numpy(), g(x).numpy(), rtol=1e-14)


# ---------------------------------- modified Bessel function of real order

IV_ORDERS = [-7.5, -2.5, -2.0, -1.0, -0.5, 0.0, 0.3, 1.0, 2.5, 7.0, 20.0, 50.0, 120.0]


@pytest.mark.parametrize("name", ["iv", "ive"])
@pytest.mark.parametrize("v", IV_ORDERS)
def test_iv_and_ive_match_scipy_on_a_dense_grid(name, v):
    x = np.concatenate([np.linspace(-50, 50, 1001), np.linspace(50, 650, 1201), [1e-5]])
    with np.errstate(all="ignore"):
        expected = getattr(sp, name)(v, x)
        got = getattr(special, name)(v, nx.array(x)).numpy()
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
    np.testing.assert_allclose(got, expected, rtol=3e-13, atol=1e-300)


def test_iv_edges_are_scipys_where_scipy_is_right():
    v = np.array([-0.5, 0.0, 0.5, -1.0, -2.5, 2.0, np.inf, np.nan, 1.0])
    for x in (0.0, -1.0, np.inf, -np.inf, np.nan):
        with np.errstate(all="ignore"):
            np.testing.assert_allclose(special.iv(nx.array(v), x).numpy(), sp.iv(v, x),
                                       rtol=1e-15)
    np.testing.assert_array_equal(special.ive(nx.array(v[:6]), 0.0).numpy(), sp.ive(v[:6], 0.0))
    # scipy rounds iv(1, 1e-300) to 0; it is x / 2 there
    assert special.iv(1.0, 1e-300).item() == pytest.approx(5e-301, rel=1e-15)
    np.testing.assert_allclose(special.ive(2.5, nx.array([1e4, 1e6])).numpy(),
                               sp.ive(2.5, np.array([1e4, 1e6])), rtol=1e-14)
    # beyond the series' 20000 terms and Hankel's range: nan, never a wrong number
    assert np.isnan(special.ive(1000.0, 1e5).item())


def test_iv_and_ive_differentiate_in_x_and_raise_in_the_order():
    x = nx.array([0.3, 2.0, 39.0, 45.0, -1.5])
    v = nx.array([0.5, 1.0, 2.5, 0.0, 2.0])
    rune.check_grads(lambda x: special.iv(v, x), (x,), order=3)
    rune.check_grads(lambda x: special.ive(v, x), (x,), order=3)
    g = rune.grad(lambda x: nx.sum(special.iv(v, x)))(x)
    np.testing.assert_allclose(g.numpy(), sp.ivp(v.numpy(), x.numpy()), rtol=1e-12)
    for fn in (special.iv, special.ive):
        with pytest.raises(NotImplementedError, match="derivative with respect to the order v"):
            rune.grad(lambda v, fn=fn: nx.sum(fn(v, x)))(v)
        with pytest.raises(NotImplementedError, match="order v"):
            rune.jvp(lambda v, fn=fn: fn(v, x), (v,), (v,))


def test_iv_under_vmap_and_jit():
    x = nx.array([[0.2, 1.0, 60.0], [3.0, 2.0, 12.0]])
    for fn in (lambda x: special.iv(1.5, x), lambda x: special.ive(nx.array([0.0, 2.0, -0.5]), x)):
        assert_vmap_matches_loop(fn, x)
        g = rune.grad(lambda x, fn=fn: nx.sum(fn(x)))
        np.testing.assert_allclose(rune.jit(g)(x).numpy(), g(x).numpy(), rtol=1e-14)


def test_the_jax_backend_gives_the_numpy_backends_numbers():
    pytest.importorskip("jax", reason="the JAX backend needs the [jax] extra")
    x = nx.array(np.concatenate([np.linspace(-40, 40, 321), [0.0, 1e-300]]))
    positive = nx.abs(x) + 0.1
    functions = {
        "j0": special.j0, "j1": special.j1, "y0": lambda x: special.y0(nx.abs(x)),
        "y1": lambda x: special.y1(nx.abs(x)), "jn": lambda x: special.jn(7, x),
        "yn": lambda x: special.yn(4, nx.abs(x) + 0.5), "rgamma": special.rgamma,
        "gammasgn": special.gammasgn, "multigammaln": lambda x: special.multigammaln(
            nx.abs(x) + 1.5, 3),
        "norm.sf": stats.norm.sf, "norm.logsf": stats.norm.logsf,
        "chi2.logsf": lambda x: stats.chi2.logsf(nx.abs(x), 3.0),
    }
    for name, fn in functions.items():
        eager = fn(x).numpy()
        on_jax = rune.jit(fn, backend="jax")(x).numpy()
        with np.errstate(invalid="ignore"):
            np.testing.assert_allclose(on_jax, eager, rtol=1e-12, atol=1e-15, err_msg=name)
        g = rune.grad(lambda x, fn=fn: nx.sum(fn(x)))
        np.testing.assert_allclose(rune.jit(g, backend="jax")(positive).numpy(),
                                   g(positive).numpy(), rtol=1e-12, atol=1e-15, err_msg=name)


# ------------------------------------------------------------- ndtr, log_ndtr, ndtri, entr
# scipy.special's names for the normal distribution's functions and the entropy
# term: scipy's array-API dispatch calls them through nx.special
# (docs/code-you-did-not-write.md).


def test_ndtr_log_ndtr_and_ndtri_are_scipys_in_both_tails():
    x = np.concatenate([np.linspace(-40, 40, 161), [-1e3, 1e3, 0.0]])
    np.testing.assert_allclose(special.ndtr(nx.array(x)).numpy(), sp.ndtr(x), rtol=4e-13,
                               atol=1e-300)
    np.testing.assert_allclose(special.log_ndtr(nx.array(x)).numpy(), sp.log_ndtr(x),
                               rtol=4e-13, atol=1e-300)
    p = np.array([0.0, 1e-300, 1e-10, 0.1, 0.5, 0.9, 1 - 1e-10, 1.0])
    np.testing.assert_allclose(special.ndtri(nx.array(p)).numpy(), sp.ndtri(p), rtol=1e-13)
    assert not np.signbit(special.ndtri(0.5).item())  # +0, as scipy's


def test_entr_is_scipys_at_zero_and_below():
    x = np.array([-1.0, 0.0, 1e-300, 0.5, 1.0, 2.0, np.inf])
    np.testing.assert_array_equal(special.entr(nx.array(x)).numpy(), sp.entr(x))
    assert not np.signbit(special.entr(0.0).item())


def test_ndtr_log_ndtr_ndtri_and_entr_differentiate_twice():
    x = nx.array([-3.0, -0.5, 0.7, 2.0])
    for fn in (special.ndtr, special.log_ndtr, lambda p: special.ndtri(p / 8 + 0.5),
               lambda x: special.entr(nx.abs(x))):
        rune.check_grads(lambda x, fn=fn: nx.sum(fn(x)), (x,), order=2)
    # entr has no derivative to give below 0, where it is -inf: 0, not nan
    assert rune.grad(lambda x: nx.sum(special.entr(x)))(nx.array([-1.0])).numpy()[0] == 0.0


@pytest.mark.parametrize("name", ["ndtr", "log_ndtr", "ndtri", "entr"])
def test_the_normal_functions_and_entr_refuse_complex_numbers(name):
    with pytest.raises(TypeError, match=rf"rune.scipy.special.{name}: .*complex"):
        getattr(special, name)(nx.array([1.0 + 1.0j]))
