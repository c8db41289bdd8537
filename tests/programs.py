"""Random programs of nx operations, for the property tests.

A program is an expression tree over a few inputs whose shapes broadcast
against each other: smooth unary functions kept on bounded ranges (exp of a
tanh, log of 1 + x^2, division by 2 + sin y), binary operations with
broadcasting, maximum (kept away from ties where central differences are
taken), reductions over random axes, transposes, reshapes, flips, slices and
concatenations, and a custom_jvp, a checkpoint and a jitted function inside.
With `control=True`, also the results of a scan, a cond and a while_loop,
used further on, fed by a cheap value that other operations use too (what
the fused path of rune.jit once crashed on). Complex programs use
holomorphic operations only. `programs()` is the
hypothesis strategy; a `Program` is called like the function it stands for,
and prints as a formula (`show`) when a property fails.
"""

import math

import numpy as np
from hypothesis import note
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
    # 1 / (a product): once printed `1 / a * b` by the fused path.
    "reciprocal_damped": lambda x: nx.reciprocal((1.0 + x * x) * 0.5),
    # One cheap value used three times: fused kernels each recompute it.
    "shared": lambda x: (lambda s: s * nx.cos(s) + s * s)(nx.sin(x) * 0.5),
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


def _scanned(s):
    """The last carry of a scan from s, whose body also reads s."""
    return rune.scan(lambda c, _: (c * 0.8 + 0.3 * nx.sin(c) * s, None), s, length=3)[0]


def _branched(s):
    """sin(s) * s or cos(s) + s, on the sign of s's sum."""
    return rune.cond(nx.sum(s) > 0, lambda v: nx.sin(v) * v, lambda v: nx.cos(v) + v, s)


def _looped(s):
    """Three halvings of a carry, each adding sin(s) / 4."""
    return rune.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 0.5 + nx.sin(s) * 0.25),
                           (0, s))[1]


# A control flow's result used further on, fed by s = sin(x) / 2, which two
# more operations use: s is cheap and shared, so a fused kernel recomputes it.
CONTROL = {"scan": _scanned, "cond": _branched, "while_loop": _looped}


def controlled(name, x):
    s = nx.sin(x) * 0.5
    return CONTROL[name](s) + nx.cos(s) * s
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
def expression(draw, shapes, kind, depth, elementwise=False, linalg=False, control=False):
    """(node, shape): a random program over inputs of `shapes` (only
    elementwise operations if `elementwise`: the shape is the broadcast one;
    with `linalg`, also products with constant matrices, quadratic forms and
    the stacked outputs of a scan; with `control`, the results of a scan, a
    cond and a while_loop, real programs only)."""
    unary, binary = OPS[kind]
    if depth == 0 or draw(st.integers(0, 4)) == 0:
        i = draw(st.integers(0, len(shapes) - 1))
        return ("x", i), shapes[i]
    kinds = ["unary", "unary", "binary", "binary"] + ([] if elementwise else ["reduce", "shape"])
    kinds += ["linalg", "linalg"] if linalg else []
    kinds += ["control", "control"] if control else []
    what = draw(st.sampled_from(kinds))
    child, shape = draw(expression(shapes, kind, depth - 1, elementwise, linalg, control))
    if what == "linalg":
        return draw(linalg_node(child, shape))
    if what == "control":
        return ("control", draw(st.sampled_from(sorted(CONTROL))), child), shape
    if what == "unary":
        return ("unary", draw(st.sampled_from(sorted(unary))), child), shape
    if what == "binary":
        other, other_shape = draw(expression(shapes, kind, depth - 1, elementwise, linalg,
                                             control))
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


def constant_matrix(seed, rows, cols):
    """A fixed random matrix, scaled so that products keep their inputs' size."""
    return np.random.default_rng(seed).standard_normal((rows, cols)) / math.sqrt(cols)


@st.composite
def linalg_node(draw, child, shape):
    """(node, shape): matmul with a constant matrix on either side, the quadratic
    form x @ (C @ x) of the flattened child, or the ys a scan stacks from it."""
    seed = draw(st.integers(0, 2**32 - 1))
    size = math.prod(shape)
    candidates = [("quadratic", constant_matrix(seed, size, size), ()),
                  ("scan", draw(st.integers(1, 3)), None)]
    if shape:
        m = draw(st.integers(1, 3))
        candidates.append(("matmul_right", constant_matrix(seed, shape[-1], m),
                           shape[:-1] + (m,)))
        left_rows = shape[0] if len(shape) == 1 else shape[-2]
        left = shape[:-2] + (m, shape[-1]) if len(shape) > 1 else (m,)
        candidates.append(("matmul_left", constant_matrix(seed, m, left_rows), left))
    op, param, out = draw(st.sampled_from(candidates))
    if op == "scan":
        out = (param,) + tuple(shape)
    return (op, param, child), out


@st.composite
def programs(draw, kind="real", max_depth=4, shapes=None, elementwise=False, linalg=False,
             control=False):
    if control and kind != "real":
        raise ValueError(f"programs: control flow is drawn in real programs only, "
                         f"got kind={kind!r}")
    shapes = draw(input_shapes()) if shapes is None else shapes
    node, shape = draw(expression(shapes, kind, draw(st.integers(1, max_depth)), elementwise,
                                  linalg, control))
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
    if tag in LINALG:
        param = node[1] if tag == "scan" else f"C{list(node[1].shape)}"
        return f"{tag}({show(node[2])}, {param})"
    if tag == "control":
        return f"{node[1]}_of({show(node[2])})"
    return f"{tag}({show(node[2])}, {node[1]})"


LINALG = ("quadratic", "scan", "matmul_left", "matmul_right")


def _scan_ys(x, length):
    """The ys of a scan carrying x: cos of each carry, stacked along a new first axis."""
    return rune.scan(lambda c, _: (c * 0.9 + 0.5 * nx.sin(c), nx.cos(c)), x, length=length)[1]


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
        if tag == "quadratic":
            flat = nx.reshape(x, (-1,))
            return flat @ (node[1] @ flat)
        if tag == "matmul_right":
            return x @ node[1]
        if tag == "matmul_left":
            return node[1] @ x
        if tag == "scan":
            return _scan_ys(x, node[1])
        if tag == "control":
            return controlled(node[1], x)
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

    @property
    def reversible(self):
        """Whether reverse mode runs under rune.jit: not through a while_loop,
        whose trip count is then unknown."""
        return "while_loop_of(" not in show(self.node)

    def derivative(self, xs):
        """A function of xs: the gradient of the loss, or (not `reversible`)
        the jvp along random directions."""
        if self.reversible:
            return rune.grad(self.loss, argnums=tuple(range(len(xs))))
        vs = tuple(self.directions(x.shape, x.dtype) for x in xs)
        return lambda *xs: rune.jvp(self, xs, vs)[1]

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
