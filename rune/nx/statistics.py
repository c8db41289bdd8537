"""Statistics, differences and fitting: quantile, cov, histogram, interp, polyfit...

Compositions of the other families, so derivatives come with them:
quantiles pass the derivative of the two order statistics they lie
between (weighted as the interpolation weighs them), `interp` is
differentiable in x, xp and fp, `polyfit` in x, y and w. `histogram`'s
counts do not move with the data (its weighted sums are linear in the
weights); `count_nonzero` is an integer.
"""

from __future__ import annotations

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import indexing as _ix
from ..primitives import reduce as _r
from ..primitives import shape as _s
from ..primitives import sorting as _st
from . import linalg as _linalg
from .comparisons import clip, where
from .creation import as_tensor
from .math import sqrt
from .products import matmul
from .reductions import max as _max, mean, min as _min, normalize_axes, normalize_axis, sum as _sum
from .shapes import concatenate, reshape, swapaxes
from .tensor import Tensor, TracedValueError

__all__ = [
    "quantile", "percentile", "median", "ptp", "cov", "corrcoef", "count_nonzero", "diff",
    "ediff1d", "trapezoid", "histogram", "interp", "polyval", "polyfit",
]

_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def _float(x):
    return x if x.dtype.kind in "fc" else _e.astype(x, dtype=np.dtype(np.float64))


def _to_front(a, axis, fn):
    """a with the axes `axis` (None: all) merged into one first axis; and the
    shape keepdims gives the result (per quantile)."""
    axes = normalize_axes(axis, a.ndim, fn)
    others = tuple(i for i in range(a.ndim) if i not in axes)
    kept = tuple(1 if i in axes else n for i, n in enumerate(a.shape))
    moved = _s.transpose(a, axes=axes + others) if axes + others != tuple(range(a.ndim)) else a
    n = int(np.prod([a.shape[i] for i in axes], dtype=np.int64))
    return _s.reshape(moved, shape=(n,) + tuple(a.shape[i] for i in others)), kept


def quantile(a, q, axis=None, method="linear", keepdims=False):
    """The q-th quantiles of a along `axis`, as numpy's (default method "linear").

    The result's shape is q's shape followed by the axes not reduced. The
    derivative flows to the two order statistics a quantile lies between
    (and, for "linear" and "midpoint", to q).

    Args:
      a: a tensor (or numpy array, nested lists).
      q: a number or tensor of probabilities in [0, 1].
      axis: None (all axes), an int or a tuple of ints.
      method: "linear" (interpolate), "lower", "higher", "midpoint" or "nearest".
      keepdims: keep the reduced axes with size 1.

    Raises:
      TypeError: a or q is not numeric, or an axis is not an int.
      ValueError: q outside [0, 1], an unknown method, an axis out of range,
        or no elements along the axes.

    >>> from rune import nx
    >>> print(nx.quantile(nx.array([1.0, 2.0, 3.0, 4.0]), nx.array([0.5, 0.9])))
    float64 [2] [2.5, 3.7]
    """
    return _quantile(a, q, axis, method, keepdims, "nx.quantile")


def percentile(a, q, axis=None, method="linear", keepdims=False):
    """The q-th percentiles of a along `axis` (`quantile` of q / 100).

    Args:
      a: a tensor (or numpy array, nested lists).
      q: a number or tensor of percentages in [0, 100].
      axis: None (all axes), an int or a tuple of ints.
      method: "linear", "lower", "higher", "midpoint" or "nearest".
      keepdims: keep the reduced axes with size 1.

    Raises:
      TypeError: a or q is not numeric, or an axis is not an int.
      ValueError: q outside [0, 100], an unknown method, an axis out of range.

    >>> from rune import nx
    >>> print(nx.percentile(nx.array([[1.0, 5.0], [3.0, 7.0]]), 50, axis=0))
    float64 [2] [2, 6]
    """
    q = as_tensor(q, "nx.percentile")
    return _quantile(a, _e.divide(q, 100), axis, method, keepdims, "nx.percentile", 100)


def median(a, axis=None, keepdims=False):
    """The median of a along `axis` (the mean of the two middle values for an even count).

    Args:
      a: a tensor (or numpy array, nested lists).
      axis: None (all axes), an int or a tuple of ints.
      keepdims: keep the reduced axes with size 1.

    Raises:
      TypeError: a is not numeric, or an axis is not an int.
      ValueError: an axis out of range, or no elements.

    >>> from rune import nx
    >>> print(nx.median(nx.array([3.0, 1.0, 4.0, 1.0])))
    float64 [] 2
    """
    return _quantile(a, 0.5, axis, "midpoint", keepdims, "nx.median")


def _quantile(a, q, axis, method, keepdims, fn, scale=1):
    a = _float(as_tensor(a, fn))
    q = _float(as_tensor(q, fn))
    if method not in _METHODS:
        raise ValueError(f"{fn}: unknown method {method!r}; expected one of {_METHODS}")
    known = _known(q)
    if known is not None and np.any((known < 0) | (known > 1)):
        raise ValueError(f"{fn}: q must be in [0, {scale}], got {known * scale}")
    flat, kept = _to_front(a, axis, fn)
    n = flat.shape[0]
    if n == 0:
        raise ValueError(f"{fn}: there are no elements to take a quantile of")
    ordered = _st.sort(flat, axis=0)
    position = _e.multiply(q, n - 1)
    low = _e.astype(_e.floor(position), dtype=np.dtype(np.intp))
    high = _e.minimum(_e.add(low, 1), n - 1)
    rest = (1,) * (len(ordered.shape) - 1)
    frac = _s.reshape(_e.subtract(position, _e.floor(position)), shape=tuple(q.shape) + rest)
    below, above = _ix.gather(ordered, low), _ix.gather(ordered, high)
    if method == "lower":
        out = below
    elif method == "higher":
        out = _ix.gather(ordered, _e.astype(_e.ceil(position), dtype=np.dtype(np.intp)))
    elif method == "nearest":
        out = _ix.gather(ordered, _e.astype(_e.round_(position, decimals=0),
                                            dtype=np.dtype(np.intp)))
    elif method == "midpoint":
        out = where(_e.equal(frac, 0), below, _e.multiply(_e.add(below, above), 0.5))
    else:  # numpy's lerp, exact at both ends
        step = _e.subtract(above, below)
        out = where(_e.less(frac, 0.5), _e.add(below, _e.multiply(step, frac)),
                    _e.subtract(above, _e.multiply(step, _e.subtract(1, frac))))
    if keepdims:
        out = _s.reshape(out, shape=tuple(q.shape) + kept)
    return out


def _known(t):
    try:
        return np.asarray(t._concrete("a check of the values", lossless=True))
    except TracedValueError:
        return None


def ptp(a, axis=None, keepdims=False):
    """The range of a along `axis`: max - min ("peak to peak").

    Args:
      a: a tensor (or numpy array, nested lists).
      axis: None (all axes), an int or a tuple of ints.
      keepdims: keep the reduced axes with size 1.

    Raises:
      TypeError: a is not numeric, or an axis is not an int.
      ValueError: an axis out of range, or no elements.

    >>> from rune import nx
    >>> print(nx.ptp(nx.array([[1.0, 5.0], [3.0, 2.0]]), axis=1))
    float64 [2] [4, 1]
    """
    return _e.subtract(_max(a, axis=axis, keepdims=keepdims), _min(a, axis=axis,
                                                                    keepdims=keepdims))


def _variables(m, y, rowvar, fn):
    """The observations as a 2-d tensor, one row per variable."""
    m = _float(as_tensor(m, fn))
    if m.ndim > 2:
        raise ValueError(f"{fn}: m has more than 2 axes (shape {m.shape})")
    rows = _s.reshape(m, shape=(1, m.size)) if m.ndim < 2 else (m if rowvar else m.T)
    if y is not None:
        y = _float(as_tensor(y, fn))
        y_rows = _s.reshape(y, shape=(1, y.size)) if y.ndim < 2 else (y if rowvar else y.T)
        rows = concatenate([rows, y_rows], axis=0)
    return rows


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None):
    """The covariance matrix of the variables in m (and y), as numpy's cov.

    Args:
      m: a 1-d or 2-d tensor: each row a variable, each column an
        observation (the other way round when rowvar is False).
      y: more variables, in m's layout, or None.
      rowvar: whether rows (True) or columns (False) are the variables.
      bias: normalize by N instead of N - 1.
      ddof: overrides bias: normalize by N - ddof.
      fweights: integer frequency weights of the observations, or None.
      aweights: observation weights (importance), or None.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: m with more than 2 axes, or weights of the wrong length.

    >>> from rune import nx
    >>> print(nx.cov(nx.array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])))
    float64 [2, 2]
    [[ 1, -1],
     [-1,  1]]
    """
    fn = "nx.cov"
    x = _variables(m, y, rowvar, fn)
    n = x.shape[1]
    ddof = (0 if bias else 1) if ddof is None else ddof
    w = None
    for weights, name in ((fweights, "fweights"), (aweights, "aweights")):
        if weights is not None:
            weights = _float(as_tensor(weights, fn))
            if weights.shape != (n,):
                raise ValueError(f"{fn}: {name} must have shape ({n},), got {weights.shape}")
            w = weights if w is None else _e.multiply(w, weights)
    if w is None:
        centered = _e.subtract(x, mean(x, axis=1, keepdims=True))
        factor = n - ddof
        weighted = centered
    else:
        total = _sum(w)
        centered = _e.subtract(x, _e.divide(_sum(_e.multiply(x, w), axis=1, keepdims=True),
                                            total))
        factor = total - ddof if aweights is None else _e.subtract(
            total, _e.divide(_e.multiply(ddof, _sum(_e.multiply(w, as_tensor(aweights, fn)))),
                             total))
        weighted = _e.multiply(centered, w)
    conj = _e.conj(centered) if centered.dtype.kind == "c" else centered
    c = _e.divide(matmul(weighted, conj.T), factor)
    return _s.reshape(c, shape=()) if c.shape == (1, 1) else c


def corrcoef(x, y=None, rowvar=True):
    """The Pearson correlation coefficients of the variables in x (and y).

    Args:
      x: a 1-d or 2-d tensor of variables (rows) and observations (columns).
      y: more variables, in x's layout, or None.
      rowvar: whether rows (True) or columns (False) are the variables.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: x with more than 2 axes.

    >>> from rune import nx
    >>> print(nx.corrcoef(nx.array([1.0, 2.0, 3.0]), nx.array([3.0, 1.0, -1.0])))
    float64 [2, 2]
    [[ 1, -1],
     [-1,  1]]
    """
    c = cov(x, y, rowvar)
    if c.ndim == 0:
        return _e.divide(c, c)
    d = sqrt(_e.real(_ix.gather(c, Tensor(np.arange(c.shape[0])), Tensor(np.arange(c.shape[0])))))
    r = _e.divide(_e.divide(c, _s.reshape(d, shape=(d.shape[0], 1))), d)
    return clip(r, -1, 1) if r.dtype.kind != "c" else r


def count_nonzero(a, axis=None, keepdims=False):
    """The number of nonzero elements of a along `axis` (an integer tensor).

    Args:
      a: a tensor (or numpy array, nested lists).
      axis: None (all axes), an int or a tuple of ints.
      keepdims: keep the reduced axes with size 1.

    Raises:
      TypeError: a is not numeric, or an axis is not an int.
      ValueError: an axis out of range.

    >>> from rune import nx
    >>> print(nx.count_nonzero(nx.array([[0, 1], [2, 3]]), axis=0))
    int64 [2] [1, 2]
    """
    a = as_tensor(a, "nx.count_nonzero")
    axes = normalize_axes(axis, a.ndim, "nx.count_nonzero")
    return _r.sum(_e.astype(_e.not_equal(a, 0), dtype=np.dtype(np.intp)), axis=axes,
                  keepdims=keepdims)


def _sliced(a, axis, start, stop):
    return _ix.slice_(a, index=_ix.full_index(a.shape[:axis]) + ((start, stop, 1),))


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The n-th differences along `axis`: a[1:] - a[:-1], n times.

    Args:
      a: a tensor with at least one axis (or numpy array, nested lists).
      n: how many times to difference (an int >= 0).
      axis: an int.
      prepend, append: values put before / after a along axis first
        (numbers broadcast to one slice), or None.

    Raises:
      TypeError: a is not numeric, or n or axis is not an int.
      ValueError: n negative, a 0-d, or axis out of range.

    >>> from rune import nx
    >>> print(nx.diff(nx.array([1.0, 4.0, 9.0, 16.0])), nx.diff(nx.array([1, 4, 9, 16]), n=2))
    float64 [3] [3, 5, 7] int64 [2] [2, 2]
    """
    fn = "nx.diff"
    a = as_tensor(a, fn)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"{fn}: n must be a non-negative int, got {n!r}")
    if a.ndim == 0:
        raise ValueError(f"{fn}: a must have at least one axis")
    axis = normalize_axis(axis, a.ndim, fn)
    parts = []
    for extra in (prepend, a, append):
        if extra is None:
            continue
        extra = as_tensor(extra, fn)
        if extra.ndim == 0:
            shape = tuple(a.shape[:axis]) + (1,) + tuple(a.shape[axis + 1:])
            extra = _s.broadcast_to(_s.reshape(extra, shape=(1,) * a.ndim), shape=shape)
        parts.append(extra)
    if len(parts) > 1:
        a = concatenate(parts, axis=axis)
    for _ in range(n):
        m = a.shape[axis]
        if m == 0:
            break
        a = _e.subtract(_sliced(a, axis, 1, m), _sliced(a, axis, 0, m - 1))
    return a


def ediff1d(ary, to_end=None, to_begin=None):
    """The differences between consecutive elements of the flattened ary, with
    optional values before and after.

    Args:
      ary: a tensor (or numpy array, nested lists); it is flattened.
      to_end: values appended after the differences (flattened), or None.
      to_begin: values put before the differences (flattened), or None.

    Raises:
      TypeError: an argument is not numeric.

    >>> from rune import nx
    >>> print(nx.ediff1d(nx.array([1.0, 2.0, 4.0]), to_begin=-9.0))
    float64 [3] [-9, 1, 2]
    """
    fn = "nx.ediff1d"
    a = as_tensor(ary, fn)
    a = reshape(a, (a.size,))
    parts = [diff(a) if a.size else a]
    for extra, first in ((to_begin, True), (to_end, False)):
        if extra is not None:
            extra = as_tensor(extra, fn)
            extra = _e.astype(reshape(extra, (extra.size,)), dtype=a.dtype)
            parts.insert(0, extra) if first else parts.append(extra)
    return concatenate(parts) if len(parts) > 1 else parts[0]


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of y along `axis` by the trapezoidal rule.

    Args:
      y: a tensor of values (or numpy array, nested lists).
      x: the sample points (1-d along axis, or y's shape), or None for
        points `dx` apart.
      dx: the spacing when x is None.
      axis: the axis to integrate along.

    Raises:
      TypeError: an argument is not numeric, or axis is not an int.
      ValueError: axis out of range, or x of a shape that does not fit y.

    >>> from rune import nx
    >>> print(nx.trapezoid(nx.array([1.0, 2.0, 3.0]), dx=0.5))
    float64 [] 2
    """
    fn = "nx.trapezoid"
    y = as_tensor(y, fn)
    axis = normalize_axis(axis, y.ndim, fn)
    if x is None:
        d = dx
    else:
        x = as_tensor(x, fn)
        d = diff(x, axis=-1 if x.ndim == 1 else axis)
        if x.ndim == 1:
            d = _s.reshape(d, shape=(d.shape[0],) + (1,) * (y.ndim - 1 - axis))
    m = y.shape[axis]
    pairs = _e.add(_sliced(y, axis, 1, m), _sliced(y, axis, 0, m - 1)) if m else y
    return _sum(_e.divide(_e.multiply(d, pairs), 2.0), axis=axis)


def histogram(a, bins=10, range=None, density=False, weights=None):  # noqa: A002
    """Counts of a's elements (flattened) in bins, and the bins' edges.

    Each bin includes its left edge; the last includes its right edge too;
    elements outside the edges are not counted. The counts do not move with
    a (no derivative); with weights, each bin sums its elements' weights,
    which is linear (differentiable) in the weights.

    Args:
      a: a tensor of data (or numpy array, nested lists).
      bins: the number of equal bins (an int), or the increasing edges.
      range: (low, high) for equal bins, or None for a's min and max (which
        need a's values: give range under jit and vmap).
      density: divide by the total and the bin widths (a density, integrating to 1).
      weights: a tensor of a's shape, or None (each element counts 1).

    Raises:
      TypeError: a, bins or weights not numeric.
      ValueError: bins not positive or not increasing, range reversed, or
        weights of another shape.
      rune.TracedValueError: bins an int and range None under jit or vmap.

    >>> from rune import nx
    >>> counts, edges = nx.histogram(nx.array([1.0, 2.0, 2.0, 4.0]), bins=3)
    >>> print(counts, edges)
    int64 [3] [1, 2, 1] float64 [4] [1, 2, 3, 4]
    """
    fn = "nx.histogram"
    a = as_tensor(a, fn)
    a = _s.reshape(a, shape=(a.size,))
    edges = _edges(a, bins, range, fn)
    n = edges.shape[0] - 1
    place = _e.subtract(_st.searchsorted(edges, a, side="right"), 1)
    last = _ix.gather(edges, Tensor(np.intp(n)))
    place = where(_e.equal(a, last), n - 1, place)  # the last bin includes its right edge
    inside = _e.logical_and(_e.greater_equal(place, 0), _e.less(place, n))
    if weights is None:
        counts = _e.astype(inside, dtype=np.dtype(np.intp))
    else:
        weights = as_tensor(weights, fn)
        if weights.size != a.size:
            raise ValueError(f"{fn}: weights must have a's shape, got {weights.shape}")
        weights = _s.reshape(weights, shape=(a.size,))
        counts = where(inside, weights, _e.astype(0, dtype=weights.dtype))
    hist = _ix.scatter_add(counts, where(inside, place, 0), shape=(n,))
    if density:
        widths = diff(edges)
        hist = _e.divide(_e.divide(_float(hist), _sum(hist)), widths)
    return hist, edges


def _edges(a, bins, range_, fn):
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
        if bins < 1:
            raise ValueError(f"{fn}: bins must be a positive int, got {bins}")
        if range_ is None:
            values = _known(a)
            if values is None:
                raise TracedValueError(f"{fn}: the edges of bins={bins} come from a's min and "
                                       f"max, which are traced; give range=(low, high)")
            range_ = (values.min(), values.max()) if values.size else (0.0, 1.0)
        low, high = (float(r) for r in range_)
        if low > high:
            raise ValueError(f"{fn}: range must be (low, high) with low <= high, got {range_}")
        if low == high:
            low, high = low - 0.5, high + 0.5
        dtype = np.result_type(a.dtype, np.float64) if a.dtype.kind != "f" else a.dtype
        return Tensor(np.linspace(low, high, int(bins) + 1, dtype=dtype))
    edges = as_tensor(bins, fn)
    known = _known(edges)
    if edges.ndim != 1 or (known is not None and np.any(np.diff(known) < 0)):
        raise ValueError(f"{fn}: bins must be an int or a 1-d tensor of increasing edges")
    return edges


def interp(x, xp, fp, left=None, right=None):
    """The piecewise-linear interpolant through (xp, fp), at x (numpy's interp).

    Differentiable in x, xp and fp (at a knot, the derivative in x is the
    slope of the segment to its right).

    Args:
      x: where to evaluate (a tensor or number).
      xp: the increasing knots, a 1-d tensor.
      fp: the values at the knots, a 1-d tensor of xp's length.
      left: the value below xp[0] (default fp[0]).
      right: the value above xp[-1] (default fp[-1]).

    Raises:
      TypeError: an argument is not numeric.
      ValueError: xp and fp not 1-d of one length, or empty.

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


def polyval(p, x):
    """The polynomial with coefficients p (highest power first) at x, by Horner's rule.

    Args:
      p: a 1-d tensor of coefficients (or a sequence of numbers).
      x: a tensor or number.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: p is not 1-d.

    >>> from rune import nx
    >>> print(nx.polyval(nx.array([1.0, 0.0, -2.0]), nx.array([0.0, 2.0])))
    float64 [2] [-2, 2]
    """
    fn = "nx.polyval"
    p, x = as_tensor(p, fn), as_tensor(x, fn)
    if p.ndim != 1:
        raise ValueError(f"{fn}: p must be 1-d, got shape {p.shape}")
    out = _e.multiply(x, 0)
    for i in np.arange(p.shape[0]):
        out = _e.add(_e.multiply(out, x), _ix.gather(p, Tensor(np.intp(i))))
    return out


def polyfit(x, y, deg, w=None):
    """The least-squares polynomial of degree `deg` through (x, y): coefficients,
    highest power first (numpy's polyfit without its diagnostics).

    Solved by the normal equations of the column-scaled Vandermonde matrix:
    as accurate as numpy's for low degrees; prefer degrees below ~10.

    Args:
      x: the sample points, a 1-d tensor.
      y: the values, 1-d (x's length) or 2-d (one column per data set).
      deg: the degree (an int >= 0).
      w: weights of the points (multiplying the residuals), or None.

    Raises:
      TypeError: an argument is not numeric, or deg is not an int.
      ValueError: x not 1-d, y of another length, deg negative.

    >>> from rune import nx
    >>> print(nx.round(nx.polyfit(nx.array([0.0, 1.0, 2.0]), nx.array([1.0, 3.0, 5.0]), 1), 12))
    float64 [2] [2, 1]
    """
    fn = "nx.polyfit"
    x, y = _float(as_tensor(x, fn)), _float(as_tensor(y, fn))
    if isinstance(deg, bool) or not isinstance(deg, (int, np.integer)) or deg < 0:
        raise ValueError(f"{fn}: deg must be a non-negative int, got {deg!r}")
    if x.ndim != 1 or y.ndim not in (1, 2) or y.shape[0] != x.shape[0]:
        raise ValueError(f"{fn}: expected a 1-d x and a y with x's length first, got shapes "
                         f"{x.shape} and {y.shape}")
    column = _s.reshape(x, shape=(x.shape[0], 1))
    powers = [_e.add(_e.multiply(column, 0), 1)]  # by products: x**0 has no derivative at 0
    for _ in range(deg):
        powers.insert(0, _e.multiply(powers[0], column))
    lhs = concatenate(powers, axis=1)  # the Vandermonde matrix
    rhs = y
    if w is not None:
        w = _float(as_tensor(w, fn))
        lhs = _e.multiply(lhs, _s.reshape(w, shape=(w.shape[0], 1)))
        rhs = _e.multiply(rhs, w if y.ndim == 1 else _s.reshape(w, shape=(w.shape[0], 1)))
    scale = sqrt(_sum(_e.multiply(lhs, lhs), axis=0))
    scale = where(_e.equal(scale, 0), 1.0, scale)
    lhs = _e.divide(lhs, scale)
    gram = matmul(swapaxes(lhs, 0, 1), lhs)
    coefficients = _linalg.solve(gram, matmul(swapaxes(lhs, 0, 1), rhs))
    return _e.divide(coefficients, scale if y.ndim == 1 else _s.reshape(scale, shape=(
        scale.shape[0], 1)))
