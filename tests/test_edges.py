"""Numbers at the edges: each case once gave a wrong number or differed from JAX.

- jit's deduplication of repeated work keeps constants apart unless their
  bits, dtype and shape agree (0.0 and -0.0, NaN payloads);
- repeated argnums raise;
- checkpoint replays the same random numbers in the backward pass;
- Python numbers stay weakly typed through every operation under jit;
- closed-over numpy arrays are captured once, when jit traces or reverse mode
  records (a pullback called later keeps the values it saw);
- check_grads catches a 4%-wrong float32 rule, and refuses to check nothing;
- cond checks both branches' outputs in every mode;
- std and var at zero variance have a NaN derivative (as in JAX).
"""

import math
from pathlib import Path

import numpy as np
import pytest

import rune
from rune import nx

# ------------------------------------------------- jit: constants by their bits


def test_jit_keeps_zero_and_negative_zero_apart():
    def f(x):
        return nx.arctan2(x * -0.0, -1.0) - nx.arctan2(x * 0.0, -1.0)

    x = nx.array(1.0)
    assert float(f(x)) == -2 * math.pi
    assert float(rune.jit(f)(x)) == -2 * math.pi


def test_jit_keeps_nans_with_different_payloads_apart():
    nan_a = np.frombuffer(np.uint64(0x7FF8000000000001).tobytes(), np.float64)[0].item()
    nan_b = np.frombuffer(np.uint64(0x7FF8000000000002).tobytes(), np.float64)[0].item()

    def f(x):
        return x * nan_a, x * nan_b

    x = nx.array([1.0, 2.0])
    bits = [out.numpy().view(np.uint64) for out in f(x)]
    assert not np.array_equal(bits[0], bits[1])  # the payloads survive multiplication
    for got, expected in zip(rune.jit(f)(x), bits):
        np.testing.assert_array_equal(got.numpy().view(np.uint64), expected)


def test_jit_keeps_params_equal_as_numbers_but_not_as_bits_apart():
    def f(x):
        return nx.sum(nx.full((2,), -0.0) + x), nx.sum(nx.full((2,), 0.0) + x)

    x = nx.array(-0.0)
    expected = [np.signbit(o.numpy()) for o in f(x)]
    assert [np.signbit(o.numpy()) for o in rune.jit(f)(x)] == expected


def test_jit_still_shares_repeated_work():
    # Unfused: fusion may recompute a cheap shared value inside a kernel
    # on purpose (rune/lower/fused.py, RECOMPUTE_BUDGET).
    f = rune.jit(lambda x: nx.sin(x * 2.0) + nx.sin(x * 2.0), fuse=False)
    assert f.source(nx.array(1.0)).count("sin(") == 1


# ------------------------------------------------------------ repeated argnums


@pytest.mark.parametrize("transform", [rune.grad, rune.value_and_grad, rune.jacfwd,
                                       rune.jacrev, rune.hessian])
@pytest.mark.parametrize("argnums", [(0, 0), (0, -2), (1, 0, 1)])
def test_repeated_argnums_raise(transform, argnums):
    f = transform(lambda a, b: a * a * b, argnums=argnums)
    with pytest.raises(ValueError, match=r"argnums=.*names argument \d twice"):
        f(2.0, 3.0)


# ---------------------------------------------------- jit: weak Python numbers


def test_python_numbers_stay_weak_through_arithmetic_under_jit():
    def step(w, g, lr):
        return w - 0.5 * lr * g

    w = nx.array([1.0, 2.0], dtype=nx.float32)
    eager = step(w, w, 0.1)
    assert eager.dtype == nx.float32
    jitted = rune.jit(step)(w, w, 0.1)
    assert jitted.dtype == nx.float32
    np.testing.assert_array_equal(jitted.numpy(), eager.numpy())


def test_python_numbers_stay_weak_when_jit_is_evaluated_by_an_enclosing_transformation():
    step = rune.jit(lambda w, lr: nx.sum(w - (lr * 2.0) * w))
    w = nx.array([1.0, 2.0], dtype=nx.float32)
    g = rune.grad(step)(w, 0.25)
    assert g.dtype == nx.float32
    np.testing.assert_allclose(g.numpy(), [0.5, 0.5])


def test_an_operation_on_python_numbers_alone_is_weak_under_jit():
    f = rune.jit(lambda w, a, b: w * (a + b) * (a < b))
    w = nx.array([1.0], dtype=nx.float32)
    out = f(w, 1.5, 2.0)
    assert out.dtype == nx.float32 and float(out[0]) == 3.5


# -------------------------------------------- checkpoint replays random draws


def test_checkpoint_replays_the_random_numbers_of_the_forward_pass():
    rng = nx.random.default_rng(0)
    noisy = rune.checkpoint(lambda x: x * rng.normal(size=3))  # z drawn inside
    x = nx.array([1.0, 2.0, 4.0])
    out, pullback = rune.vjp(noisy, x)
    z = out.numpy() / x.numpy()  # the draw the value used
    (g,) = pullback(nx.ones(3))
    np.testing.assert_array_equal(g.numpy(), z)
    # The recomputation drew nothing for good: the stream goes on after one draw.
    reference = nx.random.default_rng(0)
    reference.normal(size=3)
    np.testing.assert_array_equal(rng.uniform(size=2).numpy(), reference.uniform(size=2).numpy())


def test_checkpointed_dropout_gradient_belongs_to_its_value():
    rng = nx.random.default_rng(1)

    def dropout(x):
        keep = rng.uniform(size=x.shape) < 0.5
        return nx.where(keep, x * x / 0.5, 0.0)

    x = nx.linspace(1.0, 2.0, 20)
    value, g = rune.value_and_grad(lambda x: nx.sum(rune.checkpoint(dropout)(x) ** 2))(x)
    keep = nx.random.default_rng(1).uniform(size=x.shape).numpy() < 0.5  # the value's mask
    xs = x.numpy()
    expected_value = np.sum(np.where(keep, (xs * xs / 0.5) ** 2, 0.0))
    np.testing.assert_allclose(float(value), expected_value, rtol=1e-14)
    np.testing.assert_allclose(g.numpy(), np.where(keep, 4 * xs ** 3 / 0.25, 0.0), rtol=1e-14)


def test_checkpoint_replays_random_numbers_under_jvp_of_reverse():
    rng = nx.random.default_rng(2)
    noisy = rune.checkpoint(lambda x: nx.sum(nx.sin(x) * rng.normal(size=2)))
    x = nx.array([0.5, 1.5])
    # hvp by forward over reverse: the checkpoint's recomputation runs under jvp too.
    _, hvp = rune.jvp(rune.grad(noisy), (x,), (nx.ones(2),))
    z = nx.random.default_rng(2).normal(size=2).numpy()
    np.testing.assert_allclose(hvp.numpy(), -np.sin(x.numpy()) * z, rtol=1e-14)


# ------------------------------------------ jit: closed-over arrays, captured once


def test_jit_captures_closed_over_numpy_arrays_once_in_every_use():
    a = np.array([1.0, 2.0])

    def f(x):
        return x * a + nx.sum(a) + x @ a + nx.maximum(a, x) + a[0]

    x = nx.array([1.0, 1.0])
    jitted = rune.jit(f)
    first = f(x).numpy()
    np.testing.assert_array_equal(jitted(x).numpy(), first)
    a[:] = [10.0, 20.0]  # changed after tracing: the trace keeps the values it saw
    np.testing.assert_array_equal(jitted(x).numpy(), first)
    np.testing.assert_array_equal(rune.jit(rune.grad(lambda x: nx.sum(f(x))))(x).numpy(),
                                  rune.grad(lambda x: nx.sum(f(x)))(x).numpy())
    jitted.cache_clear()  # a new trace sees the new values
    np.testing.assert_array_equal(jitted(x).numpy(), f(x).numpy())


def test_a_captured_array_is_one_constant_of_the_graph():
    a = np.array([1.0, 2.0])
    graph = rune.make_graph(lambda x: x * a + a)(nx.array([0.0, 0.0]))
    assert str(graph).count("const ") == 1


# ------------------------------------------------------------------ check_grads


def _tanh_with_rule(factor):
    @rune.custom_jvp
    def tanh(x):
        y = nx.tanh(x)
        return y, lambda t: t * (1.0 - y * y) * factor
    return tanh


@pytest.mark.parametrize("mode", ["fwd", "rev"])
def test_check_grads_catches_a_float32_rule_four_percent_wrong(mode):
    x32 = nx.array([0.3, -0.7, 1.1], dtype=nx.float32)
    f = lambda x: nx.sum(_tanh_with_rule(1.04)(x) * 3.0)  # noqa: E731
    with pytest.raises(rune.GradientCheckError, match=f"{mode} mode"):
        rune.check_grads(f, (x32,), modes=(mode,))


@pytest.mark.parametrize("f", [
    lambda x: nx.sum(_tanh_with_rule(1.0)(x) * 3.0),
    lambda x: nx.sum(nx.sin(x) * x),
    lambda x: nx.exp(x) * 10.0,
    lambda x: nx.sum(x * x * x) / 7.0,
    lambda x: nx.sqrt(1.0 + x * x) * nx.cos(x),
], ids=["tanh", "x sin x", "10 exp", "cubes", "sqrt cos"])
def test_check_grads_passes_right_float32_rules_to_second_order(f):
    for seed in range(5):
        x32 = nx.random.default_rng(seed).normal(size=6, dtype=nx.float32)
        rune.check_grads(f, (x32,), order=2)


def test_check_grads_with_nothing_to_check_raises():
    with pytest.raises(TypeError, match="check_grads: no argument has a float or complex"):
        rune.check_grads(lambda n: n * 2, (nx.array([1, 2]),))
    with pytest.raises(TypeError, match="int64"):
        rune.check_grads(lambda n, m: n * m, (3, nx.array([1, 2])))


# ------------------------------------------------- cond: both branches checked

MISMATCHED_BRANCHES = [
    (lambda x: x, lambda x: (x, x), ValueError, "same structure"),
    (lambda x: x, lambda x: nx.stack([x, x]), ValueError, "same shapes and dtypes"),
    (lambda x: x, lambda x: x.astype(nx.float32), TypeError, "same shapes and dtypes"),
]


@pytest.mark.parametrize("pred", [True, False, np.bool_(True)])
@pytest.mark.parametrize("true_fun, false_fun, error, message", MISMATCHED_BRANCHES)
def test_cond_checks_both_branches_with_a_concrete_predicate(pred, true_fun, false_fun, error,
                                                             message):
    with pytest.raises(error, match=message):
        rune.cond(pred, true_fun, false_fun, nx.array(1.0))
    with pytest.raises(error, match=message):  # the predicate is read under grad too
        rune.grad(lambda x: nx.sum(rune.cond(x > 0, true_fun, false_fun, x)))(nx.array(1.0))
    with pytest.raises(error, match=message):  # and traced under jit
        rune.jit(lambda x: rune.cond(x > 0, true_fun, false_fun, x))(nx.array(1.0))


def test_cond_with_a_concrete_predicate_runs_the_branch_taken_only_on_values():
    runs = []

    def taken(x):
        runs.append(type(x).__name__)
        return x * 2.0

    def not_taken(x):
        runs.append(type(x).__name__)
        return x * 3.0

    assert float(rune.cond(True, taken, not_taken, nx.array(1.5))) == 3.0
    assert runs[0] == "Tensor" and runs[1] != "Tensor"  # the other branch is only traced
    assert float(rune.grad(lambda x: rune.cond(False, taken, not_taken, x))(2.0)) == 3.0


# ------------------------------------------------------- std at zero variance


def test_std_at_zero_variance_has_a_nan_derivative_and_var_a_zero_one():
    x = nx.array([2.0, 2.0, 2.0])
    with np.errstate(divide="ignore", invalid="ignore"):
        assert float(nx.std(x)) == 0.0
        assert np.isnan(rune.grad(nx.std)(x).numpy()).all()  # inf * 0, as in JAX
        assert np.isnan(rune.jvp(nx.std, (x,), (nx.ones(3),))[1].numpy())
    np.testing.assert_array_equal(rune.grad(nx.var)(x).numpy(), [0.0, 0.0, 0.0])


def test_the_docs_say_what_std_gives_at_zero_variance():
    assert "derivative is NaN" in nx.std.__doc__
    page = (Path(__file__).parent.parent / "docs" / "kinks-and-nans.md").read_text("utf-8")
    assert "nx.std" in page  # with a tested example there


# --------------------------------------------- lists of traced values (as JAX)


def test_nx_array_of_traced_values_is_differentiable():
    f = lambda x: nx.sum(nx.array([x, x * x, 3.0]) * nx.array([1.0, 2.0, 3.0]))  # noqa: E731
    assert float(f(2.0)) == 2.0 + 8.0 + 9.0
    assert float(rune.grad(f)(2.0)) == 1.0 + 2.0 * 2.0 * 2.0
    def nested(x):
        return nx.sum(nx.asarray([[x, 1.0], [2.0, x * x]], dtype=nx.float64) ** 2)

    assert float(rune.grad(nested)(3.0)) == 2 * 3.0 + 4 * 27.0
    assert float(rune.jit(rune.grad(f))(2.0)) == 9.0
    np.testing.assert_allclose(rune.vmap(rune.grad(f))(nx.array([1.0, 2.0])).numpy(), [5.0, 9.0])


@pytest.mark.parametrize("reduce, derivative", [
    (nx.mean, lambda x: (1 + 2 * x) / 2),
    (nx.var, lambda x: 2 * ((x - (x + x * x) / 2) * (1 - (1 + 2 * x) / 2)
                            + (x * x - (x + x * x) / 2) * (2 * x - (1 + 2 * x) / 2)) / 2),
    (nx.std, lambda x: (2 * x - 1) / 2 * np.sign(x * x - x)),
    (nx.linalg.norm, lambda x: (x + 2 * x ** 3) / np.sqrt(x * x + x ** 4)),
], ids=["mean", "var", "std", "norm"])
def test_reductions_of_lists_of_traced_values_are_differentiable(reduce, derivative):
    g = rune.grad(lambda x: reduce([x, x * x]))
    for x in (2.0, 3.5):
        np.testing.assert_allclose(float(g(x)), derivative(x), rtol=1e-13)


def test_linspace_with_traced_endpoints():
    f = lambda a, b: nx.sum(nx.linspace(a, b, 5) ** 2)  # noqa: E731
    expected = np.sum(np.linspace(1.0, 3.0, 5) ** 2)
    assert float(f(1.0, 3.0)) == pytest.approx(expected, rel=1e-15)
    assert float(rune.jit(f)(1.0, 3.0)) == pytest.approx(expected, rel=1e-15)
    t = np.linspace(0.0, 1.0, 5)
    ga, gb = rune.grad(f, argnums=(0, 1))(1.0, 3.0)
    xs = np.linspace(1.0, 3.0, 5)
    assert float(ga) == pytest.approx(np.sum(2 * xs * (1 - t)), rel=1e-14)
    assert float(gb) == pytest.approx(np.sum(2 * xs * t), rel=1e-14)
    open_end = rune.grad(lambda b: nx.sum(nx.linspace(0.0, b, 4, endpoint=False)))(2.0)
    assert float(open_end) == pytest.approx(np.sum(np.arange(4) / 4), rel=1e-15)
    out = rune.jit(lambda b: nx.linspace(0.0, b, 7))(2.0)
    np.testing.assert_array_equal(out.numpy(), np.linspace(0.0, 2.0, 7))


def test_jit_of_grad_reshapes_a_python_number_argument():
    f = rune.jit(rune.grad(lambda x: nx.sum(nx.stack([x, 2.0 * x]))))
    assert float(f(2.0)) == 3.0


# ------------------------------------------- keyword arguments pass through


def scaled_cube(x, scale=1.0, offset=0.0):
    return nx.sum(x * x * x) * scale + offset


X3 = nx.array([1.0, 2.0])


def test_grad_and_value_and_grad_pass_keyword_arguments_through():
    assert rune.grad(scaled_cube)(X3, scale=2.0).tolist() == [6.0, 24.0]
    value, g = rune.value_and_grad(scaled_cube)(X3, offset=nx.array(1.0), scale=3.0)
    assert float(value) == 28.0 and g.tolist() == [9.0, 36.0]
    # Not differentiated: a keyword argument under an outer grad is a constant here.
    outer = rune.grad(lambda s: nx.sum(rune.grad(scaled_cube)(X3, scale=s)))(2.0)
    assert float(outer) == 15.0


def test_vjp_passes_keyword_arguments_through():
    out, pullback = rune.vjp(scaled_cube, X3, scale=2.0)
    assert float(out) == 18.0 and pullback(nx.array(1.0))[0].tolist() == [6.0, 24.0]
    (out, pullback, aux) = rune.vjp(lambda x, s: (x * s, 1.0), X3, has_aux=True, s=3.0)
    assert out.tolist() == [3.0, 6.0] and aux == 1.0


@pytest.mark.parametrize("jacobian", [rune.jacfwd, rune.jacrev])
def test_jacobians_pass_keyword_arguments_through(jacobian):
    j = jacobian(lambda x, scale: x * x * scale)(X3, scale=3.0)
    np.testing.assert_array_equal(j.numpy(), [[6.0, 0.0], [0.0, 12.0]])


def test_hessian_passes_keyword_arguments_through():
    h = rune.hessian(scaled_cube)(X3, scale=2.0)
    np.testing.assert_array_equal(h.numpy(), [[12.0, 0.0], [0.0, 24.0]])


def test_jit_keys_its_cache_by_keyword_arguments():
    traces = []

    def f(x, scale=1.0, shift=None):
        traces.append(1)
        return x * scale if shift is None else x * scale + shift

    jitted = rune.jit(f)
    assert jitted(X3, scale=2.0).tolist() == [2.0, 4.0]
    assert jitted(X3, scale=3.0).tolist() == [3.0, 6.0]  # a number: the same trace
    assert len(traces) == 1
    assert jitted(X3, scale=2.0, shift=nx.array([1.0, 1.0])).tolist() == [3.0, 5.0]
    assert jitted(X3, shift=nx.array(1.0)).tolist() == [2.0, 3.0]  # another shape
    assert len(traces) == 3


def test_vmap_maps_keyword_arguments_along_axis_0():
    f = rune.vmap(lambda x, y: x * y, in_axes=(None,))
    out = f(nx.array(2.0), y=nx.array([1.0, 2.0, 3.0]))
    assert out.tolist() == [2.0, 4.0, 6.0]
    g = rune.vmap(lambda x, w: nx.sum(x * w["a"]))(nx.ones((2, 3)), w={"a": nx.ones((2, 3))})
    assert g.tolist() == [3.0, 3.0]
    with pytest.raises(ValueError, match=r"keyword argument \['y'\] has size 2"):
        rune.vmap(lambda x, y: x * y)(nx.ones(3), y=nx.ones(2))


def test_hessian_errors_name_rune_hessian():
    with pytest.raises(TypeError, match=r"^rune.hessian: argument 0"):
        rune.hessian(lambda x: x * x)(2)
    with pytest.raises(ValueError, match=r"^rune.hessian: argnums=3"):
        rune.hessian(lambda x: x * x, argnums=3)(2.0)


def test_a_pullback_keeps_the_numpy_arrays_it_was_recorded_with():
    a = np.array([1.0, 2.0])
    x = nx.array([3.0, 4.0])
    _, pullback = rune.vjp(lambda x: x * a + x @ a, x)
    _, tangent_map = rune.linearize(lambda x: x * a, x)
    a[:] = [10.0, 20.0]  # after the record was made: it keeps the values it saw
    np.testing.assert_array_equal(pullback(nx.ones(2))[0].numpy(), [3.0, 6.0])  # 3a
    np.testing.assert_array_equal(tangent_map(nx.ones(2)).numpy(), [1.0, 2.0])
