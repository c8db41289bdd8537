"""The elementwise functions of rune.nx: values against numpy, derivatives
against central differences (both modes, second order), kinks, dtypes, the
abstract rules, vmap against a loop, and the errors."""

import numpy as np
import pytest
from util import assert_abstract_matches, assert_vmap_matches_loop

import rune
from rune import nx
from rune.core import new_trace
from rune.graph import GraphTrace

F64, F32, C128 = np.float64, np.float32, np.complex128


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


# name -> (numpy reference, real domain, takes complex, derivative kind)
# kind: "smooth" (check_grads), "zero" (piecewise constant), "bool" (bool output)
UNARY = {
    "negative": (np.negative, (-2, 2), True, "smooth"),
    "square": (np.square, (-2, 2), True, "smooth"),
    "sqrt": (np.sqrt, (0.5, 2), True, "smooth"),
    "reciprocal": (np.reciprocal, (0.5, 2), True, "smooth"),
    "exp": (np.exp, (-2, 2), True, "smooth"),
    "expm1": (np.expm1, (-2, 2), True, "smooth"),
    "log": (np.log, (0.5, 2), True, "smooth"),
    "log1p": (np.log1p, (0.5, 2), True, "smooth"),
    "log2": (np.log2, (0.5, 2), True, "smooth"),
    "log10": (np.log10, (0.5, 2), True, "smooth"),
    "sin": (np.sin, (-2, 2), True, "smooth"),
    "cos": (np.cos, (-2, 2), True, "smooth"),
    "tan": (np.tan, (-1, 1), True, "smooth"),
    "arcsin": (np.arcsin, (-0.8, 0.8), True, "smooth"),
    "arccos": (np.arccos, (-0.8, 0.8), True, "smooth"),
    "arctan": (np.arctan, (-2, 2), True, "smooth"),
    "sinh": (np.sinh, (-2, 2), True, "smooth"),
    "cosh": (np.cosh, (-2, 2), True, "smooth"),
    "tanh": (np.tanh, (-2, 2), True, "smooth"),
    "arcsinh": (np.arcsinh, (-2, 2), True, "smooth"),
    "arccosh": (np.arccosh, (1.2, 3), True, "smooth"),
    "arctanh": (np.arctanh, (-0.8, 0.8), True, "smooth"),
    "sigmoid": (_sigmoid, (-3, 3), True, "smooth"),
    "abs": (np.abs, (-2, 2), True, "smooth"),
    "absolute": (np.absolute, (-2, 2), True, "smooth"),
    "real": (np.real, (-2, 2), True, "smooth"),
    "imag": (np.imag, (-2, 2), True, "smooth"),
    "conj": (np.conj, (-2, 2), True, "smooth"),
    "conjugate": (np.conjugate, (-2, 2), True, "smooth"),
    "angle": (np.angle, (-2, 2), True, "smooth"),
    "relu": (lambda x: np.maximum(x, 0), (-2, 2), False, "smooth"),
    "sign": (np.sign, (-2, 2), True, "zero"),  # complex sign is smooth: tested apart
    "floor": (np.floor, (-2, 2), False, "zero"),
    "ceil": (np.ceil, (-2, 2), False, "zero"),
    "round": (np.round, (-2, 2), True, "zero"),
    "isnan": (np.isnan, (-2, 2), True, "bool"),
    "isfinite": (np.isfinite, (-2, 2), True, "bool"),
    "isinf": (np.isinf, (-2, 2), True, "bool"),
    "logical_not": (np.logical_not, (-2, 2), True, "bool"),
}
# Compositions and our own functions agree with numpy to rounding, not bits.
INEXACT = {"sigmoid", "angle"}

# name -> (numpy reference, x domain, y domain, takes complex, kind)
BINARY = {
    "add": (np.add, (-2, 2), (-2, 2), True, "smooth"),
    "subtract": (np.subtract, (-2, 2), (-2, 2), True, "smooth"),
    "multiply": (np.multiply, (-2, 2), (-2, 2), True, "smooth"),
    "divide": (np.divide, (-2, 2), (0.5, 2), True, "smooth"),
    "power": (np.power, (0.5, 2), (-1.5, 1.5), True, "smooth"),
    "arctan2": (np.arctan2, (-2, 2), (0.5, 2), False, "smooth"),
    "maximum": (np.maximum, (-2, 2), (-1.9, 1.9), False, "smooth"),
    "minimum": (np.minimum, (-2, 2), (-1.9, 1.9), False, "smooth"),
    "mod": (np.mod, (2.1, 2.7), (1.2, 1.4), False, "smooth"),
    "remainder": (np.remainder, (2.1, 2.7), (1.2, 1.4), False, "smooth"),
    "floor_divide": (np.floor_divide, (2.1, 2.7), (1.2, 1.4), False, "zero"),
    "equal": (np.equal, (-2, 2), (-2, 2), True, "bool"),
    "not_equal": (np.not_equal, (-2, 2), (-2, 2), True, "bool"),
    "less": (np.less, (-2, 2), (-2, 2), False, "bool"),
    "less_equal": (np.less_equal, (-2, 2), (-2, 2), False, "bool"),
    "greater": (np.greater, (-2, 2), (-2, 2), False, "bool"),
    "greater_equal": (np.greater_equal, (-2, 2), (-2, 2), False, "bool"),
    "logical_and": (np.logical_and, (-2, 2), (-2, 2), True, "bool"),
    "logical_or": (np.logical_or, (-2, 2), (-2, 2), True, "bool"),
    "logical_xor": (np.logical_xor, (-2, 2), (-2, 2), True, "bool"),
}

# Fixed points: away from 0 and from the integers (floor, ceil, abs, sign kinks).
_FRACTIONS = np.array([0.08, 0.37, 0.62, 0.91])
# Complex points away from the branch cuts of sqrt, log, the inverse functions.
_COMPLEX = np.array([0.3 + 0.4j, -0.6 + 0.2j, 0.7 - 0.65j, 1.4 + 0.45j])


def points(domain, dtype, shape=(4,), shift=0.0):
    if np.dtype(dtype).kind == "c":
        values = _COMPLEX * (1 + shift)
    else:
        lo, hi = domain
        values = lo + (hi - lo) * ((_FRACTIONS + shift) % 1)
    values = np.resize(values, int(np.prod(shape))).reshape(shape)
    return nx.array(values.astype(dtype))


def cases(table, kinds=None, dtypes=(F64, F32, C128)):
    return [pytest.param(name, dtype, id=f"{name}-{np.dtype(dtype)}")
            for name, entry in table.items() for dtype in dtypes
            if (kinds is None or entry[-1] in kinds) and (entry[-2] or dtype is not C128)]


def check_values(out, expected, name):
    assert out.dtype == np.asarray(expected).dtype, (out.dtype, np.asarray(expected).dtype)
    if name in INEXACT:
        single = out.dtype in (np.float32, np.complex64)
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6 if single else 1e-14)
    else:
        np.testing.assert_array_equal(out.numpy(), expected)


# ------------------------------------------------------------ values


@pytest.mark.parametrize("name, dtype", cases(UNARY))
def test_unary_values_match_numpy(name, dtype):
    ref, domain = UNARY[name][:2]
    x = points(domain, dtype, (2, 3))
    check_values(getattr(nx, name)(x), ref(x.numpy()), name)


@pytest.mark.parametrize("name, dtype", cases(BINARY))
def test_binary_values_match_numpy_with_broadcasting(name, dtype):
    ref, xdom, ydom = BINARY[name][:3]
    x, y = points(xdom, dtype, (2, 3)), points(ydom, dtype, (3,), shift=0.21)
    fn = getattr(nx, name)
    check_values(fn(x, y), ref(x.numpy(), y.numpy()), name)
    with np.errstate(invalid="ignore"):  # power: negative ** fractional is nan, as in numpy
        check_values(fn(y, x), ref(y.numpy(), x.numpy()), name)


@pytest.mark.parametrize("name", [n for n, e in BINARY.items() if e[-1] != "bool"])
def test_binary_python_numbers_are_weak_and_arrays_mix(name):
    ref, xdom, ydom = BINARY[name][:3]
    x = points(xdom, F32)
    number = float(ydom[1])
    fn = getattr(nx, name)
    assert fn(x, number).dtype == np.float32  # float32 stays float32 (NEP 50)
    assert fn(number, x).dtype == np.float32
    check_values(fn(x, number), ref(x.numpy(), np.float32(number)), name)
    array = points(ydom, F64).numpy()
    check_values(fn(x, array), ref(x.numpy(), array), name)  # a float64 array promotes
    with np.errstate(invalid="ignore"):
        check_values(fn(array, x), ref(array, x.numpy()), name)


@pytest.mark.parametrize("symbol, name", [
    ("+", "add"), ("-", "subtract"), ("*", "multiply"), ("/", "divide"), ("**", "power"),
    ("//", "floor_divide"), ("%", "mod"), ("==", "equal"), ("!=", "not_equal"),
    ("<", "less"), ("<=", "less_equal"), (">", "greater"), (">=", "greater_equal"),
])
def test_operators_are_the_functions(symbol, name):
    x = points((0.5, 2), F64, (2, 3))
    y = points((0.5, 2), F64, (3,), shift=0.3)
    fn = getattr(nx, name)
    apply = eval(f"lambda a, b: a {symbol} b")
    for a, b in [(x, y), (x, 2.0), (2.0, x), (x, y.numpy()), (y.numpy(), x)]:
        out = apply(a, b)
        assert isinstance(out, nx.Tensor)
        np.testing.assert_array_equal(out.numpy(), fn(a, b).numpy())


def test_unary_operators_and_logical_operators():
    x = nx.array([-1.5, 2.0])
    assert str(-x) == "float64 [2] [1.5, -2]"
    assert +x is x
    assert str(abs(x)) == "float64 [2] [1.5, 2]"
    p, q = nx.array([True, False]), nx.array([True, True])
    assert str(~p) == "bool [2] [False, True]"
    assert str(p & q) == "bool [2] [True, False]"
    assert str(p | q) == "bool [2] [True, True]"
    assert str(np.array([False, False]) | p) == "bool [2] [True, False]"


def test_relu_clip_where_values():
    x = nx.array([-2.0, 0.0, 0.5, 3.0])
    assert str(nx.relu(x)) == "float64 [4] [0, 0, 0.5, 3]"
    assert str(nx.clip(x, 0, 1)) == "float64 [4] [0, 0, 0.5, 1]"
    assert str(nx.clip(x, None, 1)) == "float64 [4] [-2, 0, 0.5, 1]"
    assert str(nx.clip(x, a_min=0)) == "float64 [4] [0, 0, 0.5, 3]"
    np.testing.assert_array_equal(nx.clip(x, nx.array([0.0, 1.0, -1.0, 0.0]), 2).numpy(),
                                  np.clip(x.numpy(), [0.0, 1.0, -1.0, 0.0], 2))
    assert str(nx.where(x > 0, x, 10.0)) == "float64 [4] [10, 10, 0.5, 3]"
    assert nx.relu(x.astype(nx.float32)).dtype == nx.float32
    assert nx.where(x > 0, x.astype(nx.float32), 0).dtype == nx.float32


def test_round_decimals_and_floor_of_ints():
    x = nx.array([1.2345, -2.5, 0.5])
    np.testing.assert_array_equal(nx.round(x, 2).numpy(), np.round(x.numpy(), 2))
    np.testing.assert_array_equal(nx.round(x).numpy(), [1.0, -2.0, 0.0])
    assert str(nx.round(nx.array([1234, 5678]), -2)) == "int64 [2] [1200, 5700]"
    assert str(x.round(1)) == "float64 [3] [1.2, -2.5, 0.5]"


def test_angle_degrees_and_numbers():
    assert str(nx.angle(1j, deg=True)) == "float64 [] 90"
    assert str(nx.angle(nx.array([-2.0, 3.0]))) == "float64 [2] [3.141592653589793, 0]"
    assert nx.angle(nx.array([1j], dtype=nx.complex64)).dtype == nx.float32


def test_sigmoid_is_stable_at_large_magnitudes():
    x = nx.array([-800.0, -40.0, 40.0, 800.0])
    out = nx.sigmoid(x).numpy()
    assert np.all(np.isfinite(out))
    np.testing.assert_allclose(out, [0.0, np.exp(-40.0), 1.0, 1.0], rtol=1e-12, atol=0)


# ------------------------------------------------------------ derivatives


@pytest.mark.parametrize("name, dtype", cases(UNARY, kinds={"smooth", "zero"},
                                              dtypes=(F64, C128)))
def test_unary_derivatives_match_differences(name, dtype):
    fn = getattr(nx, name)
    x = points(UNARY[name][1], dtype)
    rune.check_grads(fn, (x,), order=2, modes=("fwd", "rev"))
    if dtype is C128:  # and through a real-valued function of it, as grad sees it
        rune.check_grads(lambda z: nx.sum(nx.real(fn(z) * nx.conj(fn(z)))), (x,), order=2)


def test_complex_sign_moves_along_the_circle():
    z = points(None, C128)
    rune.check_grads(nx.sign, (z,), order=2)
    _, tangent = rune.jvp(nx.sign, (nx.array(0j),), (nx.array(1 + 1j),))
    assert tangent.item() == 0  # at 0 the derivative is taken as 0


@pytest.mark.parametrize("name, dtype", cases(BINARY, kinds={"smooth", "zero"},
                                              dtypes=(F64, C128)))
def test_binary_derivatives_match_differences(name, dtype):
    _, xdom, ydom = BINARY[name][:3]
    x, y = points(xdom, dtype, (2, 4)), points(ydom, dtype, (4,), shift=0.21)
    fn = getattr(nx, name)
    rune.check_grads(fn, (x, y), order=2, modes=("fwd", "rev"))
    rune.check_grads(lambda x: fn(x, 1.25), (x,), order=2)  # a number on either side
    rune.check_grads(lambda y: fn(2.5, y), (y,), order=2)


def test_where_and_clip_derivatives():
    x, y = points((-2, 2), F64, (2, 4)), points((-2, 2), F64, (4,), shift=0.5)
    condition = nx.array([True, False, True, False])
    rune.check_grads(lambda x, y: nx.where(condition, x, y), (x, y), order=2)
    rune.check_grads(lambda x: nx.clip(x, -1.0, 1.0), (x,), order=2)
    rune.check_grads(lambda lo, hi: nx.clip(x, lo, hi), (nx.array(-1.0), nx.array(1.0)),
                     order=2)
    z = points(None, C128, (2, 4))
    rune.check_grads(lambda z: nx.where(condition, z, 1j), (z,), order=2)


@pytest.mark.parametrize("name", [n for n, e in UNARY.items() if e[-1] == "smooth"])
def test_float32_gradients_stay_float32(name):
    fn = getattr(nx, name)
    x = points(UNARY[name][1], F32)
    g = rune.grad(lambda x: nx.sum(nx.real(fn(x))))(x)
    assert g.dtype == np.float32
    _, tangent = rune.jvp(fn, (x,), (nx.ones_like(x),))
    assert tangent.dtype == fn(x).dtype


@pytest.mark.parametrize("name", [n for n, e in BINARY.items() if e[-1] == "smooth"])
def test_float32_gradients_stay_float32_binary(name):
    _, xdom, ydom = BINARY[name][:3]
    x, y = points(xdom, F32), points(ydom, F32, shift=0.21)
    fn = getattr(nx, name)
    gx, gy = rune.grad(lambda x, y: nx.sum(fn(x, y) * 2), argnums=(0, 1))(x, y)
    assert gx.dtype == gy.dtype == np.float32
    assert rune.grad(lambda x: nx.sum(fn(x, 1.5)))(x).dtype == np.float32
    assert rune.grad(lambda y: nx.sum(fn(2.5, y)))(y).dtype == np.float32


def test_gradients_match_closed_forms():
    x = nx.array([0.5, 1.5])
    v = x.numpy()
    cases_ = [
        (lambda x: x / 2, 0.5 * np.ones(2)),  # the divisor an int: not numpy's 1 // 2
        (lambda x: 2 / x, -2 / v**2),
        (lambda x: x**3, 3 * v**2),
        (lambda x: 2**x, np.log(2) * 2**v),
        (lambda x: nx.log2(x), 1 / (v * np.log(2))),
        (lambda x: nx.arctan2(x, 1.0), 1 / (1 + v**2)),
        (lambda x: nx.sigmoid(x), _sigmoid(v) * (1 - _sigmoid(v))),
        (lambda x: x % 0.4, np.ones(2)),
    ]
    for f, expected in cases_:
        np.testing.assert_allclose(rune.grad(lambda x, f=f: nx.sum(f(x)))(x).numpy(), expected,
                                   rtol=1e-13)


def test_mixed_precision_tangents_take_the_output_dtype():
    x32 = nx.array([1.0, 2.0], dtype=nx.float32)
    y64 = nx.array([3.0, 4.0])
    for f in (lambda x: x + y64, lambda x: y64 - x, lambda x: nx.where(x > 0, x, y64)):
        out, tangent = rune.jvp(f, (x32,), (nx.ones_like(x32),))
        assert out.dtype == tangent.dtype == np.float64
    out, tangent = rune.jvp(lambda x: x + 1j, (y64,), (nx.ones_like(y64),))
    assert tangent.dtype == np.complex128
    assert rune.grad(lambda x: nx.sum(x + y64))(x32).dtype == np.float32


# ------------------------------------------------------------ kinks


def test_kinks_follow_the_decided_conventions():
    g = lambda f: rune.grad(lambda x: nx.sum(f(x)))  # noqa: E731
    zero = nx.array([0.0, 0.0])
    assert str(g(nx.abs)(zero)) == "float64 [2] [0, 0]"
    assert str(g(nx.abs)(nx.array([0j]))) == "complex128 [1] [0+0i]"
    assert str(g(nx.relu)(nx.array([0.0, -1.0, 2.0]))) == "float64 [3] [0, 0, 1]"
    gx, gy = rune.grad(lambda x, y: nx.maximum(x, y), argnums=(0, 1))(nx.array(1.0),
                                                                      nx.array(1.0))
    assert (gx.item(), gy.item()) == (0.5, 0.5)
    gx, gy = rune.grad(lambda x, y: nx.minimum(x, y), argnums=(0, 1))(nx.array(2.0),
                                                                      nx.array(2.0))
    assert (gx.item(), gy.item()) == (0.5, 0.5)
    assert g(lambda x: nx.maximum(x, x))(nx.array(3.0)).item() == 1.0  # the halves add up
    assert str(g(lambda x: nx.clip(x, 0, 1))(nx.array([0.0, 0.5, 1.0, 2.0]))) == \
        "float64 [4] [0.5, 1, 0.5, 0]"
    with np.errstate(divide="ignore"):
        assert g(nx.sqrt)(nx.array(0.0)).item() == np.inf
    # 0 ** y: its derivative in y is taken as 0 (the limit along x -> 0+)
    assert rune.grad(lambda y: nx.power(0.0, y))(nx.array(2.0)).item() == 0.0
    assert rune.grad(lambda x: nx.power(x, 0))(nx.array(0.0)).item() == 0.0


@pytest.mark.parametrize("name", [n for n, e in UNARY.items() if e[-1] == "zero"])
def test_piecewise_constant_ops_have_zero_gradients(name):
    x = points((-2, 2), F64)
    assert str(rune.grad(lambda x: nx.sum(getattr(nx, name)(x)))(x)) == \
        "float64 [4] [0, 0, 0, 0]"
    rune.check_grads(getattr(nx, name), (x,), order=1)


@pytest.mark.parametrize("name", [n for n, e in BINARY.items() if e[-1] == "bool"]
                         + ["floor_divide"])
def test_comparisons_carry_no_tangent(name):
    x, y = points((-2, 2), F64), points((-2, 2), F64, shift=0.3)
    fn = getattr(nx, name)
    out, tangent = rune.jvp(fn, (x, y), (nx.ones_like(x), nx.ones_like(y)))
    np.testing.assert_array_equal(tangent.numpy(), np.zeros_like(out.numpy()))
    # used as a mask, they let the derivative through the other factor only
    g = rune.grad(lambda x: nx.sum(nx.astype(fn(x, y), nx.float64) * x))(x)
    np.testing.assert_array_equal(g.numpy(), np.asarray(fn(x, y).numpy(), float))


@pytest.mark.parametrize("name", [n for n, e in UNARY.items() if e[-1] == "bool"])
def test_predicates_carry_no_tangent(name):
    x = nx.array([1.0, np.nan, np.inf])
    out, tangent = rune.jvp(getattr(nx, name), (x,), (nx.ones_like(x),))
    assert tangent.dtype == np.bool_ and not tangent.numpy().any()


def test_astype_derivatives_and_identity():
    x = nx.array([1.5, -2.0])
    assert nx.astype(x, nx.float64) is x
    assert nx.astype(x, "float32").dtype == nx.float32
    g = rune.grad(lambda x: nx.sum(nx.astype(x, nx.float32) * 3))(x)
    assert str(g) == "float64 [2] [3, 3]"
    rune.check_grads(lambda x: nx.astype(x, nx.complex128) * (1 + 2j), (x,), order=2)
    rune.check_grads(lambda z: nx.astype(z, nx.float64) * 2, (nx.array([1 + 2j]),), order=2)
    g = rune.grad(lambda x: nx.sum(x * nx.astype(nx.astype(x, nx.int64), nx.float64)))(x)
    assert str(g) == "float64 [2] [1, -2]"  # the int conversion carries no derivative
    assert str(nx.astype(nx.array([1 + 2j]), nx.float64)) == "float64 [1] [1]"


# ------------------------------------------------------------ abstract rules and vmap


def _abstract_args(name, table, dtype, arity):
    entry = table[name]
    if arity == 1:
        return [points(entry[1], dtype, (2, 3))]
    return [points(entry[1], dtype, (2, 3)), points(entry[2], dtype, (3,), shift=0.2)]


@pytest.mark.parametrize("name, dtype", cases(UNARY))
def test_unary_abstract_rules_match_eager(name, dtype):
    assert_abstract_matches(getattr(nx, name), *_abstract_args(name, UNARY, dtype, 1))


@pytest.mark.parametrize("name, dtype", cases(BINARY))
def test_binary_abstract_rules_match_eager(name, dtype):
    fn = getattr(nx, name)
    x, y = _abstract_args(name, BINARY, dtype, 2)
    assert_abstract_matches(fn, x, y)
    assert_abstract_matches(lambda x: fn(x, 2), x)  # a weak number: the dtype stays
    assert_abstract_matches(lambda y: fn(3.0, y), y)
    assert_abstract_matches(lambda x: fn(x, np.float64(2.0)), x)  # a strong one promotes


def test_other_abstract_rules_match_eager():
    x = points((-2, 2), F32, (2, 3))
    assert_abstract_matches(lambda x: nx.where(x > 0, x, 0), x)
    assert_abstract_matches(lambda x: nx.where(x > 0, x, nx.zeros(3)), x)
    assert_abstract_matches(lambda x: nx.clip(x, -1, 1), x)
    assert_abstract_matches(lambda x: nx.round(x, 2), x)
    assert_abstract_matches(lambda x: nx.astype(x, nx.complex64), x)
    assert_abstract_matches(lambda x: nx.angle(x * 1j), x)
    assert_abstract_matches(lambda x: nx.divide(x.astype(nx.int32), 2), x)


@pytest.mark.parametrize("name", [n for n in UNARY])
def test_unary_vmap_matches_loop(name):
    dtype = C128 if UNARY[name][2] else F64
    x = points(UNARY[name][1], dtype, (4, 3)).numpy()
    assert_vmap_matches_loop(getattr(nx, name), x)


@pytest.mark.parametrize("name", [n for n in BINARY])
def test_binary_vmap_matches_loop_across_ranks(name):
    _, xdom, ydom = BINARY[name][:3]
    fn = getattr(nx, name)
    x = points(xdom, F64, (3, 2, 4)).numpy()  # per example: (2, 4)
    y = points(ydom, F64, (3, 4), shift=0.2).numpy()  # per example: (4,)
    unbatched = points(ydom, F64, (2, 4), shift=0.4)
    with np.errstate(invalid="ignore"):  # power: negative ** fractional is nan
        assert_vmap_matches_loop(fn, x, y)  # both batched, different ranks
        assert_vmap_matches_loop(fn, y, x)
        assert_vmap_matches_loop(lambda y: fn(y, unbatched), y)  # batched rank below unbatched
        assert_vmap_matches_loop(lambda x: fn(unbatched, x), x)
        assert_vmap_matches_loop(lambda x: fn(x, 1.5), x)


def test_vmap_over_other_axes_and_of_derivatives():
    x = points((-2, 2), F64, (2, 3))
    out = rune.vmap(nx.multiply, in_axes=(1, None))(x, nx.array([2.0, 3.0]))
    np.testing.assert_array_equal(out.numpy(), x.numpy().T * [2.0, 3.0])
    c = np.array([[True, False, True], [False, False, True]])
    out = rune.vmap(lambda c: nx.where(c, x, 0.0))(c)  # only the condition batched
    np.testing.assert_array_equal(out.numpy(), np.where(c[:, None], x.numpy(), 0.0))
    df = rune.grad(lambda x: nx.sum(nx.relu(x) * nx.sin(x) + nx.clip(x, -1, 1)))
    assert_vmap_matches_loop(df, points((-2, 2), F64, (4, 3)).numpy())
    assert_vmap_matches_loop(rune.grad(lambda z: nx.sum(nx.abs(nx.sign(z) * z * z))),
                             points(None, C128, (4, 3)).numpy())


# ------------------------------------------------------------ errors


@pytest.mark.parametrize("name", BINARY)
def test_shapes_that_do_not_broadcast_name_the_function(name):
    fn = getattr(nx, name)  # remainder is mod, under its other name
    with pytest.raises(ValueError, match=rf"nx.{fn.__name__}: shapes \(2,\) and \(3,\) do not "
                                         r"broadcast together"):
        fn(nx.ones(2), nx.ones(3))


def test_broadcast_errors_of_operators_where_and_traced_values():
    with pytest.raises(ValueError, match=r"the \+ operator \(nx.add\): shapes \(2, 3\) and "
                                         r"\(2,\) do not broadcast"):
        nx.ones((2, 3)) + nx.ones(2)
    with pytest.raises(ValueError, match=r"the \* operator \(nx.multiply\): shapes \(4,\) and "
                                         r"\(2, 3\)"):
        np.ones(4) * nx.ones((2, 3))
    with pytest.raises(ValueError, match=r"nx.where: shapes \(2,\), \(3,\) and \(\) do not"):
        nx.where(nx.ones(2) > 0, nx.ones(3), 0)
    with pytest.raises(ValueError, match=r"nx.clip: shapes \(2,\) and \(3,\)"):
        nx.clip(nx.ones(2), nx.zeros(3), None)
    # under vmap: the shapes of one example, as the function sees them
    with pytest.raises(ValueError, match=r"the \+ operator \(nx.add\): shapes \(2,\) and \(3,\)"):
        rune.vmap(lambda a: a + nx.ones(3))(nx.ones((4, 2)))
    with pytest.raises(ValueError, match=r"nx.power: shapes \(2,\) and \(3,\)"):
        rune.grad(lambda a: nx.sum(nx.power(a, nx.ones(3))))(nx.ones(2))
    with new_trace(GraphTrace) as trace:  # traced on shapes alone, as jit does
        a, b = trace.new_var((2,), np.float64), trace.new_var((5,), np.float64)
        with pytest.raises(ValueError, match=r"nx.subtract: shapes \(2,\) and \(5,\)"):
            nx.subtract(a, b)


def test_other_bad_arguments():
    x = nx.array([1.0])
    with pytest.raises(TypeError, match="nx.astype: unknown dtype 'float8'"):
        nx.astype(x, "float8")
    with pytest.raises(TypeError, match=r"nx.astype: unknown dtype <class 'str'>"):
        x.astype(str)
    with pytest.raises(TypeError, match="nx.clip: min and a_min name the same bound"):
        nx.clip(x, 0, a_min=1)
    with pytest.raises(TypeError, match="nx.round: decimals must be an int, got 1.5"):
        nx.round(x, 1.5)
    with pytest.raises(TypeError, match="ufunc 'floor' not supported"):
        nx.floor(nx.array([1j]))
    with pytest.raises(TypeError, match="nx.real: expected numbers, got NoneType"):
        nx.real(None)  # was a tensor holding None
    with pytest.raises(TypeError, match="nx.imag: expected numbers, got str"):
        nx.imag("a")


@pytest.mark.parametrize("name", ["maximum", "minimum", "equal", "not_equal", "less",
                                  "less_equal", "greater", "greater_equal", "logical_and",
                                  "logical_or", "logical_xor"])
def test_comparisons_of_what_is_not_numbers_raise(name):
    # numpy answers None == 1 with False and "a" and 1 with True.
    fn = getattr(nx, name)
    with pytest.raises(TypeError, match=rf"^nx.{name}: expected numbers, got NoneType data"):
        fn(None, 1)
    with pytest.raises(TypeError, match=rf"^nx.{name}: expected numbers, got str data"):
        fn(nx.array([1.0]), "a")


def test_where_and_logical_not_of_what_is_not_numbers_raise():
    with pytest.raises(TypeError, match="^nx.where: expected numbers, got NoneType"):
        nx.where(nx.array([True]), None, 2)  # was a tensor of objects
    with pytest.raises(TypeError, match="^nx.where: expected numbers, got NoneType"):
        nx.where(None, 1, 2)
    with pytest.raises(TypeError, match="^nx.logical_not: expected numbers, got NoneType"):
        nx.logical_not(None)  # was True
    with pytest.raises(TypeError, match="^nx.clip: expected numbers, got str"):
        nx.clip(nx.array([1.0]), None, "a")


def test_real_and_imag_of_python_numbers_are_tensors():
    # np.real(2.0) is the float 2.0: it made a tensor without a dtype.
    assert nx.real(2.0).dtype == np.float64 and nx.imag(1 + 2j).item() == 2.0
