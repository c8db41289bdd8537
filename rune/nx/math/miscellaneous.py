"""Miscellaneous: sqrt, cbrt, square, absolute, sign, clip, convolve, interp, nan_to_num...

numpy's "Mathematical functions: miscellaneous", with `relu` and
`piecewise` (numpy's functional programming). `abs'(0) = 0`,
`sign'(x) = 0` (real x), `relu'(0) = 0`, `sqrt'(0) = inf`, `cbrt'(0) = inf`;
`clip` at a bound has derivative 0.5 (a tie of maximum and minimum);
`heaviside` moves only in x2 (its value at 0). `interp` is differentiable
in x, xp and fp; `convolve` is the bilinear primitive of
rune/primitives/convolution.py, differentiable in both arguments.
"""

from __future__ import annotations

import builtins

import numpy as np

from ...primitives import convolution as _c
from ...primitives import elementwise as _e
from ...primitives import indexing as _ix
from ...primitives import sorting as _st
from ..creation import as_tensor, zeros_like
from ..indexing import where
from ..logic import _call, _reduce_any
from ..manipulation.dimensions import broadcast_to
from ..manipulation.joining import concatenate
from ..tensor import call_broadcasting, Tensor
from .arithmetic import _real
from .complex import real_tensor
from .sums_products_differences import _along, _float, _vectors

__all__ = [
    "piecewise", "square", "sqrt", "absolute", "sign", "relu", "abs", "clip", "heaviside",
    "cbrt", "fabs", "nan_to_num", "real_if_close", "convolve", "interp",
]


def piecewise(x, condlist, funclist):
    """x's elements mapped by the function of the first true condition (numpy's
    piecewise): where `condlist[i]`, `funclist[i](x)`; elsewhere 0, or the extra
    last function's value if funclist has one more entry.

    Each function sees all of x (numpy passes only the selected elements),
    and the result selects with `where`: a function that is NaN where it is
    not selected gives a NaN derivative there (see "Kinks and NaNs").

    Args:
      x: a tensor (or numpy array, nested lists).
      condlist: a sequence of bool tensors (or one) of x's shape.
      funclist: functions of x, or numbers, one per condition (plus one
        for "otherwise").

    Raises:
      TypeError: x is not numeric.
      ValueError: funclist of the wrong length.

    >>> from rune import nx
    >>> x = nx.array([-2.0, 0.5, 3.0])
    >>> print(nx.piecewise(x, [x < 0, x > 1], [lambda x: -x, lambda x: x * 10, 0.5]))
    float64 [3] [2, 0.5, 30]
    """
    fn = "nx.piecewise"
    x = as_tensor(x, fn)
    if isinstance(condlist, Tensor) and condlist.dtype == np.bool_ and condlist.shape == x.shape:
        condlist = [condlist]
    condlist = list(condlist)
    if len(funclist) not in (len(condlist), len(condlist) + 1):
        raise ValueError(f"{fn}: funclist has {len(funclist)} entries; expected "
                         f"{len(condlist)} or {len(condlist) + 1} for {len(condlist)} conditions")

    def value(f):
        out = f(x) if callable(f) else f
        return _e.astype(as_tensor(out, fn), dtype=x.dtype)

    out = value(funclist[-1]) if len(funclist) > len(condlist) else zeros_like(x)
    out = broadcast_to(out, tuple(x.shape))
    for cond, f in reversed(list(zip(condlist, funclist))):  # the first true wins
        out = _e.where(as_tensor(cond, fn), value(f), out)
    return out


def square(x):
    """x * x, elementwise.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.square(nx.array([-3, 2])))
    int64 [2] [9, 4]
    """
    return _e.square(x)


def sqrt(x):
    """The square root, elementwise: nan for negative reals (use complex input for
    complex roots). Its derivative at 0 is inf.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.sqrt(nx.array([4.0, 2.0, -4 + 0j])))
    complex128 [3] [2+0i, 1.4142135623730951+0i, 0+2i]
    """
    return _e.sqrt(x)


def absolute(x):
    """|x|, elementwise (alias nx.abs); the modulus of a complex number.

    Derivative: sign(x) for real x (0 at 0); Re(conj(z) dz) / |z| for complex z.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.abs(nx.array([-1.5, 0.0, 3 + 4j])))
    float64 [3] [1.5, 0, 5]
    """
    return _e.absolute(x)


def sign(x):
    """-1, 0 or 1 by the sign of x; z / |z| for complex z (0 at 0).

    Real sign is piecewise constant (derivative zero); complex sign has the
    derivative of z / |z|.

    Args:
      x: a tensor, numpy array or number (real or complex).

    Raises:
      TypeError: x is not numeric, or is boolean.

    >>> from rune import nx
    >>> print(nx.sign(nx.array([-2.0, 0.0, 3.0])))
    float64 [3] [-1, 0, 1]
    """
    return _e.sign(x)


def relu(x):
    """max(x, 0), elementwise, with derivative 0 at 0 (a where, not a maximum).

    Args:
      x: a tensor, numpy array or number.

    Raises:
      TypeError: x is not numeric (None, a string).

    >>> from rune import nx
    >>> print(nx.relu(nx.array([-1.0, 0.0, 2.0])))
    float64 [3] [0, 0, 2]
    """
    return _e.where(_e.greater(x, 0), x, 0)


abs = absolute  # noqa: A001  (numpy's names)


def clip(x, min=None, max=None, *, a_min=None, a_max=None):  # noqa: A002
    """x limited to [min, max]: minimum(maximum(x, min), max).

    The derivative is 1 inside, 0 outside, and 0.5 at a bound (maximum's
    and minimum's tie rule). The bounds are named min and max as in the
    Array API standard and numpy 2's keywords, or a_min and a_max as in
    numpy's positional names; with no bound, x comes back as it is (numpy 2).

    Args:
      x: a tensor, numpy array or number.
      min, max: bounds (numbers or tensors broadcasting with x); None for no bound.
      a_min, a_max: the same bounds under numpy's names (give one name of each).

    Raises:
      TypeError: x or a bound is not numeric, or a bound given under both names.
      ValueError: shapes that do not broadcast.

    >>> from rune import nx
    >>> print(nx.clip(nx.array([-2.0, 0.5, 3.0]), 0, 1))
    float64 [3] [0, 0.5, 1]
    """
    low, high = _one_bound(min, a_min, "min"), _one_bound(max, a_max, "max")
    if low is None and high is None:
        return as_tensor(x, "nx.clip")
    if low is not None:
        x = _call("nx.clip", _e.maximum, x, low)
    if high is not None:
        x = _call("nx.clip", _e.minimum, x, high)
    return x


def _one_bound(standard, numpys, name):
    if standard is not None and numpys is not None:
        raise TypeError(f"nx.clip: {name} and a_{name} name the same bound; give one of them")
    return numpys if standard is None else standard


def heaviside(x1, x2):
    """The step function: 0 where x1 < 0, 1 where x1 > 0, x2 where x1 == 0 (nan at nan).

    Args:
      x1: real tensor, numpy array or number: where to step.
      x2: the value at 0; broadcasts with x1.

    Raises:
      TypeError: an argument is complex or not numeric.
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.heaviside(nx.array([-1.0, 0.0, 2.0]), 0.5))
    float64 [3] [0, 0.5, 1]
    """
    x1, x2 = _real(x1, "nx.heaviside"), _real(x2, "nx.heaviside")
    dtype = np.result_type(x1.dtype, x2.dtype, np.float16)

    def step(x1, x2):
        steps = _e.astype(_e.greater(x1, 0), dtype=dtype)
        at_zero = _e.where(_e.equal(x1, 0), _e.astype(x2, dtype=dtype), steps)
        return _e.where(_e.isnan(x1), _e.astype(x1, dtype=dtype), at_zero)

    return call_broadcasting("nx.heaviside", step, x1, x2)


def cbrt(x):
    """The real cube root, negative for negative x; its derivative at 0 is inf.

    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.

    >>> from rune import nx
    >>> print(nx.cbrt(nx.array([27.0, -8.0])))
    float64 [2] [3, -2]
    """
    return _e.cbrt(real_tensor(x, "nx.cbrt"))


def fabs(x):
    """|x| for real x, always as a float (numpy's fabs; complex raises, use nx.abs).

    Args:
      x: a real tensor, numpy array or number.

    Raises:
      TypeError: x is complex, or not numeric.

    >>> from rune import nx
    >>> print(nx.fabs(nx.array([-2, 3])))
    float64 [2] [2, 3]
    """
    return _e.absolute(real_tensor(x, "nx.fabs", floats=True))


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """x with nan, inf and -inf replaced by finite numbers (per part, for complex).

    The derivative passes where x is finite, and is zero at the replaced entries.

    Args:
      x: a tensor, numpy array or number.
      copy: accepted for numpy's signature; tensors are never changed in place.
      nan: the value for nan (default 0).
      posinf, neginf: the values for inf and -inf (default: the largest and
        the most negative finite number of x's dtype).

    Raises:
      TypeError: x is not numeric.

    >>> from rune import nx
    >>> print(nx.nan_to_num(nx.array([float('nan'), float('inf'), -1.5]), posinf=9.0))
    float64 [3] [0, 9, -1.5]
    """
    x = as_tensor(x, "nx.nan_to_num")
    if x.dtype.kind == "c":
        real = nan_to_num(_e.real(x), copy, nan, posinf, neginf)
        imag = nan_to_num(_e.imag(x), copy, nan, posinf, neginf)
        return _e.add(_e.astype(real, dtype=x.dtype), _e.multiply(imag, 1j))
    if x.dtype.kind != "f":
        return x
    big = float(np.finfo(x.dtype).max)
    posinf = big if posinf is None else posinf
    neginf = -big if neginf is None else neginf
    out = _e.where(_e.isnan(x), _e.astype(as_tensor(nan, "nx.nan_to_num"), dtype=x.dtype), x)
    out = _e.where(_e.equal(x, np.inf), _e.astype(as_tensor(posinf, "nx.nan_to_num"),
                                                    dtype=x.dtype), out)
    return _e.where(_e.equal(x, -np.inf), _e.astype(as_tensor(neginf, "nx.nan_to_num"),
                                                      dtype=x.dtype), out)


def real_if_close(a, tol=100):
    """The real part of a if every imaginary part is within tol machine epsilons
    of zero; a itself otherwise. The result's dtype depends on the values, so
    it reads them: under jit it raises.

    Args:
      a: a tensor, numpy array or number.
      tol: in machine epsilons of a's dtype (or an absolute tolerance if
        below 1, as numpy).

    Raises:
      TypeError: a is not numeric.
      rune.TracedValueError: under jit or vmap (the values are not known).

    >>> from rune import nx
    >>> print(nx.real_if_close(nx.array([2.1 + 4e-15j, 5.2 + 3e-16j])))
    float64 [2] [2.1, 5.2]
    """
    a = as_tensor(a, "nx.real_if_close")
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = tol * float(np.finfo(a.dtype).eps)
    close = bool(_e.logical_not(_reduce_any(_e.greater(_e.absolute(_e.imag(a)), tol))))
    return _e.real(a) if close else a


def _mode_part(full, n, m, mode, fn):
    """numpy's "same" or "valid" part of a full convolution of lengths n >= m."""
    if mode == "full":
        return full
    if mode == "same":
        return _along(full, 0, (m - 1) // 2, (m - 1) // 2 + n)
    if mode == "valid":
        return _along(full, 0, m - 1, n)
    raise ValueError(f"{fn}: mode must be 'full', 'same' or 'valid', got {mode!r}")


def convolve(a, v, mode="full"):
    """The discrete convolution of two 1-d sequences: out[i] = sum_k a[i - k] v[k].

    Bilinear: differentiable in both a and v.

    Args:
      a, v: non-empty 1-d tensors, numpy arrays or lists.
      mode: "full" (length n + m - 1), "same" (max(n, m)) or "valid"
        (max(n, m) - min(n, m) + 1).

    Raises:
      TypeError: a or v is not numeric.
      ValueError: a or v not 1-d or empty, or an unknown mode.

    >>> from rune import nx
    >>> print(nx.convolve(nx.array([1.0, 2.0, 3.0]), nx.array([0.0, 1.0, 0.5])))
    float64 [5] [0, 1, 2.5, 4, 1.5]
    """
    a, v = _vectors(a, v, "nx.convolve")
    n, m = a.shape[0], v.shape[0]
    if n < m:
        a, v, n, m = v, a, m, n  # numpy's order; convolution commutes
    return _mode_part(_c.convolve(a, v), n, m, mode, "nx.convolve")


def interp(x, xp, fp, left=None, right=None, period=None):
    """The piecewise-linear interpolant through (xp, fp), at x (numpy's interp).

    Differentiable in x, xp and fp (at a knot, the derivative in x is the
    slope of the segment to its right).

    Args:
      x: where to evaluate (a tensor or number).
      xp: the increasing knots, a 1-d tensor.
      fp: the values at the knots, a 1-d tensor of xp's length.
      left: the value below xp[0] (default fp[0]).
      right: the value above xp[-1] (default fp[-1]).
      period: None, or the period of a periodic x-coordinate (angles): xp
        need not be sorted then, and left and right are ignored.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: xp and fp not 1-d of one length, or empty, or period 0.

    >>> from rune import nx
    >>> print(nx.interp(nx.array([0.5, 1.5, 9.0]), nx.array([0.0, 1.0, 2.0]),
    ...                 nx.array([0.0, 10.0, 0.0])))
    float64 [3] [5, 5, 0]
    """
    fn = "nx.interp"
    x, xp, fp = (_float(as_tensor(v, fn)) for v in (x, xp, fp))
    if xp.ndim != 1 or fp.ndim != 1 or xp.shape != fp.shape or xp.shape[0] == 0:
        raise ValueError(f"{fn}: xp and fp must be 1-d of one nonzero length, got shapes "
                         f"{xp.shape} and {fp.shape}")
    if period is not None:
        x, xp, fp = _periodic(x, xp, fp, period, fn)
        left = right = None
    n = xp.shape[0]
    x0, f0 = (_ix.gather(v, Tensor(np.intp(0))) for v in (xp, fp))
    xn, fn_ = (_ix.gather(v, Tensor(np.intp(n - 1))) for v in (xp, fp))
    if n == 1:
        out = _e.add(_e.multiply(x, 0), f0)
    else:
        j = clip(_e.subtract(_st.searchsorted(xp, x, side="right"), 1), 0, n - 2)
        xj, fj = _ix.gather(xp, j), _ix.gather(fp, j)
        xk, fk = (_ix.gather(v, _e.add(j, 1)) for v in (xp, fp))
        slope = _e.divide(_e.subtract(fk, fj), _e.subtract(xk, xj))
        out = _e.add(_e.multiply(slope, _e.subtract(x, xj)), fj)
        out = where(_e.equal(x, xn), fn_, out)
    out = where(_e.less(x, x0), f0 if left is None else left, out)
    return where(_e.greater(x, xn), fn_ if right is None else right, out)


def _periodic(x, xp, fp, period, fn):
    """numpy's periodic interp: coordinates modulo the period, xp sorted, and
    one knot more at each end, wrapped around from the other."""
    if period == 0:
        raise ValueError(f"{fn}: period must be nonzero")
    period = builtins.abs(period)
    x, xp = _e.mod(x, period), _e.mod(xp, period)
    order = _st.argsort(xp, axis=0, descending=False)
    xp, fp = _ix.gather(xp, order), _ix.gather(fp, order)
    n = xp.shape[0]
    first, last = Tensor(np.array([0])), Tensor(np.array([n - 1]))
    xp = concatenate([_e.subtract(_ix.gather(xp, last), period), xp,
                      _e.add(_ix.gather(xp, first), period)])
    fp = concatenate([_ix.gather(fp, last), fp, _ix.gather(fp, first)])
    return x, xp, fp
