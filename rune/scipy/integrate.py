"""`rune.scipy.integrate`: `odeint`, an adaptive ODE solver differentiable by the
adjoint method, as autograd's and JAX's (`jax.experimental.ode.odeint`).

`odeint(func, y0, t, *args)` integrates dy/dt = func(y, t, *args) with the
Dormand-Prince 5(4) Runge-Kutta pair, its step chosen from the embedded
error estimate (rtol, atol) and landing on each time of t. Its derivative
(a `rune.custom_vjp`) integrates the adjoint system backwards from the last
time, as JAX does: for cotangents g_i of the outputs, between t_i and
t_{i-1} it solves, in reversed time, for the state y, its adjoint a and the
adjoints of t and of the args,
  dy = f(y, t),  da = -a^T df/dy,  da_args = -a^T df/dargs,
adding g_{i-1} to a at each output time, so the gradient costs one
backward integration (no record of the forward steps). The vector-Jacobian
products of func come from rune.vjp.

The stepping runs in Python on values: odeint works eagerly and under grad,
vjp and value_and_grad (reverse mode, first order). Under jit, vmap or a
forward-mode or second derivative it raises (its step control reads values).
"""

from __future__ import annotations

import contextlib
import math

import numpy as np

from .. import nx, ptree
from ..nx import TracedValueError
from ..calls import custom_vjp
from ..detach import detach
from ..nx.creation import as_tensor
from ..reverse import vjp

__all__ = ["odeint"]

# Dormand-Prince 5(4): nodes, stages, the 5th-order weights (which are the last
# stage's, so its derivative is the next step's first: FSAL) and the error weights.
_C = (0.0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0)
_A = ((),
      (1 / 5,),
      (3 / 40, 9 / 40),
      (44 / 45, -56 / 15, 32 / 9),
      (19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729),
      (9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656),
      (35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84))
_ERROR = (71 / 57600, 0.0, -71 / 16695, 71 / 1920, -17253 / 339200, 22 / 525, -1 / 40)
_SAFETY, _SHRINK_AT_MOST, _GROW_AT_MOST = 0.9, 0.2, 10.0


def _rms(v):
    return math.sqrt(float(np.mean(np.square(np.abs(v))))) if v.size else 0.0


def _initial_step(f, t0, y0, f0, rtol, atol):
    """Hairer, Norsett and Wanner's choice of a first step (as JAX's)."""
    scale = atol + np.abs(y0) * rtol
    d0, d1 = _rms(y0 / scale), _rms(f0 / scale)
    h0 = 1e-6 if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1
    d2 = _rms((f(y0 + h0 * f0, t0 + h0) - f0) / scale) / h0
    h1 = (max(1e-6, h0 * 1e-3) if max(d1, d2) <= 1e-15
          else (0.01 / max(d1, d2)) ** (1 / 5))
    return min(100 * h0, h1)


def _step(f, y, t, h, f0):
    """One Dormand-Prince step: (y at t + h, its derivative there, the error estimate)."""
    k = [f0]
    for i in range(1, 7):
        y_i = y + h * sum(a * k_j for a, k_j in zip(_A[i], k) if a)
        k.append(f(y_i, t + _C[i] * h))
    y_next = y_i  # the 7th stage is at the 5th-order solution
    error = h * sum(e * k_j for e, k_j in zip(_ERROR, k) if e)
    return y_next, k[-1], error


def _integrate(f, y0, times, rtol, atol, mxstep, hmax):
    """The solution at each of `times` (increasing, times[0] the start) by adaptive
    Dormand-Prince steps, each output reached exactly. f(y, t) on numpy vectors."""
    y, t = y0, times[0]
    f_y = f(y, t)
    h = min(_initial_step(f, t, y, f_y, rtol, atol), hmax)
    out = [y]
    for target in times[1:]:
        steps = 0
        while t < target:
            if steps >= mxstep:
                raise RuntimeError(f"rune.scipy.integrate.odeint: more than mxstep = {mxstep} "
                                   f"steps between t = {out and t} and {target} (a stiff or "
                                   f"blowing-up system?); raise mxstep to allow more")
            steps += 1
            h_try = min(h, hmax, target - t)
            y_next, f_next, error = _step(f, y, t, h_try, f_y)
            scale = atol + rtol * np.maximum(np.abs(y), np.abs(y_next))
            ratio = _rms(error / scale)
            if not math.isfinite(ratio):
                ratio = math.inf
            factor = (_GROW_AT_MOST if ratio == 0 else
                      min(_GROW_AT_MOST, max(_SHRINK_AT_MOST, _SAFETY * ratio ** -0.2)))
            if ratio <= 1:  # accepted
                y, f_y = y_next, f_next
                t = target if h_try >= target - t else t + h_try
            h = h_try * factor
            if h <= 4 * np.finfo(float).eps * max(1.0, abs(t)):
                raise RuntimeError(f"rune.scipy.integrate.odeint: the step fell to {h:.3g} at "
                                   f"t = {t}: the solution may blow up there")
        out.append(y)
    return np.stack(out)


@contextlib.contextmanager
def _reads_values():
    """Re-raise a TracedValueError saying where odeint runs (its steps read values)."""
    try:
        yield
    except TracedValueError as error:
        raise TracedValueError(
            f"rune.scipy.integrate.odeint: its adaptive steps read values, so it runs "
            f"eagerly and under grad, vjp and value_and_grad (first order) only, not under "
            f"jit, vmap, forward mode or a second derivative ({error})") from None


def _values(x):
    return x.numpy() if hasattr(x, "numpy") else np.asarray(x)


def odeint(func, y0, t, *args, rtol=1.4e-8, atol=1.4e-8, mxstep=math.inf, hmax=math.inf):
    """The solution of dy/dt = func(y, t, *args), y(t[0]) = y0, at each time of t.

    Adaptive Dormand-Prince 5(4) steps keep each step's estimated error
    within atol + rtol |y| (JAX's defaults). Differentiable in y0, t and the
    args by the adjoint method (one backward integration; reverse mode,
    first order); under jit, vmap or forward mode it raises.

    Args:
      func: f(y, t, *args) -> dy/dt, a function returning y's structure and
        shapes. Values it depends on and that are differentiated must be in
        args (a closure over them raises).
      y0: the initial state: a real tensor (any shape), or a structure of
        them (rune.ptree: tuples, lists, dicts...).
      t: the times, a 1-d increasing array; t[0] is y0's time.
      *args: tensors, numbers or structures of them passed to func (differentiable).
      rtol, atol: the relative and absolute error allowed per step.
      mxstep: the most steps allowed between two times of t.
      hmax: the largest step.

    Returns:
      The states at t: y0's structure, each leaf of shape (len(t),) + its shape.

    Raises:
      TypeError: y0 is complex or not numeric; an arg is not numeric.
      ValueError: t is not 1-d and strictly increasing; func returns other shapes.
      RuntimeError: more than mxstep steps, or a step too small to progress.

    >>> from rune import nx
    >>> from rune.scipy.integrate import odeint
    >>> ys = odeint(lambda y, t, k: -k * y, nx.array([1.0]), nx.array([0.0, 1.0]), 2.0)
    >>> print(abs(ys[1, 0].item() - nx.exp(nx.array(-2.0)).item()) < 1e-7)
    True
    """
    fn = "rune.scipy.integrate.odeint"
    for leaf in ptree.leaves(y0):
        dtype = as_tensor(leaf, fn).dtype
        if dtype.kind not in "fiu":
            raise TypeError(f"{fn}: y0 must be real, got a leaf of dtype {dtype}")
    y_flat, unravel_y = ptree.ravel(ptree.map(lambda leaf: as_tensor(leaf, fn) * 1.0, y0))
    a_flat, unravel_args = ptree.ravel(args)
    t = as_tensor(t, fn) * 1.0
    times = _values(detach(t))  # read to check it; its derivative goes through the rule
    if times.ndim != 1 or times.size < 1 or np.any(np.diff(times) <= 0):
        raise ValueError(f"{fn}: t must be a 1-d array of strictly increasing times, got "
                         f"{times!r}")
    shapes = [leaf.shape for leaf in ptree.leaves(unravel_y(y_flat))]

    def flat_func(y, time, a):
        """func on one vector of y's leaves and one of the args' (what the solver steps)."""
        dy = func(unravel_y(y), time, *unravel_args(a))
        got = [as_tensor(leaf, fn).shape for leaf in ptree.leaves(dy)]
        if got != shapes:
            raise ValueError(f"{fn}: func returned leaves of shapes {got}, y0's are {shapes}")
        return ptree.ravel(dy)[0] * 1.0

    options = dict(rtol=rtol, atol=atol, mxstep=mxstep, hmax=hmax)
    ys = _solve(flat_func, options, y_flat, t, a_flat * 1.0)
    rows = [unravel_y(ys[i]) for i in range(len(times))]  # y's structure, time first
    return ptree.map(lambda *leaves: nx.stack(leaves), *rows)


def _solve(flat_func, options, y0, t, a):
    """The states (len(t), n) for flat_func on vectors, as a custom_vjp whose rule is
    the adjoint integration."""

    @custom_vjp
    def solve(y0, t, a):
        with _reads_values():
            a_value = nx.array(_values(a))
            ys = _integrate(lambda y, time: _values(flat_func(nx.array(y), nx.array(time),
                                                              a_value)),
                            _values(y0), _values(t), **options)

        def rule(g):
            with _reads_values():
                return _adjoint(flat_func, options, ys, _values(t), _values(a), _values(g))
        return nx.array(ys), rule

    return solve(y0, t, a)


def _adjoint(flat_func, options, ys, times, a, g):
    """The cotangents of (y0, t, args) for output cotangents g, by integrating the
    adjoint system back from times[-1] in reversed time s = -t (JAX's _odeint_rev)."""
    n = ys.shape[1]

    def pullback(y, time, y_bar):
        """(f(y, t), and <y_bar, f>'s derivatives in y, t and the args) by rune.vjp."""
        out, back = vjp(flat_func, nx.array(y), nx.array(time), nx.array(a))
        return _values(out), [np.asarray(_values(c), np.float64).ravel() for c in
                              back(nx.array(y_bar))]

    def augmented(state, s):
        """d/ds of (y, a_y, a_t, a_args) in reversed time s = -t."""
        dy, (d_y, d_t, d_args) = pullback(state[:n], -s, state[n:2 * n])
        return np.concatenate([-dy, d_y, d_t, d_args])

    y_bar, t_bar, args_bar, t0_bar = g[-1].copy(), np.zeros(len(times)), np.zeros(a.size), 0.0
    for i in range(len(times) - 1, 0, -1):
        dy, _ = pullback(ys[i], times[i], y_bar)
        t_bar[i] = float(np.dot(dy, g[i]))
        t0_bar -= t_bar[i]
        state = np.concatenate([ys[i], y_bar, [t0_bar], args_bar])
        state = _integrate(augmented, state, np.array([-times[i], -times[i - 1]]), **options)[-1]
        y_bar, t0_bar, args_bar = state[n:2 * n] + g[i - 1], state[2 * n], state[2 * n + 1:]
    t_bar[0] = t0_bar
    return nx.array(y_bar), nx.array(t_bar), nx.array(args_bar)
