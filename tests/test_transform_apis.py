"""jacfwd, jacrev, hessian, hvp, vmap, linear_transpose, value_and_grad, has_aux."""

import numpy as np
import pytest

import rune
from rune import nx


def T(x):
    return nx.Tensor(np.asarray(x, dtype=float))


def test_jacobians_agree_with_the_formula():
    x = T([0.3, -1.2, 2.0])
    f = lambda x: nx.sin(x) * x
    expected = np.diag(np.cos(x.numpy()) * x.numpy() + np.sin(x.numpy()))
    np.testing.assert_allclose(rune.jacfwd(f)(x).numpy(), expected, rtol=1e-14)
    np.testing.assert_allclose(rune.jacrev(f)(x).numpy(), expected, rtol=1e-14)


def test_jacobian_shapes_are_output_then_input():
    x = T(np.ones((2, 3)))
    f = lambda x: nx.sum(x, axis=0) * 2.0  # (2, 3) -> (3,)
    assert rune.jacfwd(f)(x).shape == (3, 2, 3)
    assert rune.jacrev(f)(x).shape == (3, 2, 3)


def test_jacobians_with_argnums_tuple_and_pair_outputs():
    a, b = T([1.0, 2.0]), T([3.0, 4.0])
    f = lambda a, b: (a * b, nx.sin(a))
    for jac in (rune.jacfwd, rune.jacrev):
        (d0a, d0b), (d1a, d1b) = jac(f, argnums=(0, 1))(a, b)
        np.testing.assert_allclose(d0a.numpy(), np.diag([3.0, 4.0]))
        np.testing.assert_allclose(d0b.numpy(), np.diag([1.0, 2.0]))
        np.testing.assert_allclose(d1a.numpy(), np.diag(np.cos([1.0, 2.0])))
        np.testing.assert_allclose(d1b.numpy(), np.zeros((2, 2)))


def test_hessian_and_hvp_agree():
    x = T([0.5, -1.0, 2.0])
    f = lambda x: nx.sum(x * x * nx.sin(x))
    v = T([1.0, 2.0, 3.0])
    h = rune.hessian(f)(x).numpy()
    np.testing.assert_allclose(rune.hvp(f, (x,), (v,)).numpy(), h @ v.numpy(), rtol=1e-12)
    np.testing.assert_allclose(h, h.T, rtol=1e-12)


def test_hvp_with_two_arguments_returns_one_entry_per_argument():
    f = lambda a, b: nx.sum(a * a * b)
    a, b = T([1.0, 2.0]), T([3.0, 4.0])
    ha, hb = rune.hvp(f, (a, b), (T([1.0, 0.0]), T([0.0, 1.0])))
    # d2f/da2 = 2b, d2f/dadb = 2a, d2f/db2 = 0
    np.testing.assert_allclose(ha.numpy(), [2 * 3.0, 2 * 2.0])
    np.testing.assert_allclose(hb.numpy(), [2 * 1.0, 0.0])


def test_value_and_grad_with_aux():
    f = lambda x: (nx.sum(x * x), x * 10)
    (value, aux), g = rune.value_and_grad(f, has_aux=True)(T([1.0, 2.0]))
    assert float(value) == 5.0
    assert str(aux) == "float64 [2] [10, 20]"
    assert str(g) == "float64 [2] [2, 4]"
    g2, aux2 = rune.grad(f, has_aux=True)(T([1.0, 2.0]))
    assert str(g2) == str(g) and str(aux2) == str(aux)


@pytest.mark.parametrize("jac", [rune.jacfwd, rune.jacrev])
def test_jacobians_with_aux(jac):
    x = T([1.0, 2.0])
    jacobian, aux = jac(lambda x: (x * x, "aux"), has_aux=True)(x)
    assert str(jacobian) == "float64 [2, 2]\n[[2, 0],\n [0, 4]]" and aux == "aux"
    # jacfwd took [0] of whatever f returned: the Jacobian of x[0] * x[0], quietly.
    with pytest.raises(TypeError, match=rf"^rune\.{jac.__name__}: with has_aux=True the "
                                        rf"function must return a pair \(output, aux\)"):
        jac(lambda x: x * x, has_aux=True)(x)


def test_linear_transpose_of_a_matrix_product():
    A = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    f = lambda x: nx.sum(nx.Tensor(A) * x, axis=1)  # x -> A x
    (ct,) = rune.linear_transpose(f, T(np.zeros(3)))(T([1.0, -1.0]))
    np.testing.assert_allclose(ct.numpy(), A.T @ np.array([1.0, -1.0]))


def test_vmap_axes_and_errors():
    x = T(np.arange(6.0).reshape(2, 3))
    out = rune.vmap(lambda r: nx.sum(r * r), in_axes=1)(x)
    np.testing.assert_allclose(out.numpy(), (x.numpy() ** 2).sum(axis=0))
    out = rune.vmap(lambda r, s: r * s, in_axes=(0, None), out_axes=1)(x, T([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(out.numpy(), (x.numpy() * [1, 2, 3]).T)
    with pytest.raises(ValueError, match=r"in_axes=2 is out of range for argument 0 of shape \(2, 3\)"):
        rune.vmap(lambda r: r, in_axes=2)(x)
    with pytest.raises(ValueError, match="mapped sizes disagree: argument 0 has size 2 along axis 0, but argument 1 has size 3"):
        rune.vmap(lambda a, b: a, in_axes=(0, 0))(x, T([1.0, 2.0, 3.0]))


def test_per_example_gradients_with_vmap_of_grad():
    w = T([1.0, -2.0])
    xs = T([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    loss = lambda w, x: nx.sum(nx.tanh(w * x))
    per_example = rune.vmap(rune.grad(loss), in_axes=(None, 0))(w, xs)
    for i in range(3):
        np.testing.assert_allclose(per_example.numpy()[i], rune.grad(loss)(w, xs[i]).numpy())


def test_vmap_reads_raise_traced_value_error():
    with pytest.raises(rune.TracedValueError, match=r"float\(Tensor\): the value is traced by rune.vmap"):
        rune.vmap(lambda r: float(r))(T([1.0, 2.0]))


def test_control_flow_on_values_works_under_grad_but_float_raises():
    def f(x):
        return x * x if x > 0 else -x   # bool() reads the primal
    assert float(rune.grad(f)(T(3.0))) == 6.0
    assert float(rune.grad(f)(T(-3.0))) == -1.0
    with pytest.raises(rune.TracedValueError, match=r"float\(Tensor\): the value is traced by rune.grad.*rune.detach"):
        rune.grad(lambda x: x * float(x))(T(2.0))
    assert float(rune.grad(lambda x: x * float(rune.detach(x)))(T(2.0))) == 2.0


def test_vmap_keeps_unmapped_python_numbers_weak():
    x32 = nx.Tensor(np.ones((3, 2), np.float32))
    out = rune.vmap(lambda x, s: x * s, in_axes=(0, None))(x32, 2.0)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out.numpy(), np.full((3, 2), 2.0, np.float32))


def test_vmap_out_axes_out_of_range_raises_instead_of_wrapping():
    x = T(np.arange(6.0).reshape(3, 2))
    np.testing.assert_array_equal(rune.vmap(lambda r: r * 2, out_axes=-1)(x).numpy(), 2 * x.numpy().T)
    for bad in (2, 3, -3):
        with pytest.raises(ValueError) as error:
            rune.vmap(lambda r: r * 2, out_axes=bad)(x)
        assert str(error.value) == (f"rune.vmap: out_axes={bad} is out of range for the output, which has 2 "
                                    f"axes with the batch axis (expected -2 <= out_axes < 2)")
    with pytest.raises(ValueError, match=r"out_axes=1 is out of range for the output\['s'\], which has 1 axis with the batch axis \(expected -1 <= out_axes < 1\)$"):
        rune.vmap(lambda r: {"s": nx.sum(r)}, out_axes=1)(x)


def test_vmap_in_axes_count_message_says_argument_in_the_singular():
    with pytest.raises(ValueError, match=r"^rune\.vmap: in_axes has 2 entries, but the function was called with 1 positional argument$"):
        rune.vmap(lambda r: r, in_axes=(0, 1))(T([1.0, 2.0]))


def test_vmap_along_axis_0_records_no_identity_transpose():
    graph = rune.make_graph(rune.vmap(lambda r: nx.sum(nx.sin(r) * r)))(T(np.ones((3, 2))))
    assert [eq[0].name for eq in graph.equations] == ["sin", "multiply", "sum"]


def _products(graph):
    """The shapes multiplied by each matmul of a graph."""
    return [tuple(tuple(a.shape) for a in args) for prim, args, _, _ in graph.equations
            if prim.name == "matmul"]


@pytest.mark.parametrize("jac", [rune.jacrev, rune.jacfwd])
def test_a_jacobian_does_not_multiply_by_the_identity(jac):
    # The basis vectors a Jacobian maps over are the identity's rows: kept
    # diagonal, the layer's Jacobian costs n^2 (its rows scaled), not the
    # n^3 of a product with the n x n identity. make_graph records what the
    # eager Jacobian computes (W an argument, so that no product with it is
    # folded into a constant while tracing).
    rng = np.random.default_rng(0)
    W, x = nx.array(rng.normal(size=(5, 4))), nx.array(rng.normal(size=4))
    f = lambda x: nx.tanh(W @ x)
    graph = rune.make_graph(lambda x, W: jac(lambda x: nx.tanh(W @ x))(x))(x, W)
    assert set(_products(graph)) == {((5, 4), (4,))}  # the forward W @ x alone
    expected = (1 - np.tanh(W.numpy() @ x.numpy()) ** 2)[:, None] * W.numpy()
    np.testing.assert_allclose(jac(f)(x).numpy(), expected, rtol=1e-14)
    np.testing.assert_allclose(rune.jit(jac(f))(x).numpy(), expected, rtol=1e-14)


@pytest.mark.parametrize("jac", [rune.jacrev, rune.jacfwd])
@pytest.mark.parametrize("f", [
    lambda x: x,                                   # the basis itself is the result
    lambda x: nx.cumsum(x * 2.0),                  # a primitive with no shortcut: made dense
    lambda x: x @ nx.ones((4, 4)),                 # vector @ matrix
    lambda x: nx.array([[1.0, 2.0, 0.5, 3.0]]) @ (x * x),  # matrix @ vector, scaled first
    lambda x: nx.stack([x @ x, nx.sum(x)]),        # vector @ vector
    lambda x: rune.cond(nx.sum(x) > 0, lambda y: nx.sin(y), lambda y: y * 3.0, x),
], ids=["identity", "cumsum", "vec-mat", "mat-vec", "vec-vec", "cond"])
def test_jacobians_through_the_diagonal_basis_equal_dense_ones(jac, f):
    x = nx.array([0.5, -1.0, 2.0, 0.25])
    dense = rune.vmap(lambda t: rune.jvp(f, (x,), (t,))[1])(nx.eye(4))  # rows: J e_b
    expected = np.moveaxis(dense.numpy(), 0, -1)
    np.testing.assert_allclose(jac(f)(x).numpy(), expected, rtol=1e-14)


@pytest.mark.parametrize("shape", [(1, 4), (4, 1), (1,)], ids=str)
@pytest.mark.parametrize("side", ["left", "right"])
def test_the_diagonal_basis_never_broadcasts_what_numpy_rejects(shape, side):
    # A product of the diagonal basis (3 vectors of size 3) with an operand
    # whose axes do not line up must raise as the dense product does: the
    # shortcut once scaled a (1, 4) matrix's single row into a (3, 4) answer.
    from rune.vmap import map_basis
    other = nx.ones(shape)
    f = (lambda v: [v @ other]) if side == "left" else (lambda v: [other @ v])
    with pytest.raises(ValueError, match="nx.matmul"):
        map_basis(f, nx.ones(3))
    with pytest.raises(ValueError, match="nx.matmul"):
        rune.vmap(lambda v: f(v)[0])(nx.eye(3))  # the dense route agrees


@pytest.mark.parametrize("has_aux", [False, True])
def test_jacfwd_runs_the_function_once_per_argument_it_differentiates(has_aux):
    # Forward mode computes the output with the tangents: jacfwd ran f once
    # more for the output's shapes (and once more for aux), and a Hessian,
    # jacfwd of jacrev, built the whole reverse Jacobian an extra time.
    calls = []

    def f(x, y):
        calls.append(x.shape)
        out = {"a": nx.sin(x) * y[0], "b": x * y}
        return (out, {"n": len(calls), "tag": "aux"}) if has_aux else out

    x, y = nx.array([0.5, 1.0, 2.0]), nx.array([3.0, -1.0, 0.25])
    for argnums, runs in ((0, 1), ((0, 1), 2)):
        del calls[:]
        result = rune.jacfwd(f, argnums=argnums, has_aux=has_aux)(x, y)
        assert len(calls) == runs
        jac = result[0] if has_aux else result
        if has_aux:
            assert result[1] == {"n": 1, "tag": "aux"}
        want = rune.jacrev(f, argnums=argnums, has_aux=has_aux)(x, y)
        want = want[0] if has_aux else want
        for got_leaf, want_leaf in zip(rune.ptree.leaves(jac), rune.ptree.leaves(want)):
            np.testing.assert_allclose(got_leaf.numpy(), want_leaf.numpy(), rtol=1e-14)
    del calls[:]
    hessian = rune.hessian(lambda x: nx.sum(f(x, y)[0]["a"] if has_aux else f(x, y)["a"]))(x)
    assert len(calls) == 1
    np.testing.assert_allclose(hessian.numpy(), np.diag(-np.sin(x.numpy()) * 3.0), rtol=1e-14)


@pytest.mark.parametrize("aux", ["a tag", 3, None, {"k": T([1.0])}])
def test_jvp_takes_any_aux_as_vjp_and_grad_do(aux):
    # jvp made a zero tangent for every returned leaf, aux's too: a string
    # or a number raised AttributeError ('str' object has no attribute 'shape').
    x = T([1.0, 2.0])
    out, tangent, got = rune.jvp(lambda x: (x * x, aux), (x,), (x,), has_aux=True)
    assert str(out) == "float64 [2] [1, 4]" and str(tangent) == "float64 [2] [2, 8]"
    assert repr(got) == repr(aux) == repr(rune.vjp(lambda x: (x * x, aux), x, has_aux=True)[2])


@pytest.mark.parametrize("jac", [rune.jacfwd, rune.jacrev])
@pytest.mark.parametrize("empty", [{}, (), []])
def test_jacobians_with_respect_to_an_empty_structure_are_empty(jac, empty):
    f = lambda d: (nx.array([1.0, 2.0]), {"b": nx.array(3.0)})  # noqa: E731
    assert jac(f)(empty) == (empty, {"b": empty})
    assert jac(lambda d: (f(d), "aux"), has_aux=True)(empty) == ((empty, {"b": empty}), "aux")


@pytest.mark.parametrize("shape", [(3,), (2, 2)])  # the diagonal basis, then the dense one
def test_map_basis_returns_a_shared_value_unbatched_even_if_a_rule_batched_it(shape):
    # jacfwd's output rides beside the tangents as a value the same for every
    # basis vector; a batching rule may still give it the batch axis (rows all
    # equal), and map_basis must hand back one row, not the whole batch.
    from rune.vmap import map_basis

    c = T([5.0, 6.0, 7.0])
    same, batched = map_basis(lambda t: ([nx.sum(t * 0.0) + c, c, "tag"], [t * 2.0]),
                              nx.ones(shape))
    assert [str(v) for v in same] == [str(c), str(c), "tag"]
    n = int(np.prod(shape))
    np.testing.assert_array_equal(batched[0].numpy(), 2.0 * np.eye(n).reshape((n,) + shape))


def test_linearize_with_aux_as_vjp_has_it():
    x = T([1.0, 2.0])
    out, f_jvp, aux = rune.linearize(lambda x: (x * x, {"tag": "t", "v": x + 1}), x,
                                     has_aux=True)
    assert str(out) == "float64 [2] [1, 4]" and str(f_jvp(T([1.0, 1.0]))) == "float64 [2] [2, 4]"
    assert aux["tag"] == "t" and repr(aux["v"]) == "Tensor(float64 [2] [2, 3])"
    assert len(f_jvp.graph.outputs) == 1  # the output's tangent, not aux's
    with pytest.raises(TypeError, match=r"^rune\.linearize: with has_aux=True the function "
                                        r"must return a pair \(output, aux\), got a tensor"):
        rune.linearize(lambda x: x, x, has_aux=True)
