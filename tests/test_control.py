"""Control flow: rune.cond, while_loop, fori_loop, scan (rune/calls/control.py and
rune/calls/control_rules.py).

Values against Python loops and numpy; every differentiation through each,
eagerly (Python control flow) and traced (the primitives' rules); jit (the
graph holds the primitive, one trace serves every predicate value); vmap
(predicates per example, batched carries, vmap of grad); jit of vmap and
vmap of jit; nesting; and the bad inputs with their messages.
"""

from collections import namedtuple

import numpy as np
import pytest

import rune
from rune import nx
from tests.util import assert_abstract_matches, assert_vmap_matches_loop


def array(values, dtype=nx.float64):
    return nx.array(np.array(values, dtype=dtype))


def close(a, b):
    for x, y in zip(rune.ptree.leaves(a), rune.ptree.leaves(b)):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-12, atol=1e-12)


def primitives(graph):
    """The names of the primitives a graph applies, its sub-graphs' included."""
    names = []
    for prim, _, params, _ in graph.equations:
        names.append(prim.name)
        for value in params.values():
            if hasattr(value, "graph"):
                names += primitives(value.graph)
    return names


X = array([0.3, -0.7, 1.1])
XS = array([0.5, -1.5, 2.0, -0.3])


def check(f, *args, modes=("fwd", "rev")):
    assert rune.check_grads(f, args, order=2, modes=modes) is None


# ------------------------------------------------------------------- cond


def branchy(x):
    return rune.cond(nx.sum(x) > 0, lambda x: nx.sin(x) * x, lambda x: nx.exp(x) - x * x, x)


@pytest.mark.parametrize("x", [X, -X])
def test_cond_takes_the_branch_of_its_predicate(x):
    expected = np.sin(x.numpy()) * x.numpy() if x.numpy().sum() > 0 else (
        np.exp(x.numpy()) - x.numpy() ** 2)
    close(branchy(x), expected)
    close(rune.jit(branchy)(x), expected)


def test_cond_with_python_and_numpy_predicates_runs_only_the_branch_taken():
    # The branch not taken is traced, to check its outputs, but never runs on values.
    def traced_only(a, b):
        with pytest.raises(rune.TracedValueError):
            float(a)
        return a * b

    assert rune.cond(True, lambda a, b: a + b, traced_only, 1, 2) == 3
    assert rune.cond(np.bool_(False), traced_only, lambda a, b: a - b, 1, 2) == -1


def test_cond_operands_are_structures():
    Point = namedtuple("Point", "x y")

    def f(p, scale):
        return rune.cond(p.x[0] > 0, lambda p, s: {"sum": (p.x + p.y) * s},
                         lambda p, s: {"sum": p.x - p.y}, p, scale)

    p = Point(X, nx.array([1.0, 2.0, 3.0]))
    for fn in (f, rune.jit(f)):
        close(fn(p, 2.0)["sum"], (X.numpy() + [1, 2, 3]) * 2)
        close(fn(Point(-X, p.y), 2.0)["sum"], -X.numpy() - [1, 2, 3])


@pytest.mark.parametrize("x", [X, -X])
def test_cond_derivatives_eager_and_traced(x):
    check(branchy, x)
    check(rune.jit(branchy), x)
    close(rune.jit(rune.hessian(lambda x: nx.sum(branchy(x))))(x),
          rune.hessian(lambda x: nx.sum(branchy(x)))(x))


def test_cond_closures_are_differentiated_under_jit():
    def f(x, w):
        return nx.sum(rune.cond(nx.sum(x) > 0, lambda x: x * w * w, lambda x: nx.sin(x) + w, x))

    for x in (X, -X):
        eager = rune.grad(f, argnums=(0, 1))(x, nx.array(2.0))
        close(rune.jit(rune.grad(f, argnums=(0, 1)))(x, nx.array(2.0)), eager)
    check(rune.jit(lambda w: rune.cond(w > 0, lambda: w * w, lambda: -w)), nx.array(1.5))


def test_a_branch_that_ignores_its_operand_has_a_zero_derivative():
    def f(x, p):
        return nx.sum(rune.cond(p > 0, lambda x: x * x, lambda x: nx.zeros_like(x), x))

    for p, expected in ((1.0, 2 * X.numpy()), (-1.0, np.zeros(3))):
        close(rune.jit(rune.grad(f))(X, nx.array(p)), expected)


def test_jitted_cond_takes_both_paths_from_one_trace():
    traces = []

    def f(x):
        traces.append(1)
        return branchy(x)

    jitted = rune.jit(f)
    close(jitted(X), branchy(X))
    close(jitted(-X), branchy(-X))
    close(jitted(X * 2), branchy(X * 2))
    assert len(traces) == 1
    graph = rune.make_graph(branchy)(X)
    assert [eq[0].name for eq in graph.equations] == ["sum", "greater", "cond"]


def test_cond_graph_prints_its_branches():
    graph = rune.make_graph(lambda x: rune.cond(x > 0, nx.sin, nx.cos, x))(nx.array(1.0))
    assert str(graph) == (
        "graph(a: float64[]):\n"
        "  b: bool[] = greater a 0\n"
        "  c: float64[] = cond[\n"
        "    true=graph(a: float64[]):\n"
        "      b: float64[] = sin a\n"
        "      return b\n"
        "    false=graph(a: float64[]):\n"
        "      b: float64[] = cos a\n"
        "      return b\n"
        "  ] b a\n"
        "  return c"
    )


def test_cond_under_vmap_selects_per_example():
    xs = array([[0.3, 0.7], [-1.0, -2.0], [2.0, -2.5]])
    assert_vmap_matches_loop(branchy, xs)
    close(rune.jit(rune.vmap(branchy))(xs), rune.vmap(branchy)(xs))
    close(rune.vmap(rune.jit(branchy))(xs), rune.vmap(branchy)(xs))
    grads = [rune.grad(lambda x: nx.sum(branchy(x)))(x) for x in xs]
    close(rune.vmap(rune.grad(lambda x: nx.sum(branchy(x))))(xs), nx.stack(grads))
    close(rune.grad(lambda xs: nx.sum(rune.vmap(branchy)(xs)))(xs), nx.stack(grads))


def test_cond_under_vmap_with_a_shared_traced_predicate_batches_the_branches():
    def f(p, x):
        return rune.cond(p > 0, lambda x: x * 2, lambda x: -x, x)

    xs = array([1.0, 2.0, 3.0])
    for p in (1.0, -1.0):
        out = rune.jit(rune.vmap(f, in_axes=(None, 0)))(nx.array(p), xs)
        close(out, xs.numpy() * (2 if p > 0 else -1))
    graph = rune.make_graph(rune.vmap(f, in_axes=(None, 0)))(nx.array(1.0), xs)
    assert "cond" in primitives(graph) and "where" not in primitives(graph)


def test_cond_under_vmap_leaves_unbatched_what_no_mapped_value_reaches():
    # Each output is batched only if a branch makes it depend on a mapped
    # operand (JAX's rule); cond batched all of them, so out_axes=None raised
    # and a jacfwd through a cond computed its output once per basis vector.
    def f(p, w, x):
        return rune.cond(p > 0, lambda w, x: (w * 2, w + x), lambda w, x: (-w, w - x), w, x)

    w, xs = array([1.0, -2.0]), array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    mapped = rune.vmap(f, in_axes=(None, None, 0), out_axes=(None, 0))
    for p in (1.0, -1.0):
        shared, each = rune.jit(mapped)(nx.array(p), w, xs)
        close(shared, w.numpy() * (2 if p > 0 else -1))
        close(each, w.numpy() + xs.numpy() * (1 if p > 0 else -1))
    graph = rune.make_graph(mapped)(nx.array(1.0), w, xs)
    assert str(graph).count("broadcast") == 0, graph


def test_cond_branches_that_disagree():
    def traced(true_fun, false_fun):
        return lambda: rune.jit(lambda x: rune.cond(x[0] > 0, true_fun, false_fun, x))(X)

    cases = [
        (traced(lambda x: (x, x), lambda x: x), ValueError,
         "rune.cond: true_fun and false_fun must return the same structure, got (*, *) from "
         "true_fun and * from false_fun"),
        (traced(lambda x: {"a": x}, lambda x: {"b": x}), ValueError,
         "rune.cond: true_fun and false_fun must return the same structure, got {'a': *} from "
         "true_fun and {'b': *} from false_fun"),
        (traced(lambda x: x, lambda x: x.astype(nx.float32)), TypeError,
         "rune.cond: true_fun and false_fun must return the same shapes and dtypes, but output "
         "is float64[3] from true_fun and float32[3] from false_fun"),
        (traced(lambda x: (x, x), lambda x: (x, x[:1])), ValueError,
         "rune.cond: true_fun and false_fun must return the same shapes and dtypes, but "
         "output[1] is float64[3] from true_fun and float64[1] from false_fun"),
    ]
    for call, error, message in cases:
        with pytest.raises(error) as raised:
            call()
        assert str(raised.value) == message


@pytest.mark.parametrize("pred, error, message", [
    (X > 0, ValueError, "rune.cond: pred must be a boolean scalar, got shape (3,) (reduce it "
                        "with nx.any or nx.all)"),
    (X[0], TypeError, "rune.cond: pred must be a boolean scalar, got dtype float64 (compare to "
                      "make one: x > 0)"),
    (1, TypeError, "rune.cond: pred must be a boolean scalar, got int"),
])
def test_cond_predicate_must_be_a_boolean_scalar(pred, error, message):
    with pytest.raises(error) as raised:
        rune.cond(pred, nx.sin, nx.cos, X)
    assert str(raised.value) == message
    with pytest.raises(error) as raised:  # the same under jit, where pred is traced
        rune.jit(lambda p: rune.cond(p, nx.sin, nx.cos, X))(pred)
    assert str(raised.value) == message


def test_cond_branch_must_be_a_function():
    with pytest.raises(TypeError, match="^rune.cond: false_fun must be a function, got int$"):
        rune.cond(True, nx.sin, 3, X)


def test_a_read_inside_a_traced_branch_names_cond():
    with pytest.raises(rune.TracedValueError, match=r"^bool\(Tensor\): the value is traced by "
                                                    r"rune\.cond, which knows"):
        rune.jit(lambda x: rune.cond(x[0] > 0, lambda x: x if x[1] > 0 else -x, nx.sin, x))(X)


# ------------------------------------------------------------- while_loop


def doubling(x):
    """Double the carry until its sum passes 10: the trip count depends on x."""
    return rune.while_loop(lambda c: nx.sum(c) < 10, lambda c: c * 1.5 + nx.sin(c), x)


def doubling_numpy(x):
    x = np.asarray(x)
    while x.sum() < 10:
        x = x * 1.5 + np.sin(x)
    return x


@pytest.mark.parametrize("x", [X + 1, (X + 1) * 4, X * 0 + 20])
def test_while_loop_values(x):
    close(doubling(x), doubling_numpy(x))
    close(rune.jit(doubling)(x), doubling_numpy(x))


def test_while_loop_carries_structures():
    State = namedtuple("State", "step value")

    def f(x):
        return rune.while_loop(lambda s: s.step < 4,
                               lambda s: State(s.step + 1, {"v": s.value["v"] * x}),
                               State(0, {"v": nx.ones(3)}))

    for fn in (f, rune.jit(f)):
        out = fn(X)
        assert isinstance(out, State) and out.step.dtype == nx.int64
        close(out.value["v"], X.numpy() ** 4)


def test_jitted_while_loop_runs_a_trip_count_per_value_from_one_trace():
    traces = []

    def f(x):
        traces.append(1)
        return doubling(x)

    jitted = rune.jit(f)
    for x in (X + 1, (X + 1) * 4, X * 0 + 20):
        close(jitted(x), doubling_numpy(x))
    assert len(traces) == 1
    graph = rune.make_graph(doubling)(X)
    assert [eq[0].name for eq in graph.equations] == ["while"]
    assert str(graph).splitlines()[1] == (
        "  b: float64[3] = while[num_cond_consts=0 num_body_consts=0")


def test_while_loop_derivatives_eager_are_those_of_the_loop_run():
    # Eagerly the predicate is read: the loop is Python's, and both modes work.
    x = X + 1
    check(lambda x: rune.while_loop(lambda c: nx.sum(c) < 10, lambda c: c * 1.2 + nx.sin(c), x), x)
    close(rune.jacrev(doubling)(x), rune.jacfwd(doubling)(x))


def test_traced_while_loop_is_differentiated_in_forward_mode():
    x = X + 1
    expected = rune.jacfwd(doubling)(x)  # eager: Python's loop
    close(rune.jit(rune.jacfwd(doubling))(x), expected)
    close(rune.jvp(rune.jit(doubling), (x,), (nx.ones(3),))[1], expected.numpy().sum(1))
    total = lambda x: nx.sum(doubling(x))  # noqa: E731
    close(rune.jit(rune.jacfwd(rune.jacfwd(total)))(x), rune.hessian(total)(x))
    check(rune.jit(doubling), x, modes=("fwd",))
    _, f_jvp = rune.linearize(rune.jit(doubling), x)  # linearize runs the forward rule
    close(f_jvp(nx.ones(3)), expected.numpy().sum(1))


def test_traced_while_loop_refuses_reverse_mode():
    message = ("rune.while_loop: reverse-mode differentiation of while_loop needs a static "
               "trip count: use scan or fori_loop with Python int bounds")
    total = lambda x: nx.sum(doubling(x))  # noqa: E731
    cases = [(rune.jit(rune.grad(total)), X + 1), (rune.jit(rune.jacrev(doubling)), X + 1),
             # a predicate per example is traced too
             (rune.vmap(rune.grad(total)), nx.stack([X + 1, X + 2]))]
    for f, x in cases:
        with pytest.raises(ValueError) as raised:
            f(x)
        assert str(raised.value) == message


def test_reverse_mode_of_a_jitted_while_loop_on_values_unrolls_it():
    # grad outside jit evaluates jit's graph on values: the trip count is known.
    x = X + 1
    close(rune.grad(lambda x: nx.sum(rune.jit(doubling)(x)))(x),
          rune.grad(lambda x: nx.sum(doubling(x)))(x))


def test_while_loop_under_vmap_freezes_finished_examples():
    xs = array([[0.1, 0.2, 0.3], [3.0, 4.0, 5.0], [20.0, 1.0, 1.0]])
    assert_vmap_matches_loop(doubling, xs)
    close(rune.jit(rune.vmap(doubling))(xs), rune.vmap(doubling)(xs))
    close(rune.vmap(rune.jit(doubling))(xs), rune.vmap(doubling)(xs))
    jacobians = nx.stack([rune.jacfwd(doubling)(x) for x in xs])
    close(rune.vmap(rune.jacfwd(doubling))(xs), jacobians)
    close(rune.jit(rune.vmap(rune.jacfwd(doubling)))(xs), jacobians)


def test_while_loop_under_vmap_with_a_shared_predicate_batches_the_body():
    def f(n, x):  # the trip count is the same for every example
        return rune.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * 2 + 1),
                               (0, x))[1]

    xs = array([1.0, 2.0, 3.0])
    close(rune.jit(rune.vmap(f, in_axes=(None, 0)))(nx.array(3), xs), xs.numpy() * 8 + 7)
    graph = rune.make_graph(rune.vmap(f, in_axes=(None, 0)))(nx.array(3), xs)
    assert "any" not in primitives(graph) and "where" not in primitives(graph)


@pytest.mark.parametrize("jit", [False, True])
def test_while_body_that_changes_its_carry(jit):
    def run(body, init):
        f = lambda x: rune.while_loop(lambda c: nx.sum(c[0]) < 3, body, init(x))  # noqa: E731
        return (rune.jit(f) if jit else f)(X)

    cases = [
        (lambda c: (c[0] + 1,), lambda x: (x, x), ValueError,
         "rune.while_loop: body_fun returned a carry of structure (*,), expected (*, *) (the "
         "structure of init_val)"),
        (lambda c: (nx.concatenate([c[0], c[0]]), c[1]), lambda x: (x, x), ValueError,
         "rune.while_loop: body_fun changed the shape of carry[0] from (3,) to (6,); the carry "
         "keeps the shapes and dtypes of init_val"),
        (lambda c: (c[0] + 1, c[1] * 1.5), lambda x: (x, nx.array(1)), TypeError,
         "rune.while_loop: body_fun changed the dtype of carry[1] from int64 to float64; the "
         "carry keeps the shapes and dtypes of init_val (cast with .astype)"),
    ]
    for body, init, error, message in cases:
        with pytest.raises(error) as raised:
            run(body, init)
        assert str(raised.value) == message


@pytest.mark.parametrize("jit", [False, True])
def test_while_predicate_must_be_a_boolean_scalar(jit):
    cases = [(lambda c: c > 0, ValueError, "got shape (3,) (reduce it with nx.any or nx.all)"),
             (lambda c: nx.sum(c), TypeError, "got dtype float64 (compare to make one: x > 0)")]
    for cond_fun, error, end in cases:
        f = lambda x, cond_fun=cond_fun: rune.while_loop(cond_fun, lambda c: c, x)  # noqa: E731
        with pytest.raises(error) as raised:
            (rune.jit(f) if jit else f)(X)
        assert str(raised.value) == (
            "rune.while_loop: the value cond_fun returns must be a boolean scalar, " + end)


# -------------------------------------------------------------- fori_loop


def horner(x, n):
    """sum_i x**i for i < n, by fori_loop."""
    return rune.fori_loop(0, n, lambda i, acc: acc * x + 1.0, nx.zeros_like(x))


def test_fori_loop_with_python_bounds_is_a_scan():
    close(horner(X, 4), 1 + X.numpy() + X.numpy() ** 2 + X.numpy() ** 3)
    graph = rune.make_graph(lambda x: horner(x, 4))(X)
    assert [eq[0].name for eq in graph.equations] == ["scan"]
    # Traced, it is still differentiable in reverse mode.
    check(rune.jit(lambda x: horner(x, 4)), X)
    close(rune.fori_loop(2, 5, lambda i, total: total + i, nx.array(0)), 9)
    close(rune.fori_loop(3, 1, lambda i, total: total + i, nx.array(0)), 0)  # no step


def test_fori_loop_with_tensor_bounds_is_a_while_loop():
    f = rune.jit(lambda x, n: horner(x, n))
    for n in (0, 3, 5):
        close(f(X, nx.array(n)), sum(X.numpy() ** i for i in range(n)))
    assert [eq[0].name for eq in rune.make_graph(horner)(X, nx.array(3)).equations][-1] == "while"
    close(rune.jit(rune.jacfwd(horner))(X, nx.array(3)), np.diag(1 + 2 * X.numpy()))
    with pytest.raises(ValueError, match="needs a static trip count"):
        rune.jit(rune.grad(lambda x, n: nx.sum(horner(x, n))))(X, nx.array(3))
    # The index has the bounds' dtype; bounds of a batch run per example.
    ns = nx.array([0, 1, 3], dtype=nx.int32)
    out = rune.vmap(lambda n: rune.fori_loop(0, n, lambda i, c: c + i, nx.array(0, nx.int32)))(ns)
    assert str(out) == "int32 [3] [0, 0, 3]"


@pytest.mark.parametrize("lower, upper, error, message", [
    (0.0, 3, TypeError, "rune.fori_loop: lower must be an integer (a Python int or an integer "
                        "tensor), got float"),
    (0, X, TypeError, "rune.fori_loop: upper must be an integer (a Python int or an integer "
                      "tensor), got dtype float64"),
    (0, nx.array([1, 2]), ValueError, "rune.fori_loop: upper must be a scalar, got shape (2,)"),
])
def test_fori_loop_bounds_must_be_integers(lower, upper, error, message):
    with pytest.raises(error) as raised:
        rune.fori_loop(lower, upper, lambda i, c: c, X)
    assert str(raised.value) == message


# ------------------------------------------------------------------- scan


W = nx.array(0.8)


def recurrence(xs, w=W):
    """A small recurrent cell: the carry mixes with each x; ys are two outputs."""
    def cell(c, x):
        c = nx.tanh(c * w + x)
        return c, (c * c, c + x)
    return rune.scan(cell, nx.array(0.1), xs)


def recurrence_numpy(xs, w=0.8, reverse=False):
    c, ys = 0.1, []
    for x in (np.asarray(xs)[::-1] if reverse else np.asarray(xs)):
        c = np.tanh(c * w + x)
        ys.append((c * c, c + x))
    if reverse:
        ys.reverse()
    return c, (np.array([y[0] for y in ys]), np.array([y[1] for y in ys]))


def test_scan_values_against_a_python_loop():
    close(recurrence(XS), recurrence_numpy(XS))
    close(rune.jit(recurrence)(XS), recurrence_numpy(XS))


@pytest.mark.parametrize("jit", [False, True])
def test_scan_reverse(jit):
    def f(xs):
        return rune.scan(lambda c, x: (nx.tanh(c * 0.8 + x), None), nx.array(0.1), xs,
                         reverse=True)[0]

    close((rune.jit(f) if jit else f)(XS), recurrence_numpy(XS, reverse=True)[0])
    running = rune.scan(lambda c, x: (c + x, c + x), 0.0, XS, reverse=True)[1]
    close(running, np.cumsum(XS.numpy()[::-1])[::-1])


@pytest.mark.parametrize("jit", [False, True])
def test_scan_without_xs_takes_length(jit):
    def f(c):
        return rune.scan(lambda c, x: (c * 2, c), c, length=4)

    carry, ys = (rune.jit(f) if jit else f)(nx.array(1.0))
    close(carry, 16)
    close(ys, np.array([1.0, 2.0, 4.0, 8.0]))
    carry, ys = rune.scan(lambda c, x: (c * 2, (c, x)), nx.array(1.0), nx.zeros((0, 2)))
    assert str(carry) == "float64 [] 1" and ys[1].shape == (0, 2) and ys[0].shape == (0,)


def test_scan_structures_of_xs_and_ys():
    def f(xs):
        def step(c, x):
            c = {"sum": c["sum"] + x["a"] * x["b"], "n": c["n"] + 1}
            return c, [c["sum"], x["a"]]
        return rune.scan(step, {"sum": nx.zeros(2), "n": 0}, {"a": xs, "b": xs * 2})

    xs = array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    for fn in (f, rune.jit(f)):
        carry, ys = fn(xs)
        close(carry["sum"], (2 * xs.numpy() ** 2).sum(0))
        assert str(carry["n"]) == "int64 [] 3"
        close(ys[0], np.cumsum(2 * xs.numpy() ** 2, axis=0))
        close(ys[1], xs)


def scan_loss(xs, w):
    carry, (squares, sums) = recurrence(xs, w)
    return carry + nx.sum(squares) + nx.sum(sums * sums)


def test_scan_derivatives_eager_and_traced():
    w = nx.array(0.8)
    check(scan_loss, XS, w)
    check(rune.jit(scan_loss), XS, w)
    eager = rune.grad(scan_loss, argnums=(0, 1))(XS, w)
    close(rune.jit(rune.grad(scan_loss, argnums=(0, 1)))(XS, w), eager)
    close(rune.jit(rune.hessian(scan_loss))(XS, w), rune.hessian(scan_loss)(XS, w))
    out, f_jvp = rune.linearize(rune.jit(lambda xs: recurrence(xs)[1][0]), XS)
    close(f_jvp(nx.ones(4)), rune.jvp(lambda xs: recurrence(xs)[1][0], (XS,), (nx.ones(4),))[1])


def test_traced_scan_derivatives_with_structures_reverse_and_closures():
    def f(x, w, reverse):
        def body(c, xi):
            return ({"a": c["a"] * xi["p"] + w, "b": c["b"] + nx.sum(c["a"] * w)},
                    (c["a"] * 2, c["b"]))
        c, ys = rune.scan(body, {"a": nx.ones(2), "b": 0.0}, {"p": x}, reverse=reverse)
        return nx.sum(c["a"]) + c["b"] + nx.sum(ys[0] * ys[0]) + nx.sum(ys[1])

    x, w = array([[0.5, 1.5], [2.0, -1.0], [0.1, 0.2]]), array([0.3, -0.4])
    for reverse in (False, True):
        eager = rune.grad(f, argnums=(0, 1))(x, w, reverse)
        traced = rune.jit(rune.grad(f, argnums=(0, 1)), static_argnums=2)(x, w, reverse)
        close(traced, eager)
        check(rune.jit(lambda x, w, reverse=reverse: f(x, w, reverse)), x, w)


def test_scan_complex_derivatives():
    z = nx.array([1.0 + 2j, -0.5 + 0.3j])

    def f(z):
        c, ys = rune.scan(lambda c, x: (c * x + nx.sin(c), nx.conj(c) * x), nx.array(0.3 + 0.1j), z)
        return nx.real(nx.sum(ys * nx.conj(ys))) + nx.abs(c) ** 2

    check(rune.jit(f), z)
    close(rune.jit(rune.grad(f))(z), rune.grad(f)(z))


def test_scan_graph_prints_its_body():
    graph = rune.make_graph(lambda xs: rune.scan(lambda c, x: (c + x, c * x), 0.0, xs))(XS)
    assert str(graph) == (
        "graph(a: float64[4]):\n"
        "  b: float64[], c: float64[4] = scan[length=4 reverse=False num_consts=0 num_carry=1\n"
        "    body=graph(a: float64[], b: float64[]):\n"
        "      c: float64[] = add a b\n"
        "      d: float64[] = multiply a b\n"
        "      return (c, d)\n"
        "  ] 0 a\n"
        "  return (b, c)"
    )


def test_scan_under_vmap():
    xs = array([[0.5, -1.5, 2.0], [1.0, 0.2, -0.3]])
    assert_vmap_matches_loop(recurrence, xs)
    assert_vmap_matches_loop(recurrence, xs.T, in_axes=1)
    assert_vmap_matches_loop(
        lambda xs: rune.scan(lambda c, x: (c * 0.5 + x, c), nx.array(1.0), xs, reverse=True), xs)
    close(rune.jit(rune.vmap(recurrence))(xs), rune.vmap(recurrence)(xs))
    close(rune.vmap(rune.jit(recurrence))(xs), rune.vmap(recurrence)(xs))
    # A batched closure makes an unbatched carry batched after one step.
    ws = array([0.5, 0.9])
    assert_vmap_matches_loop(lambda w: recurrence(XS, w), ws)
    grads = nx.stack([rune.grad(scan_loss)(x, nx.array(0.8)) for x in xs])
    close(rune.vmap(rune.grad(scan_loss), in_axes=(0, None))(xs, nx.array(0.8)), grads)
    close(rune.jit(rune.vmap(rune.grad(scan_loss), in_axes=(0, None)))(xs, nx.array(0.8)), grads)


@pytest.mark.parametrize("call, error, message", [
    (lambda: rune.scan(lambda c, x: (c, x), 0.0, (nx.zeros(3), nx.zeros(4))), ValueError,
     "rune.scan: the leaves of xs must have the same length along axis 0, but xs[0] has length "
     "3 and xs[1] has length 4"),
    (lambda: rune.scan(lambda c, x: (c, x), 0.0, {"a": nx.zeros(3), "b": nx.zeros((4, 2))}),
     ValueError, "rune.scan: the leaves of xs must have the same length along axis 0, but "
                 "xs['a'] has length 3 and xs['b'] has length 4"),
    (lambda: rune.scan(lambda c, x: ((c, c), x), 0.0, nx.zeros(3)), ValueError,
     "rune.scan: f returned a carry of structure (*, *), expected * (the structure of init)"),
    (lambda: rune.jit(lambda xs: rune.scan(lambda c, x: ((c, c), x), 0.0, xs))(nx.zeros(3)),
     ValueError,
     "rune.scan: f returned a carry of structure (*, *), expected * (the structure of init)"),
    (lambda: rune.jit(lambda xs: rune.scan(lambda c, x: (c * x, x), nx.array(0, nx.float32),
                                           xs))(nx.zeros(3)), TypeError,
     "rune.scan: f changed the dtype of carry from float32 to float64; the carry keeps the "
     "shapes and dtypes of init (cast with .astype)"),
    (lambda: rune.scan(lambda c, x: c, 0.0, nx.zeros(3)), TypeError,
     "rune.scan: f must return a pair (carry, y), got a Tensor"),
    (lambda: rune.scan(lambda c, x: (c, x), 0.0), ValueError,
     "rune.scan: xs has no leaves (xs=None?), so give length: the number of steps"),
    (lambda: rune.scan(lambda c, x: (c, x), 0.0, nx.zeros(3), length=4), ValueError,
     "rune.scan: length=4 disagrees with xs, whose leaves have length 3"),
    (lambda: rune.scan(lambda c, x: (c, x), 0.0, nx.array(1.0)), ValueError,
     "rune.scan: xs has shape (); each leaf of xs needs a leading axis to scan along"),
    (lambda: rune.scan(lambda c, x: (c, x), 0.0, length=-1), TypeError,
     "rune.scan: length must be a non-negative int, got -1"),
    (lambda: rune.scan(lambda c, x: (c, nx.zeros(int(x))), 0.0, nx.array([1, 2])), ValueError,
     "rune.scan: f changed the shape of y from (1,) to (2,); the y keeps the shapes and dtypes "
     "of the first step's y"),
])
def test_scan_bad_inputs(call, error, message):
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value) == message


# ---------------------------------------------------------------- together


def cond_in_scan(xs):
    def body(c, x):
        c2 = rune.cond(x > 0, lambda c, x: c * x + nx.sin(c), lambda c, x: c - x * x, c, x)
        return c2, c2 * c
    c, ys = rune.scan(body, nx.array(0.7), xs)
    return c + nx.sum(ys)


def while_in_scan(xs):
    def body(c, x):
        c2 = rune.while_loop(lambda v: v < 10.0, lambda v: v * 2 + x * x, c)
        return c2 / 10, c2
    return rune.scan(body, nx.array(0.7), xs)[1]


def test_nested_control_flow_traced_matches_eager():
    close(rune.jit(rune.grad(cond_in_scan))(XS), rune.grad(cond_in_scan)(XS))
    close(rune.jit(rune.hessian(cond_in_scan))(XS), rune.hessian(cond_in_scan)(XS))
    close(rune.jit(rune.jacfwd(while_in_scan))(XS), rune.jacfwd(while_in_scan)(XS))
    with pytest.raises(ValueError, match="needs a static trip count"):
        rune.jit(rune.jacrev(while_in_scan))(XS)
    assert_vmap_matches_loop(cond_in_scan, nx.stack([XS, -XS, XS * 2]))


def test_jit_keeps_float32_and_python_numbers_weak():
    x32 = array([1.0, 2.0], nx.float32)
    out = rune.jit(lambda x, lr: rune.cond(x[0] > 0, lambda x: x * lr, lambda x: x, x))(x32, 0.5)
    assert str(out) == "float32 [2] [0.5, 1]"
    carry, _ = rune.jit(lambda xs, lr: rune.scan(lambda c, x: (c * lr + x, c),
                                                 nx.zeros(2, dtype=nx.float32), xs))(
        nx.ones((3, 2), dtype=nx.float32), 0.5)
    assert str(carry) == "float32 [2] [1.75, 1.75]"


def test_custom_vjp_inside_a_traced_body_under_reverse_mode_is_refused_clearly():
    @rune.custom_vjp
    def square(x):
        return x * x, lambda g: 2 * x * g

    f = lambda x: nx.sum(rune.cond(nx.sum(x) > 0, square, nx.cos, x))  # noqa: E731
    close(rune.grad(f)(X + 1), 2 * (X.numpy() + 1))  # a readable predicate: Python's if
    with pytest.raises(NotImplementedError, match=r"^rune\.cond: reverse mode through "
                                                  r"custom_vjp\(square\) inside a traced"):
        rune.jit(rune.grad(f))(X + 1)


def test_abstract_rules_agree_with_eager_results():
    ints = nx.array([1, 2, 3])
    assert_abstract_matches(
        lambda x, n: rune.cond(x[0] > 0, lambda x, n: (x * 2, n + 1, x[:2] > 0),
                               lambda x, n: (x, n * 2, x[1:] > 0), x, n), X, ints)
    assert_abstract_matches(
        lambda x, n: rune.while_loop(lambda c: c[1][0] < 10, lambda c: (c[0] * 2, c[1] + 3),
                                     (x, n)), X, ints)
    assert_abstract_matches(
        lambda xs, n: rune.scan(lambda c, x: (c + x, (c * x, n * 2, x > 0)), nx.zeros(()), xs),
        XS, ints)
