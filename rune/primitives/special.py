"""Special functions: erf, erfc, erfinv, erfcinv, gamma, gammaln, digamma, polygamma,
the modified Bessel functions i0, i1 (and their scaled forms), sinc.

Each is an elementwise primitive (the family of `elementwise.py`: broadcasting,
vmap and abstract rules come with it) whose derivative is another function of
this file, so derivatives of every order exist:

  erf'  = 2/sqrt(pi) exp(-x^2)        gammaln' = digamma
  erfc' = -erf'                       gamma'   = gamma digamma
  erfinv' = sqrt(pi)/2 exp(erfinv^2)  digamma' = polygamma(1, .), and so on up
  erfcinv' = -sqrt(pi)/2 exp(erfcinv^2)
  i0' = i1, i1' = i0 - i1/x           sinc^(k)' = sinc^(k+1)

They are computed with numpy and Python's `math` (no scipy): erf, erfc, gamma
and lgamma are math's, called per element; digamma and polygamma use the
recurrence psi(x) = psi(x + 1) - 1/x up to x >= 10 and then the asymptotic
(Euler-Maclaurin) series; the Bessel functions sum their power series, or
their asymptotic series for large |x|; erfinv and erfcinv refine Giles'
approximation by Newton's method, near ±1 on log erfc so that a y within
1e-16 of 1 (or a tiny z for erfcinv) keeps its digits. Real arguments only (complex raises
TypeError), except sinc. Values agree with scipy to about 1e-13 relative.
"""

from __future__ import annotations

import math

import numpy as np

from .elementwise import absolute, elementwise, exp, less, multiply, sign, square, where

_SQRT_PI = math.sqrt(math.pi)


def _real_float(x, name):
    """x as a numpy float array (float32 stays float32; integers become float64)."""
    x = np.asarray(x)
    if x.dtype.kind == "c":
        raise TypeError(f"{name}: complex arguments are not supported (real only)")
    return x if x.dtype.kind == "f" else x.astype(np.float64)


def _per_element(math_fn, at_pole=lambda v: math.nan, raises=True):
    """A numpy function applying Python's `math_fn` to each element, in float64,
    with `at_pole(v)` where math raises (poles) and inf where it overflows.
    `raises=False` says that math_fn never raises (erf, erfc): it is then
    called without the guard, a Python call less per element."""

    def safe(v):
        try:
            return math_fn(v)
        except ValueError:
            return at_pole(v)
        except OverflowError:
            return math.inf

    vectorized = np.frompyfunc(safe if raises else math_fn, 1, 1)

    def impl(x, name=math_fn.__name__):
        x = _real_float(x, name)
        return np.asarray(vectorized(x.astype(np.float64)), np.float64).astype(x.dtype)

    return impl


def _gamma_pole(v):
    """scipy's values at the poles: inf at +0, -inf at -0, nan at negative integers."""
    return math.copysign(math.inf, v) if v == 0 else math.nan


_erf_impl = _per_element(math.erf, raises=False)
_erfc_impl = _per_element(math.erfc, raises=False)
erf = elementwise("erf", _erf_impl,
                  (lambda ans, x: multiply(exp(-square(x)), 2 / _SQRT_PI),))
erfc = elementwise("erfc", _erfc_impl,
                   (lambda ans, x: multiply(exp(-square(x)), -2 / _SQRT_PI),))
_gammaln_impl = _per_element(math.lgamma, lambda v: math.inf)
gammaln = elementwise("gammaln", _gammaln_impl,
                      (lambda ans, x: digamma(x),))
gamma = elementwise("gamma", _per_element(math.gamma, _gamma_pole),
                    (lambda ans, x: multiply(ans, digamma(x)),))

# ------------------------------------------------------------------- erfinv


def _erf_minus(x, v, q):
    """erf(x) - v for Newton's step, elementwise, given q = 1 - |v| exactly.

    Near v = ±1 (q <= 0.5) erf(x) is 1 to within less than a rounding of v,
    so the step solves log erfc(|x|) = log q instead: erfc keeps its relative
    precision, and the logarithm, nearly -x^2, makes Newton converge from a
    start that is some percent off. -erfc(|x|) log(erfc(|x|) / q) is
    q - erfc(|x|) to first order."""
    out = np.empty_like(v)
    tail = q <= 0.5
    near = ~tail
    out[near] = _erf_impl(x[near]) - v[near]
    tail_erfc = _erfc_impl(np.abs(x[tail]))
    gap = -tail_erfc * np.log(tail_erfc / q[tail])
    out[tail] = np.where(v[tail] > 0, gap, -gap)
    return out


def _newton_step(x, v, q):
    """x moved by Newton's step towards erfinv(v): x - (erf(x) - v) / erf'(x)."""
    step = _erf_minus(np.where(np.isfinite(x), x, 0.0), v, q) / (2 / _SQRT_PI * np.exp(-x * x))
    return np.where(np.isfinite(x) & (q > 0), x - step, x)


# Giles' coefficients (w = -log(1 - v^2) below 5, and from 5 to 30).
_GILES_CENTRAL = np.array([2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                           0.00021858087, -0.00125372503, -0.00417768164, 0.246640727,
                           1.50140941])
_GILES_TAIL = np.array([-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844,
                        0.00573950773, -0.0076224613, 0.00943887047, 1.00167406,
                        2.83297682])


def _start(v, q, xp=np):
    """A first guess at erfinv(v), q = 1 - |v|: Giles' single-precision
    approximation, and beyond its range (q < 1e-13) the tail's asymptotics,
    erfc(x) ~ exp(-x^2) / (x sqrt(pi)). xp is the array module (numpy, or
    jax.numpy for the JAX backend's lowering)."""
    w = -xp.log(q * (2 - q))
    ws, wl = w - 2.5, xp.sqrt(w) - 3
    ps, pl = xp.polyval(_GILES_CENTRAL, ws), xp.polyval(_GILES_TAIL, wl)
    t = -xp.log(q)
    asymptotic = xp.sqrt(t - xp.log(_SQRT_PI * xp.sqrt(t)))
    return xp.where(w < 30, xp.where(w < 5, ps, pl) * v, xp.copysign(asymptotic, v))


def _inverse_erf(v, q):
    """x with erf(x) = v, given q = 1 - |v| exactly (|v| <= 1; nan elsewhere)."""
    with np.errstate(all="ignore"):
        x = _start(v, q)
        for _ in range(3):
            x = _newton_step(x, v, q)
        far = q < 1e-6  # where the start is furthest off: more steps
        for _ in range(2):
            x[far] = _newton_step(x[far], v[far], q[far])
        x = np.where(q == 0, np.copysign(np.inf, v), x)
        return np.where(np.isnan(q) | (q < 0), np.nan, x)


def _erfinv_impl(y):
    """Giles' approximation, then Newton steps on erf (on log erfc near ±1)."""
    y = _real_float(y, "erfinv")
    v = y.astype(np.float64)
    return _inverse_erf(v, 1 - np.abs(v)).astype(y.dtype)


def _erfcinv_impl(z):
    """erfinv(1 - z) without forming 1 - z: q = 1 - |1 - z| is min(z, 2 - z),
    exact, which keeps the digits of a tiny z (erfcinv(1e-300) is 26.2)."""
    z = _real_float(z, "erfcinv")
    u = z.astype(np.float64)
    q = np.minimum(u, 2 - u)
    v = np.where(u <= 1, 1.0, -1.0) * (1 - q)
    return _inverse_erf(v, np.where((u < 0) | (u > 2), np.nan, q)).astype(z.dtype)


erfinv = elementwise("erfinv", _erfinv_impl,
                     (lambda ans, x: multiply(exp(square(ans)), _SQRT_PI / 2),))
erfcinv = elementwise("erfcinv", _erfcinv_impl,
                      (lambda ans, x: multiply(exp(square(ans)), -_SQRT_PI / 2),))

# --------------------------------------------------------- digamma, polygamma

# Bernoulli numbers B_2, B_4, ..., B_20 (for the asymptotic series).
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510,
              43867 / 798, -174611 / 330)
_SHIFT = 10  # recurse up to x >= 10: there the series reaches double precision


_MOST_NEGATIVE = -1000.0  # polygamma below this is nan: the recurrence would be too long


def _shifted(x):
    """(x moved up by whole steps to >= _SHIFT, and the steps taken), elementwise;
    no steps for x that is not finite or below _MOST_NEGATIVE (their value is nan)."""
    usable = np.isfinite(x) & (x >= _MOST_NEGATIVE)
    steps = np.where(usable & (x < _SHIFT), np.ceil(_SHIFT - np.where(usable, x, 0)), 0)
    return x + steps, steps


def _digamma_impl(x):
    x = _real_float(x, "digamma")
    v = x.astype(np.float64)
    with np.errstate(all="ignore"):
        negative = v < 0
        # Reflection: psi(x) = psi(1 - x) - pi / tan(pi x), for negative x.
        r = np.where(negative, 1 - v, v)
        y, steps = _shifted(r)
        total = np.zeros_like(y)
        for k in range(int(steps.max(initial=0))):  # psi(r) = psi(r + k) - sum 1/(r + i)
            total += np.where(k < steps, 1 / (r + k), 0)
        inv2 = 1 / (y * y)
        series = np.log(y) - 0.5 / y - inv2 * np.polyval(
            [b / (2 * (j + 1)) for j, b in reversed(list(enumerate(_BERNOULLI)))], inv2)
        out = series - total
        out = np.where(negative, out - np.pi / np.tan(np.pi * v), out)
        whole = (v <= 0) & (v == np.floor(v))
        out = np.where(whole, np.where(v == 0, np.where(np.signbit(v), np.inf, -np.inf), np.nan),
                       out)
    return out.astype(x.dtype)


def _hurwitz_zeta(s, q):
    """zeta(s, q) = sum_k (q + k)^-s for an integer s >= 2 and q not a pole."""
    y, steps = _shifted(q)
    total = np.zeros_like(y)
    for k in range(int(steps.max(initial=0))):
        total += np.where(k < steps, (q + k) ** -s, 0)
    tail = y ** (1 - s) / (s - 1) + 0.5 * y ** -s
    rising, power = float(s), y ** (-s - 1)  # s (s+1) ... (s + 2j - 2), y^(-s - 2j + 1)
    factorial = 2.0
    for j, b in enumerate(_BERNOULLI, start=1):
        tail = tail + b / factorial * rising * power
        rising *= (s + 2 * j - 1) * (s + 2 * j)
        power = power / (y * y)
        factorial *= (2 * j + 1) * (2 * j + 2)
    return total + tail


def _polygamma_impl(x, n):
    if n == 0:
        return _digamma_impl(x)
    x = _real_float(x, "polygamma")
    v = x.astype(np.float64)
    with np.errstate(all="ignore"):
        out = (-1) ** (n + 1) * math.factorial(n) * _hurwitz_zeta(n + 1, v)
        out = np.where((v <= 0) & (v == np.floor(v)), np.inf if n % 2 else np.nan, out)
        out = np.where(v < _MOST_NEGATIVE, np.nan, out)
    return out.astype(x.dtype)


digamma = elementwise("digamma", _digamma_impl, (lambda ans, x: polygamma(x, n=1),))
polygamma = elementwise("polygamma", _polygamma_impl,
                        (lambda ans, x, n: polygamma(x, n=n + 1),), takes_params=True)

# ------------------------------------------------- modified Bessel: i0, i1

_BESSEL_SERIES_TERMS = 80  # the power series, for |x| <= 30
_BESSEL_LARGE = 30.0


def _bessel_scaled(x, order):
    """exp(-|x|) I_order(|x|) for order 0 or 1, in float64."""
    a = np.abs(x)
    small = a <= _BESSEL_LARGE
    with np.errstate(all="ignore"):
        s = np.where(small, a, 0.0)  # (x/2)^(2k + order) / (k! (k + order)!)
        term = (s / 2) ** order / math.factorial(order)
        total = term.copy()
        for k in range(1, _BESSEL_SERIES_TERMS):
            term = term * (s / 2) ** 2 / (k * (k + order))
            total = total + term
        series = total * np.exp(-s)
        # Large |x|: exp(-x) I(x) ~ 1/sqrt(2 pi x) sum_k (-1)^k a_k / x^k
        big = np.where(small, _BESSEL_LARGE, a)
        mu, coefficient, asymptotic = 4.0 * order * order, 1.0, np.ones_like(big)
        for k in range(1, 30):
            coefficient *= -(mu - (2 * k - 1) ** 2) / (k * 8)
            asymptotic = asymptotic + coefficient / big ** k
        asymptotic = asymptotic / np.sqrt(2 * np.pi * big)
    return np.where(small, series, asymptotic)


def _bessel_impl(order, scaled, name):
    def impl(x):
        x = _real_float(x, name)
        v = x.astype(np.float64)
        out = _bessel_scaled(v, order)
        if order == 1:
            out = np.sign(v) * out  # I1 is odd
        if not scaled:
            with np.errstate(over="ignore"):
                out = out * np.exp(np.abs(v))
        return out.astype(x.dtype)
    return impl


# i1(x) / x = sum_k (x/2)^(2k) / (2 k! (k+1)!): near 0, its first terms (to 1e-24
# for |x| < 1e-3), a polynomial whose derivatives of every order are right at 0.
_I1_OVER_X_NEAR_ZERO = (0.5, 1 / 16, 1 / 384, 1 / 18432, 1 / 1474560)
_NEAR_ZERO = 1e-3


def _i1_over_x(x, bessel):
    """bessel(x) / x for bessel i1 or i1e (for their derivatives), with its series near 0."""
    near = less(absolute(x), _NEAR_ZERO)
    safe = where(near, 1.0, x)
    square_of_x = square(where(near, x, 0.0))
    series = 0.0
    for c in reversed(_I1_OVER_X_NEAR_ZERO):
        series = series * square_of_x + c
    if bessel is i1e:
        series = series * exp(-absolute(x))
    return where(near, series, bessel(safe) / safe)


i0 = elementwise("i0", _bessel_impl(0, False, "i0"), (lambda ans, x: i1(x),))
i1 = elementwise("i1", _bessel_impl(1, False, "i1"),
                 (lambda ans, x: i0(x) - _i1_over_x(x, i1),))
i0e = elementwise("i0e", _bessel_impl(0, True, "i0e"),
                  (lambda ans, x: i1e(x) - sign(x) * ans,))
i1e = elementwise("i1e", _bessel_impl(1, True, "i1e"),
                  (lambda ans, x: i0e(x) - sign(x) * ans - _i1_over_x(x, i1e),))


# ----------------------------------------------------------------- sinc


def _sinc_derivative_impl(x, k, xp=np):
    """The k-th derivative of sinc(x) = sin(pi x) / (pi x): numpy's sinc for k = 0;
    else pi^k f^(k)(pi x) for f(u) = sin(u)/u, by its Taylor series near 0 and
    by Leibniz's rule on sin(u) * u^-1 elsewhere. `xp` is the array module (the
    JAX backend passes jax.numpy, so that both backends compute it one way)."""
    if k == 0:
        return xp.sinc(x)
    x = xp.asarray(x)
    if x.dtype.kind not in "fc":
        x = x.astype(np.float64)
    u = np.pi * x
    near = xp.abs(u) < 2
    with np.errstate(all="ignore"):
        un = xp.where(near, u, 0)
        taylor = xp.zeros_like(un)
        for m in range((k + 1) // 2, (k + 1) // 2 + 25):  # terms with 2m >= k
            coefficient = (-1) ** m * math.factorial(2 * m) / (
                math.factorial(2 * m + 1) * math.factorial(2 * m - k))
            taylor = taylor + coefficient * un ** (2 * m - k)
        uf = xp.where(near, 1, u)
        leibniz = sum(math.comb(k, j) * xp.sin(uf + (k - j) * np.pi / 2) * (-1) ** j
                      * math.factorial(j) * uf ** (-j - 1) for j in range(k + 1))
    return (xp.where(near, taylor, leibniz) * np.pi ** k).astype(x.dtype)


sinc_derivative = elementwise(
    "sinc_derivative", _sinc_derivative_impl,
    (lambda ans, x, k: sinc_derivative(x, k=k + 1),), takes_params=True)


def sinc(x):
    """sin(pi x) / (pi x), 1 at 0 (numpy's sinc); its derivatives exact at 0 too."""
    return sinc_derivative(x, k=0)


