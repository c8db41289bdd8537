"""Reductions: values against numpy, derivatives (check_grads, ties, zeros),
abstract rules, vmap against a loop, and the errors."""

import numpy as np
import pytest

import rune
from rune import nx
from tests.util import assert_abstract_matches, assert_vmap_matches_loop

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 3, 4))
Z = X + 1j * RNG.standard_normal((2, 3, 4))
DTYPES = [np.float64, np.float32, np.complex128]
AXES = [None, 0, -1, (0, 2), (), (-1, 1)]


def _data(dtype):
    return (Z if np.dtype(dtype).kind == "c" else X).astype(dtype)


def _np_logsumexp(x, axis=None, keepdims=False):
    return np.log(np.sum(np.exp(x), axis=axis, keepdims=keepdims))


def _np_softmax(x, axis=-1):
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)


# (nx function, numpy function, takes complex, takes an axis tuple)
REDUCTIONS = {
    "sum": (nx.sum, np.sum, True),
    "prod": (nx.prod, np.prod, True),
    "mean": (nx.mean, np.mean, True),
    "var": (nx.var, np.var, True),
    "std": (nx.std, np.std, True),
    "max": (nx.max, np.max, True),
    "min": (nx.min, np.min, True),
    "all": (nx.all, np.all, True),
    "any": (nx.any, np.any, True),
    "logsumexp": (nx.logsumexp, _np_logsumexp, True),
}


def _close(got, expected, dtype):
    got = np.asarray(got)
    expected = np.asarray(expected)
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    tol = 1e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(got, expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions_match_numpy(name, dtype, axis, keepdims):
    fn, np_fn, _ = REDUCTIONS[name]
    x = _data(dtype)
    expected = np_fn(x, axis=axis, keepdims=keepdims)
    _close(fn(nx.array(x), axis=axis, keepdims=keepdims), expected, dtype)


@pytest.mark.parametrize("ddof", [0, 1, 2])
@pytest.mark.parametrize("fn, np_fn", [(nx.var, np.var), (nx.std, np.std)])
def test_ddof(fn, np_fn, ddof):
    for x in (X, Z):
        _close(fn(nx.array(x), axis=1, ddof=ddof), np_fn(x, axis=1, ddof=ddof), x.dtype)


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", [None, 0, -1, 1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_arg_reductions_match_numpy(name, dtype, axis, keepdims):
    x = _data(dtype)
    got = getattr(nx, name)(nx.array(x), axis=axis, keepdims=keepdims)
    _close(got, getattr(np, name)(x, axis=axis, keepdims=keepdims), dtype)


@pytest.mark.parametrize("dtype", DTYPES + [np.int32, np.bool_])
@pytest.mark.parametrize("axis", [None, 0, -1, 1])
def test_cumsum_matches_numpy(dtype, axis):
    x = _data(dtype) if np.dtype(dtype).kind in "fc" else (X > 0).astype(dtype)
    _close(nx.cumsum(nx.array(x), axis=axis), np.cumsum(x, axis=axis), dtype)


@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
def test_softmax_and_log_softmax_match_numpy(axis):
    for x in (X, Z, X.astype(np.float32)):
        _close(nx.softmax(nx.array(x), axis=axis), _np_softmax(x, axis=axis), x.dtype)
        _close(nx.log_softmax(nx.array(x), axis=axis), np.log(_np_softmax(x, axis=axis)),
               x.dtype)


def test_integer_and_boolean_inputs_follow_numpy_types():
    ints = np.arange(6).reshape(2, 3)
    for name in ("sum", "prod", "mean", "var", "max", "all"):
        fn, np_fn, _ = REDUCTIONS[name]
        _close(fn(nx.array(ints), axis=0), np_fn(ints, axis=0), np.float64)
    _close(nx.sum(nx.array(ints > 2)), np.sum(ints > 2), np.float64)
    assert nx.sum([1, 2, 3]).item() == 6  # lists convert as in numpy


def test_empty_and_zero_dimensional_reductions():
    empty = np.zeros((0, 3))
    for fn, np_fn in [(nx.sum, np.sum), (nx.prod, np.prod), (nx.all, np.all),
                      (nx.any, np.any)]:
        for axis in (None, 0, 1):
            _close(fn(nx.array(empty), axis=axis), np_fn(empty, axis=axis), np.float64)
    _close(nx.max(nx.array(empty), axis=1), np.max(empty, axis=1), np.float64)
    scalar = nx.array(2.5)
    for name in ("sum", "prod", "mean", "max", "logsumexp"):
        fn, np_fn, _ = REDUCTIONS[name]
        _close(fn(scalar), np_fn(np.array(2.5)), np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):  # log(0), 0 / 0: as numpy
        assert str(nx.logsumexp(nx.array(empty), axis=0)) == "float64 [3] [-inf, -inf, -inf]"
        assert str(nx.logsumexp(nx.array([-np.inf, -np.inf]))) == "float64 [] -inf"
        assert np.isnan(nx.mean(nx.array(empty)).item())


def test_logsumexp_and_softmax_do_not_overflow():
    big = nx.array([1000.0, 1000.0 + np.log(3.0)])
    assert nx.logsumexp(big).item() == pytest.approx(1000 + np.log(4.0), rel=1e-15)
    np.testing.assert_allclose(nx.softmax(big).numpy(), [0.25, 0.75], rtol=1e-12)
    np.testing.assert_allclose(nx.log_softmax(big).numpy(), np.log([0.25, 0.75]), rtol=1e-12)
    g = rune.grad(nx.logsumexp)(big)
    np.testing.assert_allclose(g.numpy(), [0.25, 0.75], rtol=1e-12)


def test_allclose_returns_a_python_bool():
    a = nx.array([1.0, 2.0])
    assert nx.allclose(a, [1.0, 2.0 + 1e-9]) is True
    assert nx.allclose(a, a + 1e-3) is False
    assert nx.allclose(nx.array([np.nan]), nx.array([np.nan]), equal_nan=True) is True
    # Under differentiation the values are there; under vmap they are not.
    assert rune.grad(lambda x: nx.sum(x) * float(nx.allclose(x, a)))(a).tolist() == [1, 1]
    with pytest.raises(rune.TracedValueError, match="nx.allclose: the value is traced by "
                                                    "rune.vmap"):
        rune.vmap(lambda x: nx.allclose(x, 1.0))(a)


# ----------------------------------------------------------------- derivatives

SMOOTH = [
    ("sum", lambda x, axis: nx.sum(x, axis=axis)),
    ("sum keepdims", lambda x, axis: nx.sum(x, axis=axis, keepdims=True)),
    ("prod", lambda x, axis: nx.prod(x, axis=axis)),
    ("mean", lambda x, axis: nx.mean(x, axis=axis)),
    ("var", lambda x, axis: nx.var(x, axis=axis)),
    ("var ddof", lambda x, axis: nx.var(x, axis=axis, ddof=1, keepdims=True)),
    ("std", lambda x, axis: nx.std(x, axis=axis)),
    ("max", lambda x, axis: nx.max(x, axis=axis)),
    ("min", lambda x, axis: nx.min(x, axis=axis, keepdims=True)),
    ("logsumexp", lambda x, axis: nx.logsumexp(x, axis=axis)),
    ("softmax", lambda x, axis: nx.softmax(x, axis=axis)),
    ("log_softmax", lambda x, axis: nx.log_softmax(x, axis=axis)),
    ("cumsum", lambda x, axis: nx.cumsum(x, axis=axis if axis != (0, 2) else 1)),
]
X_SMALL = RNG.standard_normal((2, 3, 3))
# Smaller for complex: the product of 18 complex numbers has derivatives large
# enough for the central differences' truncation error to show at order 2.
Z_SMALL = X_SMALL[:, :2] + 1j * RNG.standard_normal((2, 2, 3))


def _squared_modulus(g):
    return lambda z: nx.sum(nx.real(g(z) * nx.conj(g(z))))


@pytest.mark.parametrize("name, op", SMOOTH, ids=[s[0] for s in SMOOTH])
@pytest.mark.parametrize("axis", [None, -1, (0, 2)])
def test_check_grads_float64(name, op, axis):
    rune.check_grads(lambda x: op(x, axis), (nx.array(X_SMALL),), order=2)


COMPLEX = [s for s in SMOOTH if s[0] not in ("max", "min")]


@pytest.mark.parametrize("name, op", COMPLEX, ids=[s[0] for s in COMPLEX])
@pytest.mark.parametrize("axis", [None, 1])
def test_check_grads_complex128(name, op, axis):
    rune.check_grads(_squared_modulus(lambda z: op(z, axis)), (nx.array(Z_SMALL),), order=2)


def test_complex_max_follows_numpys_order_and_differentiates():
    # numpy orders complex numbers by real part, then imaginary part.
    z = nx.array([1 + 5j, 3 - 1j, 2 + 2j])
    assert str(nx.max(z)) == "complex128 [] 3-1i"
    assert str(nx.min(z)) == "complex128 [] 1+5i"
    for fn in (nx.max, nx.min):
        rune.check_grads(_squared_modulus(fn), (z,), order=2)


def test_max_and_min_split_ties_evenly():
    x = nx.array([1.0, 3.0, 3.0, 0.0, 3.0])
    assert str(rune.grad(nx.max)(x)) == "float64 [5] [0, 0.3333333333333333, " \
                                        "0.3333333333333333, 0, 0.3333333333333333]"
    m = nx.array([[2.0, 2.0], [1.0, 4.0]])
    assert str(rune.grad(lambda m: nx.sum(nx.min(m, axis=1) * nx.array([1.0, 10.0])))(m)) \
        == "float64 [2, 2]\n[[0.5, 0.5],\n [ 10,   0]]"
    # Forward mode agrees: the tangent is the mean of the tied tangents.
    _, t = rune.jvp(nx.max, (x,), (nx.array([0.0, 3.0, 6.0, 100.0, 0.0]),))
    assert t.item() == 3.0


def test_prod_derivatives_are_exact_at_zeros():
    one_zero = nx.array([2.0, 0.0, 3.0, 0.5])
    assert str(rune.grad(nx.prod)(one_zero)) == "float64 [4] [0, 3, 0, 0]"
    two_zeros = nx.array([2.0, 0.0, 3.0, 0.0])
    assert str(rune.grad(nx.prod)(two_zeros)) == "float64 [4] [0, 0, 0, 0]"
    # d2/dx_i dx_j prod(x) = product of the elements other than i and j.
    assert str(rune.hessian(nx.prod)(nx.array([0.0, 2.0, 3.0]))) == (
        "float64 [3, 3]\n[[0, 3, 2],\n [3, 0, 0],\n [2, 0, 0]]")
    rune.check_grads(nx.prod, (two_zeros,), order=2)
    rows = nx.array([[0.0, 2.0, 3.0], [1.0, 2.0, 3.0]])
    assert str(rune.grad(lambda r: nx.sum(nx.prod(r, axis=1)))(rows)) == (
        "float64 [2, 3]\n[[6, 0, 0],\n [6, 3, 2]]")


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13])
def test_prod_gradient_for_every_length(n):
    # The scans run log2(n) passes: check the sizes around powers of two.
    x = np.arange(1.0, n + 1) * 0.5
    x[n // 2] = 0.0
    expected = [np.prod(np.delete(x, i)) for i in range(n)]
    np.testing.assert_allclose(rune.grad(nx.prod)(nx.array(x)).numpy(), expected, rtol=1e-14)


def test_argmax_has_a_zero_derivative_and_an_int_output():
    x = nx.array([1.0, 5.0, 2.0])
    out, t = rune.jvp(nx.argmax, (x,), (nx.array([1.0, 1.0, 1.0]),))
    assert out.dtype == nx.int64 and str(t) == "int64 [] 0"
    # An argmax used as an index: the gradient reaches the winner only.
    assert str(rune.grad(lambda x: x[nx.argmax(x)] * 2.0)(x)) == "float64 [3] [0, 2, 0]"
    assert str(rune.grad(lambda x: x[nx.argmin(x)] * 2.0)(x)) == "float64 [3] [2, 0, 0]"


def test_cumsum_transposes_to_a_reversed_cumsum():
    transpose = rune.linear_transpose(nx.cumsum, nx.array([0.0, 0.0, 0.0]))
    assert str(transpose(nx.array([1.0, 10.0, 100.0]))[0]) == "float64 [3] [111, 110, 100]"


# ------------------------------------------------------ abstract rules, vmap

ALL_OPS = [
    ("sum", lambda x: nx.sum(x, axis=(0, 2), keepdims=True)),
    ("prod", lambda x: nx.prod(x, axis=1)),
    ("mean", lambda x: nx.mean(x, axis=-1)),
    ("var", lambda x: nx.var(x, axis=0, ddof=1)),
    ("std", lambda x: nx.std(x)),
    ("max", lambda x: nx.max(x, axis=1)),
    ("min", lambda x: nx.min(x, axis=(0, 1), keepdims=True)),
    ("argmax", lambda x: nx.argmax(x, axis=1)),
    ("argmin", lambda x: nx.argmin(x, keepdims=True)),
    ("all", lambda x: nx.all(x, axis=0)),
    ("any", lambda x: nx.any(x, axis=-1, keepdims=True)),
    ("cumsum", lambda x: nx.cumsum(x, axis=1)),
    ("cumsum flat", lambda x: nx.cumsum(x)),
    ("logsumexp", lambda x: nx.logsumexp(x, axis=1)),
    ("softmax", lambda x: nx.softmax(x)),
    ("log_softmax", lambda x: nx.log_softmax(x, axis=0)),
]


@pytest.mark.parametrize("name, op", ALL_OPS, ids=[o[0] for o in ALL_OPS])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.int64, np.bool_])
def test_abstract_rules_match_eager(name, op, dtype):
    if name in ("logsumexp", "softmax", "log_softmax") and np.dtype(dtype).kind in "ib":
        return  # exp of ints is float: covered by the float cases
    x = nx.array(_data(dtype) if np.dtype(dtype).kind in "fc" else (X * 3).astype(dtype))
    assert_abstract_matches(op, x)


@pytest.mark.parametrize("name, op", ALL_OPS, ids=[o[0] for o in ALL_OPS])
@pytest.mark.parametrize("in_axes", [0, 1, -1])
def test_vmap_matches_loop(name, op, in_axes):
    batch = RNG.standard_normal((3, 2, 3, 4))  # 3-d examples along each axis
    assert_vmap_matches_loop(op, nx.array(batch), in_axes=in_axes)


def test_vmap_of_gradients_of_reductions():
    # Per-example gradients go through the batch rules of the jvp rules' ops.
    rows = nx.array([[2.0, 0.0, 3.0], [1.0, 4.0, 4.0]])
    per_row = rune.vmap(rune.grad(lambda r: nx.prod(r) + nx.max(r)))(rows)
    assert str(per_row) == "float64 [2, 3]\n[[  0,   6,   1],\n [ 16, 4.5, 4.5]]"


# -------------------------------------------------------------------- errors


@pytest.mark.parametrize("fn", [nx.sum, nx.prod, nx.mean, nx.var, nx.std, nx.max, nx.min,
                                nx.all, nx.any, nx.logsumexp])
def test_axis_out_of_range_names_the_axis_and_the_rank(fn):
    name = f"nx.{fn.__name__}"
    with pytest.raises(ValueError, match=rf"^{name}: axis 2 is out of range for a tensor with "
                                         rf"2 axes \(expected -2 <= axis < 2\)$"):
        fn(nx.array([[1.0]]), axis=2)
    with pytest.raises(ValueError, match=rf"{name}: axis -3 is out of range"):
        fn(nx.array([[1.0]]), axis=(0, -3))
    with pytest.raises(ValueError, match=rf"{name}: axis \(0, -2\) repeats an axis"):
        fn(nx.array([[1.0]]), axis=(0, -2))


@pytest.mark.parametrize("fn", [nx.sum, nx.prod, nx.mean, nx.var, nx.std, nx.max, nx.min,
                                nx.argmax, nx.argmin, nx.cumsum, nx.all, nx.any,
                                nx.logsumexp, nx.softmax, nx.log_softmax])
def test_data_that_is_not_numbers_raises_naming_the_function(fn):
    name = f"nx.{fn.__name__}"
    with pytest.raises(TypeError, match=rf"^{name}: expected numbers, got NoneType data"):
        fn(None)
    with pytest.raises(TypeError, match=rf"^{name}: expected numbers, got str data"):
        fn("ab")  # was an answer for nx.all, numpy's error for nx.sum
    with pytest.raises(ValueError, match=rf"^{name}: ragged nested sequence"):
        fn([[1.0], [1.0, 2.0]])


def test_other_bad_axes_and_empty_reductions():
    with pytest.raises(ValueError, match="nx.argmax: axis 1 is out of range for a tensor "
                                         "with 1 axes"):
        nx.argmax(nx.array([1.0]), axis=1)
    with pytest.raises(ValueError, match="nx.cumsum: axis -3 is out of range"):
        nx.cumsum(nx.array([[1.0]]), axis=-3)
    with pytest.raises(ValueError, match="nx.softmax: axis -1 is out of range for a 0-d "
                                         "tensor"):
        nx.softmax(nx.array(1.0))
    with pytest.raises(TypeError, match="nx.sum: axis must be an int, got float"):
        nx.sum(nx.array([1.0]), axis=0.5)
    with pytest.raises(ValueError, match=r"nx.max: cannot reduce axis 0, which has size 0 "
                                         r"\(shape \(0, 3\)\)"):
        nx.max(nx.array(np.zeros((0, 3))))
    with pytest.raises(ValueError, match=r"nx.argmin: the tensor is empty \(shape \(0,\)\)"):
        nx.argmin(nx.array(np.zeros(0)))
