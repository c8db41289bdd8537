"""Bessel functions of the first and second kind, integer order: J_n and Y_n;
and the modified Bessel function of the first kind of real order, I_v (iv, ive).

Two elementwise primitives with the order as a parameter, `bessel_jn(x, n=n)`
and `bessel_yn(x, n=n)` (scipy's j0, j1, jn, y0, y1, yn are them at n = 0, 1
or any n). Their derivatives are the recurrence
  J_n' = (J_{n-1} - J_{n+1}) / 2,  Y_n' = (Y_{n-1} - Y_{n+1}) / 2
(j0' = -j1), so derivatives of every order exist. J_{-n} = (-1)^n J_n and
likewise Y; J_n(-x) = (-1)^n J_n(x); Y_n is nan for x < 0 and -inf at 0;
both are nan at ±inf, as scipy's.

The numerics (numpy only; every branch written with `where` and arithmetic
on an array module `xp`, so that the JAX backend lowers the same algorithm
with jax.numpy, rune/lower/jax.py):
  |x| <= 2:   the power series (A&S 9.1.10, 9.1.11), no cancellation there;
  2 < |x| < 25: Miller's backward recurrence from J_70, normalized by
              J_0 + 2 (J_2 + J_4 + ...) = 1, and Y_0, Y_1 from the J's by
              Neumann's series (A&S 9.1.88 and its derivative);
  |x| >= 25:  Hankel's asymptotic expansion (A&S 9.2.5-10), 30 terms.
Orders n >= 2: J_n by forward recurrence from J_0, J_1 where |x| >= n
(stable there), else by the series (|x| <= 2) or Miller's recurrence from
above n; Y_n by forward recurrence from Y_0, Y_1 (always stable).

Accuracy, against scipy on dense grids to |x| = 1e3 (tests/test_scipy_more.py):
orders 0 to 10 within 3e-15 absolute (relative to max(1, |value|)); the
forward recurrences add about n eps, so 2e-14 for J_100 and 1.5e-13 for Y_100.
Close to a zero of a function its relative error grows, as in scipy's.
"""

from __future__ import annotations

import math

import numpy as np

from ..core import Scaled
from .elementwise import add, elementwise, sign, subtract
from .incomplete import _EPS, _float_args, _iterate, _no_derivative
from .special import _gammaln_impl, _real_float

_EULER = 0.5772156649015329  # Euler's gamma
_SERIES_UP_TO = 2.0
_ASYMPTOTIC_FROM = 25.0
_MILLER_START = 70  # J_70(25) is 1e-23: far enough above every order Miller computes here
_SERIES_TERMS = 26  # (x^2/4)^k / (k!)^2 is below 1e-40 at k = 26 for x <= 2
_ASYMPTOTIC_TERMS = 30  # the expansion's 30th term is 3e-19 at x = 25
_RESCALE_ABOVE, _RESCALE_BY = 1e200, 1e-200


# ------------------------------------------------------------- orders 0 and 1


def _series01(x, xp):
    """(J0, J1, Y0, Y1) by their power series, for 0 < x <= 2 (A&S 9.1.10-11):
    with q = -x^2/4, J0 = sum q^k / k!^2, J1 = x/2 sum q^k / (k! (k+1)!),
    Y0 = 2/pi ((log(x/2) + gamma) J0 - sum H_k q^k / k!^2),
    Y1 = -2/(pi x) + 2/pi log(x/2) J1 - x/(2 pi) sum (psi(k+1) + psi(k+2)) q^k / (k! (k+1)!)."""
    q = -x * x / 4
    term0, term1 = xp.ones_like(x), xp.ones_like(x)  # q^k / k!^2, q^k / (k! (k+1)!)
    j0, s1, y0_sum = term0, term1, xp.zeros_like(x)
    harmonic = 0.0  # H_k
    psi_sum = -2 * _EULER + 1.0  # psi(1) + psi(2)
    y1_sum = psi_sum * term1
    for k in range(1, _SERIES_TERMS):
        harmonic += 1 / k
        term0 = term0 * q / (k * k)
        term1 = term1 * q / (k * (k + 1))
        j0, s1 = j0 + term0, s1 + term1
        y0_sum = y0_sum + harmonic * term0
        psi_sum = 2 * (harmonic - _EULER) + 1 / (k + 1)  # psi(k + 1) + psi(k + 2)
        y1_sum = y1_sum + psi_sum * term1
    log_half = xp.log(x / 2)
    j1 = x / 2 * s1
    y0 = 2 / math.pi * ((log_half + _EULER) * j0 - y0_sum)
    y1 = -2 / (math.pi * x) + 2 / math.pi * log_half * j1 - x / (2 * math.pi) * y1_sum
    return j0, j1, y0, y1


def _neumann_weight(m):
    """The weight of J_m in Y1's Neumann sum, sum_k (-1)^k (J_{2k-1} - J_{2k+1}) / k."""
    if m % 2 == 0:
        return 0.0
    k = (m + 1) // 2
    weight = (-1) ** k / k
    if m >= 3:
        k = (m - 1) // 2
        weight -= (-1) ** k / k
    return weight


def _miller01(x, xp):
    """(J0, J1, Y0, Y1) for 2 <= x <= 25: Miller's recurrence J_{m-1} = 2m/x J_m - J_{m+1}
    down from J_70 = 1 (no overflow: the product of 2m/x is below 70! there),
    normalized by J0 + 2 sum J_2k = 1; Y0 = 2/pi ((log(x/2) + gamma) J0 - 2 sum_k
    (-1)^k J_2k / k) (A&S 9.1.88) and Y1 = -Y0' from it."""
    above, j = xp.zeros_like(x), xp.ones_like(x)  # J_{m+1}, J_m (unnormalized)
    evens, neumann0, neumann1 = xp.zeros_like(x), xp.zeros_like(x), xp.zeros_like(x)
    for m in range(_MILLER_START, 0, -1):
        if m % 2 == 0:
            evens = evens + 2 * j
            neumann0 = neumann0 + (-1) ** (m // 2) / (m // 2) * j
        else:
            neumann1 = neumann1 + _neumann_weight(m) * j
        above, j = j, 2 * m / x * j - above
    norm = j + evens
    j0, j1 = j / norm, above / norm
    log_term = xp.log(x / 2) + _EULER
    y0 = 2 / math.pi * (log_term * j0 - 2 * neumann0 / norm)
    y1 = 2 / math.pi * (-j0 / x + log_term * j1 + neumann1 / norm)
    return j0, j1, y0, y1


def _hankel(x, order, xp):
    """(J, Y) of order 0 or 1 for x >= 25: sqrt(2 / (pi x)) (P cos c - Q sin c) and
    (P sin c + Q cos c), c = x - (2 order + 1) pi / 4, with P, Q Hankel's series in 1/x."""
    mu = 4.0 * order * order
    term, p, q = xp.ones_like(x), xp.ones_like(x), xp.zeros_like(x)
    for k in range(1, _ASYMPTOTIC_TERMS):
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8 * x)
        sign = -1 if (k // 2) % 2 else 1  # a_k / x^k enters P or Q as + + - - + + ...
        if k % 2:
            q = q + sign * term
        else:
            p = p + sign * term
    cos_x, sin_x = xp.cos(x), xp.sin(x)
    if order == 0:  # c = x - pi/4
        cos_c, sin_c = (cos_x + sin_x) / math.sqrt(2), (sin_x - cos_x) / math.sqrt(2)
    else:  # c = x - 3 pi/4
        cos_c, sin_c = (sin_x - cos_x) / math.sqrt(2), -(sin_x + cos_x) / math.sqrt(2)
    scale = xp.sqrt(2 / (math.pi * x))
    return scale * (p * cos_c - q * sin_c), scale * (p * sin_c + q * cos_c)


def _orders01(a, xp):
    """(J0, J1, Y0, Y1) at a = |x| > 0, each range by its own method (nan at inf)."""
    small = a <= _SERIES_UP_TO
    large = a >= _ASYMPTOTIC_FROM
    a_small = xp.where(small, a, 1.0)
    a_mid = xp.where(small | large, 10.0, a)
    a_large = xp.where(large, a, 30.0)
    by_series = _series01(a_small, xp)
    by_miller = _miller01(a_mid, xp)
    j0_far, y0_far = _hankel(a_large, 0, xp)  # nan at inf (cos(inf)), as scipy's
    j1_far, y1_far = _hankel(a_large, 1, xp)
    far = (j0_far, j1_far, y0_far, y1_far)
    return [xp.where(small, s, xp.where(large, f, m))
            for s, m, f in zip(by_series, by_miller, far)]


# ------------------------------------------------------------- any order


def _jn_series(a, n, xp):
    """J_n(a) = (a/2)^n sum_k (-a^2/4)^k / (k! (n+k)!) for a <= 2, n >= 2."""
    q = -a * a / 4
    term, total = xp.ones_like(a), xp.ones_like(a)
    for k in range(1, _SERIES_TERMS):
        term = term * q / (k * (n + k))
        total = total + term
    return xp.exp(n * xp.log(a / 2) - math.lgamma(n + 1)) * total


def _miller_start(n):
    """An even order N far enough above n that J_N(x) / J_n(x) < 1e-17 for x < n:
    near the turning point x ~ n the decay is Airy's, exp(-(2/3) m^1.5 sqrt(2/n))."""
    m = 20 + int(13 * n ** (1 / 3))
    return 2 * ((n + m + 1) // 2)


def _jn_miller(a, n, xp):
    """J_n(a) for 2 <= a < n by Miller's recurrence from _miller_start(n), rescaled
    whenever it grows past 1e200, normalized by J0 + 2 sum J_2k = 1."""
    above, j = xp.zeros_like(a), xp.ones_like(a)
    evens, at_n = xp.zeros_like(a), xp.zeros_like(a)
    for m in range(_miller_start(n), 0, -1):
        if m % 2 == 0:
            evens = evens + 2 * j
        if m == n:
            at_n = j
        above, j = j, 2 * m / a * j - above
        big = xp.abs(j) > _RESCALE_ABOVE
        above, j, evens, at_n = (xp.where(big, v * _RESCALE_BY, v)
                                 for v in (above, j, evens, at_n))
    return at_n / (j + evens)


def _forward(first, second, a, n, xp):
    """The order-n term of C_{k+1} = 2k/a C_k - C_{k-1} from C_0, C_1, once infinite
    staying so (Y_n's -inf near 0, where inf - inf would be nan)."""
    previous, current = first, second
    for k in range(1, n):
        following = 2 * k / a * current - previous
        previous, current = current, xp.where(xp.isinf(current), current, following)
    return current


def jn_values(x, n, xp=np):
    """J_n(x) for real x (float64 array of module xp) and a whole n."""
    sign = -1.0 if n < 0 and n % 2 else 1.0  # J_{-n} = (-1)^n J_n
    n = abs(n)
    a = xp.abs(x)
    a_safe = xp.where(a == 0, 1.0, a)
    j0, j1, _, _ = _orders01(a_safe, xp)
    if n == 0:
        out = xp.where(a == 0, 1.0, j0)
    else:
        if n == 1:
            out = j1
        else:
            ascending = _forward(j0, j1, xp.where(a >= n, a_safe, float(n)), n, xp)
            by_series = _jn_series(xp.where(a <= _SERIES_UP_TO, a_safe, 1.0), n, xp)
            by_miller = _jn_miller(xp.where((a > _SERIES_UP_TO) & (a < n), a_safe, 1.0), n, xp)
            out = xp.where(a >= n, ascending, xp.where(a <= _SERIES_UP_TO, by_series, by_miller))
        out = xp.where(a == 0, 0.0, out)
        if n % 2:
            sign_of_x = xp.where(x < 0, -1.0, 1.0)  # J_n is odd for odd n
            out = sign_of_x * out
    return sign * xp.where(xp.isnan(x), np.nan, out)  # nan, which no branch's test selects


def yn_values(x, n, xp=np):
    """Y_n(x) for real x (float64 array of module xp) and a whole n: nan below 0, -inf at 0."""
    sign = -1.0 if n < 0 and n % 2 else 1.0
    n = abs(n)
    a_safe = xp.where(x > 0, x, 1.0)
    _, _, y0, y1 = _orders01(a_safe, xp)
    out = y0 if n == 0 else y1 if n == 1 else _forward(y0, y1, a_safe, n, xp)
    out = xp.where(x == 0, -np.inf, xp.where(x > 0, out, np.nan))
    return sign * out


def _impl(values, name):
    def impl(x, n):
        x = _real_float(x, name)
        with np.errstate(all="ignore"):
            return np.asarray(values(x.astype(np.float64), n), np.float64).astype(x.dtype)
    return impl


bessel_jn = elementwise(
    "bessel_jn", _impl(jn_values, "jn"),
    (lambda ans, x, n: 0.5 * (bessel_jn(x, n=n - 1) - bessel_jn(x, n=n + 1)),),
    takes_params=True)
bessel_yn = elementwise(
    "bessel_yn", _impl(yn_values, "yn"),
    (lambda ans, x, n: 0.5 * (bessel_yn(x, n=n - 1) - bessel_yn(x, n=n + 1)),),
    takes_params=True)


# ------------------------------------------- modified, real order: iv and ive
#
# I_v(x) = sum_k (x/2)^(2k+v) / (k! gamma(k+v+1)) for any real v (at a negative
# whole v the first terms vanish: I_-n = I_n, used directly). The series has
# positive terms past k = -v, so no cancellation; it runs per element until its
# terms fall below eps of the sum (rescaled past 1e250 to reach x ~ 1e4 without
# overflow). Where x >= 40 and x >= 1.5 v^2, Hankel's expansion
# exp(x) / sqrt(2 pi x) sum_k (-1)^k a_k(v) / x^k takes over, 40 terms.
# Derivatives: I_v' = (I_{v-1} + I_{v+1}) / 2 in x, every order; none in v
# (nor in JAX, which has no iv): asking for one raises.
# Accuracy (tests/test_scipy_more.py; mpmath in development): within 3e-13
# relative for orders |v| <= 120 and x up to 700, except below 1e-300 where
# scipy rounds to 0 and rune does not; near overflow (x ~ 713) scipy's own
# error reaches 7e-12 while rune's stays within 1e-13 of mpmath. Where neither
# range holds and the series would need over 20000 terms (|v| > ~140 with x past
# ~4e4) the value is nan, not a wrong number: no uniform expansion yet.

_IV_RESCALE = 1e250
_IV_ASYMPTOTIC_FROM = 40.0
_IV_ASYMPTOTIC_TERMS = 40


def _iv_series_step(k, v, q, term, total, rescalings):
    ratio = q / (k * (k + v))
    term = term * ratio
    total = total + term
    big = np.abs(total) > _IV_RESCALE
    term, total = np.where(big, term / _IV_RESCALE, term), np.where(big, total / _IV_RESCALE, total)
    rescalings = rescalings + big
    done = (k + v > 0) & (np.abs(ratio) < 1) & (np.abs(term) <= _EPS * np.abs(total))
    return v, q, term, total, rescalings, done


def _log_iv_series(v, a):
    """(log |I_v(a)|, its sign) by the power series, for a > 0 and v not a negative
    whole number: (a/2)^v / gamma(v+1) times sum_k prod_j (a^2/4) / (j (j+v))."""
    one = np.ones_like(a)
    *_, total, rescalings = _iterate(_iv_series_step, (v, a * a / 4, one, one, 0 * a))
    log_gamma = _gammaln_impl(v + 1)
    gamma_sign = np.where((v + 1 < 0) & (np.floor(v + 1) % 2 == 1), -1.0, 1.0)
    log_size = (v * np.log(a / 2) - log_gamma + np.log(np.abs(total))
                + rescalings * math.log(_IV_RESCALE))
    return log_size, gamma_sign * np.sign(total)


def _log_ive_hankel(v, a):
    """log(exp(-a) I_v(a)) for large a: Hankel's expansion (its sum is positive there)."""
    mu = 4 * v * v
    term, total = np.ones_like(a), np.ones_like(a)
    for k in range(1, _IV_ASYMPTOTIC_TERMS):
        term = -term * (mu - (2 * k - 1) ** 2) / (k * 8 * a)
        total = total + term
    return np.log(total) - 0.5 * np.log(2 * np.pi * a)


def _iv_values(v, x, scaled):
    """I_v(x), or exp(-|x|) I_v(x) if scaled, elementwise, float64, scipy's values
    at the edges: nan for x < 0 unless v is whole, nan at x = ±inf, 0 for v = inf."""
    v, x = np.broadcast_arrays(v, x)
    whole = v == np.floor(v)
    order = np.where(whole, np.abs(v), v)  # I_-n = I_n
    a = np.abs(x)
    inside = (a > 0) & np.isfinite(a) & np.isfinite(order)
    asymptotic = inside & (a >= _IV_ASYMPTOTIC_FROM) & (a >= 1.5 * order * order)
    by_series = inside & ~asymptotic
    log_scaled, sign = np.zeros_like(a), np.ones_like(a)
    log_size, sign[by_series] = _log_iv_series(order[by_series], a[by_series])
    log_scaled[by_series] = log_size - a[by_series]
    log_scaled[asymptotic] = _log_ive_hankel(order[asymptotic], a[asymptotic])
    out = sign * np.exp(log_scaled if scaled else log_scaled + a)
    odd = whole & (np.abs(v) % 2 == 1)
    out = np.where((x < 0) & odd, -out, out)  # I_n(-x) = (-1)^n I_n(x)
    out = np.where((x < 0) & ~whole, np.nan, out)
    out = np.where(v == np.inf, 0.0, out)
    at_zero = np.where(order == 0, 1.0, np.where(order > 0, 0.0, np.nan if scaled else np.inf))
    out = np.where(x == 0, at_zero, out)
    return np.where(np.isnan(x) | np.isnan(v) | np.isinf(x), np.nan, out)


def _iv_impl(scaled, name):
    def impl(v, x):
        (v, x), dtype = _float_args(name, v, x)
        with np.errstate(all="ignore"):
            return _iv_values(v, x, scaled).astype(dtype)
    return impl


def _iv_derivative(v, x):
    """I_v' = (I_{v-1} + I_{v+1}) / 2."""
    return 0.5 * (iv(subtract(v, 1.0), x) + iv(add(v, 1.0), x))


def _ive_derivative(ans, v, x):
    """(exp(-|x|) I_v)' = (ive_{v-1} + ive_{v+1}) / 2 - sign(x) ive_v."""
    return 0.5 * (ive(subtract(v, 1.0), x) + ive(add(v, 1.0), x)) - sign(x) * ans


iv = elementwise("iv", _iv_impl(False, "iv"), jvp_rules=(
    _no_derivative("iv and ive", "derivative with respect to the order v"),
    Scaled(lambda ans, v, x: _iv_derivative(v, x))))
ive = elementwise("ive", _iv_impl(True, "ive"), jvp_rules=(
    _no_derivative("iv and ive", "derivative with respect to the order v"),
    Scaled(_ive_derivative)))
