"""Property tests: random programs of nx operations, every transformation consistent.

A program is an expression tree over a few inputs whose shapes broadcast
against each other: smooth unary functions kept on bounded ranges (exp of a
tanh, log of 1 + x^2, division by 2 + sin y), binary operations with
broadcasting, maximum (kept away from ties where central differences are
taken), sums and means over random axes, transposes and reshapes. For
random programs and points the tests check that

- the pullback is the transpose of the jvp: <vjp(u), v> = <u, jvp(v)>;
- the jvp agrees with central differences;
- jit gives what eager code gives, values and gradients;
- vmap gives what a Python loop over the examples gives (f and grad f);
- linearize's tangent map gives what jvp gives;
- second derivatives agree by every route: jacfwd(jacrev) = jacrev(jacfwd)
  = jacrev(jacrev) = hessian, symmetric, and hvp = hessian @ v; jacfwd =
  jacrev for vector outputs;
- float32 programs stay float32 and agree with float64 to float32 accuracy;
- complex128 programs of holomorphic operations satisfy the same identities
  with complex tangents (holomorphic=True for the second derivatives).

Programs also pass through a custom_jvp, a checkpoint and a jitted function,
which must not change any of this.

tests/conftest.py sets how many examples run (RUNE_PROPERTY_EXAMPLES for a
long run). A failure prints the program as a formula.
"""

import math

import numpy as np
from hypothesis import assume, given, note
from hypothesis import strategies as st

import rune
from rune import nx, ptree

# ------------------------------------------------------------ the operations


@rune.custom_jvp
def custom_tanh(x):
    y = nx.tanh(x)
    return y, lambda t: t * (1.0 - y * y)


@rune.custom_jvp
def custom_sin(z):
    return nx.sin(z), lambda t: t * nx.cos(z)


# Transformations inside programs: the same derivatives must come through them.
checkpointed = rune.checkpoint(lambda x: nx.sin(x) * nx.cos(x))
jitted = rune.jit(lambda x: nx.cos(x) * x + 0.5)

REAL_UNARY = {
    "sin": nx.sin,
    "cos": nx.cos,
    "tanh": nx.tanh,
    "sigmoid": nx.sigmoid,
    "exp_tanh": lambda x: nx.exp(nx.tanh(x)),  # exp of a bounded input
    "log1p_square": lambda x: nx.log(1.0 + x * x),  # log of a positive shift
    "square": nx.square,
    "cube_damped": lambda x: x ** 3 / (1.0 + x * x),  # grows like x, not x^3
    "sqrt_shifted": lambda x: nx.sqrt(1.0 + x * x),
    "negative": nx.negative,
    "half": lambda x: 0.5 * x,
    "custom_tanh": custom_tanh,
    "checkpointed": checkpointed,
    "jitted": jitted,
}
REAL_BINARY = {
    "add": nx.add,
    "subtract": nx.subtract,
    "multiply": nx.multiply,
    "divide_bounded": lambda x, y: x / (2.0 + nx.sin(y)),  # 1 <= 2 + sin y <= 3
    "power_bounded": lambda x, y: (2.0 + nx.sin(x)) ** nx.tanh(y),
    "maximum": nx.maximum,
}
# Holomorphic operations only, for complex programs (no sigmoid or tanh: they
# have poles near the inputs; no division by an unbounded complex value).
COMPLEX_UNARY = {
    "sin": nx.sin,
    "cos": nx.cos,
    "square": nx.square,
    "cube": lambda z: z ** 3,
    "negative": nx.negative,
    "exp_half": lambda z: nx.exp(0.5 * z),
    "rotate": lambda z: (0.6 - 0.8j) * z,
    "custom_sin": custom_sin,
    # Halved, as sin and cos grow fast along the imaginary axis when nested.
    "checkpointed": lambda z: 0.5 * checkpointed(0.5 * z),
    "jitted": lambda z: 0.5 * jitted(0.5 * z),
}
COMPLEX_BINARY = {"add": nx.add, "subtract": nx.subtract, "multiply": nx.multiply}
OPS = {"real": (REAL_UNARY, REAL_BINARY), "complex": (COMPLEX_UNARY, COMPLEX_BINARY)}
REDUCTIONS = ("sum", "mean", "prod", "logsumexp", "var")


def broadcasts(a, b):
    try:
        np.broadcast_shapes(a, b)
        return True
    except ValueError:
        return False


# ---------------------------------------------------------- the generator


@st.composite
def input_shapes(draw):
    """1 to 3 shapes that broadcast together: suffixes of one shape, some sizes 1."""
    full = draw(st.lists(st.integers(1, 3), min_size=0, max_size=3))
    shapes = []
    for _ in range(draw(st.integers(1, 3))):
        rank = draw(st.integers(0, len(full)))
        suffix = full[len(full) - rank:]
        shapes.append(tuple(1 if draw(st.booleans()) and draw(st.booleans()) else n
                            for n in suffix))
    return shapes


@st.composite
def expression(draw, shapes, kind, depth, elementwise=False):
    """(node, shape): a random program over inputs of `shapes` (only
    elementwise operations if `elementwise`: the shape is the broadcast one)."""
    unary, binary = OPS[kind]
    if depth == 0 or draw(st.integers(0, 4)) == 0:
        i = draw(st.integers(0, len(shapes) - 1))
        return ("x", i), shapes[i]
    kinds = ["unary", "unary", "binary", "binary"] + ([] if elementwise else ["reduce", "shape"])
    what = draw(st.sampled_from(kinds))
    child, shape = draw(expression(shapes, kind, depth - 1, elementwise))
    if what == "unary":
        return ("unary", draw(st.sampled_from(sorted(unary))), child), shape
    if what == "binary":
        other, other_shape = draw(expression(shapes, kind, depth - 1, elementwise))
        if not broadcasts(shape, other_shape):
            # A transposed or reduced operand may not broadcast: sum it to a scalar.
            other, other_shape = ("sum", None, False, other), ()
        name = draw(st.sampled_from(sorted(binary)))
        if draw(st.booleans()):
            child, other, shape, other_shape = other, child, other_shape, shape
        return ("binary", name, child, other), np.broadcast_shapes(shape, other_shape)
    ndim = len(shape)
    if what == "reduce":
        names = ["sum", "mean", "prod"] + (["logsumexp", "var"] if kind == "real" else [])
        name = draw(st.sampled_from(names))
        axes = tuple(sorted(draw(st.lists(st.integers(0, max(ndim - 1, 0)), unique=True,
                                          max_size=ndim))))
        keepdims = draw(st.booleans())
        out = tuple(1 if a in axes else n for a, n in enumerate(shape)) if keepdims else tuple(
            n for a, n in enumerate(shape) if a not in axes)
        return (name, axes, keepdims, child), out
    size = math.prod(shape)
    position = draw(st.integers(0, ndim))
    candidates = [("transpose", tuple(draw(st.permutations(range(ndim))))),
                  ("reshape", (size,)),
                  ("reshape", shape[:position] + (1,) + shape[position:]),
                  ("reshape", tuple(n for n in shape if n != 1))]
    if ndim:
        axis = draw(st.integers(0, ndim - 1))
        doubled = shape[:axis] + (2 * shape[axis],) + shape[axis + 1:]
        candidates += [("flip", axis, shape), ("reverse_first", None, shape),
                       ("self_concatenate", axis, doubled), ("first_row", None, shape[1:])]
    op, param, *out = draw(st.sampled_from(candidates))
    if not out:
        out = [tuple(shape[a] for a in param) if op == "transpose" else param]
    return (op, param, child), out[0]


@st.composite
def programs(draw, kind="real", max_depth=4, shapes=None, elementwise=False):
    shapes = draw(input_shapes()) if shapes is None else shapes
    node, shape = draw(expression(shapes, kind, draw(st.integers(1, max_depth)), elementwise))
    seed = draw(st.integers(0, 2**32 - 1))
    note(f"program: {show(node)}  inputs: {shapes}  output shape: {shape}  seed: {seed}")
    return Program(node, shapes, shape, kind, np.random.default_rng(seed))


def show(node):
    """The program as a formula: sin(x0 + x1)."""
    tag = node[0]
    if tag == "x":
        return f"x{node[1]}"
    if tag == "unary":
        return f"{node[1]}({show(node[2])})"
    if tag == "binary":
        return f"{node[1]}({show(node[2])}, {show(node[3])})"
    if tag in REDUCTIONS:
        return f"{tag}({show(node[3])}, axis={node[1]}, keepdims={node[2]})"
    return f"{tag}({show(node[2])}, {node[1]})"


class Program:
    """A random program, its input shapes and a generator of points and directions."""

    def __init__(self, node, shapes, out_shape, kind, rng):
        self.node, self.shapes, self.out_shape, self.kind, self.rng = (
            node, shapes, out_shape, kind, rng)
        self.unary, self.binary = OPS[kind]

    def __call__(self, *xs):
        return self.run(self.node, xs, None)

    def gaps(self, *xs):
        """The smallest |x - y| over the program's maximum(x, y) nodes (inf if none)."""
        found = [math.inf]
        self.run(self.node, xs, found)
        return min(found)

    def run(self, node, xs, gaps):
        tag = node[0]
        if tag == "x":
            return xs[node[1]]
        if tag == "unary":
            return self.unary[node[1]](self.run(node[2], xs, gaps))
        if tag == "binary":
            a, b = self.run(node[2], xs, gaps), self.run(node[3], xs, gaps)
            if node[1] == "maximum" and gaps is not None:
                gaps.append(float(np.min(np.abs(np.asarray(a) - np.asarray(b)), initial=np.inf)))
            return self.binary[node[1]](a, b)
        if tag in REDUCTIONS:
            return getattr(nx, tag)(self.run(node[3], xs, gaps), axis=node[1], keepdims=node[2])
        x = self.run(node[2], xs, gaps)
        if tag == "transpose":
            return nx.transpose(x, node[1])
        if tag == "flip":
            return nx.flip(x, node[1])
        if tag == "reverse_first":
            return x[::-1]
        if tag == "first_row":
            return x[0]
        if tag == "self_concatenate":
            return nx.concatenate([x, 2.0 * x], axis=node[1])
        return nx.reshape(x, node[1])

    def loss(self, *xs):
        """A scalar of the program: the sum of its output."""
        return nx.sum(self(*xs))

    def values(self, shape, dtype):
        """Points: uniform in [-1.5, 1.5] (complex: in the unit square, both parts)."""
        if self.kind == "complex":
            z = self.rng.uniform(-1, 1, shape) + 1j * self.rng.uniform(-1, 1, shape)
            return nx.array(z.astype(np.complex128))
        return nx.array(self.rng.uniform(-1.5, 1.5, shape).astype(dtype))

    def directions(self, shape, dtype):
        """Tangents and cotangents: standard normal (complex: both parts)."""
        value = self.rng.standard_normal(shape)
        if self.kind == "complex":
            value = value + 1j * self.rng.standard_normal(shape)
            return nx.array(value.astype(np.complex128))
        return nx.array(value.astype(dtype))

    def inputs(self, dtype=np.float64):
        return tuple(self.values(s, dtype) for s in self.shapes)


# ------------------------------------------------------------------ helpers


def arr(x):
    return np.asarray(x)


def inner(xs, ys):
    """sum x * y over all leaves, no conjugation: the pairing vjp transposes jvp in."""
    return sum(np.sum(arr(x) * arr(y)) for x, y in zip(xs, ys))


def scale_of(*arrays):
    return 1.0 + max(float(np.max(np.abs(arr(a)), initial=0.0)) for a in arrays)


def assert_close(got, expected, rtol=1e-10, scale=None):
    got, expected = arr(got), arr(expected)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    atol = rtol * (scale_of(expected) if scale is None else scale)
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol)


def finite(*trees):
    """Whether every leaf is finite: programs that overflow prove nothing."""
    return all(np.all(np.isfinite(arr(leaf))) for tree in trees for leaf in ptree.leaves(tree))


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


@given(programs())
def test_jit_equals_eager(p):
    xs = p.inputs()
    assert_close(rune.jit(p)(*xs), p(*xs), rtol=1e-14)
    grad = rune.grad(p.loss, argnums=tuple(range(len(xs))))
    for got, expected in zip(rune.jit(grad)(*xs), grad(*xs)):
        assert got.dtype == expected.dtype
        assert_close(got, expected, rtol=1e-14)


@given(programs("complex", max_depth=3))
def test_jit_equals_eager_for_complex_programs(p):
    xs = p.inputs()
    assert_close(rune.jit(p)(*xs), p(*xs), rtol=1e-14)
    vs = tuple(p.directions(x.shape, None) for x in xs)
    jvp = lambda *xs: rune.jvp(p, xs, vs)[1]  # noqa: E731
    assert_close(rune.jit(jvp)(*xs), jvp(*xs), rtol=1e-14)


@given(programs(), st.data())
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


# ------------------------------------------------------------- control flow
#
# Loop bodies and branches are random elementwise programs, damped so that
# carries stay bounded over many steps: body(c, x) = c / 2 + tanh(p(c, x)) / 2.
# The Python loop (or if) on values is the reference; the traced primitives
# (under jit and vmap) must agree with it, values and derivatives.


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
