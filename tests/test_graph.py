"""Graphs: the text and Mermaid forms, pruning, evaluation, and the records
of linearize and of a pullback printed the same way."""

import numpy as np
import pytest

import rune
from rune import nx
from rune.graph import Graph
from rune.primitives import elementwise as el
from rune.primitives import shape as sh


@pytest.fixture
def ab():
    return nx.array([1.0, 2.0]), nx.array([3.0, 4.0])


def test_text_form_of_a_pair(ab):
    graph = rune.make_graph(lambda a, b: (a * b, nx.sin(a)))(*ab)
    assert str(graph) == (
        "graph(a: float64[2], b: float64[2]):\n"
        "  c: float64[2] = multiply a b\n"
        "  d: float64[2] = sin a\n"
        "  return (c, d)"
    )


def test_params_in_brackets_and_scalars_inline():
    x = nx.array(np.ones((2, 3), np.float32))
    graph = rune.make_graph(lambda x: nx.sum(nx.transpose(x) * 2.5, axis=0))(x)
    assert str(graph) == (
        "graph(a: float32[2,3]):\n"
        "  b: float32[3,2] = transpose[axes=(1, 0)] a\n"
        "  c: float32[3,2] = multiply b 2.5\n"
        "  d: float32[2] = sum[axis=(0,) keepdims=False] c\n"
        "  return d"
    )


def test_array_constants_are_listed_once_by_name():
    w = nx.array([1.0, 2.0, 3.0])
    big = nx.array(np.ones((4, 4)))
    graph = rune.make_graph(lambda x: (x * w + w, nx.sum(big) + x))(nx.array([0.0, 0.0, 0.0]))
    # nx.sum(big) has no traced input: it runs at trace time, a 0-d constant inline
    assert str(graph) == (
        "graph(a: float64[3]):\n"
        "  const k0: float64[3] = [1, 2, 3]\n"
        "  b: float64[3] = multiply a k0\n"
        "  c: float64[3] = add b k0\n"
        "  d: float64[3] = add 16 a\n"
        "  return (c, d)"
    )


def test_large_constants_show_their_type_only():
    big = nx.array(np.arange(16.0).reshape(4, 4))
    graph = rune.make_graph(lambda x: x + big)(nx.array(np.zeros((4, 4))))
    assert str(graph).splitlines()[1] == "  const k0: float64[4,4]"


def test_returning_an_input_and_a_constant():
    graph = rune.make_graph(lambda x: (x, nx.array([5.0, 6.0])))(nx.array([1.0, 2.0]))
    assert str(graph) == (
        "graph(a: float64[2]):\n"
        "  const k0: float64[2] = [5, 6]\n"
        "  return (a, k0)"
    )


def test_names_continue_past_z():
    def chain(x):
        for _ in range(30):
            x = nx.sin(x)
        return x

    lines = str(rune.make_graph(chain)(nx.array(1.0))).splitlines()
    assert lines[25] == "  z: float64[] = sin y"
    assert lines[26] == "  ba: float64[] = sin z"
    assert lines[-1] == "  return be"


def test_python_number_inputs_print_their_type():
    graph = rune.make_graph(lambda x, s: x * s)(nx.array(np.ones(2, np.float32)), 2.0)
    assert str(graph) == (
        "graph(a: float32[2], b: float):\n"
        "  c: float32[2] = multiply a b\n"
        "  return c"
    )


def test_mermaid_has_a_node_per_input_constant_equation_and_edges():
    w = nx.array([1.0, 2.0])
    text = rune.make_graph(lambda a, b: (a * w, nx.sin(a) + b))(
        nx.array([1.0, 2.0]), nx.array([3.0, 4.0])).mermaid()
    assert text == "\n".join([
        "flowchart TD",
        '  n_a[/"a: float64[2]"/]',
        '  n_b[/"b: float64[2]"/]',
        '  n_k0[("k0: float64[2] = [1, 2]")]',
        '  n_c["c: float64[2] = multiply a k0"]',
        "  n_a --> n_c",
        "  n_k0 --> n_c",
        '  n_d["d: float64[2] = sin a"]',
        "  n_a --> n_d",
        '  n_e["e: float64[2] = add d b"]',
        "  n_d --> n_e",
        "  n_b --> n_e",
        '  outputs(["return (c, e)"])',
        "  n_c --> outputs",
        "  n_e --> outputs",
    ])


def test_mermaid_draws_one_edge_for_a_value_used_twice():
    text = rune.make_graph(lambda a: a * a)(nx.array([1.0])).mermaid()
    assert text.count("n_a --> n_b") == 1


def test_pruned_drops_what_no_output_needs(ab):
    def f(a, b):
        nx.exp(a)  # dead
        c = nx.sin(a)
        nx.cos(c)  # dead
        return c * b

    graph = rune.make_graph(f)(*ab)
    assert len(graph.equations) == 4
    pruned = graph.pruned()
    assert [eq[0].name for eq in pruned.equations] == ["sin", "multiply"]
    a, b = ab
    assert str(pruned.evaluate(a, b)[0]) == str(f(a, b))


def test_evaluate_runs_the_program_on_values(ab):
    graph = rune.make_graph(lambda a, b: (a * b, nx.sin(a)))(*ab)
    c, d = graph.evaluate(*ab)
    assert str(c) == "float64 [2] [3, 8]"
    np.testing.assert_array_equal(d.numpy(), np.sin([1.0, 2.0]))


def test_evaluate_under_a_transformation_differentiates(ab):
    graph = rune.make_graph(lambda a: nx.sum(nx.sin(a) * a))(ab[0])
    grad = rune.grad(lambda a: graph.evaluate(a)[0])(ab[0])
    a = np.array([1.0, 2.0])
    np.testing.assert_allclose(grad.numpy(), np.cos(a) * a + np.sin(a), rtol=1e-14)


def test_graph_constructor_and_new_var_for_other_tracers():
    # The control-flow and custom-rule code builds graphs this way.
    from rune.core import new_trace
    from rune.graph import GraphTrace

    with new_trace(GraphTrace) as trace:
        x = trace.new_var((2,), np.float64)
        y = nx.exp(x)
    graph = Graph([x], trace.equations, [y])
    assert str(graph) == "graph(a: float64[2]):\n  b: float64[2] = exp a\n  return b"
    np.testing.assert_allclose(graph.evaluate(nx.array([0.0, 1.0]))[0].numpy(), [1, np.e])


def test_linearize_exposes_its_record_as_a_graph(ab):
    out, f_jvp = rune.linearize(lambda a, b: (a * b, nx.sin(a)), *ab)
    assert str(f_jvp.graph) == (
        "graph(a: float64[2], b: float64[2]):\n"
        "  const k0: float64[2] = [3, 4]\n"
        "  const k1: float64[2] = [1, 2]\n"
        f"  const k2: float64[2] = [{float(np.cos(1.0))!r}, {float(np.cos(2.0))!r}]\n"
        "  c: float64[2] = multiply a k0\n"
        "  d: float64[2] = multiply b k1\n"
        "  e: float64[2] = add c d\n"
        "  f: float64[2] = multiply a k2\n"
        "  return (e, f)"
    )
    ones, zeros = nx.array([1.0, 1.0]), nx.array([0.0, 0.0])
    t1, t2 = f_jvp.graph.evaluate(ones, zeros)
    assert str(t1) == "float64 [2] [3, 4]"


def test_linearize_graph_gives_a_zero_constant_for_an_output_without_tangent(ab):
    out, f_jvp = rune.linearize(lambda a: (a * 2.0, nx.array([7.0])), ab[0])
    assert str(f_jvp.graph).splitlines()[-1] == "  return (b, k0)"
    assert "const k0: float64[1] = [0]" in str(f_jvp.graph)


def test_make_graph_of_a_pullback_shows_the_transposed_program(ab):
    _, pullback = rune.vjp(lambda a, b: nx.sum(nx.sin(a) * b), *ab)
    graph = rune.make_graph(pullback)(nx.array(1.0))
    text = str(graph)
    assert text.startswith("graph(a: float64[]):\n")
    assert "reshape[shape=(1,)] a" in text and "broadcast_to[shape=(2,)]" in text
    assert text.splitlines()[-1] == "  return (f, d)"
    ga, gb = graph.evaluate(nx.array(1.0))
    np.testing.assert_allclose(ga.numpy(), np.cos([1.0, 2.0]) * [3.0, 4.0], rtol=1e-14)
    np.testing.assert_allclose(gb.numpy(), np.sin([1.0, 2.0]), rtol=1e-14)


def test_a_captured_value_of_an_enclosing_trace_prints_as_a_constant():
    texts = []

    def f(y):
        texts.append(str(rune.make_graph(lambda x: x * y)(nx.array([1.0, 2.0]))))
        return nx.sum(y)

    rune.grad(f)(nx.array([3.0, 4.0]))
    assert texts[0] == (
        "graph(a: float64[2]):\n"
        "  const k0: float64[2] (traced by rune.grad)\n"
        "  b: float64[2] = multiply a k0\n"
        "  return b"
    )


def test_shape_primitives_print_with_their_params():
    graph = rune.make_graph(lambda x: sh.broadcast_to(nx.reshape(x, (2, 1)), shape=(2, 3)))(
        nx.array([1.0, 2.0]))
    assert str(graph) == (
        "graph(a: float64[2]):\n"
        "  b: float64[2,1] = reshape[shape=(2, 1)] a\n"
        "  c: float64[2,3] = broadcast_to[shape=(2, 3)] b\n"
        "  return c"
    )


def test_dtype_params_print_by_name():
    graph = rune.make_graph(lambda x: el.astype(x, dtype=np.dtype(np.float32)))(nx.array([1.0]))
    assert str(graph).splitlines()[1] == "  b: float32[1] = astype[dtype=float32] a"


def test_a_graph_param_prints_indented_under_its_equation():
    # Control flow carries sub-graphs as params: the text stays readable.
    inner = rune.make_graph(nx.sin)(nx.array(1.0))
    graph = rune.make_graph(lambda x: x * 2.0)(nx.array(1.0))
    prim, args, _, out = graph.equations[0]
    graph.equations[0] = (prim, args, {"body": inner}, out)
    assert str(graph) == (
        "graph(a: float64[]):\n"
        "  b: float64[] = multiply[\n"
        "    body=graph(a: float64[]):\n"
        "      b: float64[] = sin a\n"
        "      return b\n"
        "  ] a 2\n"
        "  return b"
    )
    assert "<br/>" in graph.mermaid() and "\n      b" not in graph.mermaid()


def test_deduplicated_graphs_compute_each_value_once():
    f = lambda x: nx.sum(x ** 3 * nx.sin(x))
    x, v = nx.array([0.5, 1.5]), nx.array([1.0, -1.0])
    graph = rune.make_graph(lambda x, v: rune.hvp(f, (x,), (v,)))(x, v)
    # Nested rules repeat x ** 2: the jvp's factor of x ** 3, then the record's.
    squares = lambda g: [eq for eq in g.equations if eq[2] == {"n": 2}]  # noqa: E731
    assert len(squares(graph)) == 2
    assert len(squares(graph.deduplicated())) == 1
    # and the compiled hvp, which runs the deduplicated graph, is still right
    np.testing.assert_allclose(
        rune.jit(lambda x, v: rune.hvp(f, (x,), (v,)))(x, v).numpy(),
        rune.hvp(f, (x,), (v,)).numpy(), rtol=1e-14)
