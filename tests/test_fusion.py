"""Fusion (rune/lower/fused.py): rune.jit runs groups of elementwise equations
as numexpr kernels; the results equal the numpy replay's.

The properties run every random program of tests/programs.py jitted with
fusion and without, with the threshold lowered so that every group of two
or more fusable equations is fused (the default spares small groups).
"""

import warnings

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import rune
from rune import nx
from rune.lower import fused
from tests.programs import assert_close, finite, programs, scale_of

pytest.importorskip("numexpr")
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


@pytest.fixture(autouse=True)
def fuse_every_group(monkeypatch):
    monkeypatch.setattr(fused, "SMALL_GROUP", 2)


def both(f):
    return rune.jit(f, fuse=True), rune.jit(f, fuse=False)


def check_fused_equals_unfused(f, xs, rtol):
    with_fusion, without = both(f)
    want = without(*xs)
    assume(finite(want))
    got = with_fusion(*xs)
    for g, w in zip(rune.ptree.leaves(got), rune.ptree.leaves(want)):
        assert g.dtype == w.dtype
        assert_close(g, w, rtol=rtol, scale=scale_of(w))


@given(programs(control=True))
def test_fused_equals_unfused(p):
    # With control flow fed by cheap shared values, and 1 / (a product).
    xs = p.inputs()
    check_fused_equals_unfused(p, xs, 1e-12)
    check_fused_equals_unfused(p.derivative(xs), xs, 1e-12)


@given(programs("complex", max_depth=3))
def test_fused_equals_unfused_for_complex_programs(p):
    xs = p.inputs()
    vs = tuple(p.directions(x.shape, None) for x in xs)
    check_fused_equals_unfused(lambda *xs: rune.jvp(p, xs, vs), xs, 1e-12)


@given(programs())
def test_float32_programs_stay_float32_and_unfused(p):
    xs = tuple(x.astype(nx.float32) for x in p.inputs(np.float32))
    grad = rune.grad(p.loss, argnums=tuple(range(len(xs))))
    check_fused_equals_unfused(grad, xs, 1e-6)
    assert "fused" not in rune.jit(grad, fuse=True).source(*xs)


def chain(x):
    for _ in range(3):
        x = nx.exp(nx.tanh(nx.sin(x) * 0.5 + x))
    return nx.sum(x)


def test_a_chain_and_its_gradient_run_as_a_few_kernels():
    x = nx.array([0.1, -0.4, 0.9])
    f = rune.jit(rune.grad(chain), fuse=True)
    source = f.source(x)
    assert source.count(" = fused") >= 2 and "tanh(sin(a) * 0.5 + a)" in source
    assert len(source.splitlines()) < len(rune.jit(rune.grad(chain), fuse=False).source(x)
                                          .splitlines()) / 2
    assert_close(f(x), rune.grad(chain)(x), rtol=1e-14)


def test_complex_kernels_keep_complex128():
    z = nx.array([0.5 + 1j, -0.25 - 0.5j])
    f = rune.jit(lambda z: nx.exp(nx.sin(z) * (0.5 - 1j) + z) * z, fuse=True)
    assert "fused" in f.source(z)
    assert f(z).dtype == np.complex128
    assert_close(f(z), nx.exp(nx.sin(z) * (0.5 - 1j) + z) * z, rtol=1e-14)


def test_operations_numexpr_lacks_stay_numpy():
    x = nx.array([0.1, -0.4, 0.9])
    f = rune.jit(lambda x: nx.sin(nx.maximum(nx.sigmoid(x * 2.0 + 1.0), x) * x), fuse=True)
    source = f.source(x)
    assert "maximum(" in source and "sigmoid(" in source
    assert "expr='x * 2.0 + 1.0'" not in source  # names come from the graph
    assert_close(f(x), nx.sin(nx.maximum(nx.sigmoid(x * 2.0 + 1.0), x) * x), rtol=1e-14)


def test_make_graph_shows_the_groups():
    x = nx.array([0.1, -0.4])
    text = str(rune.make_graph(lambda x: nx.exp(-x * x) * nx.cos(x), fuse=True)(x))
    assert text == ("graph(a: float64[2]):\n"
                    "  b: float64[2] = fused[expr=exp(-a * a) * cos(a)] a\n"
                    "  return b")


def test_small_groups_stay_numpy_by_default(monkeypatch):
    monkeypatch.setattr(fused, "SMALL_GROUP", 4)
    x = nx.array([0.1, -0.4])
    assert "fused" not in rune.jit(lambda x: nx.sin(x) * x, fuse=True).source(x)
    assert "fused" in rune.jit(lambda x: nx.sin(x) * x, fuse=True).source(nx.ones(10_000))


def test_without_numexpr_asking_for_fusion_says_so_in_one_line(monkeypatch):
    monkeypatch.setattr(fused, "NumExpr", None)
    x = nx.array([0.1, -0.4])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        f = rune.jit(chain)  # the default fuses only when it can: no message
        assert "fused" not in f.source(x)
    with pytest.warns(UserWarning, match=r"^rune.jit: fuse=True needs numexpr \(pip install "
                                         r"'rune-autodiff\[fast\]'\); replaying numpy instead$"):
        g = rune.jit(chain, fuse=True)
    assert "fused" not in g.source(x)
    assert_close(g(x), chain(x), rtol=1e-14)



# ----------------------------------------------- what issue 25 found, one each


def test_a_reciprocal_of_a_product_keeps_its_parentheses():
    # reciprocal(a * a) was written `1 / a * a`, which is (1 / a) * a.
    x = nx.array([0.7, -1.1, 1.3])
    h = lambda x: nx.sum(nx.reciprocal(nx.multiply(x, x)))  # noqa: E731
    assert_close(rune.jit(rune.grad(h), fuse=True)(x), -2.0 / x.numpy() ** 3, rtol=1e-14)
    g = lambda x: nx.exp(nx.reciprocal(nx.sin(x) * 3.0))  # noqa: E731
    assert_close(rune.jit(g, fuse=True)(x), np.exp(1.0 / (np.sin(x.numpy()) * 3.0)),
                 rtol=1e-14)


@pytest.mark.parametrize("control", ["scan", "cond", "while_loop"])
def test_a_cheap_shared_value_that_also_feeds_control_flow(control):
    # _recomputable read the shape of each user's result: a scan, cond or
    # while_loop has a tuple of results.
    def f(x):
        s = nx.sin(x) * 2.0  # cheap, and used by the control flow and twice more
        if control == "scan":
            flowed = rune.scan(lambda c, _: (c * 0.9 + s, nx.cos(c)), x, length=2)[1]
        elif control == "cond":
            flowed = rune.cond(nx.sum(x) > 0, lambda v: (nx.sin(v), v), lambda v: (v, v), s)[0]
        else:
            flowed = rune.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 0.5 + s),
                                     (0, s))[1]
        return nx.sum(nx.cos(s) * s + s + flowed)
    x = nx.array([0.1, -0.4])
    same_outputs(f, x)
    # (reverse mode of a while_loop needs a static trip count: its jvp instead)
    derivative = (rune.grad(f) if control != "while_loop"
                  else lambda x: rune.jvp(f, (x,), (nx.ones_like(x),))[1])
    same_outputs(derivative, x)


@pytest.mark.parametrize("name", ["arcsin", "arccos", "arctan", "arcsinh", "arctanh", "arccosh",
                                  "sqrt", "tan", "tanh", "log", "log10"])
def test_complex_functions_numexpr_gets_wrong_stay_numpy(name):
    # numexpr's complex arcsin, arccos and arcsinh lose digits for large
    # |z| (relative error up to 4e-11 at |z| ~ 1e3, 2e-7 at 1e5, inf at 1e6),
    # arcsin, arcsinh, arctan and arctanh for small |z| (2e-11 at 2e-6), tan
    # and tanh near their poles (1e-2 at 1e-6 from pi/2, i pi/2), log and
    # log10 near 1 (2e-9 at 1e-6 from it); its sqrt and arccosh ignore the
    # sign of a zero imaginary part on their branch cut: sqrt(-0.5 - 0j) =
    # +0.707j, numpy's -0.707j.
    z = nx.array([1e-6 + 2e-6j, -3e-5 + 1e-5j, -35 + 1319.2j, 2e4 - 3e4j, -2e5 + 1e5j,
                  complex(-0.5, -0.0), complex(0.5, -0.0), complex(np.pi / 4 + 5e-7, 5e-7),
                  complex(5e-7, np.pi / 4 + 5e-7), complex(0.5 + 5e-7, 5e-7)])
    f = lambda z: getattr(nx, name)(z + z) * z  # noqa: E731
    np.testing.assert_allclose(rune.jit(f, fuse=True)(z).numpy(), f(z).numpy(), rtol=1e-14, atol=0)

# ------------------------------------------------- buffers of the numpy replay


def test_the_replay_writes_into_dead_temporaries():
    f = lambda x: nx.sum(nx.sin(x) * nx.exp(-x * x) + nx.tanh(x) ** 2)  # noqa: E731
    x = nx.array(np.linspace(-2, 2, 1000))
    jitted = rune.jit(rune.grad(f), fuse=False)
    assert jitted.source(x).count(", out=") >= 5
    for _ in range(2):  # a second call gets fresh buffers, not the first call's outputs
        assert_close(jitted(x), rune.grad(f)(x), rtol=1e-15)


def test_a_temporary_a_view_still_sees_is_not_written_into():
    def f(x):
        doubled = x * 2.0
        view = nx.reshape(doubled, (2, 2))  # doubled's memory lives on in the view
        return view, nx.sin(x) + 1.0  # same shape and dtype as doubled
    x = nx.array([0.1, 0.2, 0.3, 0.4])
    view, other = rune.jit(f, fuse=False)(x)
    assert_close(view, np.array([[0.2, 0.4], [0.6, 0.8]]), rtol=1e-15)
    assert_close(other, np.sin(x.numpy()) + 1.0, rtol=1e-15)


def test_outputs_are_never_written_into():
    f = rune.jit(lambda x: (nx.sin(x), nx.cos(nx.sin(x) * 2.0) + 1.0), fuse=False)
    x = nx.array([0.1, 0.2])
    first, second = f(x)
    assert_close(first, np.sin(x.numpy()), rtol=1e-15)
    assert_close(second, np.cos(np.sin(x.numpy()) * 2.0) + 1.0, rtol=1e-15)


def test_a_long_chain_is_cut_into_kernels_python_can_parse():
    def chain(x):
        for _ in range(300):
            x = nx.sin(x)
        return x
    x = nx.array([0.3, -0.5])
    f = rune.jit(chain, fuse=True)
    assert f.source(x).count("fused") >= 300 // fused.MAX_DEPTH
    assert_close(f(x), chain(x), rtol=1e-13)


def test_kernels_run_in_several_threads_at_once():
    from tests.test_threads import run_threads

    f = rune.jit(rune.grad(chain), fuse=True)
    xs = [nx.array(np.linspace(-1, 1, 5) + k) for k in range(4)]
    want = [rune.grad(chain)(x) for x in xs]

    def work(k):
        return lambda: all(np.allclose(f(xs[k]).numpy(), want[k].numpy(), rtol=1e-13)
                           for _ in range(2000))
    assert all(run_threads(*[work(k) for k in range(4)]))


def test_on_large_arrays_numpys_faster_exp_and_tanh_stay_numpy():
    x = nx.array(np.linspace(-1, 1, 10_000))
    source = rune.jit(lambda x: nx.tanh(nx.exp(x * 0.5)) * x + x, fuse=True).source(x)
    assert "= exp(" in source and "= tanh(" in source and "fused" in source


def test_conj_of_a_real_array_stays_real():
    x = nx.array([0.1, -0.4])
    f = rune.jit(lambda x: nx.conj(nx.sin(x) * x + 1.0) * x, fuse=True)
    assert f(x).dtype == np.float64
    assert_close(f(x), (np.sin(x.numpy()) * x.numpy() + 1.0) * x.numpy(), rtol=1e-15)



# ------------------------------------------------------- reductions and buffers


def same_with_and_without_fusion(f, x):
    with_fusion, without = both(f)
    got, want = with_fusion(x), without(x)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert_close(got, want, rtol=1e-12)



def test_a_final_sum_or_prod_runs_inside_the_kernel():
    x = nx.array(np.linspace(-1, 1, 1000))
    for reduce, name in ((nx.sum, "sum"), (nx.prod, "prod")):
        f = lambda x: reduce(nx.sin(x) * 0.5 + 1.0)  # noqa: B023, E731
        source = rune.jit(f, fuse=True).source(x)
        assert f"expr='{name}(sin(a) * 0.5 + 1.0)'" in source, source
        assert f"= {name}(" not in source  # no separate numpy reduction
        same_with_and_without_fusion(f, x)


def test_a_sum_used_by_more_arithmetic_stays_the_kernels_last_step():
    # numexpr reduces only at the end of an expression: mean's divide runs
    # after the kernel, not around its sum.
    x = nx.array(np.linspace(-1, 1, 1000))
    f = lambda x: nx.mean(nx.cos(x) * x + x) * 2.0 - 1.0  # noqa: E731
    source = rune.jit(f, fuse=True).source(x)
    assert "expr='sum(cos(a) * a + a)'" in source, source
    same_with_and_without_fusion(f, x)


def test_a_partial_sum_and_a_sum_of_a_large_array_stay_numpy():
    # numexpr sums along one axis slower than numpy, and a large array less
    # accurately (in sequence, where numpy adds pairwise).
    f = lambda x: nx.sum(nx.sin(x) * x + x, axis=1)  # noqa: E731
    g = lambda x: nx.sum(nx.sin(x) * x + x)  # noqa: E731
    for h, x in ((f, nx.array(np.linspace(-1, 1, 1000).reshape(2, 500))),
                 (g, nx.array(np.linspace(-1, 1, fused.LARGE)))):
        lines = rune.jit(h, fuse=True).source(x).splitlines()
        assert any("fused" in line for line in lines)
        assert not any("fused" in line and "sum(" in line for line in lines)
        same_with_and_without_fusion(h, x)


def test_kernels_write_into_dead_temporaries():
    # exp(x) dies in a product of another shape; the kernel then writes into
    # it. (A kernel's own arguments are never its output buffer.)
    f = lambda x, y: (nx.exp(x) * y, nx.cos(x * 2.0) * x + x)  # noqa: E731
    x, y = nx.array(np.linspace(-1, 1, 5000)), nx.ones((2, 5000))
    jitted = rune.jit(f, fuse=True)
    lines = jitted.source(x, y).splitlines()
    assert any("fused" in line and ", out=" in line for line in lines), "\n".join(lines)
    for _ in range(2):  # the second call writes into fresh buffers, not the first's output
        for got, want in zip(jitted(x, y), rune.jit(f, fuse=False)(x, y)):
            assert_close(got, want, rtol=1e-14)


# ------------------------------------------------- recomputing shared values


def kernels_and_equations(f, x):
    graph = rune.make_graph(f, fuse=True)(x)
    return sum(eq[0].name == "fused" for eq in graph.equations), len(graph.equations)


def test_cheap_shared_values_are_recomputed_in_each_kernel(monkeypatch):
    # W1's gradient (scripts/bench.py): exp(t) feeds the next step and the
    # backward pass; storing every such value cut the graph into 81 kernels
    # and 71 numpy calls.
    monkeypatch.setattr(fused, "SMALL_GROUP", 4)
    def w1(x):
        y = x
        for _ in range(40):
            y = nx.exp(nx.tanh(nx.sin(y) * 0.5 + x))
        return nx.sum(y)
    x = nx.array(np.random.default_rng(0).uniform(-1, 1, 8))
    kernels, equations = kernels_and_equations(rune.grad(w1), x)
    monkeypatch.setattr(fused, "RECOMPUTE_BUDGET", 0)  # store every shared value
    stored_kernels, _ = kernels_and_equations(rune.grad(w1), x)
    assert kernels < min(stored_kernels, 81) and equations == kernels  # no numpy call left
    monkeypatch.undo()
    assert_close(rune.jit(rune.grad(w1), fuse=True)(x), rune.grad(w1)(x), rtol=1e-12)


def test_a_shared_value_is_stored_on_large_arrays():
    # There each copy would be one more pass over memory.
    f = lambda x: nx.cos(nx.sin(x) * 2.0) * x + nx.sin(x) * 2.0 * x  # noqa: E731
    small, large = nx.array([0.1, -0.4]), nx.array(np.linspace(-1, 1, fused.LARGE))
    assert [eq[0].name for eq in rune.make_graph(f, fuse=True)(small).equations] == ["fused"]
    graph = rune.make_graph(f, fuse=True)(large)
    assert [eq[0].name for eq in graph.equations] == ["fused", "fused"]
    assert str(graph).count("sin(") == 1
    same_with_and_without_fusion(f, large)


def test_a_group_left_to_numpy_still_reads_a_recomputed_value(monkeypatch):
    # sin(x) is recomputed inside the big kernel; `sin(x) + 1` is too small a
    # group to fuse, so its numpy add needs sin(x) as an array.
    monkeypatch.setattr(fused, "SMALL_GROUP", 4)
    f = lambda x: (nx.exp(nx.tanh(nx.cos(nx.sin(x)) * 2.0)), nx.sin(x) + 1.0)  # noqa: E731
    x = nx.array([0.1, -0.4])
    with_fusion, without = both(f)
    assert "fused" in with_fusion.source(x) and "= sin(" in with_fusion.source(x)
    for got, want in zip(with_fusion(x), without(x)):
        assert_close(got, want, rtol=1e-14)


OPERATIONS = (lambda a, b: a * b, lambda a, b: a + b, lambda a, b: a - b * 0.5,
              lambda a, b: nx.sin(a) * b, lambda a, b: nx.tanh(a + b), lambda a, b: nx.exp(a * 0.1) - b)


@given(st.lists(st.tuples(st.integers(0, len(OPERATIONS) - 1), st.integers(0, 99), st.integers(0, 99)),
                min_size=1, max_size=40),
       st.sampled_from([2, 4]))
def test_programs_with_heavy_sharing_equal_the_numpy_replay(steps, small_group):
    # Each step combines two earlier values: most values have several users,
    # some of them kernels, some numpy calls, some outputs.
    def program(x):
        values = [x, nx.cos(x)]
        for op, i, j in steps:
            values.append(OPERATIONS[op](values[i % len(values)], values[j % len(values)]))
        return nx.sum(values[-1]), values[len(values) // 2]
    x = nx.array(np.linspace(-0.9, 0.8, 5))
    old = fused.SMALL_GROUP
    fused.SMALL_GROUP = small_group
    try:
        same_outputs(program, x)
        same_outputs(rune.grad(lambda x: program(x)[0] + nx.sum(program(x)[1])), x)
    finally:
        fused.SMALL_GROUP = old


def same_outputs(f, x):
    with_fusion, without = both(f)
    want = without(x)
    assume(finite(want))
    for got, expected in zip(rune.ptree.leaves(with_fusion(x)), rune.ptree.leaves(want)):
        assert_close(got, expected, rtol=1e-12, scale=scale_of(expected))


def test_a_sum_of_many_arrays_is_cut_into_kernels_of_few_enough_inputs():
    xs = [nx.array([0.1 * k, -0.2]) for k in range(fused.MAX_INPUTS + 10)]
    f = lambda *xs: sum(xs[1:], xs[0])  # noqa: E731
    graph = rune.make_graph(f, fuse=True)(*xs)
    assert {eq[0].name for eq in graph.equations} == {"fused"}
    assert all(len(eq[1]) <= fused.MAX_INPUTS for eq in graph.equations)
    assert_close(rune.jit(f, fuse=True)(*xs), f(*xs), rtol=1e-14)


def test_kernels_of_the_same_expression_are_compiled_once():
    # numexpr's compiler is slow on long expressions; a chain repeats them.
    def chain(x):
        for _ in range(6):
            x = nx.exp(nx.tanh(nx.sin(x) * 0.5 + x))
        return x
    graph = rune.make_graph(chain, fuse=True)(nx.array([0.1, -0.4, 0.9]))
    kernels = [eq[0].kernel for eq in graph.equations]
    assert len(kernels) >= 3 and len({id(k) for k in kernels[1:]}) == 1
