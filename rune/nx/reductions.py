"""Reductions over axes: sum, mean, max, argmax, cumsum, logsumexp, softmax...

`axis` is None (all axes), an int or a tuple of ints; negative axes count
from the end. Each function normalizes it once (`normalize_axes`) before it
reaches a primitive, and raises ValueError for an axis out of range.
"""

import builtins
import math
import operator

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import reduce as _r
from ..primitives import shape as _s
from .creation import as_tensor
from .dtypes import as_dtype
from .tensor import Tensor, broadcast_error

__all__ = [
    "sum", "prod", "mean", "var", "std", "max", "min", "argmax", "argmin", "cumsum", "cumprod",
    "all", "any", "logsumexp", "softmax", "log_softmax", "allclose",
]


def normalize_axis(axis, ndim: int, fn: str) -> int:
    """One axis as a non-negative int; ValueError naming it if out of range."""
    if isinstance(axis, (bool, np.bool_)) or not hasattr(axis, "__index__"):
        raise TypeError(f"{fn}: axis must be an int, got {type(axis).__name__}")
    a = operator.index(axis)
    if not -ndim <= a < ndim:
        raise ValueError(
            f"{fn}: axis {a} is out of range for a tensor with {ndim} axes "
            f"(expected -{ndim} <= axis < {ndim})" if ndim else
            f"{fn}: axis {a} is out of range for a 0-d tensor (it has no axes)"
        )
    return a % ndim


def normalize_axes(axis, ndim: int, fn: str) -> tuple:
    """`axis` (None, an int or a tuple) as a sorted tuple of non-negative ints."""
    if axis is None:
        return tuple(range(ndim))
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out = tuple(sorted(normalize_axis(a, ndim, fn) for a in axes))
    if len(set(out)) != len(out):
        raise ValueError(f"{fn}: axis {tuple(axes)} repeats an axis")
    return out


def _count(shape, axes) -> int:
    return math.prod(shape[a] for a in axes)


def sum(x, axis=None, keepdims=False, *, dtype=None):  # noqa: A001  (numpy's name)
    """The sum of the elements over `axis` (all axes by default).

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None (all axes), an int or a tuple of ints; negative counts from the end.
      keepdims: keep the reduced axes, with size 1.
      dtype: the dtype of the sum, and of x before summing (default: x's, small
        integers widened to 64 bits as numpy does).

    Raises:
      TypeError: x is not numeric, an axis is not an int, or an unknown dtype.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.sum(nx.array([[1.0, 2.0], [3.0, 4.0]]), axis=0))
    float64 [2] [4, 6]
    """
    x = _converted(as_tensor(x, "nx.sum", result_is_new=True), dtype, "nx.sum")
    out = _r.sum(x, axis=normalize_axes(axis, len(x.shape), "nx.sum"), keepdims=keepdims)
    return _converted(out, dtype, "nx.sum")


def prod(x, axis=None, keepdims=False, *, dtype=None):
    """The product of the elements over `axis` (all axes by default).

    Its derivative is exact where elements are zero (it never divides by
    an element).

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None (all axes), an int or a tuple of ints; negative counts from the end.
      keepdims: keep the reduced axes, with size 1.
      dtype: the dtype of the product, and of x before multiplying (default: x's,
        small integers widened to 64 bits as numpy does).

    Raises:
      TypeError: x is not numeric, an axis is not an int, or an unknown dtype.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.prod(nx.array([[1.0, 2.0], [3.0, 4.0]]), axis=1))
    float64 [2] [2, 12]
    """
    x = _converted(as_tensor(x, "nx.prod", result_is_new=True), dtype, "nx.prod")
    out = _r.prod(x, axis=normalize_axes(axis, len(x.shape), "nx.prod"), keepdims=keepdims)
    return _converted(out, dtype, "nx.prod")


def _converted(x, dtype, fn):
    """x in `dtype` (the Array API's dtype= of sum and prod), or x itself for None.
    Both the input and the result are converted: numpy's sum of uint8 alone would widen."""
    if dtype is None or as_dtype(dtype, fn) == x.dtype:
        return x
    return _e.astype(x, dtype=as_dtype(dtype, fn))


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


def _check_nonempty(x, axes, fn):
    for a in axes:
        if x.shape[a] == 0:
            raise ValueError(
                f"{fn}: cannot reduce axis {a}, which has size 0 (shape {tuple(x.shape)}): "
                f"an empty reduction has no identity"
            )


def max(x, axis=None, keepdims=False):  # noqa: A001  (numpy's name)
    """The largest element over `axis` (all axes by default).

    Where several elements tie for the largest, the derivative splits
    evenly between them: each gets 1/k of the cotangent.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None (all axes), an int or a tuple of ints; negative counts from the end.
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated, or a reduced axis of size 0.

    >>> from rune import nx
    >>> print(nx.max(nx.array([[1.0, 5.0], [7.0, 2.0]]), axis=1))
    float64 [2] [5, 7]
    """
    x = as_tensor(x, "nx.max", result_is_new=True)
    axes = normalize_axes(axis, len(x.shape), "nx.max")
    _check_nonempty(x, axes, "nx.max")
    return _r.max(x, axis=axes, keepdims=keepdims)


def min(x, axis=None, keepdims=False):  # noqa: A001  (numpy's name)
    """The smallest element over `axis`; ties split the derivative as `nx.max`.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None (all axes), an int or a tuple of ints; negative counts from the end.
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated, or a reduced axis of size 0.

    >>> from rune import nx
    >>> print(nx.min(nx.array([[1.0, 5.0], [7.0, 2.0]]), axis=0))
    float64 [2] [1, 2]
    """
    x = as_tensor(x, "nx.min", result_is_new=True)
    axes = normalize_axes(axis, len(x.shape), "nx.min")
    _check_nonempty(x, axes, "nx.min")
    return _r.min(x, axis=axes, keepdims=keepdims)


def _arg_extremum(prim, x, axis, keepdims, fn):
    x = as_tensor(x, fn, result_is_new=True)
    if axis is not None:
        a = normalize_axis(axis, len(x.shape), fn)
        _check_nonempty(x, (a,), fn)
        return prim(x, axis=(a,), keepdims=keepdims)
    if x.size == 0:
        raise ValueError(f"{fn}: the tensor is empty (shape {tuple(x.shape)}), it has no "
                         f"largest or smallest element")
    flat = _s.reshape(x, shape=(x.size,))
    out = prim(flat, axis=(0,), keepdims=False)
    return _s.reshape(out, shape=(1,) * len(x.shape)) if keepdims else out


def argmax(x, axis=None, keepdims=False):
    """The index of the largest element along `axis` (int64; the first on ties).

    With axis=None the index is into the flattened tensor. Its derivative is
    zero.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: an int, or None for the index into the flattened tensor.
      keepdims: keep the reduced axis, with size 1.

    Raises:
      TypeError: x is not numeric, or axis is not an int.
      ValueError: axis out of range, or an empty axis (or tensor).

    >>> from rune import nx
    >>> print(nx.argmax(nx.array([[1.0, 5.0], [7.0, 2.0]]), axis=1))
    int64 [2] [1, 0]
    """
    return _arg_extremum(_r.argmax, x, axis, keepdims, "nx.argmax")


def argmin(x, axis=None, keepdims=False):
    """The index of the smallest element along `axis`; see `nx.argmax`.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: an int, or None for the index into the flattened tensor.
      keepdims: keep the reduced axis, with size 1.

    Raises:
      TypeError: x is not numeric, or axis is not an int.
      ValueError: axis out of range, or an empty axis (or tensor).

    >>> from rune import nx
    >>> print(nx.argmin(nx.array([[1.0, 5.0], [7.0, 2.0]])))
    int64 [] 0
    """
    return _arg_extremum(_r.argmin, x, axis, keepdims, "nx.argmin")


def cumsum(x, axis=None):
    """Running sums along `axis` (of the flattened tensor when axis is None).

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: an int, or None to flatten x first.

    Raises:
      TypeError: x is not numeric, or axis is not an int.
      ValueError: axis out of range.

    >>> from rune import nx
    >>> print(nx.cumsum(nx.array([1.0, 2.0, 3.0])))
    float64 [3] [1, 3, 6]
    """
    x, axis = _running_axis(x, axis, "nx.cumsum")
    return _r.cumsum(x, axis=axis, reverse=False)


def cumprod(x, axis=None):
    """Running products along `axis` (of the flattened tensor when axis is None).

    The derivative divides by nothing, so it is exact where x has zeros.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: an int, or None to flatten x first.

    Raises:
      TypeError: x is not numeric, or axis is not an int.
      ValueError: axis out of range.

    >>> from rune import nx
    >>> print(nx.cumprod(nx.array([1.0, 2.0, 3.0])))
    float64 [3] [1, 2, 6]
    """
    x, axis = _running_axis(x, axis, "nx.cumprod")
    return _r.cumprod(x, axis=axis)


def _running_axis(x, axis, fn):
    """x and the axis of a running sum or product: axis None flattens x."""
    x = as_tensor(x, fn)
    if axis is None:
        return _s.reshape(x, shape=(x.size,)), 0
    return x, normalize_axis(axis, len(x.shape), fn)


def all(x, axis=None, keepdims=False):  # noqa: A001  (numpy's name)
    """Whether every element over `axis` is true (nonzero); a bool tensor.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None (all axes), an int or a tuple of ints; negative counts from the end.
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.all(nx.array([[True, False], [True, True]]), axis=1))
    bool [2] [False, True]
    """
    x = as_tensor(x, "nx.all", result_is_new=True)
    return _r.all(x, axis=normalize_axes(axis, len(x.shape), "nx.all"), keepdims=keepdims)


def any(x, axis=None, keepdims=False):  # noqa: A001  (numpy's name)
    """Whether some element over `axis` is true (nonzero); a bool tensor.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None (all axes), an int or a tuple of ints; negative counts from the end.
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.any(nx.array([0.0, 0.0, 2.0])))
    bool [] True
    """
    x = as_tensor(x, "nx.any", result_is_new=True)
    return _r.any(x, axis=normalize_axes(axis, len(x.shape), "nx.any"), keepdims=keepdims)


def _detached_max(x, axes):
    """max over axes (kept), held constant, with non-finite values (an axis of
    -inf, or an empty one) replaced by 0: a shift that keeps exp from overflowing."""
    real = _e.real(x) if x.dtype.kind == "c" else x
    if _count(x.shape, axes) == 0:
        return 0
    m = _e.stop_gradient(_r.max(real, axis=axes, keepdims=True))
    return _e.where(_e.isfinite(m), m, 0)


def logsumexp(x, axis=None, keepdims=False):
    """log(sum(exp(x))) over `axis`, computed without overflow.

    The largest element is subtracted before exp and added back after, as a
    constant (it does not change the value, so derivatives are exact: the
    gradient is softmax). Complex inputs are shifted by their real parts.
    An empty reduction gives -inf.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None (all axes), an int or a tuple of ints; negative counts from the end.
      keepdims: keep the reduced axes, with size 1.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.logsumexp(nx.array([1000.0, 1000.0])))
    float64 [] 1000.6931471805599
    """
    x = as_tensor(x, "nx.logsumexp", result_is_new=True)
    axes = normalize_axes(axis, len(x.shape), "nx.logsumexp")
    shift = _detached_max(x, axes)
    total = _r.sum(_e.exp(_e.subtract(x, shift)), axis=axes, keepdims=True)
    out = _e.add(_e.log(total), shift)
    return out if keepdims else _s.reshape(out, shape=_r._reduced_shape(x.shape, axes, False))


def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) over `axis` (the last by default), without overflow.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: an int (the last axis by default), a tuple of ints, or None for all axes.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.softmax(nx.array([1000.0, 1000.0, 1000.0, 1000.0])))
    float64 [4] [0.25, 0.25, 0.25, 0.25]
    """
    x = as_tensor(x, "nx.softmax", result_is_new=True)
    axes = normalize_axes(axis, len(x.shape), "nx.softmax")
    e = _e.exp(_e.subtract(x, _detached_max(x, axes)))
    return _e.divide(e, _r.sum(e, axis=axes, keepdims=True))


def log_softmax(x, axis=-1):
    """log(softmax(x)) over `axis`, computed stably as x - logsumexp(x).

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: an int (the last axis by default), a tuple of ints, or None for all axes.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.log_softmax(nx.array([0.0, 0.0])))
    float64 [2] [-0.6931471805599453, -0.6931471805599453]
    """
    x = as_tensor(x, "nx.log_softmax", result_is_new=True)
    axes = normalize_axes(axis, len(x.shape), "nx.log_softmax")
    return _e.subtract(x, logsumexp(x, axis=axes, keepdims=True))


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    """Whether a and b are equal within tolerance everywhere: a Python bool.

    Elementwise |a - b| <= atol + rtol * |b|, broadcasting as numpy does.

    Args:
      a, b: tensors, numpy arrays or numbers.
      rtol, atol: the relative and absolute tolerances.
      equal_nan: count nan as equal to nan.

    Raises:
      TypeError: a or b is not numeric.
      ValueError: shapes that do not broadcast (naming both).
      rune.TracedValueError: under jit or vmap, where there are no values to
        compare (use the elementwise comparisons instead).

    >>> from rune import nx
    >>> nx.allclose(nx.array([1.0, 2.0]), [1.0, 2.0 + 1e-9])
    True
    """
    values = [v._concrete("nx.allclose", lossless=True) if isinstance(v, Tensor) else v
              for v in (a, b)]
    try:
        return bool(np.allclose(values[0], values[1], rtol=rtol, atol=atol, equal_nan=equal_nan))
    except ValueError as error:
        raise broadcast_error("nx.allclose", error, *values) from None
