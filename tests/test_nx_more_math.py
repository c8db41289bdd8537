"""The elementwise functions and reductions numpy programs reach for beyond the
basics (now in rune/nx/math/, statistics.py and linalg/products.py): values and dtypes
against numpy, the kinks and special points, vmap against a loop, jit, errors.
Their derivatives of order 2 are in the census sweep (tests/sweep.py)."""

import warnings

import numpy as np
import pytest

import rune
from rune import nx
from tests.util import assert_abstract_matches, assert_vmap_matches_loop

RNG = np.random.default_rng(20)
X = RNG.uniform(-2, 2, (3, 4))
Y = RNG.uniform(-2, 2, (4,))
Z = X + 1j * RNG.uniform(-1, 1, (3, 4))
NANS = np.where(RNG.uniform(size=(3, 4)) < 0.3, np.nan, X)
NANS[2] = np.nan  # a row of nan only


def same(out, expected, exact=False):
    expected = np.asarray(expected)
    assert out.dtype == expected.dtype, (out.dtype, expected.dtype)
    assert out.shape == expected.shape
    if exact:
        np.testing.assert_array_equal(out.numpy(), expected)
    else:
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-13, atol=1e-15)


UNARY = {  # name -> inputs tried
    "exp2": [X, Z, X.astype(np.float32)], "cbrt": [X, X.astype(np.float32)],
    "deg2rad": [X, np.arange(4)], "rad2deg": [X], "radians": [X], "degrees": [X],
    "sinc": [X, Z, np.array([0.0, 1.0, -2.0])], "fabs": [X, np.arange(-2, 2)],
    "nan_to_num": [np.array([np.nan, np.inf, -np.inf, 1.5]), Z, np.arange(3)],
    "real_if_close": [Z, X, X + 1e-15j], "iscomplex": [Z, X, X + 0j],
    "isreal": [Z, X, X + 0j],
}


@pytest.mark.parametrize("name, i", [(n, i) for n, xs in UNARY.items() for i in range(len(xs))])
def test_unary_values_and_dtypes_match_numpy(name, i):
    x = UNARY[name][i]
    same(getattr(nx, name)(nx.array(x)), getattr(np, name)(x))


@pytest.mark.parametrize("name", ["hypot", "logaddexp", "logaddexp2", "fmax", "fmin"])
def test_binary_values_match_numpy(name):
    same(getattr(nx, name)(nx.array(X), nx.array(Y)), getattr(np, name)(X, Y))
    a, b = np.array([1.0, np.nan, np.nan, 2.0]), np.array([np.nan, 3.0, np.nan, 2.0])
    same(getattr(nx, name)(nx.array(a), nx.array(b)), getattr(np, name)(a, b))


def test_kinks_and_special_points():
    # hypot at the origin: derivative 0 (like abs), cbrt at 0: inf (like sqrt)
    g = rune.grad(lambda x: nx.hypot(x, 0.0))(nx.array(0.0))
    assert g.item() == 0
    assert rune.grad(nx.cbrt)(nx.array(0.0)).item() == np.inf
    # sinc's derivatives at 0: 0, -pi^2/3, 0, pi^4/5 (its Taylor series)
    d = nx.sinc
    values = []
    for _ in range(4):
        d = rune.grad(d)
        values.append(d(nx.array(0.0)).item())
    np.testing.assert_allclose(values, [0, -np.pi ** 2 / 3, 0, np.pi ** 4 / 5], atol=1e-12)
    # and agree with differences near 0, where the Taylor series meets Leibniz's rule
    rune.check_grads(nx.sinc, (nx.array([0.0, 0.63, 0.64, -0.7, 3.3]),), order=3)
    # fmax sends the derivative to the number where the other is nan
    g = rune.grad(lambda x: nx.sum(nx.fmax(x, nx.array([np.nan, 0.0]))))(nx.array([1.0, -1.0]))
    assert str(g) == "float64 [2] [1, 0]"


def test_nan_to_num_options_and_derivative():
    x = np.array([np.nan, np.inf, -np.inf, 1.5], np.float32)
    same(nx.nan_to_num(nx.array(x), nan=1.0, posinf=2.0, neginf=-2.0),
         np.nan_to_num(x, nan=1.0, posinf=2.0, neginf=-2.0))
    g = rune.grad(lambda x: nx.sum(nx.nan_to_num(x)))(nx.array(x.astype(np.float64)))
    assert str(g) == "float64 [4] [0, 0, 0, 1]"


def test_real_if_close_reads_values_so_jit_refuses():
    with pytest.raises(rune.TracedValueError):
        rune.jit(nx.real_if_close)(nx.array(Z))


@pytest.mark.parametrize("args, kwargs", [((), {}), ((0.5,), {}), ((0.5, 2.0), {}),
                                          ((), {"edge_order": 2}), ((), {"axis": 1}),
                                          ((np.array([0.0, 0.4, 1.5]),), {"axis": 0}),
                                          ((np.array([0.0, 0.4, 1.5]), np.array([0, 1, 3, 3.5])),
                                           {"edge_order": 2})])
def test_gradient_matches_numpy(args, kwargs):
    out = nx.gradient(nx.array(X), *args, **kwargs)
    ref = np.gradient(X, *args, **kwargs)
    for o, r in zip(out if isinstance(out, tuple) else (out,),
                    ref if isinstance(ref, (tuple, list)) else (ref,)):
        same(o, r)
    assert type(out) is tuple or isinstance(ref, np.ndarray)


def test_gradient_of_integers_and_short_axes():
    same(nx.gradient(nx.array([1, 4, 9])), np.gradient(np.array([1, 4, 9])))
    with pytest.raises(ValueError, match="edge_order=2 needs at least 3"):
        nx.gradient(nx.array([1.0, 2.0]), edge_order=2)


@pytest.mark.parametrize("a_shape, b_shape, kwargs", [
    ((3,), (3,), {}), ((4, 3), (3,), {}), ((4, 2), (4, 3), {}), ((3, 4), (3, 4), {"axis": 0}),
    ((3, 4), (4, 3), {"axisa": 0, "axisc": 0}), ((2,), (2,), {})])
def test_cross_matches_numpy(a_shape, b_shape, kwargs):
    a, b = RNG.standard_normal(a_shape), RNG.standard_normal(b_shape)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # numpy 2 deprecates 2-vectors
        same(nx.cross(nx.array(a), nx.array(b), **kwargs), np.cross(a, b, **kwargs))


def test_vdot_conjugates_the_first():
    same(nx.vdot(nx.array(Z), nx.array(Z[::-1])), np.vdot(Z, Z[::-1]))
    with pytest.raises(ValueError, match="nx.vdot: a and b have 12 and 4 elements"):
        nx.vdot(nx.array(X), nx.array(Y))


@pytest.mark.parametrize("n, m", [(6, 3), (3, 6), (4, 4), (5, 1), (1, 1), (2, 7)])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_convolve_and_correlate_match_numpy(n, m, mode):
    a = RNG.standard_normal(n) + 1j * RNG.standard_normal(n)
    v = RNG.standard_normal(m) + 1j * RNG.standard_normal(m)
    same(nx.convolve(nx.array(a), nx.array(v), mode), np.convolve(a, v, mode))
    same(nx.correlate(nx.array(a), nx.array(v), mode), np.correlate(a, v, mode))
    same(nx.convolve(nx.array(a.real), nx.array(v.real), mode), np.convolve(a.real, v.real, mode))
    rune.check_grads(lambda a, v: nx.correlate(a, v, mode), (nx.array(a), nx.array(v)), order=2)


def test_convolve_under_vmap_and_jit():
    a, v = nx.array(RNG.standard_normal((3, 5))), nx.array(RNG.standard_normal((3, 2)))
    assert_vmap_matches_loop(nx.convolve, a, v)
    assert_vmap_matches_loop(nx.convolve, a, nx.array(v.numpy()[0]), in_axes=(0, None))
    assert_vmap_matches_loop(lambda v: nx.correlate(a[0], v, "same"), v)
    assert_abstract_matches(nx.convolve, a[0], v[0])
    grad = rune.grad(lambda a, v: nx.sum(nx.convolve(a, v) ** 2), argnums=(0, 1))
    for got, expected in zip(rune.jit(grad)(a[0], v[0]), grad(a[0], v[0])):
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-13)
    # vmap of the gradient: the transpose rules under a batch
    batched = rune.vmap(rune.grad(lambda a, v: nx.sum(nx.convolve(a, v) ** 2)))(a, v)
    loop = [rune.grad(lambda a, v: nx.sum(nx.convolve(a, v) ** 2))(a[i], v[i]) for i in range(3)]
    np.testing.assert_allclose(batched.numpy(), np.stack([g.numpy() for g in loop]), rtol=1e-13)


@pytest.mark.parametrize("kwargs", [{}, {"axis": 1}, {"axis": 0, "weights": np.arange(1.0, 4.0)},
                                    {"weights": np.abs(X)}, {"axis": 1, "returned": True},
                                    {"axis": (0, 1), "keepdims": True, "weights": np.abs(X)}])
def test_average_matches_numpy(kwargs):
    out = nx.average(nx.array(X), **kwargs)
    ref = np.average(X, **kwargs)
    for o, r in zip(out if isinstance(out, tuple) else (out,), ref if isinstance(ref, tuple)
                    else (ref,)):
        same(o, r)


@pytest.mark.parametrize("name", ["nansum", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin"])
@pytest.mark.parametrize("kwargs", [{}, {"axis": 0}, {"axis": 1, "keepdims": True}])
def test_nan_reductions_match_numpy(name, kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy warns at the all-nan row
        ref = getattr(np, name)(NANS, **kwargs)
    same(getattr(nx, name)(nx.array(NANS), **kwargs), ref)
    if name in ("nanvar", "nanstd"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            same(getattr(nx, name)(nx.array(NANS), ddof=1, **kwargs),
                 getattr(np, name)(NANS, ddof=1, **kwargs))


def test_nan_reductions_pass_no_derivative_to_nans():
    x = nx.array([1.0, np.nan, 3.0])
    for name in ("nansum", "nanmean", "nanvar", "nanmax"):
        g = rune.grad(getattr(nx, name))(x)
        assert g.numpy()[1] == 0 and np.all(np.isfinite(g.numpy())), name
    assert_vmap_matches_loop(nx.nanmean, nx.array(NANS))


@pytest.mark.parametrize("call, error, message", [
    (lambda: nx.cbrt(nx.array([1j])), TypeError, "nx.cbrt: got a complex argument"),
    (lambda: nx.hypot(nx.array([1j]), 1.0), TypeError, "nx.hypot: got a complex argument"),
    (lambda: nx.gradient(nx.array(X), 1.0, 2.0, 3.0), ValueError, "give no spacing, one"),
    (lambda: nx.gradient(nx.array(X), edge_order=3), ValueError, "edge_order must be 1 or 2"),
    (lambda: nx.cross(nx.ones(4), nx.ones(3)), ValueError, "has 4 entries; expected 2 or 3"),
    (lambda: nx.convolve(nx.ones((2, 2)), nx.ones(3)), ValueError, "nx.convolve: a must be"),
    (lambda: nx.convolve(nx.ones(2), nx.ones(3), "middle"), ValueError, "mode must be"),
    (lambda: nx.average(nx.array(X), weights=nx.ones(5)), ValueError, "nx.average: weights"),
])
def test_bad_arguments_say_what_is_wrong(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_iscomplex_is_boolean():
    assert nx.iscomplex(nx.array([1j])).dtype == nx.bool_
    assert nx.isreal(nx.array([1.0])).dtype == nx.bool_
