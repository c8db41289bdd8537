"""The multivariate distributions of `rune.scipy.stats`: multivariate_normal and
dirichlet (imported by rune/scipy/stats.py, which documents the conventions)."""

from __future__ import annotations

import math

from .. import nx
from . import special as _special

class multivariate_normal:
    """The multivariate normal distribution N(mean, cov); x's last axis holds the vector.

    Shapes follow scipy: the dimension comes from mean (or cov); a 1-d x is
    one vector (or, in dimension 1, many); size-1 axes of the result are
    dropped.

    >>> from rune import nx
    >>> from rune.scipy import stats
    >>> print(stats.multivariate_normal.logpdf(nx.zeros(2), nx.zeros(2), nx.eye(2)))
    float64 [] -1.8378770664093453
    """

    @staticmethod
    def logpdf(x, mean=None, cov=1):
        """-(d log 2 pi + log det cov + (x - mean)^T cov^-1 (x - mean)) / 2, by Cholesky.

        Raises numpy.linalg.LinAlgError if cov is not positive definite.

        >>> from rune import nx
        >>> from rune.scipy import stats
        >>> print(stats.multivariate_normal.logpdf(nx.array([1.0, 0.0]), cov=nx.eye(2)))
        float64 [] -2.3378770664093453
        """
        cov = nx.asarray(cov) * 1.0
        mean_given = mean is not None
        dim = (nx.asarray(mean).size if mean_given else
               cov.shape[0] if cov.ndim >= 1 else 1)
        if cov.ndim == 0:
            cov = cov * nx.eye(dim)
        elif cov.ndim == 1:
            cov = cov * nx.eye(dim)  # a diagonal, as scipy
        x = nx.asarray(x) * 1.0
        if x.ndim == 0:
            x = nx.reshape(x, (1,))
        if x.ndim == 1:
            x = nx.reshape(x, (-1, 1) if dim == 1 else (1, -1))
        diff = x - (nx.asarray(mean) if mean_given else 0.0)
        lower = nx.linalg.cholesky(cov)
        n = math.prod(diff.shape[:-1])
        flat = nx.reshape(diff, (n, dim))
        solved = nx.linalg.solve(lower, nx.transpose(flat))  # L^-1 (x - mean), one column each
        maha = nx.sum(solved * solved, axis=0)
        log_det = 2 * nx.sum(nx.log(nx.diagonal(lower)))
        out = -0.5 * (dim * math.log(2 * math.pi) + log_det + maha)
        kept = tuple(s for s in diff.shape[:-1] if s != 1)
        return nx.reshape(out, kept)

    @staticmethod
    def pdf(x, mean=None, cov=1):
        """The density: exp(logpdf).

        >>> from rune import nx
        >>> from rune.scipy import stats
        >>> print(stats.multivariate_normal.pdf(nx.zeros(1), cov=1.0))
        float64 [] 0.3989422804014327
        """
        return nx.exp(multivariate_normal.logpdf(x, mean, cov))


class dirichlet:
    """The Dirichlet distribution with concentrations alpha; x's FIRST axis holds the
    components, as scipy's: x of shape (K,) or (K, N) for N points.

    >>> from rune import nx
    >>> from rune.scipy import stats
    >>> print(stats.dirichlet.pdf(nx.array([0.5, 0.5]), nx.array([1.0, 1.0])))
    float64 [] 1
    """

    @staticmethod
    def logpdf(x, alpha):
        """sum((alpha - 1) log x) - sum(gammaln(alpha)) + gammaln(sum(alpha)).

        >>> from rune import nx
        >>> from rune.scipy import stats
        >>> print(stats.dirichlet.logpdf(nx.array([0.2, 0.8]), nx.array([2.0, 1.0])))
        float64 [] -0.9162907318741553
        """
        x, alpha = nx.asarray(x) * 1.0, nx.asarray(alpha) * 1.0
        a = nx.reshape(alpha, (alpha.shape[0],) + (1,) * (x.ndim - 1))
        norm_const = nx.sum(_special.gammaln(alpha)) - _special.gammaln(nx.sum(alpha))
        return nx.sum(_special.xlogy(a - 1.0, x), axis=0) - norm_const

    @staticmethod
    def pdf(x, alpha):
        """The density: exp(logpdf).

        >>> from rune import nx
        >>> from rune.scipy import stats
        >>> print(stats.dirichlet.pdf(nx.array([0.2, 0.8]), nx.array([2.0, 1.0])))
        float64 [] 0.3999999999999999
        """
        return nx.exp(dirichlet.logpdf(x, alpha))
