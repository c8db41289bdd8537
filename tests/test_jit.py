"""rune.jit: results equal eager ones, the cache, composition with the other
transformations, the errors, and the code that replays a trace."""

import sys
from collections import namedtuple

import numpy as np
import pytest

import rune
from rune import nx
from rune.primitives import elementwise as el
from rune.primitives import shape as sh

jit_module = sys.modules["rune.jit"]  # `rune.jit` is the function


def vec(*values, dtype=np.float64):
    return nx.array(np.array(values, dtype=dtype))


def assert_same(got, expected):
    """Same structure, dtypes, shapes and values (bit for bit)."""
    got_leaves, got_structure = rune.ptree.flatten(got)
    exp_leaves, exp_structure = rune.ptree.flatten(expected)
    assert got_structure == exp_structure
    for g, e in zip(got_leaves, exp_leaves):
        assert type(g) is nx.Tensor
        assert g.dtype == e.dtype and g.shape == e.shape
        np.testing.assert_array_equal(g.numpy(), e.numpy())


X = vec(0.3, -0.5, 1.2)
M = nx.array(np.arange(6.0).reshape(2, 3) / 7)
W = nx.array([0.5, -1.0, 2.0])

CASES = {
    "elementwise": (lambda x: nx.exp(nx.tanh(nx.sin(x) * 1.01 + 0.5)), (X,)),
    "two inputs": (lambda x, y: x * y + nx.cos(x), (X, X * 2.0)),
    "sum": (lambda m: nx.sum(m, axis=1, keepdims=True) + nx.sum(m), (M,)),
    "reshape transpose": (lambda m: nx.transpose(nx.reshape(m, (3, 2))) * 3.0, (M,)),
    "broadcast": (lambda m, x: m * x + sh.broadcast_to(x, shape=(2, 3)), (M, X)),
    "closure constant": (lambda x: nx.sum(x * W) * W, (X,)),
    "float32": (lambda x: nx.sin(x) * 2.0 + 1, (vec(1.0, 2.0, dtype=np.float32),)),
    "complex": (lambda z: nx.real(z * nx.conj(z)) + 1, (nx.array([1 + 2j, -3 + 0.5j]),)),
    "integers": (lambda n: n * 3 + 1, (nx.array([1, 2, 3]),)),
    "returns input and constant": (lambda x: (x, W), (X,)),
    "dead code": (lambda x: [nx.exp(x), nx.sin(x)][1], (X,)),
}


@pytest.mark.parametrize("name", CASES)
def test_jit_equals_eager(name):
    f, args = CASES[name]
    jf = rune.jit(f, fuse=False)  # the numpy replay; fused kernels: tests/test_fusion.py
    assert_same(jf(*args), f(*args))
    assert_same(jf(*args), f(*args))  # from the cache


def test_structured_arguments_and_outputs():
    Params = namedtuple("Params", "w b")

    def f(params, batch):
        h = nx.tanh(batch["x"] * params.w + params.b)
        return {"h": h, "sums": (nx.sum(h), nx.sum(params.w))}

    params = Params(vec(0.1, 0.2, 0.3), vec(1.0, 1.0, 1.0))
    batch = {"x": X}
    assert_same(rune.jit(f)(params, batch), f(params, batch))


def test_keyword_arguments_are_traced():
    f = lambda x, scale: x * scale
    jf = rune.jit(f)
    assert_same(jf(X, scale=W), f(X, scale=W))


def test_numpy_array_arguments_become_tensors():
    jf = rune.jit(lambda x: x * 2.0)
    assert_same(jf(np.array([1.0, 2.0])), vec(2.0, 4.0))


def counted(f):
    calls = []

    def wrapper(*args, **kwargs):
        calls.append(1)
        return f(*args, **kwargs)

    wrapper.calls = calls
    return wrapper


def test_cache_hits_do_not_trace_again_and_new_shapes_or_dtypes_do():
    f = counted(lambda x: nx.sin(x) + 1)
    jf = rune.jit(f)
    jf(X)
    jf(X * 2.0)  # same shape and dtype, new values
    assert len(f.calls) == 1
    jf(vec(1.0, 2.0))  # new shape
    jf(vec(1.0, 2.0, 3.0, dtype=np.float32))  # new dtype
    jf((X,)[0])
    assert len(f.calls) == 3


def test_a_new_structure_traces_again():
    f = counted(lambda xs: nx.sum(xs[0]) + nx.sum(xs[-1]))
    jf = rune.jit(f)
    jf([X, X])
    jf((X, X))
    jf([X, X, X])
    jf([X, X])
    assert len(f.calls) == 3


def test_the_cache_keeps_the_most_recently_used(monkeypatch):
    monkeypatch.setattr(jit_module, "CACHE_SIZE", 3)
    f = counted(lambda x: x + 1)
    jf = rune.jit(f)
    shapes = [nx.array(np.zeros(n)) for n in range(1, 5)]
    for x in shapes[:3]:
        jf(x)
    jf(shapes[0])  # used again: now the most recent
    jf(shapes[3])  # evicts shapes[1], the least recently used
    assert len(f.calls) == 4
    jf(shapes[0])
    jf(shapes[2])
    assert len(f.calls) == 4
    jf(shapes[1])
    assert len(f.calls) == 5
    assert len(jf._cache) == 3


def test_default_cache_bound_is_64():
    assert jit_module.CACHE_SIZE == 64


def test_cache_clear_traces_again():
    f = counted(lambda x: x + 1)
    jf = rune.jit(f)
    jf(X)
    jf.cache_clear()
    jf(X)
    assert len(f.calls) == 2


# ------------------------------------------------------------ static arguments


def test_static_arguments_change_the_trace():
    f = counted(lambda x, mode: nx.sin(x) if mode == "sin" else nx.cos(x))
    jf = rune.jit(f, static_argnums=1)
    assert_same(jf(X, "sin"), nx.sin(X))
    assert_same(jf(X, "cos"), nx.cos(X))
    assert_same(jf(X, "sin"), nx.sin(X))
    assert len(f.calls) == 2


def test_static_shapes_and_negative_argnums():
    f = lambda x, shape: nx.reshape(x, shape)
    jf = rune.jit(f, static_argnums=(-1,))
    assert_same(jf(M, (3, 2)), f(M, (3, 2)))
    assert_same(jf(M, (6,)), f(M, (6,)))


def test_static_values_of_different_types_trace_apart():
    f = counted(lambda x, n: x * n)
    jf = rune.jit(f, static_argnums=1)
    assert jf(vec(1, 2, dtype=np.int64), 2).dtype == np.int64
    assert jf(vec(1, 2, dtype=np.int64), 2.0).dtype == np.float64
    assert len(f.calls) == 2


def test_a_static_argument_left_to_its_default():
    def f(x, n=3):
        return x * n

    jf = rune.jit(f, static_argnums=1)
    assert_same(jf(X), f(X))
    assert_same(jf(X, 2), f(X, 2))


def test_unhashable_static_argument_names_its_position_and_type():
    jf = rune.jit(lambda x, axes: x, static_argnums=1)
    with pytest.raises(TypeError, match=r"rune\.jit: the static argument at position 1 has "
                                        r"unhashable type list; .*\(pass a tuple instead\)"):
        jf(X, [0, 1])


@pytest.mark.parametrize("nums", [2, (0, 2), -3])
def test_static_argnums_out_of_range(nums):
    with pytest.raises(ValueError, match=r"rune\.jit: static_argnums=-?\d is out of range: the "
                                         r"function takes 2 positional arguments"):
        rune.jit(lambda x, y: x, static_argnums=nums)


def test_static_argnums_out_of_range_for_the_call():
    jf = rune.jit(lambda *args: args[0], static_argnums=2)
    with pytest.raises(ValueError, match=r"rune\.jit: static_argnums=2 is out of range for a "
                                         r"function called with 1 positional argument$"):
        jf(X)


def test_static_argnums_must_be_ints():
    with pytest.raises(TypeError, match=r"rune\.jit: static_argnums must be ints, got '1'"):
        rune.jit(lambda x, y: x, static_argnums="1")


def test_an_argument_that_cannot_be_traced_suggests_static_argnums():
    jf = rune.jit(lambda x, mode: x)
    with pytest.raises(TypeError, match=r"rune\.jit: args\[1\] is a str, which cannot be traced "
                                        r".*; make it static with static_argnums=\(1,\)"):
        jf(X, "sin")


# ------------------------------------------------------------ Python numbers


def test_python_numbers_are_traced_once_and_stay_weakly_typed():
    f = lambda x, s: x * s + s
    traced = counted(f)
    jf = rune.jit(traced)
    x32 = vec(1.0, 2.0, dtype=np.float32)
    assert_same(jf(x32, 2.0), f(x32, 2.0))
    assert_same(jf(x32, 3.5), f(x32, 3.5))
    assert jf(x32, 3.5).dtype == np.float32
    assert len(traced.calls) == 1
    assert_same(jf(x32, 2), f(x32, 2))  # an int is another signature
    assert len(traced.calls) == 2


def test_python_number_outputs_become_tensors():
    assert_same(rune.jit(lambda x: (x, 2.0))(X), (X, nx.array(2.0)))


def test_a_python_number_alone_gives_numpy_types():
    f = lambda s: nx.sin(s)
    assert_same(rune.jit(f)(0.5), f(0.5))
    assert_same(rune.jit(lambda x, s: s)(X, 2.0), nx.array(2.0))


def test_branching_on_a_python_number_raises():
    jf = rune.jit(lambda x, s: x if el.greater(s, 0) else -x)
    with pytest.raises(rune.TracedValueError, match="the value is traced by rune.jit"):
        jf(X, 1.0)


# ------------------------------------------------------------ composition


def chain(x):
    return nx.sum(nx.sin(x) * nx.exp(x) * x)


def test_jit_of_grad():
    assert_same(rune.jit(rune.grad(chain))(X), rune.grad(chain)(X))


def test_jit_of_grad_compiles_forward_and_backward_together():
    graph = rune.make_graph(rune.grad(lambda x: nx.sum(nx.sin(x) * x)))(X)
    names = [eq[0].name for eq in graph.equations]
    # forward: sin and its derivative's cos, the product and the sum; then the
    # backward pass: the seed 1 spread by sum's transpose passes each factor
    # through as it is (no multiplication by ones), so only x * cos x is left
    assert names == ["sin", "cos", "multiply", "sum", "multiply", "add"]
    source = rune.jit(rune.grad(lambda x: nx.sum(nx.sin(x) * x)), fuse=False).source(X)
    assert "= sin(a)" in source and "= cos(a)" in source
    assert "sum(" not in source  # the output value is dead code in a gradient


def test_grad_of_jit():
    f = counted(chain)
    jf = rune.jit(f)
    assert_same(rune.grad(jf)(X), rune.grad(chain)(X))
    assert_same(rune.grad(jf)(X * 2.0), rune.grad(chain)(X * 2.0))
    assert len(f.calls) == 1  # the graph is cached and evaluated under grad


def test_jit_and_grad_of_ops_whose_record_holds_graph_values():
    # abs's jvp multiplies by sign(x), where's by the condition: under jit
    # those are Vars of jit's graph inside the record.
    for f in [lambda x: nx.sum(el.absolute(x) * x),
              lambda x: nx.sum(el.where(el.greater(x, 0.0), x * x, nx.sin(x))),
              lambda x: nx.sum(el.maximum(x, 0.3) * x)]:
        assert_same(rune.jit(rune.grad(f))(X), rune.grad(f)(X))
        assert_same(rune.grad(rune.jit(f))(X), rune.grad(f)(X))


def test_jit_of_vjp_and_linearize():
    def pull(x, ct):
        return rune.vjp(lambda x: nx.sin(x) * x, x)[1](ct)

    def push(x, t):
        return rune.linearize(lambda x: nx.sin(x) * x, x)[1](t)

    assert_same(rune.jit(pull)(X, W), pull(X, W))
    assert_same(rune.jit(push)(X, W), push(X, W))


def test_vjp_and_linearize_of_jit():
    f = lambda x: nx.sin(x) * x
    assert_same(rune.vjp(rune.jit(f), X)[1](W), rune.vjp(f, X)[1](W))
    assert_same(rune.linearize(rune.jit(f), X)[1](W), rune.linearize(f, X)[1](W))


def test_an_error_while_tracing_leaves_nothing_cached():
    jf = rune.jit(lambda x: nx.reshape(x, (7,)))
    for _ in range(2):
        with pytest.raises(ValueError, match="cannot reshape"):
            jf(X)
    assert len(jf._cache) == 0


def test_vmap_of_jit_and_jit_of_vmap():
    g = lambda r: nx.sum(r * r) * r
    assert_same(rune.vmap(rune.jit(g))(M), rune.vmap(g)(M))
    assert_same(rune.jit(rune.vmap(g))(M), rune.vmap(g)(M))


def test_jvp_of_jit_and_jit_of_jvp():
    expected = rune.jvp(chain, (X,), (W,))
    assert_same(rune.jvp(rune.jit(chain), (X,), (W,)), expected)
    assert_same(rune.jit(lambda x, t: rune.jvp(chain, (x,), (t,)))(X, W), expected)


def test_jit_of_jit():
    inner = counted(lambda x: nx.sin(x) * 2.0)
    jinner = rune.jit(inner)
    outer = rune.jit(lambda x: jinner(x) + jinner(x * 3.0))
    assert_same(outer(X), nx.sin(X) * 2.0 + nx.sin(X * 3.0) * 2.0)
    assert len(inner.calls) == 1  # both calls in the outer trace share the inner graph
    text = str(rune.make_graph(lambda x: jinner(x) + 1)(X))
    assert "sin a" in text  # the inner graph's equations are inlined


def test_hessian_under_jit():
    expected = rune.hessian(chain)(X)
    assert_same(rune.jit(rune.hessian(chain))(X), expected)
    np.testing.assert_allclose(rune.hessian(rune.jit(chain))(X).numpy(), expected.numpy(),
                               rtol=1e-13)


def test_grad_through_a_jitted_closure_over_a_tracer_is_not_cached():
    graphs = []

    def f(y):
        jf = rune.jit(lambda x: x * y)
        out = jf(vec(1.0, 2.0, 3.0))
        graphs.append(len(jf._cache))
        return nx.sum(out)

    assert_same(rune.grad(f)(X), vec(1.0, 2.0, 3.0))
    assert graphs == [0]  # the trace captured grad's tracer: valid for this call only


def test_a_global_jitted_closure_over_a_tracer_is_recomputed_each_time():
    state = {}
    jf = rune.jit(lambda x: x * state["y"])

    def f(y):
        state["y"] = y
        return nx.sum(jf(X))

    assert_same(rune.grad(f)(W), X)
    assert_same(rune.grad(f)(W * 2.0), X)
    assert len(jf._cache) == 0


def test_a_leaked_tracer_raises_when_used_after_jit_returns():
    leaked = []
    jf = rune.jit(lambda x: leaked.append(x * 2.0) or x)
    jf(X)
    with pytest.raises(RuntimeError, match="a value traced by rune.jit escaped it"):
        leaked[0] + 1.0


def test_a_method_can_be_jitted_with_self_static():
    class Model:
        def __init__(self, w):
            self.w = w

        @rune.jit
        def plain(self, x):
            return x

        def apply(self, x):
            return x * self.w

        fast = rune.jit(apply, static_argnums=0)

    model = Model(W)
    assert_same(model.fast(X), X * W)
    with pytest.raises(TypeError, match=r"args\[0\] is a Model.*static_argnums=\(0,\)"):
        model.plain(X)


# ------------------------------------------------------------ reading values


@pytest.mark.parametrize("read, text", [
    (lambda x: x.item(), "Tensor.item()"),
    (lambda x: float(x), "float(Tensor)"),
    (lambda x: bool(x), "bool(Tensor)"),
    (lambda x: x.numpy(), "Tensor.numpy()"),
    (lambda x: np.asarray(x), "numpy.asarray(Tensor)"),
])
def test_reading_a_traced_value_raises(read, text):
    jf = rune.jit(lambda x: read(nx.sum(x)))
    with pytest.raises(rune.TracedValueError) as info:
        jf(X)
    assert str(info.value).startswith(f"{text}: the value is traced by rune.jit, which knows "
                                      f"its shape and dtype but not its value")
    assert "static_argnums" in str(info.value)


def test_python_control_flow_on_a_traced_tensor_raises():
    def f(x):
        if el.greater(nx.sum(x), 0.0):
            return x
        return -x

    with pytest.raises(rune.TracedValueError, match=r"^bool\(Tensor\): the value is traced "
                                                    r"by rune\.jit"):
        rune.jit(f)(X)
    with pytest.raises(rune.TracedValueError, match="traced by rune.make_graph"):
        rune.make_graph(f)(X)


# ------------------------------------------------------------ generated code


def test_source_is_one_line_per_live_equation():
    def f(a, b):
        nx.exp(a)  # dead: not in the code
        c = nx.sum(a * b, axis=0)
        return c, nx.sin(a)

    source = rune.jit(f).source(M, M)
    assert source == (
        "def f(a, b):\n"
        "    d = multiply(a, b)\n"
        "    e = sum(d, axis=(0,), keepdims=False); del d\n"
        "    f_ = sin(a)\n"
        "    return (e, f_)\n"
    )


def test_source_binds_constants_and_dtypes_by_name():
    w32 = nx.array(np.ones(3, np.float32))

    def f(x):
        return el.astype(x, dtype=np.dtype(np.float32)) * w32 + nx.array(np.float32(2.0))

    source = rune.jit(f).source(X)
    assert source == (
        "def f(a):\n"
        "    b = astype(a, dtype=float32)\n"
        "    c = multiply(b, k0); del b\n"
        "    d = add(c, s, out=c); del c\n"
        "    return (d,)\n"
    )
    assert_same(rune.jit(f)(X), f(X))


def test_names_that_are_keywords_or_functions_are_renamed():
    def chain(x):
        for _ in range(300):
            x = nx.sin(x)
        return x

    jf = rune.jit(chain, fuse=False)
    source = jf.source(X)
    assert "    if_ = sin(ie, out=ie)" in source  # var 'if' is a keyword
    assert_same(jf(X), chain(X))


def test_compile_graph_runs_a_graph_on_numpy_values():
    graph = rune.make_graph(lambda a, b: (a * b, nx.sin(a)))(X, W)
    run, source = jit_module.compile_graph(graph, "pair")
    c, d = run(X.numpy(), W.numpy())
    np.testing.assert_array_equal(c, X.numpy() * W.numpy())
    assert source.startswith("def pair(a, b):")


def test_none_arguments_in_different_places_trace_apart():
    f = lambda a, b: a if b is None else b * 2.0
    jf = rune.jit(f)
    assert_same(jf(X, None), X)
    assert_same(jf(None, X), X * 2.0)


def test_a_constant_output_does_not_shadow_a_variable_of_the_compiled_code():
    # A 0-d constant output once took the global name "s", which the 19th variable also has.
    def f(x):
        for _ in range(20):
            x = x * 1.5
        return x, nx.array(0.0)

    out = rune.jit(f)(nx.array(1.0))
    assert str(out[1]) == "float64 [] 0" and out[0].item() == 1.5 ** 20
