"""rune.checkpoint: the same derivatives, f recomputed in the backward pass,
and less memory held between the passes."""

import tracemalloc

import numpy as np
import pytest

import rune
from rune import nx


def close(a, b):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-12)


def block(x, p):
    return {"y": nx.sin(x) * p[0], "z": nx.exp(p[1] * x)}


X = nx.array([0.3, 1.2])
P = (nx.array(2.0), nx.array(0.5))


def loss(f):
    return lambda x, p: nx.sum(f(x, p)["y"] * f(x, p)["z"])


def test_same_gradient_as_without():
    plain = rune.grad(loss(block), argnums=(0, 1))(X, P)
    checkpointed = rune.grad(loss(rune.checkpoint(block)), argnums=(0, 1))(X, P)
    for a, b in zip(rune.ptree.leaves(plain), rune.ptree.leaves(checkpointed)):
        close(a, b)


def test_same_pullback_over_structures():
    ct = {"y": nx.array([1.0, -2.0]), "z": nx.array([0.5, 3.0])}
    out, pullback = rune.vjp(rune.checkpoint(block), X, P)
    expected_out, expected_pullback = rune.vjp(block, X, P)
    for a, b in zip(rune.ptree.leaves((out, pullback(ct))),
                    rune.ptree.leaves((expected_out, expected_pullback(ct)))):
        close(a, b)


def test_nested_checkpoints_and_second_derivatives():
    inner = rune.checkpoint(lambda x: nx.sin(x) * x)
    outer = rune.checkpoint(lambda x: nx.exp(inner(x)) + inner(x))
    f = lambda x: nx.sum(outer(x))  # noqa: E731
    g = lambda x: nx.sum(nx.exp(nx.sin(x) * x) + nx.sin(x) * x)  # noqa: E731
    close(rune.grad(f)(X), rune.grad(g)(X))
    close(rune.hessian(f)(X), rune.hessian(g)(X))
    close(rune.grad(lambda x: nx.sum(rune.grad(f)(x)))(X),
          rune.grad(lambda x: nx.sum(rune.grad(g)(x)))(X))


def test_the_record_holds_one_equation_and_f_runs_again_backward():
    calls = []

    def f(x):
        calls.append(1)
        return nx.sin(nx.sin(x))

    out, pullback = rune.vjp(rune.checkpoint(f), X)
    assert [eq[0].name for eq in pullback.record.equations] == ["linear_call"]
    assert len(calls) == 1
    pullback(nx.array([1.0, 1.0]))
    assert len(calls) == 2


def test_linearize_runs_the_forward_derivative():
    checkpointed = rune.checkpoint(lambda x, p: block(x, p)["z"])
    _, f_jvp = rune.linearize(checkpointed, X, P)
    _, expected = rune.linearize(lambda x, p: block(x, p)["z"], X, P)
    t = (nx.array([1.0, 2.0]), (nx.array(0.5), nx.array(-1.0)))
    close(f_jvp(*t), expected(*t))


def test_outside_reverse_mode_it_is_f():
    f = rune.checkpoint(lambda x: nx.sin(x) * 2)
    close(f(X), 2 * np.sin(X.numpy()))
    close(rune.jvp(f, (X,), (nx.array([1.0, 1.0]),))[1], 2 * np.cos(X.numpy()))
    close(rune.vmap(f)(nx.array([[0.3], [1.2]])), 2 * np.sin([[0.3], [1.2]]))


def test_under_jit():
    f = lambda x, p: nx.sum(rune.checkpoint(block)(x, p)["y"])  # noqa: E731
    expected = rune.grad(lambda x, p: nx.sum(block(x, p)["y"]))(X, P)
    close(rune.jit(rune.grad(f))(X, P), expected)  # the recomputation is traced too
    close(rune.grad(rune.jit(f))(X, P), expected)  # jit's graph holds f's operations


def test_integer_arguments_and_outputs_carry_no_derivative():
    f = rune.checkpoint(lambda x, n: (x * n, n + 1))
    n = nx.array(3)
    (out, m), pullback = rune.vjp(f, X, n)
    ct_x, ct_n = pullback((nx.array([1.0, 1.0]), nx.array(0)))
    assert str(m) == "int64 [] 4"
    close(ct_x, [3.0, 3.0])
    close(ct_n, 0)


def test_closing_over_a_differentiated_value_raises():
    def closes(x):
        return nx.sum(rune.checkpoint(lambda y: y * x)(x))

    with pytest.raises(ValueError, match=r"^rune\.checkpoint: the function uses a value "
                                         r"differentiated by rune\.grad that is not one of "
                                         r"its arguments"):
        rune.grad(closes)(X)


def chain(x):
    for _ in range(25):  # 50 elementwise operations; each sin keeps cos(x) for the backward pass
        x = nx.sin(x) * 1.5
    return x


def _memory_held(f, x):
    """Bytes allocated by the forward pass and still held when it returns."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        out, pullback = rune.vjp(f, x)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    return held, pullback(out)[0]


def test_checkpoint_holds_less_memory_between_the_passes():
    x = nx.array(np.linspace(0.0, 1.0, 100_000))  # 800 kB a value
    plain, expected = _memory_held(chain, x)
    checkpointed, gradient = _memory_held(rune.checkpoint(chain), x)
    np.testing.assert_array_equal(gradient.numpy(), expected.numpy())
    # Without: 25 residuals of 800 kB (about 20 MB). With: the output (800 kB).
    assert plain > 15e6
    assert checkpointed * 5 < plain, (checkpointed, plain)


def test_python_numbers_among_the_arguments_keep_their_weak_type():
    f = lambda x, s: nx.sum(nx.sin(x) * s)  # noqa: E731
    x32 = nx.array(np.array([0.3, 1.2], np.float32))
    gradient = rune.grad(lambda x: rune.checkpoint(f)(x, 0.5))(x32)
    assert gradient.dtype == np.float32
    np.testing.assert_array_equal(gradient.numpy(), rune.grad(lambda x: f(x, 0.5))(x32).numpy())
