"""`rune.scipy.special`: scipy.special's names, differentiable.

erf, erfc, erfinv, erfcinv, gamma, gammaln, digamma (psi), polygamma and the
modified Bessel functions i0, i1, i0e, i1e are primitives (their rules are
in rune/primitives/special.py), and so are the regularized incomplete gamma
and beta functions gammainc, gammaincc, betainc (rune/primitives/incomplete.py);
the rest are compositions.

Complex arguments: xlogy, xlog1py, logsumexp, softmax and log_softmax take
them, as scipy's do; erf, erfc, gamma and digamma raise TypeError saying
that scipy's take them and rune's do not; the others are real in scipy too
and raise TypeError. Never a quiet cast to real.

At the poles of gamma (0, -1, -2, ...) the values are scipy's (inf or nan)
and so are the derivatives.
"""

from __future__ import annotations

import math

import numpy as np

from ..nx.creation import as_tensor
from ..nx.math import exponents_logarithms as _exps
from ..nx.math.complex import real_tensor
from ..nx.tensor import call_broadcasting, normalize_axes
from ..primitives import elementwise as _e
from ..primitives import incomplete as _inc
from ..primitives import reduce as _r
from ..primitives import shape as _s
from ..primitives import special as _p
from ._gamma_bessel import _by_order, _gamma_sign, gammasgn, iv, ive, j0, j1, jn, multigammaln, \
    rgamma, y0, y1, yn

__all__ = [
    "erf", "erfc", "erfinv", "erfcinv", "gamma", "gammaln", "digamma", "psi", "polygamma", "beta",
    "betaln", "expit", "logit", "xlogy", "xlog1py", "logsumexp", "softmax", "log_softmax",
    "i0", "i1", "i0e", "i1e", "gammainc", "gammaincc", "betainc", "gammasgn", "rgamma",
    "multigammaln", "j0", "j1", "jn", "y0", "y1", "yn", "iv", "ive",
    "ndtr", "log_ndtr", "ndtri", "entr",
]


_real = real_tensor

# scipy.special takes complex numbers in these (rune's compute real ones only)
_COMPLEX_IN_SCIPY = ("erf", "erfc", "gamma", "digamma")


def _real_only(x, fn):
    """x as a real tensor; a complex one raises TypeError saying that scipy's
    function takes it but rune's does not (never a quiet cast to real)."""
    x = as_tensor(x, fn)
    if x.dtype.kind == "c":
        raise TypeError(f"{fn}: complex arguments are not supported (got {x.dtype}): "
                        f"scipy's accepts them, rune's is for real numbers only")
    return x


def _unary(prim, name, doc):
    fn = f"rune.scipy.special.{name}"
    real = _real_only if name in _COMPLEX_IN_SCIPY else _real

    def function(x):
        return prim(real(x, fn))

    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    return function


_ARGS = """
    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.
"""

erf = _unary(_p.erf, "erf", """The error function 2/sqrt(pi) integral_0^x exp(-t^2) dt.
""" + _ARGS + """
    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.erf(nx.array([0.0, 1.0])))
    float64 [2] [0, 0.8427007929497149]
    """)
erfc = _unary(_p.erfc, "erfc", """1 - erf(x), accurate where erf(x) is near 1.
""" + _ARGS + """
    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.erfc(nx.array([0.0, 10.0])))
    float64 [2] [1, 2.088487583762545e-45]
    """)
erfinv = _unary(_p.erfinv, "erfinv", """The inverse of erf on (-1, 1): inf at 1, nan outside.
""" + _ARGS + """
    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.erfinv(nx.array([0.0, 0.5])))
    float64 [2] [0, 0.4769362762044699]
    """)
erfcinv = _unary(_p.erfcinv, "erfcinv", """erfinv(1 - x), 1 - x not rounded: inf at 0, -inf at 2.
""" + _ARGS + """
    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.erfcinv(nx.array([1.0, 1e-300])))
    float64 [2] [0, 26.209469960516154]
    """)
gamma = _unary(_p.gamma, "gamma", """The gamma function (x-1)! for whole x; inf past 171.6.
""" + _ARGS + """
    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.gamma(nx.array([5.0, 0.5])))
    float64 [2] [24, 1.7724538509055159]
    """)
gammaln = _unary(_p.gammaln, "gammaln", """log |gamma(x)|, without overflow.
""" + _ARGS + """
    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.gammaln(nx.array([5.0, 200.0])))
    float64 [2] [3.1780538303479458, 857.9336698258574]
    """)
digamma = _unary(_p.digamma, "digamma", """The derivative of gammaln (alias psi).
""" + _ARGS + """
    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.digamma(nx.array([1.0])))
    float64 [1] [-0.5772156649015329]
    """)
psi = digamma
i0 = _unary(_p.i0, "i0", """The modified Bessel function of the first kind, order 0.
""" + _ARGS + """
    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.i0(nx.array([0.0, 1.0])))
    float64 [2] [1, 1.2660658777520082]
    """)
i1 = _unary(_p.i1, "i1", """The modified Bessel function of the first kind, order 1.
""" + _ARGS + """
    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.i1(nx.array([0.0, 1.0])))
    float64 [2] [0, 0.5651591039924851]
    """)
i0e = _unary(_p.i0e, "i0e", """exp(-|x|) i0(x): i0 without overflow for large |x|.
""" + _ARGS + """
    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.i0e(nx.array([0.0, 1000.0])))
    float64 [2] [1, 0.012617240455891257]
    """)
i1e = _unary(_p.i1e, "i1e", """exp(-|x|) i1(x): i1 without overflow for large |x|.
""" + _ARGS + """
    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.i1e(nx.array([0.0, 1000.0])))
    float64 [2] [0, 0.012610930256928629]
    """)


def polygamma(n, x):
    """The n-th derivative of digamma (polygamma(0, x) is digamma(x)).

    Differentiable in x (its derivative is polygamma(n + 1, x)); n is an order.

    Args:
      n: a non-negative int, or an array of them broadcasting with x.
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex or not numeric.
      ValueError: n is not a non-negative whole number.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.polygamma(1, nx.array([1.0])))
    float64 [1] [1.6449340668482264]
    """
    x = _real(x, "rune.scipy.special.polygamma")
    return _by_order(_p.polygamma, n, x, "polygamma", negative=False)


def betaln(a, b):
    """log |B(a, b)| = gammaln(a) + gammaln(b) - gammaln(a + b).

    Args:
      a, b: real tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is complex, or not numeric.
      ValueError: shapes that do not broadcast.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.betaln(nx.array([1.0, 2.0]), 3.0))
    float64 [2] [-1.0986122886681104, -2.484906649788]
    """
    a, b = _real(a, "rune.scipy.special.betaln"), _real(b, "rune.scipy.special.betaln")
    total = call_broadcasting("rune.scipy.special.betaln", _e.add, a, b)
    return _p.gammaln(a) + _p.gammaln(b) - _p.gammaln(total)


def beta(a, b):
    """The beta function B(a, b) = gamma(a) gamma(b) / gamma(a + b), with its sign.

    Args:
      a, b: real tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is complex, or not numeric.
      ValueError: shapes that do not broadcast.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.beta(nx.array([1.0, 2.0]), 3.0))
    float64 [2] [0.3333333333333331, 0.08333333333333337]
    """
    a, b = _real(a, "rune.scipy.special.beta"), _real(b, "rune.scipy.special.beta")
    magnitude = _e.exp(betaln(a, b))
    sign = _gamma_sign(a) * _gamma_sign(b) * _gamma_sign(a + b)  # float64 from -1.0, 1.0
    return _e.astype(sign, dtype=magnitude.dtype) * magnitude


def expit(x):
    """The logistic function 1 / (1 + exp(-x)) (nx.sigmoid).

    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.expit(nx.array([0.0, -1000.0])))
    float64 [2] [0.5, 0]
    """
    return _e.sigmoid(_real(x, "rune.scipy.special.expit"))


def logit(p):
    """log(p / (1 - p)), the inverse of expit: -inf at 0, inf at 1.

    Args:
      p: a real tensor, numpy array or number (probabilities).

    Raises:
      TypeError: p is complex, or not numeric.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.logit(nx.array([0.5, 0.75])))
    float64 [2] [0, 1.0986122886681096]
    """
    p = _real(p, "rune.scipy.special.logit")
    with np.errstate(divide="ignore"):
        return _e.log(p) - _e.log1p(-p)


_SQRT2 = math.sqrt(2.0)
_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


def ndtr(x):
    """The standard normal distribution function Phi(x) = erfc(-x / sqrt 2) / 2
    (stats.norm.cdf), keeping its relative digits far in the lower tail.

    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex (scipy's takes it, rune's does not), or not numeric.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.ndtr(nx.array([0.0, -10.0])))
    float64 [2] [0.5, 7.619853024160593e-24]
    """
    return 0.5 * erfc(-_real_only(x, "rune.scipy.special.ndtr") / _SQRT2)


def log_ndtr(x):
    """log Phi(x), accurate in both tails: log(erfc(-x / sqrt 2) / 2), log1p of the
    small upper tail for x > 0, and below -20 (where erfc underflows) the asymptotic
    series -x^2/2 - log(-x) - log sqrt(2 pi) + log(1 - 1/x^2 + 3/x^4 - ...).

    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex (scipy's takes it, rune's does not), or not numeric.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.log_ndtr(nx.array([0.0, -40.0])))
    float64 [2] [-0.6931471805599453, -804.6084420137538]
    """
    z = _real_only(x, "rune.scipy.special.log_ndtr")
    far = _e.less(z, -20)
    zf = _e.where(far, z, -20.0)  # each branch fed a harmless value where the other is taken
    zn = _e.where(far, 0.0, z)
    inv = 1 / (zf * zf)
    series = 1 - inv + 3 * inv ** 2 - 15 * inv ** 3 + 105 * inv ** 4 - 945 * inv ** 5
    tail = -0.5 * zf * zf - _e.log(-zf) - _LOG_SQRT_2PI + _e.log(series)
    upper = _e.greater(zn, 0)  # there Phi is near 1: log1p of the small upper tail
    zu, zl = _e.where(upper, zn, 0.0), _e.where(upper, 0.0, zn)
    near = _e.where(upper, _e.log1p(-0.5 * erfc(zu / _SQRT2)),
                    _e.log(0.5 * erfc(-zl / _SQRT2)))
    return _e.where(far, tail, near)


def ndtri(p):
    """The inverse of ndtr (stats.norm.ppf): -sqrt(2) erfcinv(2p), where 2p is
    exact (2p - 1 would round a small p's digits away); -inf at 0, inf at 1.

    Args:
      p: a real tensor, numpy array or number (probabilities).

    Raises:
      TypeError: p is complex, or not numeric.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.ndtri(nx.array([0.5, 0.975])))
    float64 [2] [0, 1.959963984540054]
    """
    # 0 - ..., not -...: ndtri(0.5) is +0, as scipy's
    return 0.0 - _SQRT2 * erfcinv(2 * _real(p, "rune.scipy.special.ndtri"))


def entr(x):
    """The entropy term -x log x: 0 at 0, -inf below 0 (where its derivative is 0).

    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.entr(nx.array([0.0, 0.5, -1.0])))
    float64 [3] [0, 0.34657359027997264, -inf]
    """
    x = _real(x, "rune.scipy.special.entr", floats=True)
    negative = _e.less(x, 0)
    inside = _e.where(negative, 1.0, x)  # a harmless value where -inf is the answer
    return _e.where(negative, -np.inf, 0.0 - xlogy(inside, inside))  # entr(0) = +0, as scipy's


def _at_or_below(y, edge):
    """Where log(y - edge) is not finite (or not real): y <= edge for real y, y == edge
    for complex y (whose log is finite everywhere else)."""
    return _e.equal(y, edge) if y.dtype.kind == "c" else _e.less_equal(y, edge)


def xlogy(x, y):
    """x * log(y), and 0 where x is 0 (even where y is 0).

    The derivative in x is log(y) (taken as 0 where x = 0 and y <= 0); in y, x / y.
    Complex arguments take the principal log (holomorphic, as scipy's).

    Args:
      x, y: real or complex tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: shapes that do not broadcast.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.xlogy(nx.array([0.0, 2.0]), nx.array([0.0, 3.0])))
    float64 [2] [0, 2.1972245773362196]
    """
    x, y = as_tensor(x, "rune.scipy.special.xlogy"), as_tensor(y, "rune.scipy.special.xlogy")
    unused = _e.logical_and(_e.equal(x, 0), _at_or_below(y, 0))
    with np.errstate(divide="ignore"):  # log 0 = -inf is the answer, not an accident
        log_y = _e.log(_e.where(unused, 1.0, y))
    return call_broadcasting("rune.scipy.special.xlogy", _e.multiply, x, log_y)


def xlog1py(x, y):
    """x * log(1 + y), and 0 where x is 0 (even where y is -1).

    Complex arguments take the principal log, as scipy's.

    Args:
      x, y: real or complex tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: shapes that do not broadcast.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.xlog1py(nx.array([0.0, 2.0]), nx.array([-1.0, 1e-10])))
    float64 [2] [0, 1.9999999999000001e-10]
    """
    x, y = as_tensor(x, "rune.scipy.special.xlog1py"), as_tensor(y, "rune.scipy.special.xlog1py")
    unused = _e.logical_and(_e.equal(x, 0), _at_or_below(y, -1))
    with np.errstate(divide="ignore"):
        log_y = _e.log1p(_e.where(unused, 0.0, y))
    return call_broadcasting("rune.scipy.special.xlog1py", _e.multiply, x, log_y)


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """log |sum(b * exp(a))| over `axis`, without overflow (scipy's arguments).

    Args:
      a: a real or complex tensor, numpy array or nested list.
      axis: None (all axes), an int or a tuple of ints.
      b: weights broadcasting with a (may be negative or complex), or None for 1.
      keepdims: keep the reduced axes, with size 1.
      return_sign: also return the sign of the sum; without it a negative
        sum gives nan, as scipy does. For a complex sum, the sign is its
        phase s / |s| (which moves with a: it is differentiated), and without
        return_sign the result is the complex log of the sum, as scipy's.

    Raises:
      TypeError: a or b is not numeric.
      ValueError: an axis out of range, or shapes that do not broadcast.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.logsumexp(nx.array([1000.0, 1000.0])))
    float64 [] 1000.6931471805599
    >>> out, sign = special.logsumexp(nx.array([0.0, 1.0]), b=nx.array([1.0, -1.0]),
    ...                               return_sign=True)
    >>> print(out, sign)
    float64 [] 0.5413248546129181 float64 [] -1
    """
    fn = "rune.scipy.special.logsumexp"
    a = as_tensor(a, fn)
    if b is None and not return_sign:
        return _exps.logsumexp(a, axis=axis, keepdims=keepdims)
    axes = normalize_axes(axis, a.ndim, fn)
    shift = _exps._detached_max(a, axes)  # of the real parts: a real shift
    terms = _e.exp(_e.subtract(a, shift))
    if b is not None:
        terms = call_broadcasting(fn, _e.multiply, terms, as_tensor(b, fn))
        axes = tuple(range(terms.ndim - a.ndim)) + tuple(i + terms.ndim - a.ndim for i in axes)
    total = _r.sum(terms, axis=axes, keepdims=True)
    shape = total.shape if keepdims else _r._reduced_shape(total.shape, axes, False)
    with np.errstate(divide="ignore", invalid="ignore"):
        if total.dtype.kind == "c" and not return_sign:
            return _s.reshape(_e.add(_e.log(total), shift), shape=shape)
        size = _e.absolute(total)
        out = _s.reshape(_e.add(_e.log(size), shift), shape=shape)
        if total.dtype.kind == "c":  # the phase: not piecewise constant, so not detached
            return out, _s.reshape(_e.divide(total, size), shape=shape)
    sign = _s.reshape(_e.sign(_e.stop_gradient(total)), shape=shape)
    if return_sign:
        return out, sign
    return _e.where(_e.less(sign, 0), np.nan, out)


def softmax(x, axis=None):
    """exp(x) / sum(exp(x)) over `axis`: scipy's default is all axes (nx.softmax's is the last).

    Args:
      x: a real or complex tensor, numpy array or nested list.
      axis: None (all axes), an int or a tuple of ints.

    Raises:
      TypeError: x is not numeric.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.softmax(nx.array([[0.0, 0.0], [0.0, 0.0]])))
    float64 [2, 2]
    [[0.25, 0.25],
     [0.25, 0.25]]
    """
    return _exps.softmax(as_tensor(x, "rune.scipy.special.softmax"), axis=axis)


def log_softmax(x, axis=None):
    """log(softmax(x)) over `axis` (all axes by default, as scipy), computed stably.

    Args:
      x: a real or complex tensor, numpy array or nested list.
      axis: None (all axes), an int or a tuple of ints.

    Raises:
      TypeError: x is not numeric.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.log_softmax(nx.array([0.0, 0.0])))
    float64 [2] [-0.6931471805599453, -0.6931471805599453]
    """
    return _exps.log_softmax(as_tensor(x, "rune.scipy.special.log_softmax"), axis=axis)


def _incomplete(prim, name, *args):
    fn = f"rune.scipy.special.{name}"  # Python numbers stay weakly typed, as in numpy
    return call_broadcasting(fn, prim, *[a if type(a) in (int, float) else _real(a, fn)
                                         for a in args])


def gammainc(a, x):
    """The regularized lower incomplete gamma function
    P(a, x) = integral_0^x t^(a-1) e^-t dt / gamma(a), the cdf of gamma(a) at x.

    Differentiable in x to every order (d/dx is the gamma density) and, as in
    JAX, once in a (by differentiating its series or continued fraction term
    by term): a second derivative in a raises NotImplementedError. nan where
    a < 0 or x < 0; P(0, x) = 1 for x > 0, as scipy.

    Args:
      a: the shape, real and >= 0 (a tensor, numpy array or number).
      x: the point, real and >= 0; a and x broadcast together.

    Raises:
      TypeError: an argument is complex, or not numeric.
      ValueError: shapes that do not broadcast.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.gammainc(2.0, nx.array([0.0, 1.0, 5.0])))
    float64 [3] [0, 0.2642411176571153, 0.9595723180054873]
    """
    return _incomplete(_inc.gammainc, "gammainc", a, x)


def gammaincc(a, x):
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x),
    accurate where P is near 1 (its own continued fraction there).

    Derivatives as gammainc's (with the opposite sign): every order in x,
    once in a.

    Args:
      a: the shape, real and >= 0 (a tensor, numpy array or number).
      x: the point, real and >= 0; a and x broadcast together.

    Raises:
      TypeError: an argument is complex, or not numeric.
      ValueError: shapes that do not broadcast.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.gammaincc(2.0, nx.array([1.0, 50.0])))
    float64 [2] [0.7357588823428847, 9.836624224615988e-21]
    """
    return _incomplete(_inc.gammaincc, "gammaincc", a, x)


def betainc(a, b, x):
    """The regularized incomplete beta function
    I_x(a, b) = integral_0^x t^(a-1) (1-t)^(b-1) dt / B(a, b), the cdf of beta(a, b).

    Differentiable in x to every order (d/dx is the beta density). Not in a
    or b (JAX has no such derivative either): asking for one raises
    NotImplementedError naming the argument. nan outside a > 0, b > 0,
    0 <= x <= 1.

    Args:
      a, b: the shapes, real and > 0 (tensors, numpy arrays or numbers).
      x: the point in [0, 1]; a, b and x broadcast together.

    Raises:
      TypeError: an argument is complex, or not numeric.
      ValueError: shapes that do not broadcast.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.betainc(2.0, 3.0, nx.array([0.0, 0.5, 1.0])))
    float64 [3] [0, 0.6875000000000002, 1]
    """
    return _incomplete(_inc.betainc, "betainc", a, b, x)
