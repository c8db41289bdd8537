"""rune.scipy.integrate.odeint (issue 25): values against closed forms and
scipy's solvers, gradients by the adjoint method against closed forms and
finite differences, and the transformations it refuses (with a clear error)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.integrate as si

import rune
from rune import nx
from rune.scipy.integrate import odeint


def decay(y, t, k):
    return -k * y


def pendulum(y, t, k, damping):
    return nx.stack([y[1], -k * nx.sin(y[0]) - damping * y[1] * (1 + 0.1 * t)])


def test_values_match_the_closed_form_and_scipy():
    t = np.linspace(0.0, 4.0, 9)
    y0 = np.array([[1.0, -2.0], [0.5, 3.0]])  # any shape
    ys = odeint(decay, nx.array(y0), nx.array(t), 0.7, rtol=1e-11, atol=1e-12).numpy()
    np.testing.assert_allclose(ys, y0 * np.exp(-0.7 * t)[:, None, None], rtol=1e-9, atol=1e-12)
    ys = odeint(pendulum, nx.array([1.2, 0.0]), nx.array(t), 2.0, 0.3, rtol=1e-11,
                atol=1e-12).numpy()
    expected = si.solve_ivp(lambda t, y: [y[1], -2.0 * np.sin(y[0]) - 0.3 * y[1] * (1 + 0.1 * t)],
                            (0, 4), [1.2, 0.0], t_eval=t, rtol=1e-12, atol=1e-13,
                            method="DOP853").y.T
    np.testing.assert_allclose(ys, expected, atol=1e-9)


@pytest.mark.parametrize("rtol", [1e-4, 1e-7, 1e-10])
def test_the_error_follows_the_tolerance(rtol):
    t = nx.linspace(0.0, 5.0, 6)
    ys = odeint(decay, nx.array([1.0]), t, 1.3, rtol=rtol, atol=rtol * 1e-3).numpy()[:, 0]
    error = np.abs(ys - np.exp(-1.3 * t.numpy())).max()
    assert error < 20 * rtol


def test_gradients_by_the_adjoint_match_the_closed_form():
    # y = y0 exp(-k t): d/dy0 = exp(-k t), d/dk = -t y, d/dt_i = -k y_i (t_0: k y_0 summed)
    t = nx.array([0.0, 0.5, 2.0])
    y0, k = nx.array([1.5]), nx.array(0.8)
    weights = nx.array([[1.0], [2.0], [-1.0]])

    def loss(y0, t, k):
        return nx.sum(weights * odeint(decay, y0, t, k, rtol=1e-11, atol=1e-12))

    g_y0, g_t, g_k = rune.grad(loss, argnums=(0, 1, 2))(y0, t, k)
    tv, w = t.numpy(), weights.numpy()[:, 0]
    y = 1.5 * np.exp(-0.8 * tv)
    np.testing.assert_allclose(g_y0.numpy(), [np.sum(w * np.exp(-0.8 * tv))], rtol=1e-8)
    np.testing.assert_allclose(g_k.numpy(), np.sum(w * -tv * y), rtol=1e-8)
    t_grad = -0.8 * w * y  # dy_i/dt_i = f(y_i)
    t_grad[0] = 0.8 * np.sum(w[1:] * y[1:])  # moving t_0 shifts every later state back
    np.testing.assert_allclose(g_t.numpy(), t_grad, rtol=1e-8, atol=1e-10)


def test_gradients_match_finite_differences_on_a_nonlinear_system():
    t = nx.array([0.0, 1.0, 2.5])
    y0, k, damping = nx.array([1.0, 0.2]), nx.array(2.0), nx.array(0.3)

    def loss(y0, t, k, damping):
        ys = odeint(pendulum, y0, t, k, damping, rtol=1e-10, atol=1e-11)
        return nx.sum(ys * ys)

    rune.check_grads(loss, (y0, t, k, damping), order=1, modes=("rev",), eps=1e-5,
                     rtol=1e-5, atol=1e-6)


def test_numbers_among_the_args_are_constants():
    t = nx.array([0.0, 1.0])
    g = rune.grad(lambda y0: nx.sum(odeint(decay, y0, t, 2.0)))(nx.array([1.0]))
    np.testing.assert_allclose(g.numpy(), [1 + np.exp(-2.0)], rtol=1e-7)  # y(0) + y(1)


def test_bad_input_and_unsupported_transformations_raise():
    t = nx.array([0.0, 1.0])
    with pytest.raises(ValueError, match="t must be a 1-d array of strictly increasing"):
        odeint(decay, nx.array([1.0]), nx.array([1.0, 0.0]), 1.0)
    with pytest.raises(ValueError, match="func returned leaves of shapes \\[\\(2,\\)\\], y0's are"):
        odeint(lambda y, t: nx.zeros(2), nx.array([1.0]), t)
    with pytest.raises(RuntimeError, match="more than mxstep = 3 steps"):
        odeint(decay, nx.array([1.0]), nx.array([0.0, 100.0]), 1.0, mxstep=3)
    with pytest.raises(TypeError, match="y0 must be real"):
        odeint(decay, nx.array([1j]), t, 1.0)
    loss = lambda k: nx.sum(odeint(decay, nx.array([1.0]), t, k))  # noqa: E731
    for transformed, k in ((rune.jit(loss), nx.array(2.0)), (rune.vmap(loss), nx.array([2.0, 3.0])),
                           (rune.grad(rune.grad(loss)), nx.array(2.0))):
        with pytest.raises(rune.TracedValueError, match="odeint: its adaptive steps read"):
            transformed(k)
    with pytest.raises(TypeError, match="custom_vjp defines only reverse mode"):
        rune.jvp(loss, (nx.array(2.0),), (nx.array(1.0),))


def test_states_and_args_may_be_structures():
    def coupled(state, t, params):
        return {"x": -params["k"] * state["x"] + state["v"][0], "v": (state["x"] * 0.5,)}

    t = nx.array([0.0, 0.7, 1.5])
    state = {"x": nx.array([1.0, -1.0]), "v": (nx.array([0.2, 0.3]),)}
    params = {"k": nx.array(1.3)}
    ys = odeint(coupled, state, t, params, rtol=1e-10, atol=1e-11)
    assert ys["x"].shape == (3, 2) and ys["v"][0].shape == (3, 2)
    flat = si.solve_ivp(lambda t, y: [-1.3 * y[0] + y[2], -1.3 * y[1] + y[3], 0.5 * y[0],
                                      0.5 * y[1]], (0, 1.5), [1.0, -1.0, 0.2, 0.3],
                        t_eval=t.numpy(), rtol=1e-12, atol=1e-13, method="DOP853").y.T
    np.testing.assert_allclose(ys["x"].numpy(), flat[:, :2], atol=1e-9)
    np.testing.assert_allclose(ys["v"][0].numpy(), flat[:, 2:], atol=1e-9)

    def loss(state, params):
        out = odeint(coupled, state, t, params, rtol=1e-10, atol=1e-11)
        return nx.sum(out["x"] ** 2) + nx.sum(out["v"][0])

    g_state, g_params = rune.grad(loss, argnums=(0, 1))(state, params)
    h = 1e-6
    shifted = lambda k: loss(state, {"k": nx.array(k)}).item()  # noqa: E731
    assert g_params["k"].item() == pytest.approx((shifted(1.3 + h) - shifted(1.3 - h)) / (2 * h),
                                                 rel=1e-6)
    assert g_state["v"][0].shape == (2,)
