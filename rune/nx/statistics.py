"""Statistics: order statistics, averages and variances, correlating, histograms.

numpy's "Statistics": `ptp`, `quantile`, `percentile`, `median`, `average`,
`mean`, `std`, `var` and their nan-ignoring forms, `cov`, `corrcoef`,
`correlate`, `histogram`, `bincount`, `digitize`.

Compositions of the other families, so derivatives come with them:
quantiles pass the derivative of the two order statistics they lie
between (weighted as the interpolation weighs them), `cov` and `corrcoef`
are differentiable in the data and the weights. `histogram`'s counts do not
move with the data (its weighted sums are linear in the weights), its equal
bins' edges do (they are linspace(min, max), or of a range of tensors), and
so does a density through the bins' widths.


Compositions of the reduction and elementwise primitives. The nan-ignoring
ones replace nan by a neutral value with `where`, so the derivative at a nan
entry is zero, and elsewhere is that of the plain reduction. A slice with no
numbers gives nan as numpy does (0 for nansum), without numpy's warning.
"""

from __future__ import annotations

import builtins

import numpy as np

from ..primitives import convolution as _c
from ..primitives import elementwise as _e
from ..primitives import indexing as _ix
from ..primitives import reduce as _r
from ..primitives import shape as _s
from ..primitives import sorting as _st
from .creation import as_tensor
from .indexing import where
from .linalg.products import matmul
from .manipulation.joining import concatenate
from .math.extrema import max as _max, min as _min
from .math.miscellaneous import _mode_part, clip, sqrt
from .math.sums_products_differences import _count, _vectors, _without_nan, sum as _sum
from .sorting import _known as _known_or_none
from .tensor import normalize_axes, Tensor, TracedValueError

__all__ = [
    "mean", "var", "std", "average", "nanmean", "nanvar", "nanstd", "correlate", "digitize",
    "quantile", "percentile", "median", "ptp", "cov", "corrcoef", "bincount", "histogram",
]


def mean(x, axis=None, keepdims=False):
    """The mean of the elements over `axis` (integers give float64).

    The mean over no elements is nan.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None (all axes), an int or a tuple of ints; negative counts from the end.
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.mean(nx.array([[1.0, 2.0], [3.0, 5.0]]), axis=-1))
    float64 [2] [1.5, 4]
    """
    x = as_tensor(x, "nx.mean", result_is_new=True)
    axes = normalize_axes(axis, len(x.shape), "nx.mean")
    return _e.divide(_r.sum(x, axis=axes, keepdims=keepdims), float(_count(x.shape, axes)))


def var(x, axis=None, keepdims=False, ddof=0, *, correction=None):
    """The variance over `axis`: the mean of |x - mean(x)|^2.

    Complex tensors give a real variance.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None (all axes), an int or a tuple of ints; negative counts from the end.
      keepdims: keep the reduced axes, with size 1.
      ddof: "delta degrees of freedom": divide by N - ddof rather than N
        (ddof=1 gives the unbiased estimate).
      correction: the Array API standard's name for ddof (give one or the other).

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated; ddof and correction both given.

    >>> from rune import nx
    >>> print(nx.var(nx.array([1.0, 2.0, 3.0, 4.0])), nx.var(nx.array([1.0, 3.0]), ddof=1))
    float64 [] 1.25 float64 [] 2
    """
    return _var(x, axis, keepdims, _ddof(ddof, correction, "nx.var"), "nx.var")


def _ddof(ddof, correction, fn):
    """The one delta of degrees of freedom that numpy's ddof or the standard's correction gives."""
    if correction is None:
        return ddof
    if ddof != 0:
        raise ValueError(f"{fn}: give ddof or correction (the same thing), not both; got "
                         f"ddof={ddof!r} and correction={correction!r}")
    return correction


def _var(x, axis, keepdims, ddof, fn):
    x = as_tensor(x, fn, result_is_new=True)
    axes = normalize_axes(axis, len(x.shape), fn)
    centered = _e.subtract(x, mean(x, axis=axes, keepdims=True))
    if centered.dtype.kind == "c":
        squares = _e.real(_e.multiply(centered, _e.conj(centered)))
    else:
        squares = _e.multiply(centered, centered)
    total = _r.sum(squares, axis=axes, keepdims=keepdims)
    return _e.divide(total, float(builtins.max(_count(x.shape, axes) - ddof, 0)))


def std(x, axis=None, keepdims=False, ddof=0, *, correction=None):
    """The standard deviation over `axis`: the square root of `nx.var`.

    Where the variance is zero (all elements equal) its derivative is NaN,
    as in JAX: sqrt's slope at 0 is infinite and the variance's is zero, and
    inf * 0 is NaN (see the Kinks and NaNs page). To get a finite one there,
    take nx.sqrt(nx.var(x) + eps) or use the double-where trick.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None (all axes), an int or a tuple of ints; negative counts from the end.
      keepdims: keep the reduced axes, with size 1.
      ddof: "delta degrees of freedom": divide by N - ddof rather than N
        (ddof=1 gives the unbiased estimate).
      correction: the Array API standard's name for ddof (give one or the other).

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.std(nx.array([[1.0, 3.0], [2.0, 2.0]]), axis=1))
    float64 [2] [1, 0]
    """
    return _e.sqrt(_var(x, axis, keepdims, _ddof(ddof, correction, "nx.std"), "nx.std"))


def average(a, axis=None, weights=None, returned=False, keepdims=False):
    """The weighted mean over `axis`: sum(a * w) / sum(w); the mean without weights.

    Differentiable in a and in the weights.

    Args:
      a: a tensor, numpy array or nested list.
      axis: None (all axes), an int or a tuple of ints.
      weights: None, a tensor of a's shape, or a 1-d tensor along `axis` (one int).
      returned: also return the sum of the weights (broadcast to the result's shape).
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: a or weights is not numeric.
      ValueError: weights of a shape that fits neither a nor the axis.

    >>> from rune import nx
    >>> print(nx.average(nx.array([1.0, 2.0, 4.0]), weights=nx.array([3.0, 1.0, 0.0])))
    float64 [] 1.25
    """
    a = as_tensor(a, "nx.average")
    axes = normalize_axes(axis, a.ndim, "nx.average")
    if weights is None:
        total = _r.sum(a, axis=axes, keepdims=keepdims)
        count = float(np.prod([a.shape[i] for i in axes]))
        out = _e.divide(total, count)
        return (out, _s.broadcast_to(_e.astype(as_tensor(count, "nx.average"), dtype=out.dtype),
                                     shape=out.shape)) if returned else out
    w = as_tensor(weights, "nx.average")
    if w.shape != a.shape:
        if w.ndim != 1 or len(axes) != 1 or w.shape[0] != a.shape[axes[0]]:
            raise ValueError(f"nx.average: weights of shape {w.shape} fit neither a's shape "
                             f"{a.shape} nor its axis {axis!r} (a 1-d weights needs one axis "
                             f"of its length)")
        shape = [1] * a.ndim
        shape[axes[0]] = w.shape[0]
        w = _s.reshape(w, shape=tuple(shape))
    total_weight = _r.sum(_s.broadcast_to(w, shape=np.broadcast_shapes(w.shape, a.shape)),
                          axis=axes, keepdims=keepdims)
    out = _e.divide(_r.sum(_e.multiply(a, w), axis=axes, keepdims=keepdims), total_weight)
    if returned:
        return out, _s.broadcast_to(_e.astype(total_weight, dtype=out.dtype), shape=out.shape)
    return out


def _nan_count(numbers, x, axes, keepdims, dtype):
    """How many numbers (not nan) each reduction sees, as a float of `dtype`
    (the result's: a float64 count would widen float32 results)."""
    if numbers is None:
        return float(np.prod([x.shape[i] for i in axes]))
    return _r.sum(_e.astype(numbers, dtype=dtype), axis=axes, keepdims=keepdims)


def nanmean(a, axis=None, keepdims=False):
    """The mean over `axis` of the entries that are not nan (nan if there are none).

    Args:
      a: a tensor, numpy array or nested list.
      axis: None (all axes), an int or a tuple of ints.
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: a is not numeric.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.nanmean(nx.array([1.0, float("nan"), 2.5])))
    float64 [] 1.75
    """
    x, numbers = _without_nan(a, "nx.nanmean", 0)
    axes = normalize_axes(axis, x.ndim, "nx.nanmean")
    total = _r.sum(x, axis=axes, keepdims=keepdims)
    if total.dtype.kind not in "fc":
        total = _e.astype(total, dtype=np.dtype(np.float64))
    with np.errstate(invalid="ignore", divide="ignore"):
        return _e.divide(total, _nan_count(numbers, x, axes, keepdims, total.real.dtype))


def nanvar(a, axis=None, keepdims=False, ddof=0):
    """The variance over `axis` of the entries that are not nan, divided by count - ddof.

    Args:
      a: a tensor, numpy array or nested list.
      axis: None (all axes), an int or a tuple of ints.
      keepdims: keep the reduced axes, with size 1.
      ddof: subtracted from the count of numbers in the divisor.

    Raises:
      TypeError: a is not numeric.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.nanvar(nx.array([1.0, float("nan"), 3.0])))
    float64 [] 1
    """
    x, numbers = _without_nan(a, "nx.nanvar", 0)
    axes = normalize_axes(axis, x.ndim, "nx.nanvar")
    mean = nanmean(x if numbers is None else _e.where(numbers, x, np.nan), axes, keepdims=True)
    deviation = _e.subtract(x, mean)
    if deviation.dtype.kind == "c":
        squared = _e.real(_e.multiply(deviation, _e.conj(deviation)))
    else:
        squared = _e.multiply(deviation, deviation)
    if numbers is not None:
        squared = _e.where(numbers, squared, 0)
    count = _nan_count(numbers, x, axes, keepdims, squared.dtype)
    with np.errstate(invalid="ignore", divide="ignore"):
        return _e.divide(_r.sum(squared, axis=axes, keepdims=keepdims),
                         _e.maximum(_e.subtract(count, ddof), 0))


def nanstd(a, axis=None, keepdims=False, ddof=0):
    """The standard deviation over `axis` of the entries that are not nan.

    Args:
      a: a tensor, numpy array or nested list.
      axis: None (all axes), an int or a tuple of ints.
      keepdims: keep the reduced axes, with size 1.
      ddof: subtracted from the count of numbers in the divisor.

    Raises:
      TypeError: a is not numeric.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.nanstd(nx.array([1.0, float("nan"), 3.0])))
    float64 [] 1
    """
    return _e.sqrt(nanvar(a, axis, keepdims, ddof))


def correlate(a, v, mode="valid"):
    """The cross-correlation of two 1-d sequences: out[k] = sum_n a[n + k] conj(v[n]).

    Bilinear in a and conj(v): differentiable in both.

    Args:
      a, v: non-empty 1-d tensors, numpy arrays or lists.
      mode: "valid" (default), "same" or "full", as for convolve.

    Raises:
      TypeError: a or v is not numeric.
      ValueError: a or v not 1-d or empty, or an unknown mode.

    >>> from rune import nx
    >>> print(nx.correlate(nx.array([1.0, 2.0, 3.0]), nx.array([0.0, 1.0, 0.5])))
    float64 [1] [3.5]
    """
    a, v = _vectors(a, v, "nx.correlate")
    n, m = a.shape[0], v.shape[0]
    if n < m:  # numpy: the correlation of v and a, reversed and conjugated
        swapped = correlate(v, a, mode)
        swapped = _ix.slice_(swapped, index=((swapped.shape[0] - 1, None, -1),))
        return _e.conj(swapped) if swapped.dtype.kind == "c" else swapped
    reversed_v = _ix.slice_(v, index=((m - 1, None, -1),))
    kernel = _e.conj(reversed_v) if v.dtype.kind == "c" else reversed_v
    return _mode_part(_c.convolve(a, kernel), n, m, mode, "nx.correlate")


def digitize(x, bins, right=False):
    """The index of the bin each element of x falls in (numpy's digitize).

    For increasing bins, i such that bins[i-1] <= x < bins[i] (with right,
    bins[i-1] < x <= bins[i]); 0 below the first edge, len(bins) above the
    last. Decreasing bins count from the other end, as numpy's.

    Args:
      x: a tensor (or numpy array, number, nested lists).
      bins: a 1-d tensor of edges, increasing or decreasing (traced bins are
        taken as increasing).
      right: which side of a bin includes its edge.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: bins not 1-d, or neither increasing nor decreasing.

    >>> from rune import nx
    >>> print(nx.digitize(nx.array([0.5, 1.0, 2.5]), nx.array([1.0, 2.0, 3.0])))
    int64 [3] [0, 1, 2]
    """
    fn = "nx.digitize"
    x, bins = as_tensor(x, fn), as_tensor(bins, fn)
    if bins.ndim != 1:
        raise ValueError(f"{fn}: bins must be 1-d, got shape {bins.shape}")
    edges = _known_or_none(bins, fn, "the order of bins")
    side = "left" if right else "right"
    if edges is None or edges.size < 2 or np.all(np.diff(edges) >= 0):
        return _st.searchsorted(bins, x, side=side)
    if not np.all(np.diff(edges) <= 0):
        raise ValueError(f"{fn}: bins must be increasing or decreasing, got {edges}")
    flipped = _ix.slice_(bins, index=((bins.shape[0] - 1, None, -1),))
    return _e.subtract(bins.shape[0], _st.searchsorted(flipped, x, side=side))


_METHODS = ("linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf",
            "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
            "weibull", "median_unbiased", "normal_unbiased")


def _float(x):
    return x if x.dtype.kind in "fc" else _e.astype(x, dtype=np.dtype(np.float64))


def _python_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


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
      method: "linear" (interpolate, the default), "lower", "higher",
        "midpoint", "nearest", or one of Hyndman and Fan's: "inverted_cdf",
        "averaged_inverted_cdf", "closest_observation",
        "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
        "normal_unbiased".
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
      method: "linear" (the default) or another of quantile's methods.
      keepdims: keep the reduced axes with size 1.

    Raises:
      TypeError: a or q is not numeric, or an axis is not an int.
      ValueError: q outside [0, 100], an unknown method, an axis out of range.

    >>> from rune import nx
    >>> print(nx.percentile(nx.array([[1.0, 5.0], [3.0, 7.0]]), 50, axis=0))
    float64 [2] [2, 6]
    """
    q = q / 100 if _python_number(q) else _e.divide(as_tensor(q, "nx.percentile"), 100)
    return _quantile(a, q, axis, method, keepdims, "nx.percentile", 100)


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
    weak = _python_number(q)  # a Python q leaves a's precision (float32 in, float32 out)
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
    low, high, weight = _places(method, q, n)  # the places in q's precision, as numpy
    if weak and weight is not None:
        weight = _e.astype(weight, dtype=a.dtype)
    ordered = _order_statistics(flat, low, high)
    below, above = _ix.gather(ordered, low), _ix.gather(ordered, high)
    if weight is None:
        out = below
    else:  # numpy's lerp, exact at both ends
        weight = _s.reshape(weight, shape=tuple(q.shape) + (1,) * (len(ordered.shape) - 1))
        step = _e.subtract(above, below)
        out = where(_e.less(weight, 0.5), _e.add(below, _e.multiply(step, weight)),
                    _e.subtract(above, _e.multiply(step, _e.subtract(1, weight))))
    if ordered.dtype.kind == "f":  # as numpy: NaN among the data makes every quantile NaN
        out = where(_r.any(_e.isnan(flat), axis=(0,), keepdims=False), np.nan, out)
    if keepdims:
        out = _s.reshape(out, shape=tuple(q.shape) + kept)
    return out


# Hyndman and Fan's continuous methods: the virtual index n q + alpha + q (1 - alpha - beta) - 1.
_ALPHA_BETA = {"interpolated_inverted_cdf": (0, 1), "hazen": (0.5, 0.5), "weibull": (0, 0),
               "median_unbiased": (1 / 3, 1 / 3), "normal_unbiased": (3 / 8, 3 / 8)}


def _places(method, q, n):
    """The order statistics below and above each quantile (int tensors) and the
    weight of the one above (None: take the one below), as numpy's methods
    define them. The weight moves with q, so continuous methods have a
    derivative in q."""
    def index(v):
        return _e.astype(clip(v, 0, n - 1), dtype=np.dtype(np.intp))

    if method in ("lower", "higher", "nearest"):
        position = _e.multiply(q, n - 1)
        rounded = {"lower": _e.floor, "higher": _e.ceil,
                   "nearest": lambda v: _e.round_(v, decimals=0)}[method](position)
        return index(rounded), index(rounded), None
    if method in ("inverted_cdf", "closest_observation"):
        virtual = _e.subtract(_e.multiply(q, n), 1 if method == "inverted_cdf" else 1.5)
        previous = _e.floor(virtual)
        stay = _e.equal(virtual, previous)
        if method == "closest_observation":  # the even order statistic (1-based) at a tie
            stay = _e.logical_and(stay, _e.equal(_e.mod(previous, 2), 1))
        chosen = index(where(stay, previous, _e.add(previous, 1)))
        return chosen, chosen, None
    if method == "midpoint":
        position = _e.multiply(q, n - 1)
        low, high = _e.floor(position), _e.ceil(position)
        return index(low), index(high), _e.astype(where(_e.equal(low, high), 0.0, 0.5),
                                                  dtype=q.dtype)
    if method in ("linear", "averaged_inverted_cdf"):
        virtual = _e.multiply(q, n - 1) if method == "linear" else _e.subtract(
            _e.multiply(q, n), 1)
    else:
        alpha, beta = _ALPHA_BETA[method]
        virtual = _e.subtract(_e.add(_e.multiply(q, n), _e.add(alpha, _e.multiply(
            q, 1 - alpha - beta))), 1)
    previous = _e.floor(virtual)
    weight = _e.subtract(virtual, previous)
    if method == "averaged_inverted_cdf":
        weight = _e.astype(where(_e.equal(weight, 0), 0.5, 1.0), dtype=q.dtype)
    return index(previous), index(_e.add(previous, 1)), weight


def _order_statistics(flat, low, high):
    """flat with (at least) the elements at places low and high in their sorted
    places: a partition around them when they are known (numpy's way, linear
    time), else a whole sort."""
    low, high = _known(low), _known(high)
    if low is None or high is None:
        return _st.sort(flat, axis=0)
    places = np.unique(np.concatenate([low.ravel(), high.ravel()]))
    order = _st.argpartition(flat, kth=tuple(places.tolist()), axis=0)
    return _st.take_along_axis(flat, order, 0)


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


def bincount(x, weights=None, minlength=0, *, length=None):
    """How many times each value 0, 1, 2... occurs in the non-negative integers
    x (with weights, the sum of their weights: differentiable in the weights).

    The result has max(x) + 1 entries (at least minlength), which reads x's
    values: under jit and vmap give `length` (as in JAX); larger values are
    then not counted.

    Args:
      x: a 1-d tensor of non-negative integers.
      weights: a tensor of x's shape, or None (each element counts 1).
      minlength: the least number of entries.
      length: the exact number of entries, or None.

    Raises:
      TypeError: x is not integers, or weights are not numeric.
      ValueError: x not 1-d, negative values, or weights of another shape.
      rune.TracedValueError: length not given under jit or vmap.

    >>> from rune import nx
    >>> print(nx.bincount(nx.array([0, 2, 2, 3])), nx.bincount(nx.array([1, 1]), [0.5, 2.0]))
    int64 [4] [1, 0, 2, 1] float64 [2] [0, 2.5]
    """
    fn = "nx.bincount"
    x = as_tensor(x, fn)
    if x.dtype.kind not in "iu":
        raise TypeError(f"{fn}: x must hold integers, got {x.dtype}")
    if x.ndim != 1:
        raise ValueError(f"{fn}: x must be 1-d, got shape {x.shape}")
    values = _known(x)
    if values is not None and values.size and values.min() < 0:
        raise ValueError(f"{fn}: x must not be negative, got {values.min()}")
    if length is None:
        if values is None:
            raise TracedValueError(f"{fn}: the number of bins is max(x) + 1, which reads x's "
                                   f"values; give length= under jit and vmap")
        length = max(int(values.max()) + 1 if values.size else 0, minlength)
    if weights is None:
        counts = Tensor(np.ones(x.shape, np.intp))
    else:
        counts = as_tensor(weights, fn)
        if counts.shape != x.shape:
            raise ValueError(f"{fn}: weights must have x's shape {x.shape}, got {counts.shape}")
    inside = _e.less(x, length)  # with length given, larger values are dropped
    counts = where(inside, counts, _e.astype(0, dtype=counts.dtype))
    return _ix.scatter_add(counts, where(inside, x, 0), shape=(length,))


def histogram(a, bins=10, range=None, density=False, weights=None):  # noqa: A002
    """Counts of a's elements (flattened) in bins, and the bins' edges.

    Each bin includes its left edge; the last includes its right edge too;
    elements outside the edges are not counted. The counts do not move with
    a (no derivative); with weights, each bin sums its elements' weights,
    which is linear (differentiable) in the weights. Equal bins' edges are
    differentiable: with range=None they are linspace(min(a), max(a)), so
    they move with a's least and greatest elements (as in JAX), and with
    range a pair of tensors, with them; a density moves with the edges, as
    it divides by the bins' widths. The edges are numpy's to the bit.

    Args:
      a: a tensor of data (or numpy array, nested lists).
      bins: the number of equal bins (an int), or the increasing edges.
      range: (low, high) numbers or tensors for equal bins, or None for a's
        min and max (which need a's values: give range under jit and vmap).
      density: divide by the total and the bin widths (a density, integrating to 1).
      weights: a tensor of a's shape, or None (each element counts 1).

    Raises:
      TypeError: a, bins, range or weights not numeric.
      ValueError: bins not positive or not increasing, range reversed or not
        finite, or weights of another shape.
      rune.TracedValueError: bins an int and range None (or traced tensors)
        under jit or vmap.

    >>> import rune
    >>> from rune import nx
    >>> counts, edges = nx.histogram(nx.array([1.0, 2.0, 2.0, 4.0]), bins=3)
    >>> print(counts, edges)
    int64 [3] [1, 2, 1] float64 [4] [1, 2, 3, 4]
    >>> print(rune.grad(lambda a: nx.histogram(a, bins=2)[1][1])(nx.array([1.0, 3.0, 2.5])))
    float64 [3] [0.5, 0.5, 0]
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
    if density:  # numpy's order and float64 widths, for numpy's numbers
        widths = _e.subtract(_ix.slice_(edges, index=((1, n + 1, 1),)),
                             _ix.slice_(edges, index=((0, n, 1),)))
        widths = _e.astype(widths, dtype=np.result_type(widths.dtype, np.float64))
        hist = _e.divide(_e.divide(hist, widths), _sum(hist))
    return hist, edges


def _edges(a, bins, range_, fn):
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
        if bins < 1:
            raise ValueError(f"{fn}: bins must be a positive int, got {bins}")
        return _equal_bins(a, int(bins), range_, fn)
    edges = as_tensor(bins, fn)
    known = _known(edges)
    if edges.ndim != 1 or (known is not None and np.any(np.diff(known) < 0)):
        raise ValueError(f"{fn}: bins must be an int or a 1-d tensor of increasing edges")
    return edges


def _equal_bins(a, bins, range_, fn):
    """numpy's edges of equal bins, to the bit: linspace from the first to the last
    edge, computed in their precision; and differentiable in them, so edges from
    a's min and max (range=None), or from tensors in range, move with them."""
    first, last, first_value, last_value = _outer_edges(a, range_, fn)
    if first_value == last_value:  # numpy widens an empty range
        first_value, last_value = first_value - 0.5, last_value + 0.5
        widen = True
    else:
        widen = False
    precision = np.result_type(first_value, last_value)  # linspace's, as numpy picks it
    if precision.kind not in "fc":
        precision = np.dtype(np.float64)
    first, last = (x if isinstance(x, Tensor) and x.dtype == precision
                   else _e.astype(as_tensor(x, fn), dtype=precision) for x in (first, last))
    if widen:
        first, last = _e.subtract(first, 0.5), _e.add(last, 0.5)
    step = _e.divide(_e.subtract(last, first), bins)
    inner = _e.add(_e.multiply(Tensor(np.arange(bins, dtype=precision)), step), first)
    edges = concatenate([inner, _s.reshape(last, shape=(1,))])
    out = np.result_type(first_value, last_value, a.dtype)
    out = np.result_type(out, 1.0) if out.kind not in "fc" else out
    return edges if edges.dtype == out else _e.astype(edges, dtype=out)


def _outer_edges(a, range_, fn):
    """The first and last edges (numbers or tensors) and their values (numpy's
    _get_outer_edges): range, or a's min and max, or (0, 1) for no data."""
    if range_ is None:
        values = _known(a)
        if values is None:
            raise TracedValueError(f"{fn}: the edges of equal bins come from a's min and max, "
                                   f"which are traced; give range=(low, high)")
        if values.size == 0:
            return 0, 1, 0, 1
        first, last, first_value, last_value = _min(a), _max(a), values.min(), values.max()
    else:
        first, last = range_
        first_value, last_value = (_range_value(x, fn) for x in range_)
    if not (np.isfinite(first_value) and np.isfinite(last_value)):
        raise ValueError(f"{fn}: the range of the bins, [{first_value}, {last_value}], is not "
                         f"finite (NaN or infinite data: give range=)")
    if first_value > last_value:
        raise ValueError(f"{fn}: range must be (low, high) with low <= high, got "
                         f"({first_value}, {last_value})")
    return first, last, first_value, last_value


def _range_value(x, fn):
    """An entry of range as numpy sees it: Python numbers stay weak (float64 edges
    for float32 data), numpy scalars, arrays and tensors keep their dtype."""
    if isinstance(x, (int, float, np.number)) and not isinstance(x, (bool, np.bool_)):
        return x
    x = as_tensor(x, fn)
    if x.ndim != 0 or x.dtype.kind not in "iuf":
        raise TypeError(f"{fn}: range must be (low, high) real numbers, got an entry of shape "
                        f"{x.shape} and dtype {x.dtype}")
    value = _known(x)
    if value is None:
        raise TracedValueError(f"{fn}: range holds a traced tensor, whose value the bins' "
                               f"checks read; give numbers, or call outside jit and vmap")
    return value[()]
