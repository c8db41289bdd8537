"""Every jit path against eager, for every primitive (issue 25).

tests/batching_cases.py gives each primitive of rune a random use (`CASES`).
Each case runs eagerly and through each of rune.jit's paths:

    replay  rune.jit(f, fuse=False): the graph replayed as numpy code
    fused   rune.jit(f, fuse=True): elementwise runs as numexpr kernels (the
            `fast` extra), every group of two or more fused
    jax     rune.jit(f, backend="jax"): lowered to JAX, compiled by XLA (the
            `jax` extra)

and each is composed with the transformations: the value, grad of a random
weighted sum of the outputs, jvp along random tangents, vmap over two
stacked examples, and the hessian of that weighted sum (as the batching
sweep decides: grad where the case has a reverse rule, jvp where it has a
forward one, hessian where both). The replay path also runs them on the
jitted function (grad(jit(f))...: the transformation evaluates jit's graph).
One jitted function returns all of them, so each path traces and compiles
once per example. Every result must equal eager's (same dtype and shape,
values within rounding); where eager raises, the jit path must raise the
same exception. A second sweep feeds the primitives that check their
inputs' values (indices in range, matrices invertible, non-empty
transforms) inputs that fail the check.

CI runs 5 examples per primitive on the numpy paths and 1 on JAX's;
RUNE_PROPERTY_EXAMPLES=n runs n/5 and n/25 (tests/conftest.py):

    RUNE_PROPERTY_EXAMPLES=250 python -m pytest tests/test_jit_sweep.py -q -n 2
"""

import functools
import importlib.util

import numpy as np
import pytest
from hypothesis import Phase, assume, given, note, settings
from hypothesis import strategies as st

import rune
from rune import nx, ptree
from rune.lower import fused
from rune.primitives import fft as F
from rune.primitives import indexing as I
from rune.primitives import linalg as L
from rune.primitives import sorting as O
from rune.primitives import updates as U
from tests.batching_cases import (CASES, Case, indices_below, normal, positive_definite,
                                  registry, shapes, sizes)
from tests.programs import assert_close, scale_of

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

# Examples per primitive, as the batching sweep: a fifth of the property
# count (5 in CI) for the numpy paths. XLA compiles each example's graph
# (~0.3 s), so the JAX path runs a twenty-fifth: 1 in CI, and that one not
# hypothesis's first, simplest example (all shapes ()).
SWEEP_EXAMPLES = max(4, settings.default.max_examples // 5)
JAX_EXAMPLES = max(1, settings.default.max_examples // 25)

# rtol, relative to the largest magnitude of the expected leaf (plus 1). The
# replay runs eager's impls; numexpr's and XLA's functions round differently
# (the docs promise 1e-12 between backends). A float32 argument makes float32
# steps, which XLA rounds differently within float32's precision.
RTOL = {"replay": 1e-13, "fused": 1e-12, "jax": 1e-12}
RTOL_FLOAT32 = 1e-5

# ------------------------------------------------------------------ the paths


def _extra_missing(path):
    """The skip reason for a path whose optional engine is not installed."""
    if path == "fused" and importlib.util.find_spec("numexpr") is None:
        return 'numexpr is not installed: pip install "rune-autodiff[fast]"'
    if path == "jax" and importlib.util.find_spec("jax") is None:
        return 'JAX is not installed: pip install "rune-autodiff[jax]"'
    return None


def jitted(path, f):
    if path == "replay":
        return rune.jit(f, fuse=False)
    if path == "fused":
        return rune.jit(f, fuse=True)
    return rune.jit(f, backend="jax")


@pytest.fixture(autouse=True)
def fuse_every_group(monkeypatch):
    """Fuse groups of two equations too (as tests/test_fusion.py): the default
    spares small groups, which would leave most cases unfused."""
    monkeypatch.setattr(fused, "SMALL_GROUP", 2)


# ------------------------------------------------- the transformations of a case


class Example:
    """One case's arguments, and what the transformations need: a second
    example to stack for vmap, tangents, and the weights of the loss."""

    def __init__(self, case, rng):
        self.case = case
        self.args = case.sample(rng)
        second = case.sample(rng)
        self.batched = [np.stack([a, b]) for a, b in zip(self.args, second)]
        self.tangents = [_tangent(rng, self.args[i]) for i in case.differentiable]
        # The outputs' shapes from a trace: where eager raises on the values (the
        # error sweep), the trace does not, and the loss must still use every output.
        graph = rune.make_graph(case.fn)(*self.args)
        self.weights = [rng.standard_normal(o.shape) for o in graph.outputs]

    def inputs(self):
        """Every array a transformation reads, as one flat list of tensors."""
        return [nx.array(a) for a in self.args + self.batched + self.tangents]

    @property
    def has_float32(self):
        return any(np.asarray(a).dtype in (np.float32, np.complex64) for a in self.args)

    def transformations(self, fn):
        """name -> function of `inputs()`: fn (the case's, or it jitted) under
        each transformation."""
        case, n = self.case, len(self.args)
        diff = case.differentiable
        loss = _loss(fn, self.weights)
        out = {"value": lambda *xs: fn(*xs[:n]),
               "vmap": lambda *xs: rune.vmap(fn)(*xs[n:2 * n])}
        if diff and case.reverse:
            out["grad"] = lambda *xs: rune.grad(loss, argnums=diff)(*xs[:n])
        if diff and case.forward:
            out["jvp"] = lambda *xs: rune.jvp(_partial(fn, diff, xs[:n]),
                                              tuple(xs[i] for i in diff), tuple(xs[2 * n:]))
        if diff and case.forward and case.reverse:
            out["hessian"] = lambda *xs: rune.hessian(loss, argnums=diff[0])(*xs[:n])
        return out


def _tangent(rng, x):
    t = rng.standard_normal(np.shape(x))
    return t + 1j * rng.standard_normal(np.shape(x)) if np.iscomplexobj(x) else t


def _loss(fn, weights):
    """sum(w * out) over the output leaves (its real part if complex)."""
    def loss(*args):
        total = 0.0
        for leaf, w in zip(ptree.leaves(fn(*args)), weights):
            term = nx.sum(leaf * w)
            total = total + (nx.real(term) if term.dtype.kind == "c" else term)
        return total
    return loss


def _partial(fn, diff, args):
    """fn of the arguments at positions `diff`, the others fixed to `args`'."""
    return lambda *xs: fn(*[xs[diff.index(i)] if i in diff else a for i, a in enumerate(args)])


# ------------------------------------------------------------ the comparison


def _eager(fn, inputs):
    """("ok", result) or ("raises", the exception)."""
    try:
        return "ok", fn(*inputs)
    except Exception as e:  # noqa: BLE001 - any exception eager raises, jit must raise
        return "raises", e


def check_path(path, example):
    """Each transformation of the example through `path` equals it eagerly."""
    inputs = example.inputs()
    transformations = example.transformations(example.case.fn)
    if path == "replay":  # jit inside the transformation: they evaluate its graph
        inside = example.transformations(rune.jit(example.case.fn, fuse=False))
        transformations.update({f"{name} of jit": fn for name, fn in inside.items()
                                if name != "value"})
    eager = {name: _eager(fn, inputs) for name, fn in transformations.items()}
    for name, (kind, e) in eager.items():
        if kind == "raises":
            note(f"eager {name} raises {type(e).__name__}: {e}")
            with pytest.raises(type(e)):
                jitted(path, transformations[name])(*inputs)
    working = {name: transformations[name] for name, (kind, _) in eager.items() if kind == "ok"}
    try:
        got = jitted(path, lambda *xs: {name: fn(*xs) for name, fn in working.items()})(*inputs)
    except Exception:
        for name, fn in working.items():  # which one: raises from there
            note(f"jit of {name} alone")
            jitted(path, fn)(*inputs)
        raise
    rtol = RTOL_FLOAT32 if example.has_float32 and path != "replay" else RTOL[path]
    for name in working:
        compare(got[name], eager[name][1], rtol, f"{path} {name}")


def compare(got, expected, rtol, what):
    got_leaves, expected_leaves = ptree.leaves(got), ptree.leaves(expected)
    assert len(got_leaves) == len(expected_leaves), what
    for g, e in zip(got_leaves, expected_leaves):
        g, e = np.asarray(g), np.asarray(e)
        assert g.dtype == e.dtype, (what, g.dtype, e.dtype)
        try:
            assert_close(g, e, rtol=rtol, scale=scale_of(e))
        except AssertionError as error:
            raise AssertionError(f"{what}: {error}") from None


# ------------------------------------------------------------------ the sweep


def test_every_primitive_has_a_case():
    missing = [p.name for p in registry() if p not in CASES]
    assert not missing, f"add a case to tests/batching_cases.py for: {missing}"


PATHS = ["replay", "fused", "jax"]


def _params(cases):
    return [pytest.param(path, prim, id=f"{path}-{prim.name}")
            for path in PATHS for prim in sorted(cases, key=lambda p: p.name)]


@st.composite
def examples(draw, strategy):
    case = draw(strategy)
    note(f"case: {case.name} shapes {case.shapes}")
    return Example(case, np.random.default_rng(draw(st.integers(0, 2**32 - 1))))


def sweep(path, strategy, check):
    """Run check(example) on the path's count of examples of `strategy`."""
    missing = _extra_missing(path)
    if missing:
        pytest.skip(missing)
    count = JAX_EXAMPLES if path == "jax" else SWEEP_EXAMPLES
    calls = iter(range(2**62))

    # No shrinking on the JAX path: each step would compile again (the known
    # failures shrank for minutes). A failure shows the example as drawn.
    phases = [Phase.generate] if path == "jax" else settings.default.phases

    @settings(max_examples=count, phases=phases)
    @given(examples(strategy))
    def run(example):
        # One example alone (the JAX path in CI): not the simplest, drawn first.
        assume(count > 1 or next(calls) > 0)
        check(example)

    run()


@st.composite
def argpartition_sides(draw):
    """argpartition's order within each side of kth is the implementation's
    choice (numpy's introselect, JAX's top_k differ): the case returns each
    side's indices sorted, and kth's own, which every valid order shares
    (the values are distinct)."""
    shape = draw(shapes(1))
    axis = draw(st.integers(0, len(shape) - 1))
    kth = draw(st.integers(0, shape[axis] - 1))

    def sides(x):
        order = nx.moveaxis(O.argpartition(x, kth=kth, axis=axis), axis, -1)
        sides = [O.sort(order[..., :kth], axis=order.ndim - 1), order[..., kth:kth + 1],
                 O.sort(order[..., kth + 1:], axis=order.ndim - 1)]
        return nx.moveaxis(nx.concatenate(sides, axis=-1), -1, axis)

    return Case("argpartition", sides, [shape], [normal])


SWEPT = {**CASES, O.argpartition.primitive: argpartition_sides()}


@pytest.mark.parametrize("path, prim", _params(SWEPT))
def test_every_jit_path_equals_eager(path, prim):
    check = check_path
    if path == "jax" and _extra_missing(path) is None:
        from rune.lower.jax import UNSUPPORTED  # needs JAX

        if prim.name in UNSUPPORTED:  # the reason is on Running on JAX
            check = functools.partial(_refused_by_jax, prim.name)
    sweep(path, SWEPT[prim], lambda example: check(path, example))


def _refused_by_jax(name, path, example):
    """A primitive the JAX backend does not lower raises, naming itself, where
    eager gives a value: never a number from somewhere else. One that jit never
    records (linear_call: its bind applies its forward function) gives eager's
    answers like any other."""
    value, inputs = example.transformations(example.case.fn)["value"], example.inputs()
    assume(_eager(value, inputs)[0] == "ok")
    try:
        jitted(path, value)(*inputs)
    except NotImplementedError as e:
        assert f"{name} cannot be lowered" in str(e), e
    else:
        assert name not in _graph_names(value, inputs), f"{name} lowered, not refused"
        check_path(path, example)


def _graph_names(fn, inputs):
    """The names of the primitives in fn's jit graph."""
    return {prim.name for prim, *_ in rune.make_graph(fn)(*inputs).equations}


# ----------------------------------------------------- inputs eager refuses

# The updates and gathers are followed by sin: nonlinear, so that every
# derivative reads their result (a linear function's hessian is a constant,
# and jit drops the code no output reads, with whatever it would raise).


@st.composite
def out_of_range_update(draw, method):
    """x.at[i].<method>(v) with some index past x's first axis."""
    shape = draw(shapes(1))
    count = draw(sizes)
    bad = draw(st.sampled_from([shape[0], shape[0] + 2, -shape[0] - 1]))
    return Case(f"at.{method} out of range",
                lambda x, v, i: nx.sin(getattr(x.at[i], method)(v)),
                [shape, (count,) + shape[1:], (count,)],
                [normal, normal, _with(indices_below(shape[0]), bad)], (0, 1))


@st.composite
def out_of_range_gather(draw, scatter=False):
    shape = draw(shapes(1))
    count = draw(sizes)
    bad = draw(st.sampled_from([shape[0], -shape[0] - 1]))
    index = _with(indices_below(shape[0]), bad)
    if scatter:
        return Case("scatter_add out of range",
                    lambda c, i: nx.sin(I.scatter_add(c, i, shape=shape)),
                    [(count,) + shape[1:], (count,)], [normal, index], (0,))
    return Case("gather out of range", lambda x, i: nx.sin(I.gather(x, i)), [shape, (count,)],
                [normal, index], (0,))


def _with(sampler, bad):
    """sampler's indices with one of them replaced by `bad`."""
    def sample(rng, shape):
        out = np.array(sampler(rng, shape))
        out.flat[rng.integers(out.size)] = bad
        return out
    return sample


def _singular(rng, shape):
    """Square matrices with a zero row: singular, exactly."""
    a = rng.standard_normal(shape)
    a[..., rng.integers(shape[-1]), :] = 0.0
    return a


def _not_positive_definite(rng, shape):
    return positive_definite(rng, shape) - 10 * shape[-1] * np.eye(shape[-1])


@st.composite
def singular_square(draw, fn, name, sampler=_singular):
    n = draw(sizes)
    lead = tuple(draw(st.lists(sizes, max_size=1)))
    return Case(name, fn, [lead + (n, n)], [sampler], (0,))


@st.composite
def empty_fft(draw, name):
    shape = draw(shapes(1))
    axis = draw(st.integers(0, len(shape) - 1))
    shape = shape[:axis] + (0,) + shape[axis + 1:]
    if name in ("fft", "ifft"):
        fn = getattr(F, name)
        return Case(name, lambda x: fn(x, axes=(axis,)), [shape], [normal], (0,))
    return Case(name, lambda x: F.rfft(x, axis=axis), [shape], [normal], (0,))


ERROR_CASES = {
    U.set_at_p: out_of_range_update("set"),
    U.add_at_p: out_of_range_update("add"),
    U.scatter_mul.primitive: out_of_range_update("multiply"),
    U.scatter_min.primitive: out_of_range_update("min"),
    U.scatter_max.primitive: out_of_range_update("max"),
    I.gather_p: out_of_range_gather(),
    I.scatter_add_p: out_of_range_gather(scatter=True),
    L.inv.primitive: singular_square(L.inv, "inv"),
    L.solve_p: singular_square(lambda a: L.solve(a, nx.ones(a.shape[-1:] + (1,))), "solve"),
    L.cholesky.primitive: singular_square(L.cholesky, "cholesky", _not_positive_definite),
    **{getattr(F, name).primitive: empty_fft(name) for name in ["fft", "ifft", "rfft"]},
}


@pytest.mark.parametrize("path, prim", _params(ERROR_CASES))
def test_every_jit_path_raises_where_eager_does(path, prim):
    def check(example):
        kind, _ = _eager(example.case.fn, example.inputs()[:len(example.args)])
        assert kind == "raises", f"the case should make eager raise: {example.case.name}"
        check_path(path, example)

    sweep(path, ERROR_CASES[prim], check)
