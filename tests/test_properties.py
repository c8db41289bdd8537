"""Property tests: random programs of nx operations, every transformation consistent.

For random programs (tests/programs.py: smooth operations on bounded ranges,
broadcasting, reductions over random axes, shape operations, a custom_jvp, a
checkpoint and a jitted function inside) and random points, the tests check:

- the pullback is the transpose of the jvp: <vjp(u), v> = <u, jvp(v)>;
- the jvp agrees with central differences;
- jit gives what eager code gives, values and gradients;
- vmap gives what a Python loop over the examples gives (f and grad f);
- linearize's tangent map gives what jvp gives;
- second derivatives agree by every route: jacfwd(jacrev) = jacrev(jacfwd)
  = jacrev(jacrev) = hessian, symmetric, and hvp = hessian @ v; jacfwd =
  jacrev for vector outputs;
- Jacobians agree by every route, with products by constant matrices,
  quadratic forms x @ (C @ x) and scan outputs in the programs: jacfwd =
  jacrev = a loop of jvps = a loop of vjps, and hessian = jacfwd(grad) =
  jacrev(grad) = a loop of jvps of grad (the loops use no batching rule);
- float32 programs stay float32 and agree with float64 to float32 accuracy;
- complex128 programs of holomorphic operations satisfy the same identities
  with complex tangents (holomorphic=True for the second derivatives).

Control flow has its own properties in test_properties_control.py.
tests/conftest.py sets how many examples run (RUNE_PROPERTY_EXAMPLES for a
long run). A failure prints the program as a formula.
"""

import math

import numpy as np
import pytest
from hypothesis import assume, given, note
from hypothesis import strategies as st

import rune
from rune import nx, ptree
from tests.programs import arr, assert_close, finite, inner, programs, scale_of

# Programs that overflow are skipped (assume), and numpy's warnings about them are noise.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

# --------------------------------------------------------------- properties


def check_jvp_vjp_transpose(p, dtype=np.float64):
    xs = p.inputs(dtype)
    vs = tuple(p.directions(x.shape, dtype) for x in xs)
    out, jv = rune.jvp(p, xs, vs)
    assume(finite(out, jv))
    u = p.directions(out.shape, dtype)
    _, pullback = rune.vjp(p, *xs)
    vjp_u = pullback(u)
    assert out.dtype == jv.dtype and all(g.dtype == x.dtype for g, x in zip(vjp_u, xs))
    left, right = inner(vjp_u, vs), inner((u,), (jv,))
    bound = sum(np.sum(np.abs(arr(g) * arr(v))) for g, v in zip(vjp_u, vs))
    assert abs(left - right) <= 1e-10 * (1.0 + bound), (left, right)


@given(programs())
def test_the_pullback_is_the_transpose_of_the_jvp(p):
    check_jvp_vjp_transpose(p)


@given(programs("complex", max_depth=3))
def test_complex_pullback_is_the_plain_transpose_of_the_jvp(p):
    check_jvp_vjp_transpose(p, np.complex128)


def check_central_differences(p, dtype=np.float64, eps=1e-6):
    xs = p.inputs(dtype)
    assume(p.gaps(*xs) > 1e-3)  # no kink of maximum within reach of the differences
    vs = tuple(p.directions(x.shape, dtype) for x in xs)
    out, jv = rune.jvp(p, xs, vs)
    assume(finite(out, jv))
    plus = p(*[x + eps * v for x, v in zip(xs, vs)])
    minus = p(*[x - eps * v for x, v in zip(xs, vs)])
    numeric = (arr(plus) - arr(minus)) / (2 * eps)
    assert_close(jv, numeric, rtol=1e-6, scale=scale_of(out, jv, numeric))


@given(programs())
def test_the_jvp_agrees_with_central_differences(p):
    check_central_differences(p)


@given(programs("complex", max_depth=3))
def test_complex_jvp_agrees_with_central_differences_along_complex_directions(p):
    check_central_differences(p, np.complex128)


@given(programs(control=True))
def test_jit_equals_eager(p):
    xs = p.inputs()
    assert_close(rune.jit(p)(*xs), p(*xs), rtol=1e-14)
    derivative = p.derivative(xs)  # grad, or jvp where a while_loop is in reverse mode's way
    got_leaves, expected_leaves = (ptree.leaves(d(*xs)) for d in (rune.jit(derivative), derivative))
    for got, expected in zip(got_leaves, expected_leaves):
        assert got.dtype == expected.dtype
        assert_close(got, expected, rtol=1e-14)


@given(programs("complex", max_depth=3))
def test_jit_equals_eager_for_complex_programs(p):
    xs = p.inputs()
    assert_close(rune.jit(p)(*xs), p(*xs), rtol=1e-14)
    vs = tuple(p.directions(x.shape, None) for x in xs)
    jvp = lambda *xs: rune.jvp(p, xs, vs)[1]  # noqa: E731
    assert_close(rune.jit(jvp)(*xs), jvp(*xs), rtol=1e-14)


@given(programs(linalg=True), st.data())
def test_vmap_equals_a_loop_over_examples(p, data):
    size = data.draw(st.integers(1, 3), label="batch size")
    axes = [data.draw(st.one_of(st.none(), st.integers(0, len(s))), label=f"in_axes[{i}]")
            for i, s in enumerate(p.shapes)]
    if all(a is None for a in axes):
        axes[0] = 0
    examples = [p.inputs() for _ in range(size)]
    batched = [examples[0][i] if a is None else nx.stack([e[i] for e in examples], axis=a)
               for i, a in enumerate(axes)]

    def example(k):
        return [examples[0][i] if a is None else examples[k][i] for i, a in enumerate(axes)]

    in_axes = tuple(axes)
    out = rune.vmap(p, in_axes=in_axes)(*batched)
    for k in range(size):
        assert_close(arr(out)[k], p(*example(k)), rtol=1e-13)
    grad = rune.grad(p.loss, argnums=tuple(range(len(axes))))
    grads = rune.vmap(grad, in_axes=in_axes)(*batched)
    for k in range(size):
        for got, expected in zip(grads, grad(*example(k))):
            assert_close(arr(got)[k], expected, rtol=1e-13)


@given(programs())
def test_linearize_equals_jvp(p):
    xs = p.inputs()
    out, f_jvp = rune.linearize(p, *xs)
    assert_close(out, p(*xs), rtol=1e-15)
    for _ in range(2):  # the tangent map is reusable
        vs = tuple(p.directions(x.shape, np.float64) for x in xs)
        assert_close(f_jvp(*vs), rune.jvp(p, xs, vs)[1], rtol=1e-13)


def check_second_derivatives(p, holomorphic=False):
    xs = p.inputs()
    rest = xs[1:]

    def f(x):
        return p.loss(x, *rest)

    def f_vector(x):
        return p(x, *rest)

    x = xs[0]
    n = x.size
    kw = {"holomorphic": True} if holomorphic else {}
    hessian = arr(rune.hessian(f, **kw)(x)).reshape(n, n)
    routes = {
        "jacfwd(jacrev)": rune.jacfwd(rune.jacrev(f, **kw), **kw),
        "jacrev(jacfwd)": rune.jacrev(rune.jacfwd(f, **kw), **kw),
        "jacrev(jacrev)": rune.jacrev(rune.jacrev(f, **kw), **kw),
        "jacfwd(grad)": rune.jacfwd(rune.grad(f, **kw), **kw),
    }
    scale = scale_of(hessian)
    for name, route in routes.items():
        note(name)
        assert_close(arr(route(x)).reshape(n, n), hessian, rtol=1e-10, scale=scale)
    assert_close(hessian.T, hessian, rtol=1e-10, scale=scale)
    v = p.directions(x.shape, np.float64)
    assert_close(arr(rune.hvp(f, (x,), (v,), **kw)).reshape(n), hessian @ arr(v).reshape(n),
                 rtol=1e-10, scale=scale * (1 + float(np.max(np.abs(arr(v))))))
    m = math.prod(p.out_shape)
    forward = arr(rune.jacfwd(f_vector, **kw)(x)).reshape(m, n)
    assert_close(arr(rune.jacrev(f_vector, **kw)(x)).reshape(m, n), forward, rtol=1e-12)


def _basis(n, k):
    e = np.zeros(n)
    e[k] = 1.0
    return e


def check_jacobian_routes(p, i):
    """The Jacobian of p with respect to input i, and the Hessian of its sum,
    by every route: vmapped (jacfwd, jacrev, hessian) and by loops of single
    jvps and vjps, which use no batching rule at all."""
    xs = p.inputs()
    x = xs[i]

    def f(x):
        return p(*xs[:i], x, *xs[i + 1:])

    def loss(x):
        return nx.sum(f(x))

    n, m = x.size, math.prod(p.out_shape)
    columns = [arr(rune.jvp(f, (x,), (nx.array(_basis(n, k).reshape(x.shape)),))[1]).reshape(m)
               for k in range(n)]
    by_jvps = np.stack(columns, axis=1).reshape(m, n)
    assume(finite(by_jvps))
    out, pullback = rune.vjp(f, x)
    by_vjps = np.stack([arr(pullback(nx.array(_basis(m, j).reshape(out.shape)))[0]).reshape(n)
                        for j in range(m)]).reshape(m, n)
    scale = scale_of(by_jvps)
    routes = {"loop of vjps": by_vjps, "jacfwd": rune.jacfwd(f)(x), "jacrev": rune.jacrev(f)(x)}
    for name, jacobian in routes.items():
        note(name)
        assert_close(arr(jacobian).reshape(m, n), by_jvps, rtol=1e-12, scale=scale)
    gradient = rune.grad(loss)
    by_hvps = np.stack([arr(rune.jvp(gradient, (x,), (nx.array(_basis(n, k).reshape(x.shape)),))
                            [1]).reshape(n) for k in range(n)], axis=1)
    scale = scale_of(by_hvps)
    routes = {"hessian": rune.hessian(loss), "jacfwd(grad)": rune.jacfwd(gradient),
              "jacrev(grad)": rune.jacrev(gradient)}
    for name, route in routes.items():
        note(name)
        assert_close(arr(route(x)).reshape(n, n), by_hvps, rtol=1e-10, scale=scale)


@given(programs(max_depth=3, linalg=True), st.data())
def test_jacobians_agree_by_every_route(p, data):
    check_jacobian_routes(p, data.draw(st.integers(0, len(p.shapes) - 1), label="input"))


@given(programs(max_depth=3))
def test_second_derivatives_agree_by_every_route(p):
    check_second_derivatives(p)


@given(programs("complex", max_depth=3))
def test_holomorphic_second_derivatives_agree_by_every_route(p):
    check_second_derivatives(p, holomorphic=True)


@given(programs())
def test_float32_programs_stay_float32_and_match_float64(p):
    xs32 = p.inputs(np.float32)
    xs64 = tuple(x.astype(nx.float64) for x in xs32)
    out32, out64 = p(*xs32), p(*xs64)
    assert out32.dtype == np.float32
    assert_close(out32, out64, rtol=1e-4, scale=scale_of(out64))
    vs = tuple(p.directions(x.shape, np.float32) for x in xs32)
    _, jv32 = rune.jvp(p, xs32, vs)
    _, jv64 = rune.jvp(p, xs64, tuple(v.astype(nx.float64) for v in vs))
    assert jv32.dtype == np.float32
    assert_close(jv32, jv64, rtol=1e-3, scale=scale_of(jv64, out64))
    argnums = tuple(range(len(xs32)))
    grads32 = rune.grad(p.loss, argnums=argnums)(*xs32)
    grads64 = rune.jit(rune.grad(p.loss, argnums=argnums))(*xs64)
    for g32, g64 in zip(grads32, grads64):
        assert g32.dtype == np.float32
        assert_close(g32, g64, rtol=1e-3, scale=scale_of(g64, out64))
    check_jvp_vjp_transpose_float32(p, xs32)


def check_jvp_vjp_transpose_float32(p, xs):
    vs = tuple(p.directions(x.shape, np.float32) for x in xs)
    out, jv = rune.jvp(p, xs, vs)
    u = p.directions(out.shape, np.float32)
    vjp_u = rune.vjp(p, *xs)[1](u)
    left, right = inner(vjp_u, vs), inner((u,), (jv,))
    bound = sum(np.sum(np.abs(arr(g) * arr(v)), dtype=np.float64) for g, v in zip(vjp_u, vs))
    assert abs(left - right) <= 1e-4 * (1.0 + bound), (left, right)


# ------------------------------------------- regressions the properties found


def test_jit_of_a_gradient_with_a_constant_zero_output_and_many_locals():
    # The compiled code named a local variable like the global holding the
    # constant zero gradient of the unused argument, which it then returned
    # (UnboundLocalError once the graph had a variable named `s`).
    def loss(a, b):
        return nx.sum(nx.log(1.0 + nx.square(nx.exp(nx.tanh(nx.cos(a))))))

    a, b = nx.array([1.0]), nx.array(2.0)
    grad = rune.grad(loss, argnums=(0, 1))
    for got, expected in zip(rune.jit(grad)(a, b), grad(a, b)):
        assert_close(got, expected, rtol=1e-15)
    assert str(rune.jit(grad)(a, b)[1]) == "float64 [] 0"


def test_reverse_over_forward_through_a_broadcast_of_lower_rank():
    # The elementwise batching rule passed reshape's shape positionally, which
    # only the eager path accepted: jacrev(jacfwd(f)) raised TypeError.
    f = lambda x: nx.sum(x + nx.cos(nx.reshape(x, (1,))))  # noqa: E731
    x = nx.array([[0.3]])
    expected = [[[[-np.cos(0.3)]]]]
    for route in (rune.jacrev(rune.jacfwd(f)), rune.jacfwd(rune.jacrev(f)), rune.hessian(f)):
        assert_close(route(x), expected, rtol=1e-15)
