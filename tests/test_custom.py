"""Custom rules: custom_jvp, custom_vjp, custom_transpose (rune/calls/custom.py).

The OCaml page's sqrt_newton example; each rule under the differentiation it
belongs to; differentiations around it seeing the function as written; the
errors (forward mode of a custom_vjp, rules of the wrong structure, shape or
dtype, closures); and the traced cases (jit, vmap).
"""

import numpy as np
import pytest

import rune
from rune import nx


def array(*values, dtype=nx.float64):
    return nx.array(np.array(values, dtype=dtype))


def close(a, b):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-12)


# ------------------------------------------------- the OCaml page's example


@rune.custom_vjp
def sqrt_newton(a):
    def go(x):
        step = (x + a / x) / 2.0
        # The page reads nx.max(nx.abs(step - x)); the sum of squares reads the same way.
        moved = nx.sum((step - x) * (step - x)).item()
        return step if moved < 1e-24 else go(step)

    x = go(a)
    return x, lambda g: g / (x * 2.0)


R = array(4.0, 9.0)


def test_sqrt_newton_values_and_gradient():
    dr = rune.grad(lambda a: nx.sum(sqrt_newton(a)))(R)
    assert str(sqrt_newton(R)) == "float64 [2] [2, 3]"
    assert str(dr) == "float64 [2] [0.25, 0.16666666666666666]"


def test_sqrt_newton_passes_check_grads_in_reverse_mode():
    assert rune.check_grads(sqrt_newton, (R,), modes=("rev",)) is None


def test_sqrt_newton_reads_values_under_vjp_too():
    out, pullback = rune.vjp(sqrt_newton, R)
    assert str(out) == "float64 [2] [2, 3]"
    assert str(pullback(array(1.0, 1.0))[0]) == "float64 [2] [0.25, 0.16666666666666666]"


def test_sqrt_newton_traced_by_jit_names_custom_vjp():
    with pytest.raises(rune.TracedValueError) as error:
        rune.jit(sqrt_newton)(R)
    assert str(error.value) == "Tensor.item(): the value is traced by rune.custom_vjp"


def test_sqrt_newton_under_vmap_names_custom_vjp():
    with pytest.raises(rune.TracedValueError,
                       match=r"^Tensor\.item\(\): the value is traced by rune\.custom_vjp$"):
        rune.vmap(sqrt_newton)(array([4.0], [9.0]))


def test_a_read_under_grad_inside_jit_names_jit():
    # grad is the innermost transformation: fun runs on its primals, which jit traces.
    with pytest.raises(rune.TracedValueError,
                       match=r"^Tensor\.item\(\): the value is traced by rune\.jit, "):
        rune.jit(rune.grad(lambda a: nx.sum(sqrt_newton(a))))(R)


def test_custom_jvp_reads_values_and_is_traced_under_vmap():
    @rune.custom_jvp
    def scaled(x):
        factor = 2.0 if x.sum().item() > 0 else 3.0
        return factor * x, lambda t: factor * t

    x = array(1.0, 2.0)
    assert str(rune.grad(lambda x: nx.sum(scaled(x)))(x)) == "float64 [2] [2, 2]"
    with pytest.raises(rune.TracedValueError, match=r"traced by rune\.custom_jvp$"):
        rune.vmap(scaled)(array([1.0], [2.0]))


# ----------------------------------------------------------------- custom_jvp


@rune.custom_jvp
def sin2(x):
    """sin, with a rule giving twice its derivative: shows which one is used."""
    return nx.sin(x), lambda t: 2 * t * nx.cos(x)


X = array(0.3, 1.2)
ONES = array(1.0, 1.0)


def test_custom_jvp_under_jvp_grad_and_linearize():
    _, tangent = rune.jvp(sin2, (X,), (ONES,))
    out, f_jvp = rune.linearize(sin2, X)
    close(tangent, 2 * np.cos(X.numpy()))
    close(rune.grad(lambda x: nx.sum(sin2(x)))(X), 2 * np.cos(X.numpy()))
    close(out, np.sin(X.numpy()))
    close(f_jvp(ONES), 2 * np.cos(X.numpy()))


def test_custom_jvp_second_derivatives_differentiate_the_rule():
    # The inner differentiation uses the rule; the outer one differentiates it.
    expected = np.diag(-2 * np.sin(X.numpy()))
    close(rune.hessian(lambda x: nx.sum(sin2(x)))(X), expected)
    grad_of_grad = rune.grad(lambda x: nx.sum(rune.grad(lambda y: nx.sum(sin2(y)))(x)))
    close(grad_of_grad(X), -2 * np.sin(X.numpy()))


def test_custom_jvp_with_a_correct_rule_passes_check_grads():
    @rune.custom_jvp
    def f(x, y):
        return x * nx.exp(y), lambda tx, ty: (tx + x * ty) * nx.exp(y)

    assert rune.check_grads(f, (X, array(0.5, -0.25)), order=2, modes=("fwd", "rev")) is None


def test_custom_jvp_over_structures():
    @rune.custom_jvp
    def f(p):
        out = {"prod": p["a"] * p["b"], "sin": nx.sin(p["a"])}
        rule = lambda t: {"prod": t["a"] * p["b"] + p["a"] * t["b"],  # noqa: E731
                          "sin": 10 * t["a"]}
        return out, rule

    p = {"a": X, "b": array(2.0, 3.0)}
    t = {"a": ONES, "b": array(0.0, 0.0)}
    _, tangent = rune.jvp(f, (p,), (t,))
    grads = rune.grad(lambda p: nx.sum(f(p)["sin"] + f(p)["prod"]))(p)
    close(tangent["prod"], [2.0, 3.0])
    close(tangent["sin"], [10.0, 10.0])
    close(grads["a"], [12.0, 13.0])
    close(grads["b"], X)


def test_custom_jvp_rule_must_be_linear_under_reverse_mode():
    f = rune.custom_jvp(lambda x: (x, lambda t: nx.sin(t)))
    with pytest.raises(TypeError, match="sin was applied to a tangent in a way that is not linear"):
        rune.grad(lambda x: nx.sum(f(x)))(X)


# ----------------------------------------------------------------- custom_vjp


@rune.custom_vjp
def sin10(x):
    """sin, with a pullback giving ten times its derivative."""
    return nx.sin(x), lambda g: 10 * g * nx.cos(x)


def test_custom_vjp_one_argument_bare_cotangent():
    out, pullback = rune.vjp(sin10, X)
    close(out, np.sin(X.numpy()))
    close(pullback(ONES)[0], 10 * np.cos(X.numpy()))
    close(rune.grad(lambda x: nx.sum(sin10(x)))(X), 10 * np.cos(X.numpy()))


def test_custom_vjp_two_arguments_tuple_of_cotangents():
    @rune.custom_vjp
    def mul(x, y):
        return x * y, lambda g: (g * y, 100 * g * x)

    y = array(2.0, 3.0)
    gx, gy = rune.grad(lambda x, y: nx.sum(mul(x, y)), argnums=(0, 1))(X, y)
    close(gx, y)
    close(gy, 100 * X.numpy())


def test_custom_vjp_over_structures_and_a_none_cotangent():
    @rune.custom_vjp
    def f(p, scale):
        out = (p["w"] * scale, {"b": p["b"] * 2.0})
        rule = lambda ct: ({"w": ct[0] * scale, "b": ct[1]["b"] * 2.0}, None)  # noqa: E731
        return out, rule

    p = {"w": X, "b": array(5.0)}
    scale = array(3.0, 4.0)
    _, pullback = rune.vjp(f, p, scale)
    cp, cscale = pullback((ONES, {"b": array(1.0)}))
    close(cp["w"], [3.0, 4.0])
    close(cp["b"], 2.0)
    close(cscale, [0.0, 0.0])  # None: zero


def test_custom_vjp_second_derivative_differentiates_the_rule():
    grad_of_grad = rune.grad(lambda x: nx.sum(rune.grad(lambda y: nx.sum(sin10(y)))(x)))
    close(grad_of_grad(X), -10 * np.sin(X.numpy()))
    close(rune.hessian(lambda x: nx.sum(sin10(x)))(X), np.diag(-10 * np.sin(X.numpy())))


def test_custom_vjp_in_jacrev_and_per_example_gradients():
    close(rune.jacrev(sin10)(X), np.diag(10 * np.cos(X.numpy())))
    xs = array([0.1, 0.2], [0.3, 0.4], [0.5, 0.6])
    per_example = rune.vmap(rune.grad(lambda x: nx.sum(sin10(x))))(xs)
    close(per_example, 10 * np.cos(xs.numpy()))


@pytest.mark.parametrize("forward_mode", [
    lambda: rune.jvp(sin10, (X,), (ONES,)),
    lambda: rune.linearize(sin10, X)[1](ONES),
    lambda: rune.jacfwd(sin10)(X),
], ids=["jvp", "linearize", "jacfwd"])
def test_custom_vjp_under_forward_mode_says_to_give_a_custom_jvp(forward_mode):
    with pytest.raises(TypeError, match=r"^rune\.custom_vjp: .* differentiates sin10 in forward "
                                        r"mode, but custom_vjp defines only reverse mode; "
                                        r"give a custom_jvp for forward mode$"):
        forward_mode()


# ----------------------------------------------------------- custom_transpose


@rune.custom_transpose
def double(x):
    """2x, with a deliberately different "transpose" (3 ct) that shows it is used."""
    return 2 * x, lambda ct: 3 * ct


def test_custom_transpose_is_used_by_linear_transpose_and_grad():
    (ct,) = rune.linear_transpose(double, X)(ONES)
    close(ct, [3.0, 3.0])
    close(rune.grad(lambda x: nx.sum(double(nx.sin(x))))(X), 3 * np.cos(X.numpy()))


def test_custom_transpose_is_its_own_tangent_map():
    out, tangent = rune.jvp(double, (X,), (ONES,))
    close(out, 2 * X.numpy())
    close(tangent, [2.0, 2.0])
    close(rune.linearize(double, X)[1](ONES), [2.0, 2.0])


def test_custom_transpose_of_two_arguments():
    @rune.custom_transpose
    def combine(a, b):
        return a + 2 * b, lambda ct: (ct, 20 * ct)

    ca, cb = rune.linear_transpose(combine, X, X)(ONES)
    close(ca, [1.0, 1.0])
    close(cb, [20.0, 20.0])
    # Only the first argument moves: the second's tangent is zero.
    _, tangent = rune.jvp(lambda a: combine(a, X), (X,), (ONES,))
    close(tangent, [1.0, 1.0])
    close(rune.grad(lambda a: nx.sum(combine(a, X)))(X), [1.0, 1.0])


def test_custom_transpose_inside_a_custom_jvp_rule():
    # The rule applies a linear function to tangents: one equation of the record.
    f = rune.custom_jvp(lambda x: (2 * x, lambda t: double(t)))
    close(rune.jvp(f, (X,), (ONES,))[1], [2.0, 2.0])
    close(rune.grad(lambda x: nx.sum(f(x)))(X), [3.0, 3.0])


def test_custom_transpose_rule_must_not_read_the_arguments():
    reads = rune.custom_transpose(lambda x: (2 * x, lambda ct: ct * x))
    with pytest.raises(ValueError, match="the transpose of a linear function does not depend"):
        rune.vmap(reads)(array([1.0], [2.0]))


# ------------------------------------------------- rules of the wrong shape


def _grad_of(f, *args):
    return rune.grad(lambda *a: nx.sum(f(*a)), argnums=tuple(range(len(args))))(*args)


WRONG_RULES = [
    ("vjp shape", rune.custom_vjp(lambda x: (x, lambda g: array(1.0, 2.0, 3.0))), (X,),
     ValueError, "rune.custom_vjp: the rule returned a cotangent of shape (3,) for argument 0, "
                 "expected (2,)"),
    ("vjp dtype", rune.custom_vjp(lambda x: (x, lambda g: array(1.0, 2.0, dtype=np.float32))),
     (X,), TypeError, "rune.custom_vjp: the rule returned a cotangent of dtype float32 for "
                      "argument 0, expected float64"),
    ("vjp structure", rune.custom_vjp(lambda x: (x, lambda g: (g, g))), (X,),
     ValueError, "rune.custom_vjp: the rule's cotangent for argument 0 has structure (*, *), "
                 "expected *"),
    ("vjp not a tuple", rune.custom_vjp(lambda x, y: (x * y, lambda g: g)), (X, X),
     TypeError, "rune.custom_vjp: the rule of <lambda> must return a tuple of 2 cotangents, "
                "one per argument, got a Tensor"),
    ("vjp leaf of a structure",
     rune.custom_vjp(lambda x, p: (x * p["w"], lambda g: (g, {"w": nx.array(1.0)}))),
     (X, {"w": X}), ValueError,
     "rune.custom_vjp: the rule returned a cotangent of shape () for argument 1['w'], "
     "expected (2,)"),
    ("transpose shape", rune.custom_transpose(lambda x: (2 * x, lambda g: nx.array(1.0))), (X,),
     ValueError, "rune.custom_transpose: the rule returned a cotangent of shape () for "
                 "argument 0, expected (2,)"),
    ("jvp shape", rune.custom_jvp(lambda x: (x, lambda t: nx.array(1.0))), (X,),
     ValueError, "rune.custom_jvp: the rule returned a tangent of shape () for output, "
                 "expected (2,)"),
    ("jvp dtype", rune.custom_jvp(lambda x: (x, lambda t: array(1.0, 2.0, dtype=np.float32))),
     (X,), TypeError, "rune.custom_jvp: the rule returned a tangent of dtype float32 for "
                      "output, expected float64"),
    ("jvp structure", rune.custom_jvp(lambda x: ((x, x), lambda t: t)), (X,),
     ValueError, "rune.custom_jvp: the rule's tangent has structure *, expected (*, *)"),
    ("jvp leaf of a structure", rune.custom_jvp(lambda x: ((x, x), lambda t: (t, nx.array(1.0)))),
     (X,), ValueError, "rune.custom_jvp: the rule returned a tangent of shape () for output[1], "
                       "expected (2,)"),
]


@pytest.mark.parametrize("f, args, error, message", [w[1:] for w in WRONG_RULES],
                         ids=[w[0] for w in WRONG_RULES])
def test_a_rule_of_the_wrong_kind_names_the_argument(f, args, error, message):
    def run():
        if "custom_jvp" in message:
            rune.jvp(lambda *a: f(*a), args, args)
        else:
            _grad_of(f, *args)

    with pytest.raises(error) as raised:
        run()
    assert str(raised.value) == message


def test_fun_must_return_a_pair():
    not_a_pair = rune.custom_vjp(lambda x: x)
    for call in (lambda: not_a_pair(X), lambda: _grad_of(not_a_pair, X)):
        with pytest.raises(TypeError, match=r"^rune\.custom_vjp: <lambda> must return a pair "
                                            r"\(output, rule\) with a callable rule, got a "
                                            r"Tensor$"):
            call()


def test_closing_over_a_differentiated_value_raises():
    def closes(x):
        return nx.sum(rune.custom_vjp(lambda y: (y * x, lambda g: g * x))(x))

    with pytest.raises(ValueError, match="not one of its arguments"):
        rune.grad(closes)(X)
    with pytest.raises(ValueError, match="uses a value traced by rune.vmap that is not"):
        rune.vmap(lambda x: rune.custom_jvp(lambda y: (y * x, lambda t: t))(x))(array([1.0]))


# ------------------------------------------------------- traced: jit, vmap


def test_under_jit_the_call_is_one_equation_that_replays():
    f = lambda x: sin10(x) * 2  # noqa: E731
    assert str(rune.make_graph(f)(X)) == (
        "graph(a: float64[2]):\n"
        "  b: float64[2] = custom_vjp_call[fun=sin10] a\n"
        "  c: float64[2] = multiply b 2\n"
        "  return c"
    )
    jitted = rune.jit(f)
    close(jitted(X), 2 * np.sin(X.numpy()))
    # Reverse mode through the replay still uses the rule (ten times the derivative).
    close(rune.grad(lambda x: nx.sum(jitted(x)))(X), 20 * np.cos(X.numpy()))
    close(rune.jit(rune.grad(lambda x: nx.sum(f(x))))(X), 20 * np.cos(X.numpy()))


def test_under_jit_custom_jvp_and_custom_transpose_keep_their_rules():
    _, tangent = rune.jvp(rune.jit(sin2), (X,), (ONES,))
    (ct,) = rune.linear_transpose(rune.jit(double), X)(ONES)
    close(tangent, 2 * np.cos(X.numpy()))
    close(ct, [3.0, 3.0])


def test_under_jit_a_call_with_several_results():
    @rune.custom_vjp
    def pair(x, y):
        return (x * y, nx.sin(x)), lambda ct: (ct[0] * y + ct[1] * nx.cos(x), ct[0] * x)

    f = rune.jit(lambda x, y: pair(x, y)[1] * 2)
    y = array(2.0, 3.0)
    assert f.source(X, y) == (
        "def traced(a, b):\n"
        "    c, d = custom_vjp_call(a, b, fun=fun); del c\n"
        "    e = multiply(d, 2); del d\n"
        "    return (e,)\n"
    )
    close(f(X, y), 2 * np.sin(X.numpy()))
    chart = rune.make_graph(f)(X, y).mermaid()  # one node for the call, named by its first result
    assert 'n_c["c: float64[2], d: float64[2] = custom_vjp_call[fun=pair] a b"]' in chart
    assert "n_c --> n_e" in chart
    g = rune.jit(lambda x, y: nx.sum(sum(pair(x, y))))
    gx, gy = rune.grad(g, argnums=(0, 1))(X, y)
    close(gx, y.numpy() + np.cos(X.numpy()))
    close(gy, X)


def test_vmap_batches_fun_and_its_rule():
    xs = array([0.1, 0.2], [0.3, 0.4], [0.5, 0.6])
    close(rune.vmap(sin10)(xs), np.sin(xs.numpy()))
    # Differentiating the batched call uses the batched rule.
    close(rune.grad(lambda x: nx.sum(rune.vmap(sin10)(x)))(xs), 10 * np.cos(xs.numpy()))
    _, tangent = rune.jvp(rune.vmap(sin2), (xs,), (nx.array(np.ones((3, 2))),))
    close(tangent, 2 * np.cos(xs.numpy()))


def test_vmap_sums_the_cotangent_of_an_unbatched_argument():
    @rune.custom_vjp
    def mul(x, w):
        return x * w, lambda g: (g * w, 100 * g * x)

    xs = array([1.0, 2.0], [3.0, 4.0])
    w = array(5.0, 6.0)
    batched = rune.vmap(mul, in_axes=(0, None))
    gx, gw = rune.grad(lambda x, w: nx.sum(batched(x, w)), argnums=(0, 1))(xs, w)
    close(gx, [[5.0, 6.0], [5.0, 6.0]])
    close(gw, [400.0, 600.0])


def test_python_numbers_among_the_arguments_keep_their_weak_type():
    # x32 * 2.0 stays float32 everywhere; the number has no derivative (its rule output is ignored).
    @rune.custom_vjp
    def scale(x, s):
        return x * s, lambda g: (g * s, nx.sum(g * x))

    x32 = nx.array(np.array([1.0, 2.0], np.float32))
    g32 = nx.array(np.array([2.0, 2.0], np.float32))
    for result in (
        scale(x32, 2.0),
        rune.jit(scale)(x32, 2.0),
        rune.grad(lambda x: nx.sum(scale(x, 2.0)))(x32),
        rune.grad(rune.jit(lambda x, s: nx.sum(scale(x, s))))(x32, 2.0),
        rune.vmap(lambda x: scale(x, 2.0))(nx.array(np.ones((2, 2), np.float32))),
        rune.grad(lambda x: nx.sum(rune.vmap(lambda x: scale(x, 2.0))(x)))(
            nx.array(np.ones((2, 2), np.float32))),
    ):
        assert result.dtype == np.float32
    close(rune.grad(lambda x: nx.sum(scale(x, 2.0)))(x32), g32)
