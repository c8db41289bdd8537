"""The regularized incomplete gamma and beta functions, as elementwise primitives.

  gammainc(a, x)  = P(a, x) = integral_0^x t^(a-1) e^-t dt / gamma(a)
  gammaincc(a, x) = Q(a, x) = 1 - P(a, x)
  betainc(a, b, x) = I_x(a, b) = integral_0^x t^(a-1) (1-t)^(b-1) dt / B(a, b)

Their derivatives in x are the integrands over the normalisers, written with
the primitives of special.py, so derivatives of every order exist. In the
shape parameters we follow JAX: P and Q have a derivative in a
(`gammainc_grad_a`, by differentiating the series or continued fraction
term by term), whose own derivative in a raises; betainc has none in a or b
(JAX has none either): asking for one raises, never a quiet zero.

Values are computed with numpy in float64 (P by its power series where
x < a + 1, Q by its continued fraction elsewhere, I by its continued fraction
on the side of (a + 1) / (a + b + 2) where it converges fast). Against scipy,
for values above 1e-30 (below, both lose digits to the rounding of a large
exponent): P and Q within 1e-12 relative for shapes up to 1e3 (at shapes
~1e6 near x = a, scipy's own error reaches 1e-5 by mpmath); betainc within
1e-12 for shapes up to ~300, 4e-12 at 1e3, 6e-11 at 1e4, 7e-9 at 1e6 (its
log B(a, b), three lgammas, cancels as the shapes grow). Their cost grows like
the square root of the shapes near x = a: past ~1e6 the 20000 terms allowed
do not converge and the value is nan, not a wrong number.
"""

from __future__ import annotations

import numpy as np

from ..core import Scaled
from .elementwise import elementwise, equal, exp, log, log1p, multiply, subtract, where
from .special import _digamma_impl, _gammaln_impl, _real_float, digamma, gammaln

_EPS = np.finfo(np.float64).eps
_MAX_TERMS = 20000  # series or fraction terms: enough for shapes up to ~1e6
_HUGE = 1 / _EPS  # the continued fraction's numerators are rescaled past this


def _float_args(name, *args):
    """The arguments as float64 arrays broadcast together, and the output dtype:
    numpy's (float32 stays float32, a Python number is weak), float64 for integers."""
    arrays = [_real_float(a, name) for a in args]
    weak = [a if type(a) in (int, float) else x for a, x in zip(args, arrays)]
    dtype = np.result_type(*weak)
    dtype = dtype if dtype.kind == "f" else np.dtype(np.float64)
    return np.broadcast_arrays(*[a.astype(np.float64) for a in arrays]), dtype


# Stirling's series for lgamma(a) - ((a - 1/2) log a - a + log sqrt(2 pi)), a >= 20.
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188)
_STIRLING_FROM = 20.0


def _log_power_over_gamma(a, x):
    """log(x^a e^-x / gamma(a)) for a > 0, its digits kept for large a (where each
    of a log x, x and lgamma(a) is large and they nearly cancel)."""
    out = np.empty_like(a)
    small = a < _STIRLING_FROM
    a_s, x_s = a[small], x[small]
    out[small] = a_s * np.log(x_s) - x_s - _gammaln_impl(a_s)
    b, x_b = a[~small], x[~small]
    t = (x_b - b) / b
    # log(x / b) = log1p(t): log1p where x is near b, else the log of the ratio, which
    # keeps the digits that t's rounding loses where x << b (1 + t is then tiny)
    log_ratio = np.where(np.abs(t) < 0.5, np.log1p(t), np.log(x_b / b))
    correction = np.polyval(_STIRLING[::-1], 1 / (b * b)) / b
    out[~small] = b * (log_ratio - t) + 0.5 * np.log(b / (2 * np.pi)) - correction
    return out


# ---------------------------------------------------------- P and Q, and d/da


def _iterate(step, state):
    """Run `state = step(n, *state)` for n = 1, 2, ... on flat arrays, each
    element until step reports it done (nan after _MAX_TERMS). Finished elements leave
    the arrays once an eighth of them are done, so the slow ones cost no work
    for the others (a finished element iterated further stays converged)."""
    shape = state[0].shape
    state = [np.array(s, np.float64).ravel() for s in state]
    final = [s.copy() for s in state]
    where_ = np.arange(state[0].size)
    finished = np.zeros(where_.size, bool)
    for n in range(1, _MAX_TERMS):
        if where_.size == 0:
            break
        *state, done = step(n, *state)
        finished |= done
        count = np.count_nonzero(finished)
        if count == finished.size or count * 8 >= finished.size:
            for f, s in zip(final, state):
                f[where_[finished]] = s[finished]
            kept = ~finished
            state, where_, finished = [s[kept] for s in state], where_[kept], finished[kept]
    for f in final:  # not converged in _MAX_TERMS: nan, not a number short of its digits
        f[where_] = np.nan
    return [f.reshape(shape) for f in final]


def _series_step(n, a, x, term, log_slope, total, total_da):
    term = term * (x / (a + n))
    log_slope = log_slope - 1 / (a + n)  # d term / da = term * log_slope
    total, total_da = total + term, total_da + term * log_slope
    done = (term <= _EPS * total) & (np.abs(term * log_slope) <= _EPS * np.abs(total_da))
    return a, x, term, log_slope, total, total_da, done


def _lower_series(a, x):
    """(S, dS/da) for P(a, x) = x^a e^-x / gamma(a + 1) * S,
    S = sum_n x^n / ((a + 1) ... (a + n)): converges fast for x < a + 1."""
    one, zero = np.ones_like(a), np.zeros_like(a)
    *_, total, total_da = _iterate(_series_step, (a, x, one, zero, one, zero))
    return total, total_da


def _fraction_step(n, a, x, ans, ans_da, p2, q2, p1, q1, dp2, dq2, dp1, dq1):
    y, z = n + 1 - a, x + 2 * n + 2 - a
    yc = y * n
    p, q = p1 * z - p2 * yc, q1 * z - q2 * yc
    dp = dp1 * z - p1 - dp2 * yc + p2 * n  # dy/da = dz/da = -1
    dq = dq1 * z - q1 - dq2 * yc + q2 * n
    usable = q != 0
    safe_q = np.where(usable, q, 1)
    new, new_da = p / safe_q, (dp - (p / safe_q) * dq) / safe_q
    change = np.abs(new - ans) + np.abs(new_da - ans_da)
    ans, ans_da = np.where(usable, new, ans), np.where(usable, new_da, ans_da)
    convergents = (p1, q1, p, q, dp1, dq1, dp, dq)
    big = np.abs(p) > _HUGE
    if big.any():  # rescale every convergent alike: their ratios stay
        convergents = tuple(np.where(big, v * _EPS, v) for v in convergents)
    done = usable & (change <= _EPS * (np.abs(ans) + np.abs(ans_da)))
    return (a, x, ans, ans_da) + convergents + (done,)


def _upper_fraction(a, x):
    """(F, dF/da) for Q(a, x) = x^a e^-x / gamma(a) * F, F the continued fraction
    1 / (x + 1 - a - 1 (1 - a) / (x + 3 - a - 2 (2 - a) / ...)) as the ratio
    p_k / q_k of its convergents (Cephes' igamc), differentiated term by term
    in a as JAX does: converges fast for x >= a + 1."""
    zero = np.zeros_like(a)
    p2, q2, p1, q1 = np.ones_like(a), x, x + 1, x * (x + 2 - a)
    dp2, dq2, dp1, dq1 = zero, zero, zero, -x
    ans = p1 / q1
    ans_da = (dp1 - ans * dq1) / q1
    _, _, ans, ans_da, *_ = _iterate(
        _fraction_step, (a, x, ans, ans_da, p2, q2, p1, q1, dp2, dq2, dp1, dq1))
    return ans, ans_da


def _incomplete_gamma(a, x, want):
    """P(a, x) ("lower"), Q(a, x) ("upper") or dP/da ("lower_da"), in float64,
    with scipy's values at the edges (nan outside a >= 0, x >= 0)."""
    with np.errstate(all="ignore"):
        out = _gamma_edges(a, x, want)
        inside = (a > 0) & (x > 0) & np.isfinite(x) & np.isfinite(a)
        by_fraction = inside & (x >= a + 1)
        by_series = inside & ~by_fraction
        a_s, x_s, a_f, x_f = a[by_series], x[by_series], a[by_fraction], x[by_fraction]
        s, s_da = _lower_series(a_s, x_s)
        f, f_da = _upper_fraction(a_f, x_f)
        front_s = np.exp(_log_power_over_gamma(a_s, x_s)) / a_s  # x^a e^-x / gamma(a + 1)
        front_f = np.exp(_log_power_over_gamma(a_f, x_f))
        if want == "lower_da":
            out[by_series] = front_s * (s * (np.log(x_s) - _digamma_impl(a_s + 1)) + s_da)
            out[by_fraction] = -front_f * (f * (np.log(x_f) - _digamma_impl(a_f)) + f_da)
        else:
            lower, upper = front_s * s, front_f * f
            out[by_series] = lower if want == "lower" else 1 - lower
            out[by_fraction] = 1 - upper if want == "lower" else upper
    return out


def _gamma_edges(a, x, want):
    """scipy's values where neither the series nor the fraction runs: P(a, 0) = 0,
    P(a, inf) = 1, P(0, x > 0) = 1, P(inf, x) = 0, Q = 1 - P, dP/da = 0; nan outside
    the domain (a or x negative or nan, a = x = 0, a = x = inf)."""
    domain = (a >= 0) & (x >= 0) & ~((a == 0) & (x == 0)) & ~((a == np.inf) & (x == np.inf))
    if want == "lower_da":
        return np.where(domain & (a > 0), 0.0, np.nan)
    p = np.where((x == 0) | ((a == np.inf) & (x < np.inf)), 0.0, 1.0)
    return np.where(domain, p if want == "lower" else 1 - p, np.nan)


def _gamma_impl(want, name):
    def impl(a, x):
        (a, x), dtype = _float_args(name, a, x)
        return _incomplete_gamma(a, x, want).astype(dtype)
    return impl


def _xlogy(c, y):
    """c log y, 0 where c is 0 (so that 0 log 0 = 0): the power of an integrand."""
    unused = equal(c, 0)
    return where(unused, 0.0, multiply(c, log(where(unused, 1.0, y))))


def _xlog1py(c, y):
    unused = equal(c, 0)
    return where(unused, 0.0, multiply(c, log1p(where(unused, 0.0, y))))


def gamma_density(a, x):
    """dP/dx = x^(a-1) e^-x / gamma(a), the gamma distribution's density."""
    return exp(subtract(subtract(_xlogy(subtract(a, 1.0), x), x), gammaln(a)))


def _no_derivative(functions, what):
    """A jvp rule that raises: this derivative is not implemented (nor in JAX)."""
    def rule(t, ans, *args, **params):
        raise NotImplementedError(
            f"rune.scipy.special.{functions}: no {what} (JAX has none either). If that "
            f"argument should be held constant, wrap it in rune.detach(...)")
    return rule


gammainc_grad_a = elementwise(
    "gammainc_grad_a", _gamma_impl("lower_da", "gammainc_grad_a"),
    jvp_rules=(_no_derivative("gammainc and gammaincc",
                              "second derivative with respect to a"),
               Scaled(lambda ans, a, x: gamma_density(a, x) * (log(x) - digamma(a)))))
gammainc = elementwise("gammainc", _gamma_impl("lower", "gammainc"),
                       (lambda ans, a, x: gammainc_grad_a(a, x),
                        lambda ans, a, x: gamma_density(a, x)))
gammaincc = elementwise("gammaincc", _gamma_impl("upper", "gammaincc"),
                        (lambda ans, a, x: -gammainc_grad_a(a, x),
                         lambda ans, a, x: -gamma_density(a, x)))

# ------------------------------------------------------------------- betainc


_TINY = 1e-300  # Lentz's method: a zero denominator becomes this


def _nonzero(v):
    return np.where(np.abs(v) < _TINY, _TINY, v)


def _beta_step(m, a, b, x, c, d, h):
    even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
    odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
    delta = 1.0
    for coefficient in (even, odd):
        d = 1 / _nonzero(1 + coefficient * d)
        c = _nonzero(1 + coefficient / c)
        delta = delta * d * c
    return a, b, x, c, d, h * delta, np.abs(delta - 1) <= _EPS


def _beta_fraction(a, b, x):
    """The continued fraction of I_x(a, b) (Numerical Recipes' betacf, Lentz's
    method): I_x(a, b) = x^a (1-x)^b / (a B(a, b)) * fraction."""
    d = 1 / _nonzero(1 - (a + b) * x / (a + 1))
    *_, h = _iterate(_beta_step, (a, b, x, np.ones_like(x), d, d))
    return h


def _betainc_impl(a, b, x):
    (a, b, x), dtype = _float_args("betainc", a, b, x)
    with np.errstate(all="ignore"):
        ok = (a > 0) & (b > 0) & (x > 0) & (x < 1) & np.isfinite(a) & np.isfinite(b)
        swap = x > (a + 1) / (a + b + 2)  # then I_x(a, b) = 1 - I_{1-x}(b, a)
        p, q = np.where(swap, b, a), np.where(swap, a, b)
        y = np.where(swap, 1 - x, x)
        p, q, y = np.where(ok, p, 1.0), np.where(ok, q, 1.0), np.where(ok, y, 0.5)
        log_front = (p * np.log(y) + q * np.log1p(-y) - np.log(p)
                     - (_gammaln_impl(p) + _gammaln_impl(q) - _gammaln_impl(p + q)))
        near = np.exp(log_front) * _beta_fraction(p, q, y)
        out = np.where(swap, 1 - near, near)
        edge = np.where(x == 0, 0.0, np.where(x == 1, 1.0, np.nan))
        domain = (a > 0) & (b > 0)
        out = np.where(ok, out, np.where(domain, edge, np.nan))
    return out.astype(dtype)


def beta_density(a, b, x):
    """dI/dx = x^(a-1) (1-x)^(b-1) / B(a, b), the beta distribution's density."""
    log_beta = subtract(gammaln(a) + gammaln(b), gammaln(a + b))
    return exp(_xlogy(subtract(a, 1.0), x) + _xlog1py(subtract(b, 1.0), -x) - log_beta)


betainc = elementwise(
    "betainc", _betainc_impl,
    jvp_rules=(_no_derivative("betainc", "derivative with respect to a, its first argument"),
               _no_derivative("betainc", "derivative with respect to b, its second argument"),
               Scaled(lambda ans, a, b, x: beta_density(a, b, x))))
