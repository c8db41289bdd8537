"""The differentiation core: the OCaml reference page's examples, nesting,
complex parameters, and the errors of grad."""

import numpy as np
import pytest

import rune
from rune import nx


@pytest.fixture
def ab():
    return nx.array([1.0, 2.0]), nx.array([3.0, 4.0])


def pair(a, b):
    return a * b, nx.sin(a)


def test_jvp_and_vjp_over_a_pair(ab):
    a, b = ab
    ones, zeros = nx.Tensor(np.ones(2)), nx.Tensor(np.zeros(2))
    _, (dy0, dy1) = rune.jvp(pair, (a, b), (ones, zeros))
    _, pullback = rune.vjp(pair, a, b)
    ua, ub = pullback((ones, zeros))
    assert str(dy0) == "float64 [2] [3, 4]"
    np.testing.assert_array_equal(dy1.numpy(), np.cos([1.0, 2.0]))
    assert str(ua) == "float64 [2] [3, 4]"
    assert str(ub) == "float64 [2] [1, 2]"


def test_linearize_does_not_run_f_again(ab):
    a, b = ab
    calls = []

    def counted(a, b):
        calls.append(1)
        return pair(a, b)

    ones, zeros = nx.Tensor(np.ones(2)), nx.Tensor(np.zeros(2))
    _, along = rune.linearize(counted, a, b)
    t1, _ = along(ones, zeros)
    t2, _ = along(zeros, ones)
    assert len(calls) == 1
    assert str(t1) == "float64 [2] [3, 4]"
    assert str(t2) == "float64 [2] [1, 2]"


def test_hessian_vector_product_as_jvp_of_grad(ab):
    a, _ = ab
    g = lambda x: nx.sum(x * x * x)
    hvp = rune.jvp(rune.grad(g), (a,), (nx.Tensor(np.ones(2)),))[1]
    assert str(hvp) == "float64 [2] [6, 12]"



@pytest.mark.parametrize("first, second", [("sin", "cos"), ("sinh", "cosh")])
def test_hvp_evaluates_each_of_a_derivative_pair_once(first, second):
    # Forward over reverse: sin's factor is cos x, and the record's factor
    # cos x, differentiated by the jvp, needs sin x again. The graph that
    # make_graph records holds every primitive the eager hvp applies (it is
    # not deduplicated), so it counts the evaluations.
    f = lambda x: nx.sum(x ** 3 * getattr(nx, first)(x))
    x, v = nx.array([0.5, 1.5, -2.0]), nx.array([1.0, -1.0, 0.25])
    graph = rune.make_graph(lambda x, v: rune.hvp(f, (x,), (v,)))(x, v)
    names = [eq[0].name for eq in graph.equations]
    assert names.count(first) == 1 and names.count(second) == 1
    a, s, c = x.numpy(), getattr(np, first)(x.numpy()), getattr(np, second)(x.numpy())
    curvature = -s if first == "sin" else s  # sin'' = -sin, sinh'' = sinh
    expected = (6 * a * s + 6 * a ** 2 * c + a ** 3 * curvature) * v.numpy()
    np.testing.assert_allclose(rune.hvp(f, (x,), (v,)).numpy(), expected, rtol=1e-14)


def test_detach_holds_one_factor(ab):
    a, _ = ab
    held = rune.grad(lambda x: nx.sum(x * rune.detach(x)))(a)
    assert str(held) == "float64 [2] [1, 2]"


def test_detach_of_what_is_not_a_tensor_raises():
    with pytest.raises(TypeError, match=r"^rune.detach: x\[1\]: expected a tensor, a numpy "
                                        r"array or a number, got str"):
        rune.detach([nx.array(1.0), "a"])  # was a tensor holding a string
    assert rune.detach(None) is None


def test_complex_gradient_is_twice_the_conjugate():
    z = nx.array([1 + 2j, -3 + 0.5j])
    gz = rune.grad(lambda z: nx.sum(nx.real(z * nx.conj(z))))(z)
    assert str(gz) == "complex128 [2] [2-4i, -6-1i]"


def test_check_grads_of_sum_exp(ab):
    a, _ = ab
    assert rune.check_grads(lambda x: nx.sum(nx.exp(x)), (a,), order=2) is None


def test_check_grads_catches_a_wrong_derivative(ab):
    a, _ = ab
    wrong = lambda x: nx.sum(rune.detach(x) * x)  # true derivative 2x, computed x
    with pytest.raises(rune.GradientCheckError, match="fwd mode, order 1, argument 0"):
        rune.check_grads(wrong, (a,), modes=("fwd",))
    with pytest.raises(rune.GradientCheckError, match="rev mode, order 1, argument 0"):
        rune.check_grads(wrong, (a,), modes=("rev",))


def test_check_grads_names_the_output_index_that_disagrees():
    # relu'(0) = 0, where central differences see half the step.
    with pytest.raises(rune.GradientCheckError) as caught:
        rune.check_grads(nx.relu, (nx.array([1.0, 0.0]),), modes=("fwd",))
    assert "(at output index (1,))" in str(caught.value)


@pytest.mark.parametrize("x", [-2.0, 0.0, 3.0])
def test_no_perturbation_confusion(x):
    f = lambda x: x * rune.grad(lambda y: x + y)(nx.array(2.0))
    assert float(rune.grad(f)(nx.array(x))) == 1.0
    # and in forward mode over reverse mode
    assert float(rune.jvp(f, (nx.array(x),), (nx.array(1.0),))[1]) == 1.0


def test_grad_of_grad_of_grad():
    d3 = rune.grad(rune.grad(rune.grad(lambda x: nx.sin(x) * x)))
    x = 0.7
    expected = -3 * np.sin(x) - x * np.cos(x)
    assert float(d3(nx.array(x))) == pytest.approx(expected, rel=1e-12)


def test_grad_argnums_tuple_and_structures():
    def f(params, x):
        return nx.sum(params["w"] * x + params["b"])

    params = {"w": nx.array([1.0, 2.0]), "b": nx.array(0.5)}
    x = nx.array([3.0, 4.0])
    g = rune.grad(f)(params, x)
    assert sorted(g) == ["b", "w"]
    assert str(g["w"]) == "float64 [2] [3, 4]"
    assert str(g["b"]) == "float64 [] 2"
    gp, gx = rune.grad(f, argnums=(0, 1))(params, x)
    assert str(gx) == "float64 [2] [1, 2]"


def test_grad_errors_name_the_problem():
    x = nx.array([1.0, 2.0])
    with pytest.raises(TypeError, match=r"shape \(2,\); use rune.vjp"):
        rune.grad(lambda x: x * 2)(x)
    with pytest.raises(TypeError, match=r"argument 0 \(argnums=0\) has dtype int64"):
        rune.grad(lambda x: nx.sum(x))(nx.array([1, 2]))
    with pytest.raises(ValueError, match="argnums=3 is out of range .* 1 positional argument"):
        rune.grad(lambda x: nx.sum(x), argnums=3)(x)
    with pytest.raises(TypeError, match="must return a pair"):
        rune.grad(lambda x: nx.sum(x), has_aux=True)(x)
    with pytest.raises(TypeError, match="holomorphic=True"):
        rune.grad(lambda z: nx.sum(z))(nx.array([1j]))


def test_jvp_tangent_errors_name_the_leaf():
    x = nx.array([1.0, 2.0])
    with pytest.raises(ValueError, match=r"tangents\[0\]: the tangent has shape \(3,\)"):
        rune.jvp(nx.sin, (x,), (nx.array([1.0, 2.0, 3.0]),))
    with pytest.raises(TypeError, match=r"tangents\[0\]: the tangent has dtype complex128"):
        rune.jvp(nx.sin, (x,), (nx.array([1j, 1j]),))
    with pytest.raises(ValueError, match=r"tangents has structure \(\[\*\],\), expected \(\*,\)"):
        rune.jvp(nx.sin, (x,), ([x],))


def test_pullback_cotangent_errors():
    _, pullback = rune.vjp(lambda x: x * 2, nx.array([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"pullback: cotangent: the cotangent has shape \(3,\)"):
        pullback(nx.array([1.0, 2.0, 3.0]))
    # and it can be called again with a good one
    assert str(pullback(nx.array([1.0, 1.0]))[0]) == "float64 [2] [2, 2]"


def test_a_jvp_rule_that_is_not_linear_is_rejected_when_recorded():
    """A custom rule squaring its tangent cannot be transposed: say so at once."""

    @rune.custom_jvp
    def f(x):
        return nx.sin(x), lambda t: t * t

    x = nx.array([1.0, 2.0])
    with pytest.raises(TypeError, match="multiply was applied to a tangent in a way that is not linear"):
        rune.grad(lambda x: nx.sum(f(x)))(x)
    with pytest.raises(TypeError, match="divide was applied to a tangent in a way that is not linear"):
        rune.grad(lambda x: nx.sum(rune.custom_jvp(lambda x: (x, lambda t: 1 / t))(x)))(x)
