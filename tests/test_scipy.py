"""rune.scipy: values against scipy (the test extra's reference), derivatives of
order 2 in both modes, the special points (poles, zeros, tails), vmap and jit."""

import numpy as np
import pytest
import scipy.special as sp
import scipy.stats as st

import rune
from rune import nx
from rune.scipy import special, stats
from tests.util import assert_abstract_matches, assert_vmap_matches_loop

# name -> (real domain for values, domain for derivatives)
UNARY = {
    "erf": ((-6, 6), (-2, 2)),
    "erfc": ((-6, 27), (-2, 2)),
    "erfinv": ((-0.999, 0.999), (-0.9, 0.9)),
    "erfcinv": ((1e-12, 1.999), (0.1, 1.9)),
    "gamma": ((-4.5, 30), (0.5, 4)),
    "gammaln": ((-4.5, 300), (0.5, 4)),
    "digamma": ((-4.5, 300), (0.3, 4)),
    "i0": ((-40, 40), (-3, 3)),
    "i1": ((-40, 40), (-3, 3)),
    "i0e": ((-800, 800), (0.2, 3)),
    "i1e": ((-800, 800), (0.2, 3)),
    "expit": ((-40, 40), (-3, 3)),
    "logit": ((0.001, 0.999), (0.1, 0.9)),
}


def grid(domain, n=57):
    lo, hi = domain
    x = np.linspace(lo, hi, n)
    return x[np.abs(x - np.round(x)) > 1e-9] if lo < 0 else x  # off the poles of gamma


@pytest.mark.parametrize("name", UNARY)
def test_values_match_scipy(name):
    x = grid(UNARY[name][0])
    out = getattr(special, name)(nx.array(x))
    np.testing.assert_allclose(out.numpy(), getattr(sp, name)(x), rtol=2e-13, atol=1e-300)
    assert getattr(special, name)(nx.array(x, dtype=nx.float32)).dtype == nx.float32


@pytest.mark.parametrize("name", UNARY)
def test_derivatives_of_order_two(name):
    x = nx.array(np.linspace(*UNARY[name][1], 5))
    rune.check_grads(getattr(special, name), (x,), order=2)


@pytest.mark.parametrize("name", UNARY)
def test_vmap_jit_and_abstract_rules(name):
    fn = getattr(special, name)
    x = nx.array(np.linspace(*UNARY[name][1], 6).reshape(2, 3))
    assert_vmap_matches_loop(fn, x)
    np.testing.assert_allclose(rune.jit(rune.grad(lambda x: nx.sum(fn(x))))(x).numpy(),
                               rune.grad(lambda x: nx.sum(fn(x)))(x).numpy(), rtol=1e-14)
    assert_abstract_matches(fn, x)


def test_poles_and_edges_are_scipys():
    x = np.array([0.0, -0.0, -1.0, -2.0])
    for name in ("gamma", "gammaln", "digamma"):
        np.testing.assert_array_equal(getattr(special, name)(nx.array(x)).numpy(),
                                      getattr(sp, name)(x))
    y = np.array([-1.0, 1.0, 1.5, 0.0])
    np.testing.assert_array_equal(special.erfinv(nx.array(y)).numpy(), sp.erfinv(y))
    np.testing.assert_array_equal(special.logit(nx.array([0.0, 1.0])).numpy(), [-np.inf, np.inf])


@pytest.mark.parametrize("n", [0, 1, 2, 3, 6])
def test_polygamma_matches_scipy_and_differentiates_to_the_next(n):
    x = np.concatenate([grid((-4.5, 40)), [0.01, 100.0, 1e4]])
    np.testing.assert_allclose(special.polygamma(n, nx.array(x)).numpy(), sp.polygamma(n, x),
                               rtol=1e-12)
    z = nx.array([0.7, 1.9, 5.5])
    rune.check_grads(lambda z: special.polygamma(n, z), (z,), order=2)
    g = rune.grad(lambda z: nx.sum(special.polygamma(n, z)))(z)
    np.testing.assert_allclose(g.numpy(), sp.polygamma(n + 1, z.numpy()), rtol=1e-12)
    orders = np.array([0, 1, 2])
    np.testing.assert_allclose(special.polygamma(orders, z).numpy(),
                               sp.polygamma(orders, z.numpy()), rtol=1e-12)


def test_bessel_derivatives_at_zero_and_large_arguments():
    for name in ("i0", "i1", "i0e", "i1e"):
        fn = getattr(special, name)
        rune.check_grads(fn, (nx.array([30.5, 31.0, -35.0]),), order=2)  # the asymptotic branch
    # at 0, i1 = x/2 + x^3/16 + x^5/384 + ...: its derivatives, from its series there
    d, tower = special.i1, []
    for _ in range(5):
        d = rune.grad(d)
        tower.append(d(nx.array(0.0)).item())
    np.testing.assert_allclose(tower, [0.5, 0, 6 / 16, 0, 120 / 384], atol=1e-15)
    rune.check_grads(special.i1, (nx.array([5e-4, 2e-3, -0.7]),), order=3)  # both sides of
    rune.check_grads(special.i1e, (nx.array([5e-4, 2e-3, -0.7]),), order=3)  # the series' edge


@pytest.mark.parametrize("name", ["beta", "betaln", "xlogy", "xlog1py"])
def test_binary_functions_match_scipy_and_differentiate(name):
    a = np.array([0.5, 1.5, 3.0, -1.5, 0.0])
    b = np.array([[2.0], [0.7]])
    if name in ("beta", "betaln"):
        a = a[a != 0]
    fn = getattr(special, name)
    np.testing.assert_allclose(fn(nx.array(a), nx.array(b)).numpy(), getattr(sp, name)(a, b),
                               rtol=1e-12)
    x, y = nx.array([0.5, 1.5, 3.0]), nx.array([2.0, 0.7, 1.2])
    rune.check_grads(fn, (x, y), order=2)


def test_xlogy_is_zero_at_zero_and_keeps_its_derivatives():
    assert special.xlogy(0.0, 0.0).item() == 0 and special.xlog1py(0.0, -1.0).item() == 0
    dx, dy = rune.grad(special.xlogy, argnums=(0, 1))(nx.array(0.0), nx.array(2.0))
    assert dx.item() == np.log(2.0) and dy.item() == 0  # d/dx is log y even at x = 0


@pytest.mark.parametrize("kwargs", [{}, {"axis": 1}, {"axis": 0, "keepdims": True},
                                    {"b": np.array([1.0, -2.0, 0.5])},
                                    {"b": np.array([[1.0, 2.0, 0.5]]), "axis": 1}])
def test_logsumexp_with_weights_and_signs(kwargs):
    a = np.array([[0.5, 1.0, -2.0], [1000.0, 999.0, 998.0]])
    out = special.logsumexp(nx.array(a), **kwargs)
    with np.errstate(invalid="ignore"):
        np.testing.assert_allclose(out.numpy(), sp.logsumexp(a, **kwargs), rtol=1e-13)
    value, sign = special.logsumexp(nx.array(a), return_sign=True, **kwargs)
    ref_value, ref_sign = sp.logsumexp(a, return_sign=True, **kwargs)
    np.testing.assert_allclose(value.numpy(), ref_value, rtol=1e-13)
    np.testing.assert_array_equal(sign.numpy(), ref_sign)
    rune.check_grads(lambda a: special.logsumexp(a, return_sign=True, **kwargs)[0],
                     (nx.array(a),), order=2)


def test_softmax_defaults_to_all_axes_as_scipy():
    x = np.array([[1.0, 2.0], [3.0, 0.5]])
    for axis in (None, 0, 1):
        np.testing.assert_allclose(special.softmax(nx.array(x), axis=axis).numpy(),
                                   sp.softmax(x, axis=axis), rtol=1e-14)
        np.testing.assert_allclose(special.log_softmax(nx.array(x), axis=axis).numpy(),
                                   sp.log_softmax(x, axis=axis), rtol=1e-14)
    rune.check_grads(lambda x: special.softmax(x), (nx.array(x),), order=2)


# scipy.special's complex support: (rune's function, its complex arguments), where
# rune follows; the others raise TypeError, never a quiet cast to real
COMPLEX_SUPPORTED = {
    "xlogy": lambda z, w: special.xlogy(z, w), "xlog1py": lambda z, w: special.xlog1py(z, w),
    "logsumexp": lambda z, w: special.logsumexp(z, axis=1),
    "logsumexp b": lambda z, w: special.logsumexp(z, b=w[0], axis=1),
    "logsumexp sign": lambda z, w: special.logsumexp(z, b=w, return_sign=True)[1],
    "softmax": lambda z, w: special.softmax(z), "log_softmax": lambda z, w: special.log_softmax(z, 1),
}
COMPLEX_IN_SCIPY_NOT_RUNE = ["erf", "erfc", "gamma", "digamma", "psi"]
REAL_IN_BOTH = ["erfinv", "erfcinv", "gammaln", "expit", "logit", "i0", "i1", "i0e", "i1e"]


def _scipy_twin(name):
    fn, *option = name.split()
    return {"logsumexp b": lambda z, w: sp.logsumexp(z, b=w[0], axis=1),
            "logsumexp sign": lambda z, w: sp.logsumexp(z, b=w, return_sign=True)[1],
            "logsumexp": lambda z, w: sp.logsumexp(z, axis=1),
            "log_softmax": lambda z, w: sp.log_softmax(z, 1)}.get(
        name, lambda z, w: getattr(sp, fn)(*((z, w) if fn.startswith("xlog") else (z,))))


@pytest.mark.parametrize("name", COMPLEX_SUPPORTED)
def test_complex_arguments_where_scipy_takes_them(name):
    rng = np.random.default_rng(4)
    z, w = (rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3)) for _ in range(2))
    w = w + 2.0
    fn = COMPLEX_SUPPORTED[name]
    np.testing.assert_allclose(fn(nx.array(z), nx.array(w)).numpy(), _scipy_twin(name)(z, w),
                               rtol=1e-13)
    rune.check_grads(fn, (nx.array(z), nx.array(w)), order=2)


def test_xlogy_of_complex_zeros_is_zero_as_scipy():
    for fn, y in ((special.xlogy, 0j), (special.xlog1py, -1 + 0j)):
        assert fn(nx.array(0j), nx.array(y)).item() == getattr(sp, fn.__name__)(0j, y) == 0


@pytest.mark.parametrize("name", COMPLEX_IN_SCIPY_NOT_RUNE + REAL_IN_BOTH)
def test_complex_arguments_raise_naming_the_function(name):
    if name in COMPLEX_IN_SCIPY_NOT_RUNE:
        sp_name = {"psi": "digamma"}.get(name, name)
        assert "D->D" in getattr(sp, sp_name).types  # scipy takes them: rune says it does not
        message = f"rune.scipy.special.{sp_name}: complex arguments are not supported"
    else:
        assert not [t for t in getattr(sp, name).types if "D" in t.split("->")[0]]
        message = f"rune.scipy.special.{name}: got a complex argument"
    with pytest.raises(TypeError, match=message):
        getattr(special, name)(nx.array([1.0 + 1j]))


def test_complex_arguments_raise_in_the_functions_of_several_arguments():
    for fn in (special.gammainc, special.gammaincc, special.beta, special.betaln):
        with pytest.raises(TypeError, match=f"{fn.__name__}: got a complex argument"):
            fn(nx.array([1j]), 2.0)
    with pytest.raises(TypeError, match="betainc: got a complex argument"):
        special.betainc(2.0, 3.0, nx.array([0.5j]))
    with pytest.raises(TypeError, match="polygamma: got a complex argument"):
        special.polygamma(1, nx.array([1j]))


def test_polygamma_order_must_be_whole():
    with pytest.raises(ValueError, match="polygamma: n must be a non-negative whole number"):
        special.polygamma(-1, 1.0)


# ------------------------------------------- incomplete gamma and beta


def _incomplete_gamma_points():
    """Shapes a from 0.01 to 1000; x from far below a to far above, and near it."""
    rng = np.random.default_rng(7)
    a = 10 ** rng.uniform(-2, 3, 3000)
    x = np.concatenate([a * 10 ** rng.uniform(-1.5, 1, 3000),
                        np.abs(a * (1 + rng.standard_normal(3000) / np.sqrt(a)))])
    return np.concatenate([a, a]), x


@pytest.mark.parametrize("name", ["gammainc", "gammaincc"])
def test_incomplete_gamma_matches_scipy(name):
    a, x = _incomplete_gamma_points()
    out, ref = getattr(special, name)(nx.array(a), nx.array(x)).numpy(), getattr(sp, name)(a, x)
    shown = ref > 1e-30  # below, both lose digits to the rounding of a large exponent
    np.testing.assert_allclose(out[shown], ref[shown], rtol=1e-12)
    np.testing.assert_allclose(out, ref, rtol=1e-9, atol=1e-300)


def test_betainc_matches_scipy():
    rng = np.random.default_rng(8)
    a, b = 10 ** rng.uniform(-1.5, 2.5, (2, 4000))
    x = rng.uniform(0, 1, 4000)
    out, ref = special.betainc(nx.array(a), nx.array(b), nx.array(x)).numpy(), sp.betainc(a, b, x)
    shown = ref > 1e-30
    np.testing.assert_allclose(out[shown], ref[shown], rtol=1e-12)
    np.testing.assert_allclose(out, ref, rtol=1e-9, atol=1e-300)


def test_incomplete_functions_edges_are_scipys():
    a = np.array([0.0, 0.0, 1.5, 1.5, 1.5, -1.0, 2.0, np.inf, np.nan, 1.0])
    x = np.array([0.0, 2.0, 0.0, np.inf, -1.0, 1.0, np.nan, 3.0, 1.0, 1e-300])
    for name in ("gammainc", "gammaincc"):
        np.testing.assert_array_equal(getattr(special, name)(nx.array(a), nx.array(x)).numpy(),
                                      getattr(sp, name)(a, x), err_msg=name)
    a, b = np.array([2.0, 2.0, 2.0, 2.0, -1.0, 2.0, 0.5]), np.array([3.0, 3.0, 3.0, 3.0, 1.0,
                                                                     -2.0, 0.5])
    x = np.array([0.0, 1.0, -0.5, 1.5, 0.5, 0.5, 1e-300])
    np.testing.assert_allclose(special.betainc(nx.array(a), nx.array(b), nx.array(x)).numpy(),
                               sp.betainc(a, b, x), rtol=1e-14)
    assert special.gammainc(nx.array([2.0], dtype=nx.float32), 1.0).dtype == nx.float32
    assert special.betainc(2, 3, nx.array([0.5], dtype=nx.float32)).dtype == nx.float32


def test_incomplete_gamma_beyond_its_terms_is_nan_not_a_wrong_number():
    # near x = a the series needs ~sqrt(74 a) terms: 86000 at a = 1e8, past the 20000 allowed
    a, x = np.array([1e8, 1e6]), np.array([1e8 - 3e4, 1e6 - 3e3])
    out = special.gammainc(nx.array(a), nx.array(x)).numpy()
    assert np.isnan(out[0]) and np.isfinite(sp.gammainc(a[0], x[0]))
    np.testing.assert_allclose(out[1], sp.gammainc(a[1], x[1]), rtol=1e-9)


A, B, XS = nx.array([0.7, 2.0, 4.0]), nx.array([1.5, 0.8, 3.0]), nx.array([0.5, 1.5, 3.0])


@pytest.mark.parametrize("fn", [lambda x: special.gammainc(A, x),
                                lambda x: special.gammaincc(A, x),
                                lambda x: special.betainc(A, B, x / 4)],
                         ids=["gammainc", "gammaincc", "betainc"])
def test_incomplete_functions_differentiate_in_x_to_order_three(fn):
    rune.check_grads(fn, (XS,), order=3)


def test_incomplete_gamma_differentiates_once_in_a_as_jax():
    for fn in (special.gammainc, special.gammaincc):
        rune.check_grads(fn, (A, XS), order=1)
        rune.check_grads(lambda x, fn=fn: rune.grad(lambda a: nx.sum(fn(a, x)))(A), (XS,),
                         order=2)
    # d/da against scipy's values, by a central difference at a point each side of x = a + 1
    a, x, h = np.array([0.3, 2.5, 40.0, 40.0]), np.array([0.2, 5.0, 30.0, 50.0]), 1e-6
    central = (sp.gammainc(a + h, x) - sp.gammainc(a - h, x)) / (2 * h)
    da = rune.grad(lambda a: nx.sum(special.gammainc(a, nx.array(x))))(nx.array(a))
    np.testing.assert_allclose(da.numpy(), central, rtol=1e-7)


def test_missing_shape_derivatives_raise_in_both_modes():
    second = "gammainc and gammaincc: no second derivative with respect to a"
    for fn in (special.gammainc, special.gammaincc):
        with pytest.raises(NotImplementedError, match=second):
            rune.hessian(lambda a, fn=fn: nx.sum(fn(a, XS)))(A)
    for argnum, name in ((0, "a"), (1, "b")):
        def f(*ab):
            return nx.sum(special.betainc(*ab, XS / 4))
        with pytest.raises(NotImplementedError, match=f"betainc: no derivative with respect "
                                                      f"to {name}"):
            rune.grad(f, argnums=argnum)(A, B)
        with pytest.raises(NotImplementedError, match=f"with respect to {name}"):
            rune.jvp(lambda v, i=argnum: f(*((v, B) if i == 0 else (A, v))), ((A, B)[argnum],),
                     (nx.ones(3),))


def test_incomplete_functions_under_vmap_and_jit():
    a, x = nx.array([[0.5, 2.0, 30.0], [1.0, 3.0, 0.1]]), nx.array([[0.3, 4.0, 25.0],
                                                                   [2.0, 1.0, 0.2]])
    for fn in (special.gammainc, special.gammaincc, lambda a, x: special.betainc(a, 2.0, x / 30)):
        assert_vmap_matches_loop(fn, a, x)
        assert_abstract_matches(fn, a, x)
        g = rune.grad(lambda x, fn=fn: nx.sum(fn(a, x)))
        np.testing.assert_allclose(rune.jit(g)(x).numpy(), g(x).numpy(), rtol=1e-14)


# --------------------------------------------------------------- stats

X = np.array([-3.0, -0.5, 0.0, 0.3, 1.7, 4.0])
# (rune function, scipy function, args after x, x values, points to differentiate at)
STATS = {
    "norm.logpdf": ((1.5, 2.0), X),
    "norm.pdf": ((1.5, 2.0), X),
    "norm.cdf": ((0.5, 1.5), X),
    "norm.logcdf": ((0.0, 1.0), np.array([-60.0, -30.0, -20.5, -19.5, -3.0, 0.0, 5.0, 30.0])),
    "norm.ppf": ((1.0, 2.0), np.array([0.01, 0.3, 0.5, 0.99])),
    "t.logpdf": ((3.5, 0.5, 2.0), X),
    "t.pdf": ((1.0,), X),
    "gamma.logpdf": ((2.5, 0.0, 1.5), np.array([-1.0, 0.0, 0.5, 2.0, 9.0])),
    "gamma.pdf": ((1.0,), np.array([-1.0, 0.0, 0.5, 2.0])),
    "beta.logpdf": ((2.0, 3.5), np.array([-0.5, 0.0, 0.2, 0.7, 1.0, 1.5])),
    "beta.pdf": ((0.5, 0.5, -1.0, 3.0), np.array([-0.5, 0.2, 0.7, 1.5])),
    "poisson.logpmf": ((3.0,), np.array([-1.0, 0.0, 1.0, 2.5, 4.0, 20.0])),
    "poisson.pmf": ((0.5, 1), np.array([0.0, 1.0, 2.0, 3.0])),
    # the cdfs, each tail from its own side: values far out in both
    **{f"t.{f}": ((3.5, 0.5, 2.0), np.array([-1e4, -30.0, -3.0, 0.0, 0.5, 1.7, 40.0, 1e4]))
       for f in ("cdf", "logcdf", "sf", "logsf")},
    **{f"gamma.{f}": ((2.5, -0.5, 1.5), np.array([-1.0, -0.5, 1e-6, 0.5, 2.0, 9.0, 80.0]))
       for f in ("cdf", "logcdf", "sf", "logsf")},
    **{f"beta.{f}": ((2.0, 3.5, -1.0, 3.0), np.array([-1.5, -1.0, -1 + 1e-6, 0.2, 0.7, 2 - 1e-6,
                                                      2.0, 2.5]))
       for f in ("cdf", "logcdf", "sf", "logsf")},
    **{f"poisson.{f}": ((3.0, 1), np.array([-1.0, 0.0, 1.0, 2.5, 4.0, 20.0, 60.0]))
       for f in ("cdf", "logcdf", "sf", "logsf")},
}


def _get(module, dotted):
    obj = module
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


@pytest.mark.parametrize("name", STATS)
def test_distributions_match_scipy(name):
    args, x = STATS[name]
    out = _get(stats, name)(nx.array(x), *args)
    with np.errstate(divide="ignore"):
        np.testing.assert_allclose(out.numpy(), _scipy_reference(name, x, args), rtol=1e-12)


def _scipy_reference(name, x, args):
    """scipy's value; for a log cdf or log sf, taken from scipy's cdf and sf as
    log p where p < 1/2 and log1p(-q) elsewhere (scipy's own logcdf of poisson
    is log(cdf), which loses the upper tail to rounding)."""
    dist, f = name.split(".")
    if f not in ("logcdf", "logsf") or dist == "norm":  # norm's has an asymptotic series
        return _get(st, name)(x, *args)
    cdf, sf = getattr(st, dist).cdf(x, *args), getattr(st, dist).sf(x, *args)
    p, q = (cdf, sf) if f == "logcdf" else (sf, cdf)
    return np.where(p < 0.5, np.log(p), np.log1p(-q))


# the cdfs differentiate in x, loc and scale; gamma's once more in a; t's and beta's
# shapes go through betainc's, which has no derivative (test_cdfs_... below)
_CDFS = ("cdf", "logcdf", "sf", "logsf")


@pytest.mark.parametrize("name", [n for n in STATS if not n.startswith("poisson")
                                  and not n.endswith(_CDFS)])
def test_distributions_differentiate_in_x_and_parameters(name):
    args, x = STATS[name]
    fn = _get(stats, name)
    inside = {"norm.ppf": np.array([0.2, 0.6]), "gamma.logpdf": np.array([0.5, 2.0]),
              "gamma.pdf": np.array([0.5, 2.0]), "beta.logpdf": np.array([0.2, 0.7]),
              "beta.pdf": np.array([0.2, 0.7]), "norm.logcdf": np.array([-25.0, -1.0, 2.0])}
    points = nx.array(inside.get(name, np.array([-0.5, 0.3, 1.7])))
    params = tuple(nx.array(float(a)) for a in args)
    rune.check_grads(lambda x, *p: fn(x, *p), (points,) + params, order=2)


@pytest.mark.parametrize("f", _CDFS)
@pytest.mark.parametrize("dist, shapes, loc_scale, points", [
    ("t", (3.5,), (0.5, 2.0), [-40.0, -1.0, 0.5, 0.6, 3.0]),
    ("gamma", (2.5,), (-0.5, 1.5), [0.1, 2.0, 9.0]),
    ("beta", (2.0, 3.5), (-1.0, 3.0), [-0.9, 0.5, 1.9]),
])
def test_cdfs_differentiate_in_x_loc_and_scale(dist, shapes, loc_scale, points, f):
    fn = getattr(getattr(stats, dist), f)
    rune.check_grads(lambda x, loc, scale: fn(x, *shapes, loc, scale),
                     (nx.array(points),) + tuple(nx.array(v) for v in loc_scale), order=2)
    # the derivative in x is the density; for t at its middle too, where the cdf switches tails
    x = nx.array(points + ([loc_scale[0] + 0.0] if dist == "t" else []))
    sign = -1 if f.endswith("sf") else 1
    density = getattr(stats, dist).pdf(x, *shapes, *loc_scale)
    want = sign * density / (nx.exp(fn(x, *shapes, *loc_scale)) if f.startswith("log") else 1.0)
    got = rune.grad(lambda x: nx.sum(fn(x, *shapes, *loc_scale)))(x)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)


def test_gamma_and_poisson_cdfs_differentiate_in_their_parameters():
    for f in _CDFS:
        rune.check_grads(lambda a, f=f: getattr(stats.gamma, f)(nx.array([0.5, 2.0, 9.0]), a),
                         (nx.array([2.5, 1.5, 4.0]),), order=1)
        rune.check_grads(lambda mu, f=f: getattr(stats.poisson, f)(nx.array([0.0, 2.0, 7.0]),
                                                                    mu),
                         (nx.array([2.5, 1.5, 4.0]),), order=2)


def test_cdfs_say_which_shape_has_no_derivative():
    with pytest.raises(NotImplementedError, match="betainc: no derivative with respect to a"):
        rune.grad(lambda df: stats.t.cdf(1.0, df))(nx.array(3.0))
    with pytest.raises(NotImplementedError, match="betainc: no derivative with respect to b"):
        rune.grad(lambda b: stats.beta.cdf(0.3, 2.0, b))(nx.array(3.0))
    with pytest.raises(NotImplementedError, match="with respect to a, its first argument"):
        rune.grad(lambda b: stats.beta.sf(0.3, 2.0, b))(nx.array(3.0))  # sf = betainc(b, a, 1 - x)


def test_poisson_differentiates_in_the_mean():
    k = nx.array([0.0, 1.0, 4.0])
    rune.check_grads(lambda mu: stats.poisson.logpmf(k, mu), (nx.array(2.5),), order=2)


@pytest.mark.parametrize("x_shape, dim", [((3,), 3), ((4, 3), 3), ((2, 4, 3), 3), ((5,), 1),
                                          ((), 1)])
def test_multivariate_normal_matches_scipy(x_shape, dim):
    rng = np.random.default_rng(3)
    x = rng.standard_normal(x_shape)
    mean = rng.standard_normal(dim)
    a = rng.standard_normal((dim, dim))
    cov = a @ a.T + dim * np.eye(dim)
    out = stats.multivariate_normal.logpdf(nx.array(x), nx.array(mean), nx.array(cov))
    ref = st.multivariate_normal.logpdf(x, mean, cov)
    assert out.shape == np.shape(ref)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-12)
    np.testing.assert_allclose(stats.multivariate_normal.pdf(nx.array(x), nx.array(mean),
                                                             nx.array(cov)).numpy(),
                               st.multivariate_normal.pdf(x, mean, cov), rtol=1e-12)
    if dim == 3:
        # cholesky reads one triangle: differentiate along symmetric directions
        rune.check_grads(lambda x, m, c: stats.multivariate_normal.logpdf(x, m, (c + c.T) / 2),
                         (nx.array(x), nx.array(mean), nx.array(cov)), order=2)
    np.testing.assert_allclose(stats.multivariate_normal.logpdf(nx.array(x), cov=2.0).numpy()
                               if dim == 1 else 0, st.multivariate_normal.logpdf(x, cov=2.0)
                               if dim == 1 else 0, rtol=1e-12)


def test_dirichlet_matches_scipy_with_components_first():
    alpha = np.array([1.5, 2.0, 3.0])
    x = np.array([[0.2, 0.1], [0.3, 0.6], [0.5, 0.3]])  # (K, N)
    for points in (x, x[:, 0]):
        np.testing.assert_allclose(stats.dirichlet.logpdf(nx.array(points), nx.array(alpha))
                                   .numpy(), st.dirichlet.logpdf(points, alpha), rtol=1e-12)
        np.testing.assert_allclose(stats.dirichlet.pdf(nx.array(points), nx.array(alpha))
                                   .numpy(), st.dirichlet.pdf(points, alpha), rtol=1e-12)
    rune.check_grads(stats.dirichlet.logpdf, (nx.array(x), nx.array(alpha)), order=2)


def test_stats_under_vmap_and_jit():
    x = nx.array([[0.2, 1.0], [-0.3, 2.0]])
    assert_vmap_matches_loop(lambda x: stats.norm.logcdf(x, 0.5, 2.0), x)
    assert_vmap_matches_loop(lambda x: stats.t.logpdf(x, 3.0), x)
    f = rune.jit(lambda x: nx.sum(stats.gamma.logpdf(x, 2.0)))
    np.testing.assert_allclose(f(nx.abs(x)).numpy(), np.sum(st.gamma.logpdf(np.abs(x.numpy()), 2.0)),
                               rtol=1e-12)
    cdfs = {"t": lambda x: stats.t.logcdf(x, 3.0, 0.5, 2.0),
            "gamma": lambda x: stats.gamma.sf(nx.abs(x), 2.0),
            "beta": lambda x: stats.beta.cdf(nx.abs(x) / 3, 2.0, 1.5),
            "poisson": lambda mu: stats.poisson.logsf(nx.array([[1.0, 4.0], [0.0, 2.0]]), nx.abs(mu))}
    for name, fn in cdfs.items():
        assert_vmap_matches_loop(fn, x)
        g = rune.grad(lambda x, fn=fn: nx.sum(fn(x)))
        np.testing.assert_allclose(rune.jit(g)(x).numpy(), g(x).numpy(), rtol=1e-14, err_msg=name)


# --------------------------------------------------------------- signal


@pytest.mark.parametrize("shapes", [((4, 5), (2, 3)), ((2, 3), (4, 5)), ((6,), (3,)),
                                    ((3, 4, 2), (2, 2, 2)), ((3, 6), (2, 2))])
@pytest.mark.parametrize("name", ["convolve", "correlate"])
def test_signal_matches_scipy_in_every_mode_and_method(shapes, name):
    import scipy.signal as ss

    from rune.scipy import signal

    rng = np.random.default_rng(5)
    a = rng.standard_normal(shapes[0]) + 1j * rng.standard_normal(shapes[0])
    b = rng.standard_normal(shapes[1]) + 1j * rng.standard_normal(shapes[1])
    for mode in ("full", "same", "valid"):
        for method in ("direct", "fft", "auto"):
            for x, y in ((a, b), (a.real, b.real)):
                out = getattr(signal, name)(nx.array(x), nx.array(y), mode, method)
                ref = getattr(ss, name)(x, y, mode, method)
                assert out.shape == ref.shape and out.dtype == ref.dtype
                np.testing.assert_allclose(out.numpy(), ref, atol=1e-12)
    if len(shapes[0]) == 2:
        rune.check_grads(lambda x, y: getattr(signal, name)(x, y, "same"),
                         (nx.array(a), nx.array(b)), order=2)


def test_signal_errors_name_the_argument():
    from rune.scipy import signal

    with pytest.raises(ValueError, match="same number of axes"):
        signal.convolve(nx.ones((2, 2)), nx.ones(2))
    with pytest.raises(ValueError, match="for mode 'valid', one input must be"):
        signal.convolve(nx.ones((3, 2)), nx.ones((2, 3)), "valid")
    with pytest.raises(ValueError, match="method must be"):
        signal.correlate(nx.ones(3), nx.ones(2), method="fast")


def test_erfinv_keeps_its_digits_near_one():
    # Newton on erf(x) - y lost every digit near y = ±1, where erf(x) differs
    # from 1 by less than a rounding of y: erfinv(1 - 1e-13) was wrong in the
    # 5th digit, erfinv(1 - 1e-16) by 7%. 1 - |y| is exact there; the tails
    # solve erfc(|x|) = 1 - |y| instead.
    k = np.arange(1, 54)
    y = np.concatenate([1 - 10.0 ** -np.arange(1, 17), 1 - 2.0 ** -k, 0.5 + 2.0 ** -k[:40]])
    y = np.concatenate([y, -y])
    np.testing.assert_allclose(special.erfinv(nx.array(y)).numpy(), sp.erfinv(y), rtol=1e-14)


def test_erfcinv_and_the_normal_quantile_keep_their_digits_in_the_tails():
    # norm.ppf was loc + scale sqrt(2) erfinv(2q - 1): 2q - 1 rounds q's
    # digits away, so ppf(1e-15) was wrong in the 5th digit and ppf(1e-30)
    # was -inf. It is now -sqrt(2) erfcinv(2q), and 2q is exact.
    tiny = 10.0 ** -np.arange(1, 300, 7)
    z = np.concatenate([tiny, np.linspace(0.01, 1.99, 199), 2 - tiny[:15], [1.0]])
    np.testing.assert_allclose(special.erfcinv(nx.array(z)).numpy(), sp.erfcinv(z), rtol=1e-14)
    np.testing.assert_array_equal(special.erfcinv(nx.array([0.0, 2.0, -0.5, 2.5])).numpy(),
                                  [np.inf, -np.inf, np.nan, np.nan])
    q = np.concatenate([tiny, np.linspace(0.01, 0.99, 99), 1 - tiny[:2]])
    np.testing.assert_allclose(stats.norm.ppf(nx.array(q), 0.0, 2.0).numpy(),
                               st.norm.ppf(q, 0.0, 2.0), rtol=1e-14)
