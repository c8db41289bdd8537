"""Infinities and NaNs: exact derivatives where functions blow up, in every mode.

Each case is a function, a point, the value there, and the derivatives rune
gives by forward mode (jvp along ones) and by reverse mode (the gradient of
the sum). The same numbers must come from linearize (forward) and from the
jitted versions, in float64 and float32. These are the behaviours the "Kinks
and NaNs" page documents; they agree with JAX except where noted.

The rules are the plain formulas evaluated with IEEE arithmetic (log'(0) =
1/0 = inf, sqrt'(0) = 0.5/0 = inf) and no special cases, so:

- `where(x > 0, log(x), 0)` at 0: forward mode selects the tangent (0), but
  reverse mode multiplies the zero cotangent of the branch not taken by
  log'(0) = inf, and 0 * inf = nan. The double-where trick keeps the
  unused branch away from the singularity and gives 0 in both modes.
- The Euclidean norm at 0 is sqrt(sum x^2): sqrt'(0) = inf times the
  derivative of sum x^2 there, 0, so nan in both modes (as in JAX).
- Division by zero follows IEEE: d(x / 0)/dx = 1/0 = inf, d(1/x)/dx at 0 is
  -1/0^2 = -inf.
- Kinks (not NaNs): abs'(0) = 0 and relu'(0) = 0, and maximum at a tie gives
  half to each side. JAX's abs'(0) is 1 (sign with sign(0) = 1); its relu'(0)
  and maximum ties agree with rune.
"""

import warnings

import numpy as np
import pytest

import rune
from rune import nx

INF, NAN = np.inf, np.nan


def safe_log(x):
    """The double-where trick: the branch not taken never sees x <= 0."""
    positive = x > 0
    return nx.where(positive, nx.log(nx.where(positive, x, 1.0)), 0.0)


def safe_norm(x):
    squares = nx.sum(x * x)
    nonzero = squares > 0
    return nx.where(nonzero, nx.sqrt(nx.where(nonzero, squares, 1.0)), 0.0)


# (name, f, x, f(x), forward derivative along ones, gradient of sum f)
CASES = [
    ("log at 0", nx.log, 0.0, -INF, INF, INF),
    ("log at -1", nx.log, -1.0, NAN, -1.0, -1.0),
    ("sqrt at 0", nx.sqrt, 0.0, 0.0, INF, INF),
    ("power 0.5 at 0", lambda x: x ** 0.5, 0.0, 0.0, INF, INF),
    ("power 2 at 0", lambda x: x ** 2, 0.0, 0.0, 0.0, 0.0),
    ("exponent of 0 ** y", lambda y: nx.power(0.0, y), 2.0, 0.0, 0.0, 0.0),
    ("arcsin at 1", nx.arcsin, 1.0, np.pi / 2, INF, INF),
    ("reciprocal at 0", lambda x: 1.0 / x, 0.0, INF, -INF, -INF),
    ("reciprocal at -0", lambda x: 1.0 / x, -0.0, -INF, -INF, -INF),
    ("divide by a Python 0.0", lambda x: x / 0.0, 1.0, INF, INF, INF),
    ("divide by a Python int 0", lambda x: x / 0, -1.0, -INF, INF, INF),
    ("divide by -0.0", lambda x: x / -0.0, 1.0, -INF, -INF, -INF),
    ("0 / 0 in the numerator", lambda x: x / 0.0, 0.0, NAN, INF, INF),
    ("2 / y at 0", lambda y: 2.0 / y, 0.0, INF, -INF, -INF),
    ("x / x at 0", lambda x: x / x, 0.0, NAN, NAN, NAN),
    ("where with a log branch at 0", lambda x: nx.where(x > 0, nx.log(x), 0.0), 0.0,
     0.0, 0.0, NAN),
    ("where with a log branch at -1", lambda x: nx.where(x > 0, nx.log(x), 0.0), -1.0,
     0.0, 0.0, 0.0),
    ("where with a reciprocal branch at 0", lambda x: nx.where(x == 0, 0.0, 1.0 / x), 0.0,
     0.0, 0.0, NAN),
    ("double where at 0", safe_log, 0.0, 0.0, 0.0, 0.0),
    ("double where at 2", safe_log, 2.0, np.log(2.0), 0.5, 0.5),
    ("norm at 0", lambda x: nx.linalg.norm(x), [0.0, 0.0], 0.0, NAN, [NAN, NAN]),
    ("sqrt of a sum of squares at 0", lambda x: nx.sqrt(nx.sum(x * x)), [0.0, 0.0], 0.0, NAN,
     [NAN, NAN]),
    ("norm with the double where at 0", safe_norm, [0.0, 0.0], 0.0, 0.0, [0.0, 0.0]),
    ("norm at (3, 4)", lambda x: nx.linalg.norm(x), [3.0, 4.0], 5.0, 1.4, [0.6, 0.8]),
    ("1-norm at 0", lambda x: nx.linalg.norm(x, ord=1), [0.0, 0.0], 0.0, 0.0, [0.0, 0.0]),
    ("exp overflowing in log(exp(x))", lambda x: nx.log(nx.exp(x)), 1000.0, INF, NAN, NAN),
    ("times 0 at inf", lambda x: x * 0.0, INF, NAN, 0.0, 0.0),
    ("tanh at inf", nx.tanh, INF, 1.0, 0.0, 0.0),
    ("sin at nan", nx.sin, NAN, NAN, NAN, NAN),
    ("abs at 0", nx.abs, 0.0, 0.0, 0.0, 0.0),
    ("relu at 0", nx.relu, 0.0, 0.0, 0.0, 0.0),
    ("maximum at a tie", lambda x: nx.maximum(x, 0.0), 0.0, 0.0, 0.5, 0.5),
    ("maximum with a nan", lambda x: nx.maximum(x, 0.0), NAN, NAN, 0.0, 0.0),
]
DTYPES = [nx.float64, nx.float32]


def forward(f, x):
    return rune.jvp(f, (x,), (nx.ones_like(x),))[1]


def by_linearize(f, x):
    return rune.linearize(f, x)[1](nx.ones_like(x))


def reverse(f, x):
    return rune.grad(lambda x: nx.sum(f(x)))(x)


def assert_exactly(got, expected, dtype):
    got = np.asarray(got)
    assert got.dtype == dtype
    expected = np.asarray(expected, dtype)
    # Same infinities (with their signs) and NaNs in the same places; finite
    # numbers to the last bit of float64, or to float32's rounding.
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
    np.testing.assert_array_equal(np.isposinf(got), np.isposinf(expected))
    np.testing.assert_array_equal(np.isneginf(got), np.isneginf(expected))
    finite = np.isfinite(expected)
    rtol = 1e-15 if dtype == np.float64 else 1e-6
    np.testing.assert_allclose(got[finite], expected[finite], rtol=rtol, atol=0)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("name,f,x,value,fwd,rev", CASES, ids=[c[0] for c in CASES])
def test_values_and_derivatives_at_singular_points(name, f, x, value, fwd, rev, dtype):
    x = nx.array(x, dtype=dtype)
    assert_exactly(f(x), value, dtype)
    assert_exactly(forward(f, x), fwd, dtype)
    assert_exactly(by_linearize(f, x), fwd, dtype)
    assert_exactly(rune.jit(lambda x: forward(f, x))(x), fwd, dtype)
    assert_exactly(reverse(f, x), rev, dtype)
    assert_exactly(rune.jit(lambda x: reverse(f, x))(x), rev, dtype)
    assert_exactly(rune.vjp(f, x)[1](nx.ones_like(f(x)))[0], rev, dtype)


def test_warnings_are_numpy_s_and_only_for_the_values():
    # The value 1/0 warns as numpy does; differentiating it adds no warning of
    # rune's own (the factor of a Python 0 is computed quietly).
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rune.grad(lambda x: x / 0.0)(nx.array(1.0))
    assert [str(w.message) for w in caught] == ["divide by zero encountered in divide"]


def test_dividing_by_a_python_zero_keeps_float32():
    with np.errstate(all="ignore"):
        g = rune.grad(lambda x: nx.sum(x / 0))(nx.array([1.0, -1.0], dtype=nx.float32))
    assert str(g) == "float32 [2] [inf, inf]"


def test_a_where_branch_not_taken_poisons_the_gradient_where_it_is_nan_or_infinite():
    # sqrt(-1) is nan and sqrt'(0) is inf: the zero cotangent of the branch
    # not taken times either is nan. Only the double where avoids it.
    x = nx.array([-1.0, 0.0, 4.0])
    g = rune.grad(lambda x: nx.sum(nx.where(x > 0, nx.sqrt(x), 0.0)))
    with np.errstate(divide="ignore", invalid="ignore"):
        assert str(g(x)) == "float64 [3] [nan, nan, 0.25]"
        assert str(rune.grad(lambda x: nx.sum(safe_log(x)))(x)) == "float64 [3] [0, 0, 0.25]"


def sqrt_if_positive(x):
    return rune.cond(x > 0, nx.sqrt, lambda x: 0.0 * x, x)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_cond_differentiates_only_the_branch_taken_except_through_vmap_s_selection():
    x = nx.array([-1.0, 0.0, 4.0])
    # A readable or jit-traced predicate runs one branch: no NaN.
    g = rune.grad(sqrt_if_positive)
    assert [str(g(x[i])) for i in range(3)] == ["float64 [] 0", "float64 [] 0",
                                                 "float64 [] 0.25"]
    assert str(rune.jit(g)(x[0])) == "float64 [] 0"
    # vmap of grad: each example differentiates the branch it takes.
    assert str(rune.vmap(g)(x)) == "float64 [3] [0, 0, 0.25]"
    assert str(rune.vmap(lambda x: rune.jvp(sqrt_if_positive, (x,), (nx.ones_like(x),))[1])(
        x)) == "float64 [3] [0, 0, 0.25]"
    # grad of vmap: the selection between both branches' results is
    # transposed like nx.where, and 0 * sqrt'(x) is nan at -1 and at 0.
    outer = rune.grad(lambda xs: nx.sum(rune.vmap(sqrt_if_positive)(xs)))
    assert str(outer(x)) == "float64 [3] [nan, nan, 0.25]"
    assert str(rune.jit(outer)(x)) == "float64 [3] [nan, nan, 0.25]"
    # Forward mode selects tangents: no NaN.
    assert str(rune.jvp(rune.vmap(sqrt_if_positive), (x,), (nx.ones_like(x),))[1]) == (
        "float64 [3] [0, 0, 0.25]")
    # The double where keeps the branch not taken in its domain.
    safe = lambda x: rune.cond(x > 0, lambda x: nx.sqrt(nx.where(x > 0, x, 1.0)),  # noqa: E731
                               lambda x: 0.0 * x, x)
    assert str(rune.grad(lambda xs: nx.sum(rune.vmap(safe)(xs)))(x)) == "float64 [3] [0, 0, 0.25]"
