"""Property tests of control flow: traced loops and branches equal Python's.

Loop bodies and branches are random elementwise programs (tests/programs.py),
damped so that carries stay bounded over many steps: body(c, x) = c / 2 +
tanh(p(c, x)) / 2. The Python loop (or if) on values is the reference; the
traced primitives (scan, cond, while under jit and vmap) must agree with it,
values and derivatives in both modes.
"""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import rune
from rune import nx
from tests.programs import arr, assert_close, finite, inner, programs

# Programs that overflow are skipped (assume), and numpy's warnings about them are noise.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


@st.composite
def loops(draw, kind="real"):
    """(program of (carry, x), carry shape, x shape, steps)."""
    carry = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    x = tuple(1 if draw(st.booleans()) else n for n in carry[len(carry) - draw(
        st.integers(0, len(carry))):])
    body = draw(programs(kind, max_depth=3, shapes=[carry, x], elementwise=True))
    return body, carry, x, draw(st.integers(0, 4))


def damped(body):
    return lambda c, x: 0.5 * c + 0.5 * nx.tanh(body(c, x)) if body.kind == "real" else (
        0.5 * c + 0.25 * nx.sin(body(c, x)))


def scanned(body):
    step = damped(body)

    def f(c, xs):
        def scan_step(c, x):
            c = step(c, x)
            return c, nx.sin(c)
        final, ys = rune.scan(scan_step, c, xs)
        return final, ys
    return f


def looped(body):
    """The reference: a Python loop over xs, stacking ys."""
    step = damped(body)

    def f(c, xs):
        ys = []
        for k in range(xs.shape[0]):
            c = step(c, xs[k])
            ys.append(nx.sin(c))
        return c, (nx.stack(ys) if ys else nx.zeros((0,) + tuple(c.shape), dtype=c.dtype))
    return f


def total(pair):
    final, ys = pair
    return nx.sum(final) + nx.sum(ys)


@given(loops())
def test_scan_traced_by_jit_equals_a_python_loop_values_and_derivatives(loop):
    body, carry_shape, x_shape, steps = loop
    c = body.values(carry_shape, np.float64)
    xs = body.values((steps,) + x_shape, np.float64)
    f, reference = scanned(body), looped(body)
    for got, expected in zip(rune.jit(f)(c, xs), reference(c, xs)):
        assert_close(got, expected, rtol=1e-13)
    grad = rune.grad(lambda c, xs: total(f(c, xs)), argnums=(0, 1))
    expected = rune.grad(lambda c, xs: total(reference(c, xs)), argnums=(0, 1))(c, xs)
    for got, want in zip(rune.jit(grad)(c, xs), expected):
        assert_close(got, want, rtol=1e-12)
    vs = (body.directions(c.shape, np.float64), body.directions(xs.shape, np.float64))
    jvp = lambda c, xs: rune.jvp(lambda c, xs: total(f(c, xs)), (c, xs), vs)[1]  # noqa: E731
    want = rune.jvp(lambda c, xs: total(reference(c, xs)), (c, xs), vs)[1]
    assert_close(rune.jit(jvp)(c, xs), want, rtol=1e-12)


@given(loops("complex"))
def test_complex_scan_traced_by_jit_equals_a_python_loop(loop):
    body, carry_shape, x_shape, steps = loop
    c, xs = body.values(carry_shape, None), body.values((steps,) + x_shape, None)
    f, reference = scanned(body), looped(body)
    assume(finite(rune.jvp(lambda c, xs: reference(c, xs), (c, xs), (c, xs))))
    for got, expected in zip(rune.jit(f)(c, xs), reference(c, xs)):
        assert_close(got, expected, rtol=1e-13)
    vs = (body.directions(c.shape, None), body.directions(xs.shape, None))
    u = body.directions((), None)
    jv = rune.jit(lambda c, xs: rune.jvp(lambda c, xs: total(f(c, xs)), (c, xs), vs)[1])(c, xs)
    pulled = rune.jit(lambda c, xs: rune.vjp(lambda c, xs: total(f(c, xs)), c, xs)[1](u))(c, xs)
    assert abs(inner(pulled, vs) - complex(arr(u) * arr(jv))) <= 1e-10 * (
        1 + sum(np.sum(np.abs(arr(g) * arr(v))) for g, v in zip(pulled, vs)))


@given(loops(), st.data())
def test_vmap_of_scan_equals_a_loop_over_examples(loop, data):
    body, carry_shape, x_shape, steps = loop
    size = data.draw(st.integers(1, 3), label="batch size")
    map_xs = data.draw(st.booleans(), label="map xs too")
    cs = [body.values(carry_shape, np.float64) for _ in range(size)]
    xss = [body.values((steps,) + x_shape, np.float64) for _ in range(size if map_xs else 1)]
    f = scanned(body)
    in_axes = (0, 0 if map_xs else None)
    batched_xs = nx.stack(xss) if map_xs else xss[0]
    finals, ys = rune.vmap(f, in_axes=in_axes)(nx.stack(cs), batched_xs)
    grads = rune.vmap(rune.grad(lambda c, xs: total(f(c, xs))), in_axes=in_axes)(
        nx.stack(cs), batched_xs)
    for k in range(size):
        xs = xss[k if map_xs else 0]
        final, y = looped(body)(cs[k], xs)
        assert_close(arr(finals)[k], final, rtol=1e-13)
        assert_close(arr(ys)[k], y, rtol=1e-13)
        want = rune.grad(lambda c, xs=xs: total(looped(body)(c, xs)))(cs[k])
        assert_close(arr(grads)[k], want, rtol=1e-12)


@given(programs(max_depth=3, shapes=[(2,)], elementwise=True),
       programs(max_depth=3, shapes=[(2,)], elementwise=True), st.data())
def test_cond_with_a_traced_predicate_equals_python_if(true_body, false_body, data):
    x = true_body.values((2,), np.float64)
    branches = [lambda x, b=b: 0.5 * x + nx.tanh(b(x)) for b in (true_body, false_body)]

    def f(x, threshold):
        return rune.cond(nx.sum(x) > threshold, branches[0], branches[1], x)

    for threshold in (-10.0, 10.0):  # each branch once
        expected = branches[0 if threshold < 0 else 1]
        assert_close(rune.jit(f)(x, threshold), expected(x), rtol=1e-14)
        g = rune.jit(rune.grad(lambda x, t: nx.sum(f(x, t))))(x, threshold)
        assert_close(g, rune.grad(lambda x, e=expected: nx.sum(e(x)))(x), rtol=1e-13)
        v = true_body.directions((2,), np.float64)
        jv = rune.jit(lambda x, t, v=v: rune.jvp(lambda x: f(x, t), (x,), (v,))[1])(x, threshold)
        assert_close(jv, rune.jvp(expected, (x,), (v,))[1], rtol=1e-13)
    # vmap with a predicate per example: each example takes its own branch.
    size = data.draw(st.integers(1, 4), label="batch size")
    xs = nx.stack([true_body.values((2,), np.float64) for _ in range(size)])
    thresholds = nx.array(true_body.rng.uniform(-2, 2, size))
    out = rune.vmap(f)(xs, thresholds)
    grads = rune.vmap(rune.grad(lambda x, t: nx.sum(f(x, t))))(xs, thresholds)
    for k in range(size):
        assert_close(arr(out)[k], f(xs[k], thresholds[k]), rtol=1e-14)
        want = rune.grad(lambda x, t=thresholds[k]: nx.sum(f(x, t)))(xs[k])
        assert_close(arr(grads)[k], want, rtol=1e-13)


@given(loops())
def test_while_loop_and_fori_loop_equal_a_python_loop(loop):
    body, carry_shape, x_shape, steps = loop
    c, x = body.values(carry_shape, np.float64), body.values(x_shape, np.float64)
    step = damped(body)

    def reference(c, x, n):
        for _ in range(n):
            c = step(c, x)
        return c

    def with_while(c, x, n):
        return rune.while_loop(lambda s: s[0] < n, lambda s: (s[0] + 1, step(s[1], x)),
                               (nx.array(0), c))[1]

    def with_fori(c, x, n):
        return rune.fori_loop(0, n, lambda i, c: step(c, x), c)

    expected = reference(c, x, steps)
    v = body.directions(carry_shape, np.float64)
    want = rune.jvp(lambda c: reference(c, x, steps), (c,), (v,))[1]
    for f in (with_while, with_fori):
        assert_close(f(c, x, steps), expected, rtol=1e-14)
        assert_close(rune.jit(f, static_argnums=2)(c, x, steps), expected, rtol=1e-13)
        jv = rune.jit(lambda c, x, n, f=f: rune.jvp(lambda c: f(c, x, n), (c,), (v,))[1],
                      static_argnums=2)(c, x, steps)
        assert_close(jv, want, rtol=1e-12)
    # A traced trip count (while_loop under jit, fori_loop with tensor bounds).
    n = nx.array(steps)
    assert_close(rune.jit(with_while)(c, x, n), expected, rtol=1e-13)
    assert_close(rune.jit(lambda c, x, n: rune.fori_loop(0, n, lambda i, c: step(c, x), c))(
        c, x, n), expected, rtol=1e-13)
    # vmap with a trip count per example: finished examples keep their carry.
    counts = nx.array([0, steps, steps + 1])
    batched = rune.vmap(with_while, in_axes=(None, None, 0))(c, x, counts)
    for k in range(3):
        assert_close(arr(batched)[k], reference(c, x, int(arr(counts)[k])), rtol=1e-13)
