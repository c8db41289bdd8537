"""scipy.special's gamma relatives (gammasgn, rgamma, multigammaln) and the Bessel
functions of integer order (j0, j1, jn, y0, y1, yn), imported by `rune.scipy.special`.

rgamma and multigammaln are compositions of gamma, gammaln and sin; the Bessel
functions are the primitives of rune/primitives/bessel.py.
"""

from __future__ import annotations

import numpy as np

from ..nx.math.complex import real_tensor as _real
from ..nx.tensor import call_broadcasting
from ..primitives import bessel as _b
from ..primitives import elementwise as _e
from ..primitives import shape as _s
from ..primitives import special as _p

def _by_order(prim, n, x, name, negative):
    """prim(x, n=order) for a whole order n (a number, or an array broadcasting
    with x: one primitive per distinct order, selected by where)."""
    orders = np.asarray(n.numpy() if hasattr(n, "numpy") else n)
    if (orders.dtype.kind not in "iuf" or (not negative and np.any(orders < 0))
            or np.any(orders != np.floor(orders))):
        kind = "a whole number" if negative else "a non-negative whole number"
        raise ValueError(f"rune.scipy.special.{name}: n must be {kind}, got {n!r}")
    if orders.ndim == 0:
        return prim(x, n=int(orders))
    out = None
    for order in np.unique(orders):
        value = prim(x, n=int(order))
        out = value if out is None else _e.where(orders == order, value, out)
    return _s.broadcast_to(out, shape=np.broadcast_shapes(out.shape, orders.shape))


def _gamma_sign(x):
    """The sign of gamma(x): -1 where x is negative with an odd floor (piecewise constant)."""
    x = _e.stop_gradient(x)
    odd_floor = _e.equal(_e.mod(_e.floor(x), 2), 1)
    return _e.where(_e.logical_and(_e.less(x, 0), odd_floor), -1.0, 1.0)


def gammasgn(x):
    """The sign of gamma(x): 1 for x > 0 (and +0), -1 or 1 between the poles
    below 0 (and -1 at -0); nan at the poles -1, -2, ..., at -inf and nan, as scipy.

    Piecewise constant: its derivative is 0.

    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.gammasgn(nx.array([2.5, -0.5, -1.5, -2.0])))
    float64 [4] [1, -1, 1, nan]
    """
    x = _e.stop_gradient(_real(x, "rune.scipy.special.gammasgn"))
    at_zero = _e.where(_e.signbit(x), -1.0, 1.0)
    pole = _e.logical_not(_e.isfinite(_e.floor(x)))  # -inf or nan (inf is > 0)
    pole = _e.logical_or(pole, _e.equal(x, _e.floor(x)))  # or whole
    with np.errstate(invalid="ignore"):  # the parity of inf's floor: nan, not taken
        below = _e.where(pole, np.nan, _gamma_sign(x))
    sign = _e.where(_e.greater(x, 0), 1.0, _e.where(_e.equal(x, 0), at_zero, below))
    dtype = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
    return _e.astype(sign, dtype=dtype)  # float32 stays float32, integers give float64: scipy's


_GAMMA_OVERFLOWS = 171.6  # gamma(x) is inf from 171.62 on (1/gamma there is subnormal)


def _sin_pi(x):
    """sin(pi x) with x reduced to [-1/2, 1/2] first (x - round(x) is exact), so
    that it is 0 at whole x and keeps its relative digits next to them."""
    k = _e.stop_gradient(_e.round_(x, decimals=0))
    sine = _e.sin(np.pi * (x - k))
    return _e.where(_e.equal(_e.mod(k, 2), 1), -sine, sine)


def rgamma(x):
    """1 / gamma(x), an entire function: 0 at the poles of gamma (0, -1, -2, ...)
    and past x = 171.6, with its derivatives there too (at -n, (-1)^n n!).

    Computed as 1 / gamma(x) for 0.5 <= x < 171.6, exp(-gammaln(x)) above, and by
    the reflection 1 / gamma(x) = sin(pi x) gamma(1 - x) / pi below 0.5, each
    a smooth function on its side, so derivatives of every order are
    differentiated through them. Within 1e-13 of scipy (tests/test_scipy_more.py).

    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.rgamma(nx.array([4.0, 0.0, -2.0, -0.5])))
    float64 [4] [0.16666666666666666, 0, 0, -0.28209479177387814]
    """
    x = _real(x, "rune.scipy.special.rgamma")
    reflected, large = _e.less(x, 0.5), _e.greater_equal(x, _GAMMA_OVERFLOWS)
    # each branch evaluated at a harmless point on the others (the double-where trick)
    x_low = _e.where(reflected, x, 0.0)
    x_mid = _e.where(_e.logical_or(reflected, large), 1.0, x)
    x_high = _e.where(large, x, _GAMMA_OVERFLOWS)
    with np.errstate(invalid="ignore", over="ignore"):
        gamma_of_reflection = _p.gamma(1 - x_low)
        low = _sin_pi(x_low) * gamma_of_reflection / np.pi
        # below -170 gamma(1 - x) is inf: 0 * inf at the whole x, where 1/gamma is 0
        overflow_at_pole = _e.logical_and(_e.equal(x_low, _e.floor(x_low)),
                                          _e.isinf(gamma_of_reflection))
        low = _e.where(overflow_at_pole, 0.0, low)
        low = _e.where(_e.isinf(x_low), 0.0, low)  # 1/gamma(-inf) = 0, as scipy
    with np.errstate(over="ignore"):  # float32's gamma is inf from 35.04 on: 1/inf = 0
        mid = 1 / _p.gamma(x_mid)
    high = _e.exp(-_p.gammaln(x_high))
    return _e.where(reflected, low, _e.where(large, high, mid))


def multigammaln(a, d):
    """log of the multivariate gamma function of dimension d:
    d (d - 1) / 4 log(pi) + sum_{j < d} gammaln(a - j / 2).

    Defined for a > (d - 1) / 2; nan elsewhere (scipy raises ValueError there,
    which a traced a could not). Differentiable in a (d is a dimension).

    Args:
      a: a real tensor, numpy array or number.
      d: the dimension, a positive int.

    Raises:
      TypeError: a is complex, or not numeric.
      ValueError: d is not a positive whole number.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.multigammaln(nx.array([2.0, 3.5]), 3))
    float64 [2] [1.596312591138855, 3.8958984821540388]
    """
    a = _real(a, "rune.scipy.special.multigammaln")
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
        raise ValueError(f"rune.scipy.special.multigammaln: d must be a positive int (a "
                         f"dimension), got {d!r}")
    inside = _e.greater(a, (d - 1) / 2)
    a_in = _e.where(inside, a, float(d))
    total = sum(_p.gammaln(a_in - j / 2) for j in range(d))
    return _e.where(inside, total + d * (d - 1) / 4 * np.log(np.pi), np.nan)


# ------------------------------------------------- Bessel functions, integer order

_BESSEL_NOTE = """
    Differentiable to every order in x: J_n' = (J_{n-1} - J_{n+1}) / 2, and
    likewise Y_n' (j0' = -j1, y0' = -y1). Within 3e-15 absolute of scipy for
    orders up to 10 (rune/primitives/bessel.py states the method and bounds).
"""


def _bessel(prim, order, name, doc):
    fn = f"rune.scipy.special.{name}"

    def function(x):
        return prim(_real(x, fn), n=order)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    return function


j0 = _bessel(_b.bessel_jn, 0, "j0", """The Bessel function of the first kind, order 0.
""" + _BESSEL_NOTE + """
    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.j0(nx.array([0.0, 1.0, 30.0])))
    float64 [3] [1, 0.7651976865579666, -0.08636798358104021]
    """)
j1 = _bessel(_b.bessel_jn, 1, "j1", """The Bessel function of the first kind, order 1.
""" + _BESSEL_NOTE + """
    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.j1(nx.array([0.0, 1.0, -1.0])))
    float64 [3] [0, 0.44005058574493355, -0.44005058574493355]
    """)
y0 = _bessel(_b.bessel_yn, 0, "y0", """Bessel's function of the second kind, order 0 (-inf at 0).
""" + _BESSEL_NOTE + """
    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.y0(nx.array([0.0, 1.0])))
    float64 [2] [-inf, 0.088256964215677]
    """)
y1 = _bessel(_b.bessel_yn, 1, "y1", """Bessel's function of the second kind, order 1 (-inf at 0).
""" + _BESSEL_NOTE + """
    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.y1(nx.array([1.0, 10.0])))
    float64 [2] [-0.7812128213002887, 0.24901542420695386]
    """)


def jn(n, x):
    """The Bessel function of the first kind of integer order n.

    Differentiable to every order in x, by J_n' = (J_{n-1} - J_{n+1}) / 2; n is
    an order (whole numbers only: scipy's jn takes real orders, rune's does not).
    Within 3e-15 absolute of scipy for orders up to 10, 2e-14 at order 100.

    Args:
      n: a whole number, or an array of them broadcasting with x (negative
        orders are (-1)^n J_|n|).
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.
      ValueError: n is not a whole number.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.jn(3, nx.array([1.0, 10.0])))
    float64 [2] [0.019563353982668404, 0.05837937930518671]
    """
    return _by_order(_b.bessel_jn, n, _real(x, "rune.scipy.special.jn"), "jn", negative=True)


def yn(n, x):
    """The Bessel function of the second kind of integer order n: -inf at 0,
    nan for x < 0.

    Differentiable to every order in x, by Y_n' = (Y_{n-1} - Y_{n+1}) / 2.
    Within 3e-15 absolute (relative to max(1, |Y_n|)) of scipy for orders up
    to 10, 1.5e-13 at order 100.

    Args:
      n: a whole number, or an array of them broadcasting with x.
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.
      ValueError: n is not a whole number.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.yn(3, nx.array([1.0, 10.0])))
    float64 [2] [-5.821517605964729, -0.2513626571838373]
    """
    return _by_order(_b.bessel_yn, n, _real(x, "rune.scipy.special.yn"), "yn", negative=True)


def _two(prim, name, v, x):
    fn = f"rune.scipy.special.{name}"  # Python numbers stay weakly typed, as in numpy
    return call_broadcasting(fn, prim, *[a if type(a) in (int, float) else _real(a, fn)
                                         for a in (v, x)])


def iv(v, x):
    """The modified Bessel function of the first kind of real order v.

    Differentiable in x to every order (I_v' = (I_{v-1} + I_{v+1}) / 2); not in
    v (JAX has no iv at all): asking for that derivative raises
    NotImplementedError. nan for x < 0 unless v is whole (then
    I_v(-x) = (-1)^v I_v(x)); inf past overflow; nan where |v| > ~140 and
    x > ~4e4 (its series would need over 20000 terms). Within 3e-13 relative
    of scipy elsewhere (rune/primitives/bessel.py states the method).

    Args:
      v: the order, real (a tensor, numpy array or number).
      x: the point, real; v and x broadcast together.

    Raises:
      TypeError: an argument is complex, or not numeric.
      ValueError: shapes that do not broadcast.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.iv(nx.array([0.0, 0.5, 2.0]), 1.0))
    float64 [3] [1.2660658777520082, 0.937674888245488, 0.13574766976703842]
    """
    return _two(_b.iv, "iv", v, x)


def ive(v, x):
    """exp(-|x|) iv(v, x): iv without overflow for large |x|.

    Derivatives as iv's: every order in x, none in v (raises).

    Args:
      v: the order, real (a tensor, numpy array or number).
      x: the point, real; v and x broadcast together.

    Raises:
      TypeError: an argument is complex, or not numeric.
      ValueError: shapes that do not broadcast.

    >>> from rune import nx
    >>> from rune.scipy import special
    >>> print(special.ive(1.5, nx.array([1.0, 1e4])))
    float64 [2] [0.10798193302637607, 0.003989023861733926]
    """
    return _two(_b.ive, "ive", v, x)
