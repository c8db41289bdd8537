"""`rune.scipy.stats`: distributions with scipy's names, differentiable.

Each distribution is a namespace of functions, as in `jax.scipy.stats`:
`stats.norm.logpdf(x, loc, scale)`. The log densities are written directly
(not as the log of a density), so they stay finite far in the tails, and
are differentiable in x and in every parameter. Outside the support a log
density is -inf (a density 0), as scipy gives.
"""

from __future__ import annotations

import math

import numpy as np

from .. import nx
from . import special as _special

__all__ = ["norm", "t", "gamma", "chi2", "beta", "poisson", "multivariate_normal", "dirichlet"]

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
_SQRT2 = math.sqrt(2.0)


def _standardized(x, loc, scale):
    return (nx.asarray(x) - loc) / scale


def _log(p):
    """log p, -inf at 0 without numpy's warning (a probability of 0 is an answer)."""
    with np.errstate(divide="ignore"):
        return nx.log(p)


def _log1m(p):
    """log(1 - p), keeping its digits where p is small."""
    with np.errstate(divide="ignore"):
        return nx.log1p(-p)


def _log_probability(p, q):
    """log p, given p and q = 1 - p each computed directly: log p where p is
    small, log1p(-q) where p is near 1 (each branch fed a harmless value where
    the other is taken, so that neither sends an infinite derivative through)."""
    small = p < 0.5
    return nx.where(small, _log(nx.where(small, p, 1.0)), _log1m(nx.where(small, 0.0, q)))


class norm:
    """The normal distribution N(loc, scale^2).

    >>> from rune.scipy import stats
    >>> print(stats.norm.pdf(0.0), stats.norm.cdf(1.0, loc=1.0))
    float64 [] 0.3989422804014327 float64 [] 0.5
    """

    @staticmethod
    def logpdf(x, loc=0.0, scale=1.0):
        """-((x - loc) / scale)^2 / 2 - log(scale) - log sqrt(2 pi).

        >>> from rune.scipy import stats
        >>> print(stats.norm.logpdf(1.0, scale=2.0))
        float64 [] -1.737085713764618
        """
        z = _standardized(x, loc, scale)
        return -0.5 * z * z - nx.log(nx.asarray(scale) * 1.0) - _LOG_SQRT_2PI

    @staticmethod
    def pdf(x, loc=0.0, scale=1.0):
        """The density: exp(logpdf).

        >>> from rune.scipy import stats
        >>> print(stats.norm.pdf(0.0))
        float64 [] 0.3989422804014327
        """
        return nx.exp(norm.logpdf(x, loc, scale))

    @staticmethod
    def cdf(x, loc=0.0, scale=1.0):
        """P(X <= x) = erfc(-(x - loc) / (scale sqrt 2)) / 2.

        >>> from rune.scipy import stats
        >>> print(stats.norm.cdf(0.0))
        float64 [] 0.5
        """
        return _special.ndtr(_standardized(x, loc, scale))

    @staticmethod
    def logcdf(x, loc=0.0, scale=1.0):
        """log P(X <= x), accurate far in the lower tail (an asymptotic series below -20).

        >>> from rune.scipy import stats
        >>> print(stats.norm.logcdf(-40.0))
        float64 [] -804.6084420137538
        """
        return _special.log_ndtr(_standardized(x, loc, scale))

    @staticmethod
    def sf(x, loc=0.0, scale=1.0):
        """P(X > x) = erfc((x - loc) / (scale sqrt 2)) / 2: erfc keeps its relative
        digits far in the upper tail, where 1 - cdf would be 0.

        >>> from rune.scipy import stats
        >>> print(stats.norm.sf(10.0))
        float64 [] 7.619853024160593e-24
        """
        return 0.5 * _special.erfc(_standardized(x, loc, scale) / _SQRT2)

    @staticmethod
    def logsf(x, loc=0.0, scale=1.0):
        """log P(X > x) = logcdf reflected about loc: accurate far in the upper
        tail (the asymptotic series beyond 20 scales).

        >>> from rune.scipy import stats
        >>> print(stats.norm.logsf(40.0))
        float64 [] -804.6084420137538
        """
        return _special.log_ndtr(-_standardized(x, loc, scale))

    @staticmethod
    def ppf(q, loc=0.0, scale=1.0):
        """The quantile function, the inverse of cdf: loc + scale ndtri(q)
        (= loc - scale sqrt(2) erfcinv(2q), where 2q is exact).

        >>> from rune.scipy import stats
        >>> print(stats.norm.ppf(0.5, loc=3.0))
        float64 [] 3
        """
        return loc + scale * _special.ndtri(q)


def _t_lower(z, df):
    """P(T <= z) = I_u(df/2, df/2), u = (1 + z/w)/2 = df / (2 w (w - z)), w = sqrt(df + z^2):
    the last form has no cancellation for z < 0, and is smooth in z everywhere."""
    w = nx.sqrt(df + z * z)
    return _special.betainc(df / 2, df / 2, df / (2 * w * (w - z)))


def _t_tails(x, df, loc, scale):
    """(z < 0, P(T <= z) computed where z < 0, P(T > z) computed where z >= 0):
    each tail from its own side, so that neither is 1 minus a number near 1."""
    z = _standardized(x, loc, scale)
    df = nx.asarray(df) * 1.0
    below = z < 0
    # each side evaluated at a harmless z on the other (the double-where trick)
    return below, _t_lower(nx.where(below, z, 0.0), df), _t_lower(-nx.where(below, 0.0, z), df)


class t:
    """Student's t distribution with df degrees of freedom.

    >>> from rune.scipy import stats
    >>> print(stats.t.pdf(0.0, df=1.0))
    float64 [] 0.3183098861837906
    """

    @staticmethod
    def logpdf(x, df, loc=0.0, scale=1.0):
        """The log density of (x - loc) / scale under Student's t, minus log(scale).

        >>> from rune.scipy import stats
        >>> print(stats.t.logpdf(0.0, df=1.0))
        float64 [] -1.1447298858494004
        """
        z = _standardized(x, loc, scale)
        df = nx.asarray(df) * 1.0
        half = (df + 1) / 2
        return (_special.gammaln(half) - _special.gammaln(df / 2) - 0.5 * nx.log(df * math.pi)
                - nx.log(nx.asarray(scale) * 1.0) - half * nx.log1p(z * z / df))

    @staticmethod
    def pdf(x, df, loc=0.0, scale=1.0):
        """The density: exp(logpdf).

        >>> from rune.scipy import stats
        >>> print(stats.t.pdf(0.0, df=1.0))
        float64 [] 0.3183098861837906
        """
        return nx.exp(t.logpdf(x, df, loc, scale))

    @staticmethod
    def cdf(x, df, loc=0.0, scale=1.0):
        """P(X <= x), by the incomplete beta function. Differentiable in x, loc and
        scale; not in df (betainc has no derivative in its shapes).

        >>> from rune.scipy import stats
        >>> print(stats.t.cdf(-2.0, df=3.0))
        float64 [] 0.06966298427942157
        """
        below, lower, upper = _t_tails(x, df, loc, scale)
        return nx.where(below, lower, 1 - upper)

    @staticmethod
    def logcdf(x, df, loc=0.0, scale=1.0):
        """log P(X <= x), accurate in both tails.

        >>> from rune.scipy import stats
        >>> print(stats.t.logcdf(-1e4, df=3.0))
        float64 [] -27.533297712883943
        """
        below, lower, upper = _t_tails(x, df, loc, scale)
        return nx.where(below, _log(lower), _log1m(upper))

    @staticmethod
    def sf(x, df, loc=0.0, scale=1.0):
        """P(X > x) = cdf(-x) (with loc and scale: reflected about loc).

        >>> from rune.scipy import stats
        >>> print(stats.t.sf(2.0, df=3.0))
        float64 [] 0.06966298427942157
        """
        return t.cdf(-_standardized(x, loc, scale), df)

    @staticmethod
    def logsf(x, df, loc=0.0, scale=1.0):
        """log P(X > x), accurate in both tails.

        >>> from rune.scipy import stats
        >>> print(stats.t.logsf(1e4, df=3.0))
        float64 [] -27.533297712883943
        """
        return t.logcdf(-_standardized(x, loc, scale), df)


def _support(logp, inside):
    return nx.where(inside, logp, -np.inf)


def _gamma_inside(x, loc, scale):
    """(x > loc, z = (x - loc) / scale there and 1 elsewhere)."""
    z = _standardized(x, loc, scale)
    inside = z > 0
    return inside, nx.where(inside, z, 1.0)


class gamma:
    """The gamma distribution with shape a: density z^(a-1) exp(-z) / gamma(a) / scale,
    z = (x - loc) / scale.

    >>> from rune.scipy import stats
    >>> print(stats.gamma.pdf(1.0, a=1.0))
    float64 [] 0.36787944117144233
    """

    @staticmethod
    def logpdf(x, a, loc=0.0, scale=1.0):
        """(a - 1) log z - z - gammaln(a) - log(scale); -inf for x < loc.

        >>> from rune.scipy import stats
        >>> print(stats.gamma.logpdf(2.0, a=3.0))
        float64 [] -1.3068528194400544
        """
        z = _standardized(x, loc, scale)
        inside = z >= 0
        zs = nx.where(inside, z, 1.0)
        logp = (_special.xlogy(nx.asarray(a) - 1.0, zs) - zs - _special.gammaln(a)
                - nx.log(nx.asarray(scale) * 1.0))
        return _support(logp, inside)

    @staticmethod
    def pdf(x, a, loc=0.0, scale=1.0):
        """The density: exp(logpdf).

        >>> from rune.scipy import stats
        >>> print(stats.gamma.pdf(-1.0, a=2.0))
        float64 [] 0
        """
        return nx.exp(gamma.logpdf(x, a, loc, scale))

    @staticmethod
    def cdf(x, a, loc=0.0, scale=1.0):
        """P(X <= x) = gammainc(a, z); 0 for x <= loc. Differentiable in x, loc,
        scale, and once in a (as gammainc).

        >>> from rune.scipy import stats
        >>> print(stats.gamma.cdf(2.0, a=3.0))
        float64 [] 0.32332358381693654
        """
        inside, z = _gamma_inside(x, loc, scale)
        return nx.where(inside, _special.gammainc(a, z), 0.0)

    @staticmethod
    def logcdf(x, a, loc=0.0, scale=1.0):
        """log P(X <= x); -inf for x <= loc.

        >>> from rune.scipy import stats
        >>> print(stats.gamma.logcdf(2.0, a=3.0))
        float64 [] -1.1291016497509285
        """
        inside, z = _gamma_inside(x, loc, scale)
        p, q = _special.gammainc(a, z), _special.gammaincc(a, z)
        return nx.where(inside, _log_probability(p, q), -np.inf)

    @staticmethod
    def sf(x, a, loc=0.0, scale=1.0):
        """P(X > x) = gammaincc(a, z), accurate far in the upper tail; 1 for x <= loc.

        >>> from rune.scipy import stats
        >>> print(stats.gamma.sf(50.0, a=3.0))
        float64 [] 2.509303552201055e-19
        """
        inside, z = _gamma_inside(x, loc, scale)
        return nx.where(inside, _special.gammaincc(a, z), 1.0)

    @staticmethod
    def logsf(x, a, loc=0.0, scale=1.0):
        """log P(X > x); 0 for x <= loc.

        >>> from rune.scipy import stats
        >>> print(stats.gamma.logsf(50.0, a=3.0))
        float64 [] -42.8291115214875
        """
        inside, z = _gamma_inside(x, loc, scale)
        p, q = _special.gammainc(a, z), _special.gammaincc(a, z)
        return nx.where(inside, _log_probability(q, p), 0.0)


class chi2:
    """The chi-squared distribution with df degrees of freedom: the gamma
    distribution with shape df/2 and scale 2 (as scipy defines it), so every
    function is gamma's, with its accuracy and its derivatives (the cdfs
    differentiate once in df, as gammainc does in its shape).

    >>> from rune.scipy import stats
    >>> print(stats.chi2.pdf(1.0, df=2.0))
    float64 [] 0.30326532985631666
    """

    @staticmethod
    def logpdf(x, df, loc=0.0, scale=1.0):
        """(df/2 - 1) log(z/2) - z/2 - gammaln(df/2) - log(2 scale); -inf for x < loc.

        >>> from rune.scipy import stats
        >>> print(stats.chi2.logpdf(3.0, df=4.0))
        float64 [] -1.7876820724517808
        """
        return gamma.logpdf(x, *_chi2_as_gamma(df, loc, scale))

    @staticmethod
    def pdf(x, df, loc=0.0, scale=1.0):
        """The density: exp(logpdf).

        >>> from rune.scipy import stats
        >>> print(stats.chi2.pdf(-1.0, df=3.0))
        float64 [] 0
        """
        return nx.exp(chi2.logpdf(x, df, loc, scale))

    @staticmethod
    def cdf(x, df, loc=0.0, scale=1.0):
        """P(X <= x) = gammainc(df/2, z/2); 0 for x <= loc.

        >>> from rune.scipy import stats
        >>> print(stats.chi2.cdf(2.0, df=2.0))
        float64 [] 0.6321205588285578
        """
        return gamma.cdf(x, *_chi2_as_gamma(df, loc, scale))

    @staticmethod
    def logcdf(x, df, loc=0.0, scale=1.0):
        """log P(X <= x); -inf for x <= loc.

        >>> from rune.scipy import stats
        >>> print(stats.chi2.logcdf(1e-8, df=3.0))
        float64 [] -28.955424760241385
        """
        return gamma.logcdf(x, *_chi2_as_gamma(df, loc, scale))

    @staticmethod
    def sf(x, df, loc=0.0, scale=1.0):
        """P(X > x) = gammaincc(df/2, z/2), accurate far in the upper tail.

        >>> from rune.scipy import stats
        >>> print(stats.chi2.sf(100.0, df=3.0))
        float64 [] 1.5541594313896026e-21
        """
        return gamma.sf(x, *_chi2_as_gamma(df, loc, scale))

    @staticmethod
    def logsf(x, df, loc=0.0, scale=1.0):
        """log P(X > x); 0 for x <= loc.

        >>> from rune.scipy import stats
        >>> print(stats.chi2.logsf(100.0, df=3.0))
        float64 [] -47.91335211199013
        """
        return gamma.logsf(x, *_chi2_as_gamma(df, loc, scale))


def _chi2_as_gamma(df, loc, scale):
    """chi2(df, loc, scale) is gamma(a = df/2, loc, 2 scale): gamma's (a, loc, scale)."""
    return nx.asarray(df) / 2.0, loc, nx.asarray(scale) * 2.0


def _beta_parts(x, loc, scale):
    """(z <= 0, z >= 1, z inside (0, 1) and 1/2 elsewhere)."""
    z = _standardized(x, loc, scale)
    below, above = z <= 0, z >= 1
    return below, above, nx.where(below | above, 0.5, z)


class beta:
    """The beta distribution on [loc, loc + scale]: density z^(a-1) (1-z)^(b-1) / B(a, b).

    >>> from rune.scipy import stats
    >>> print(stats.beta.pdf(0.5, a=2.0, b=2.0))
    float64 [] 1.5000000000000007
    """

    @staticmethod
    def logpdf(x, a, b, loc=0.0, scale=1.0):
        """(a-1) log z + (b-1) log(1-z) - betaln(a, b) - log(scale); -inf outside [0, 1].

        >>> from rune.scipy import stats
        >>> print(stats.beta.logpdf(0.5, a=2.0, b=3.0))
        float64 [] 0.40546510810816416
        """
        z = _standardized(x, loc, scale)
        inside = (z >= 0) & (z <= 1)
        zs = nx.where(inside, z, 0.5)
        logp = (_special.xlogy(nx.asarray(a) - 1.0, zs) + _special.xlog1py(nx.asarray(b) - 1.0, -zs)
                - _special.betaln(a, b) - nx.log(nx.asarray(scale) * 1.0))
        return _support(logp, inside)

    @staticmethod
    def pdf(x, a, b, loc=0.0, scale=1.0):
        """The density: exp(logpdf).

        >>> from rune.scipy import stats
        >>> print(stats.beta.pdf(0.25, a=1.0, b=1.0))
        float64 [] 1
        """
        return nx.exp(beta.logpdf(x, a, b, loc, scale))

    @staticmethod
    def cdf(x, a, b, loc=0.0, scale=1.0):
        """P(X <= x) = betainc(a, b, z). Differentiable in x, loc and scale; not in
        a or b (betainc has no derivative in its shapes).

        >>> from rune.scipy import stats
        >>> print(stats.beta.cdf(0.25, a=2.0, b=3.0))
        float64 [] 0.26171874999999994
        """
        below, above, z = _beta_parts(x, loc, scale)
        return nx.where(below, 0.0, nx.where(above, 1.0, _special.betainc(a, b, z)))

    @staticmethod
    def logcdf(x, a, b, loc=0.0, scale=1.0):
        """log P(X <= x); -inf for x <= loc.

        >>> from rune.scipy import stats
        >>> print(stats.beta.logcdf(1e-5, a=2.0, b=3.0))
        float64 [] -21.234104794084626
        """
        below, above, z = _beta_parts(x, loc, scale)
        p, q = _special.betainc(a, b, z), _special.betainc(b, a, 1 - z)
        return nx.where(below, -np.inf, nx.where(above, 0.0, _log_probability(p, q)))

    @staticmethod
    def sf(x, a, b, loc=0.0, scale=1.0):
        """P(X > x) = betainc(b, a, 1 - z), accurate near the upper end.

        >>> from rune.scipy import stats
        >>> print(stats.beta.sf(0.25, a=2.0, b=3.0))
        float64 [] 0.73828125
        """
        below, above, z = _beta_parts(x, loc, scale)
        return nx.where(below, 1.0, nx.where(above, 0.0, _special.betainc(b, a, 1 - z)))

    @staticmethod
    def logsf(x, a, b, loc=0.0, scale=1.0):
        """log P(X > x); -inf for x >= loc + scale.

        >>> from rune.scipy import stats
        >>> print(stats.beta.logsf(1 - 1e-5, a=2.0, b=3.0))
        float64 [] -33.15248953383257
        """
        below, above, z = _beta_parts(x, loc, scale)
        p, q = _special.betainc(a, b, z), _special.betainc(b, a, 1 - z)
        return nx.where(below, 0.0, nx.where(above, -np.inf, _log_probability(q, p)))


def _poisson_counts(k, loc):
    """(floor(k - loc) >= 0, floor(k - loc) + 1 there and 1 elsewhere): the
    cdf at k is the cdf at the last whole number up to k, as scipy's."""
    whole = nx.floor(nx.asarray(k) - loc) * 1.0
    inside = whole >= 0
    return inside, nx.where(inside, whole, 0.0) + 1.0


class poisson:
    """The Poisson distribution with mean mu, on the whole numbers k >= loc.

    >>> from rune.scipy import stats
    >>> print(stats.poisson.pmf(0, mu=2.0))
    float64 [] 0.1353352832366127
    """

    @staticmethod
    def logpmf(k, mu, loc=0):
        """k log mu - mu - gammaln(k + 1); -inf at k that are not whole or below loc.

        Differentiable in mu (k counts, it has no derivative).

        >>> from rune.scipy import stats
        >>> print(stats.poisson.logpmf(2, mu=3.0))
        float64 [] -1.4959226032237254
        """
        k = nx.asarray(k) - loc
        inside = (k >= 0) & (nx.floor(k) == k)
        ks = nx.where(inside, k, 0.0)
        logp = _special.xlogy(ks * 1.0, mu) - mu - _special.gammaln(ks + 1.0)
        return _support(logp, inside)

    @staticmethod
    def pmf(k, mu, loc=0):
        """The probability of k: exp(logpmf).

        >>> from rune.scipy import stats
        >>> print(stats.poisson.pmf(1, mu=1.0))
        float64 [] 0.36787944117144233
        """
        return nx.exp(poisson.logpmf(k, mu, loc))

    @staticmethod
    def cdf(k, mu, loc=0):
        """P(K <= k) = gammaincc(floor(k) + 1, mu). Differentiable in mu.

        >>> from rune.scipy import stats
        >>> print(stats.poisson.cdf(2, mu=3.0))
        float64 [] 0.4231900811268433
        """
        inside, n = _poisson_counts(k, loc)
        return nx.where(inside, _special.gammaincc(n, mu), 0.0)

    @staticmethod
    def logcdf(k, mu, loc=0):
        """log P(K <= k); -inf below loc.

        >>> from rune.scipy import stats
        >>> print(stats.poisson.logcdf(2, mu=3.0))
        float64 [] -0.8599338365037297
        """
        inside, n = _poisson_counts(k, loc)
        p, q = _special.gammaincc(n, mu), _special.gammainc(n, mu)
        return nx.where(inside, _log_probability(p, q), -np.inf)

    @staticmethod
    def sf(k, mu, loc=0):
        """P(K > k) = gammainc(floor(k) + 1, mu), accurate far in the upper tail.

        >>> from rune.scipy import stats
        >>> print(stats.poisson.sf(30, mu=3.0))
        float64 [] 4.125405198113932e-21
        """
        inside, n = _poisson_counts(k, loc)
        return nx.where(inside, _special.gammainc(n, mu), 1.0)

    @staticmethod
    def logsf(k, mu, loc=0):
        """log P(K > k); 0 below loc.

        >>> from rune.scipy import stats
        >>> print(stats.poisson.logsf(30, mu=3.0))
        float64 [] -46.937122708066745
        """
        inside, n = _poisson_counts(k, loc)
        p, q = _special.gammaincc(n, mu), _special.gammainc(n, mu)
        return nx.where(inside, _log_probability(q, p), 0.0)


# the multivariate distributions live in their own file (this one grew past 600 lines)
from ._multivariate import dirichlet, multivariate_normal  # noqa: E402
