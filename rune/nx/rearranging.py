"""Moving elements: roll, rollaxis, rot90, flipud, fliplr, diag, diagflat,
tril, triu, kron, select and put_along_axis (the writing half of
`take_along_axis`).

numpy's functions of these names, written with slicing, `concatenate`,
`flip`, `transpose`, `pad`, `where` and `x.at[...]` updates, so every
transformation applies and the derivative is exact.
"""

from __future__ import annotations

import operator

import numpy as np

from ..primitives import indexing as _ix
from .creation import as_tensor
from .tensor import Tensor
from .indexing import diagonal, getitem
from .comparisons import where
from .shapes import concatenate, flip, moveaxis, ravel, reshape, transpose
from .reductions import normalize_axis

__all__ = ["roll", "rollaxis", "rot90", "flipud", "fliplr", "diag", "diagflat", "tril",
           "triu", "kron", "select", "put_along_axis"]


def _along(x, axis, start, stop):
    return getitem(x, (slice(None),) * axis + (slice(start, stop),))


def roll(a, shift, axis=None):
    """a's elements shifted by `shift` places along `axis`, those pushed off the end
    coming back at the start (of the flattened a when axis is None).

    Args:
      a: a tensor (numpy array, nested lists).
      shift: an int, or a tuple of ints (one per axis of `axis`; they broadcast).
      axis: an int, a tuple of ints, or None.

    Raises:
      TypeError: shift or axis is not ints.
      ValueError: shift and axis of different lengths, or an axis out of range.

    >>> from rune import nx
    >>> print(nx.roll(nx.array([1.0, 2.0, 3.0, 4.0]), 1))
    float64 [4] [4, 1, 2, 3]
    """
    fn = "nx.roll"
    a = as_tensor(a, fn)
    if axis is None:
        return reshape(roll(ravel(a), shift, 0), a.shape)
    try:
        shifts, axes = np.broadcast_arrays(np.asarray(shift), np.asarray(axis))
    except ValueError:
        raise ValueError(f"{fn}: shift {shift!r} and axis {axis!r} do not match in "
                         f"length") from None
    if shifts.dtype.kind not in "iu" or axes.dtype.kind not in "iu":
        raise TypeError(f"{fn}: shift and axis must be ints, got {shift!r} and {axis!r}")
    total = {}
    for s, ax in zip(shifts.ravel().tolist(), axes.ravel().tolist()):
        ax = normalize_axis(ax, a.ndim, fn)
        total[ax] = total.get(ax, 0) + s
    for ax, s in total.items():
        s %= max(a.shape[ax], 1)
        if s:
            a = concatenate([_along(a, ax, -s, None), _along(a, ax, None, -s)], axis=ax)
    return a


def rollaxis(a, axis, start=0):
    """a with `axis` moved to sit before position `start` (numpy's older `moveaxis`).

    Args:
      a: a tensor.
      axis: the axis to move (an int).
      start: the position it moves before, -ndim <= start <= ndim.

    Raises:
      ValueError: axis or start out of range.

    >>> from rune import nx
    >>> print(nx.rollaxis(nx.ones((2, 3, 4)), 2).shape)
    (4, 2, 3)
    """
    fn = "nx.rollaxis"
    a = as_tensor(a, fn)
    axis = normalize_axis(axis, a.ndim, fn)
    start = operator.index(start)
    if not -a.ndim <= start <= a.ndim:
        raise ValueError(f"{fn}: start {start} is out of range for a tensor with {a.ndim} "
                         f"axes (expected -{a.ndim} <= start <= {a.ndim})")
    start = start + a.ndim if start < 0 else start
    if axis < start:
        start -= 1
    return a if axis == start else moveaxis(a, axis, start)


def rot90(m, k=1, axes=(0, 1)):
    """m turned by 90 degrees k times, from the first of `axes` towards the second.

    Args:
      m: a tensor with at least two axes.
      k: an int (negative turns the other way).
      axes: two different axes.

    Raises:
      ValueError: axes not two different axes of m.

    >>> from rune import nx
    >>> print(nx.rot90(nx.array([[1.0, 2.0], [3.0, 4.0]])))
    float64 [2, 2]
    [[2, 4],
     [1, 3]]
    """
    fn = "nx.rot90"
    m = as_tensor(m, fn)
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError(f"{fn}: axes must be two axes, got {axes!r}")
    a0, a1 = (normalize_axis(ax, m.ndim, fn) for ax in axes)
    if a0 == a1:
        raise ValueError(f"{fn}: axes must be different, got {axes!r}")
    k = operator.index(k) % 4
    if k == 0:
        return m
    if k == 2:
        return flip(flip(m, a0), a1)
    order = list(range(m.ndim))
    order[a0], order[a1] = order[a1], order[a0]
    return transpose(flip(m, a1), order) if k == 1 else flip(transpose(m, order), a1)


def flipud(m):
    """m upside down: reversed along axis 0.

    Args:
      m: a tensor with at least one axis.

    Raises:
      ValueError: m is 0-d.

    >>> from rune import nx
    >>> print(nx.flipud(nx.array([1.0, 2.0])))
    float64 [2] [2, 1]
    """
    m = as_tensor(m, "nx.flipud")
    if m.ndim < 1:
        raise ValueError("nx.flipud: needs a tensor with at least 1 axis, got a 0-d one")
    return flip(m, 0)


def fliplr(m):
    """m mirrored left to right: reversed along axis 1.

    Args:
      m: a tensor with at least two axes.

    Raises:
      ValueError: m has fewer than two axes.

    >>> from rune import nx
    >>> print(nx.fliplr(nx.array([[1.0, 2.0]])))
    float64 [1, 2]
    [[2, 1]]
    """
    m = as_tensor(m, "nx.fliplr")
    if m.ndim < 2:
        raise ValueError(f"nx.fliplr: needs a tensor with at least 2 axes, got {m.ndim}")
    return flip(m, 1)


def diag(v, k=0):
    """For a vector, the square matrix with v on its k-th diagonal (zeros elsewhere);
    for a matrix, its k-th diagonal.

    Args:
      v: a 1-d or 2-d tensor.
      k: an int: 0 the main diagonal, k > 0 above it, k < 0 below.

    Raises:
      ValueError: v is not 1-d or 2-d.

    >>> from rune import nx
    >>> print(nx.diag(nx.array([1.0, 2.0]), 1))
    float64 [3, 3]
    [[0, 1, 0],
     [0, 0, 2],
     [0, 0, 0]]
    """
    fn = "nx.diag"
    v = as_tensor(v, fn)
    k = operator.index(k)
    if v.ndim == 2:
        return diagonal(v, k)
    if v.ndim != 1:
        raise ValueError(f"{fn}: v must be 1-d or 2-d, got {v.ndim} axes")
    # One scatter of v into zeros (the transpose of nx.diagonal's gather, so both
    # directions differentiate through each other): numpy's own cost. Building the
    # matrix from shifted copies and pads instead cost 10-20x numpy's at n = 1000.
    m = v.shape[0]
    steps = np.arange(m)
    rows, cols = (steps, steps + k) if k >= 0 else (steps - k, steps)
    return _ix.scatter_add(v, Tensor(rows), Tensor(cols), shape=(m + abs(k),) * 2)


def diagflat(v, k=0):
    """The matrix with v, flattened, on its k-th diagonal.

    Args:
      v: a tensor of any shape.
      k: an int diagonal offset.

    Raises:
      TypeError: v is not numeric.

    >>> from rune import nx
    >>> print(nx.diagflat(nx.array([[1.0, 2.0]])))
    float64 [2, 2]
    [[1, 0],
     [0, 2]]
    """
    return diag(ravel(as_tensor(v, "nx.diagflat")), k)


def kron(a, b):
    """The Kronecker product: block (i, j, ...) is a[i, j, ...] * b. The shorter
    shape gets leading ones first, as in numpy.

    Args:
      a, b: tensors (numpy arrays, numbers).

    Raises:
      TypeError: an argument is not numeric.

    >>> from rune import nx
    >>> print(nx.kron(nx.eye(2), nx.array([[1.0, 2.0]])))
    float64 [2, 4]
    [[1, 2, 0, 0],
     [0, 0, 1, 2]]
    """
    fn = "nx.kron"
    a, b = as_tensor(a, fn), as_tensor(b, fn)
    ndim = max(a.ndim, b.ndim)
    sa = (1,) * (ndim - a.ndim) + tuple(a.shape)
    sb = (1,) * (ndim - b.ndim) + tuple(b.shape)
    wide_a = reshape(a, tuple(d for n in sa for d in (n, 1)))
    wide_b = reshape(b, tuple(d for n in sb for d in (1, n)))
    return reshape(wide_a * wide_b, tuple(x * y for x, y in zip(sa, sb)))


def select(condlist, choicelist, default=0):
    """Each element from the first choice whose condition holds there, else `default`.

    The derivative flows to the chosen entries; conditions have none.

    Args:
      condlist: a list of boolean tensors.
      choicelist: a list of tensors as long as condlist; all broadcast together.
      default: the value where no condition holds.

    Raises:
      TypeError: a condition is not boolean.
      ValueError: lists of different lengths.

    >>> from rune import nx
    >>> x = nx.array([-2.0, 0.5, 3.0])
    >>> print(nx.select([x < 0, x > 1], [-x, x * 10], default=x))
    float64 [3] [2, 0.5, 30]
    """
    fn = "nx.select"
    if len(condlist) != len(choicelist):
        raise ValueError(f"{fn}: condlist and choicelist must be of the same length, got "
                         f"{len(condlist)} and {len(choicelist)}")
    conds = [as_tensor(c, fn) for c in condlist]
    choices = [as_tensor(c, fn) for c in choicelist]
    for i, c in enumerate(conds):
        if c.dtype != np.bool_:
            raise TypeError(f"{fn}: condition {i} must be boolean, got {c.dtype}")
    # a Python number default is weak in numpy's promotion, as in arithmetic
    weak = isinstance(default, (int, float, complex)) and not isinstance(default, bool)
    default = as_tensor(default, fn)
    dtype = np.result_type(*[c.dtype for c in choices], default.item() if weak else
                           default.dtype)
    out = default
    for cond, choice in zip(reversed(conds), reversed(choices)):
        out = where(cond, choice, out)
    return out.astype(dtype) if out.dtype != dtype else out


def put_along_axis(arr, indices, values, axis):
    """arr with `values` written at `indices` along `axis`: numpy's put_along_axis,
    but returning a new tensor (a tensor never changes) as JAX's does.

    Differentiable in arr (zero where written) and values; where indices
    repeat, the last value written stays.

    Args:
      arr: a tensor.
      indices: an integer tensor with arr's number of axes (broadcasting against
        arr's other axes), or 1-d when axis is None.
      values: a tensor broadcasting against indices.
      axis: an int, or None for the flattened arr (the result keeps arr's shape).

    Raises:
      TypeError: indices are not integers.
      ValueError: indices with another number of axes, or axis out of range.

    >>> from rune import nx
    >>> x = nx.zeros((2, 3))
    >>> print(nx.put_along_axis(x, nx.array([[2], [0]]), 5.0, axis=1))
    float64 [2, 3]
    [[0, 0, 5],
     [5, 0, 0]]
    """
    fn = "nx.put_along_axis"
    arr, indices = as_tensor(arr, fn), as_tensor(indices, fn)
    if indices.dtype.kind not in "iu":
        raise TypeError(f"{fn}: indices must be integers, got {indices.dtype}")
    if axis is None:
        return reshape(put_along_axis(ravel(arr), indices, values, 0), arr.shape)
    axis = normalize_axis(axis, arr.ndim, fn)
    if indices.ndim != arr.ndim:
        raise ValueError(f"{fn}: indices must have arr's {arr.ndim} axes, got {indices.ndim}")
    index = tuple(indices if d == axis else np.arange(n).reshape(
        (1,) * d + (n,) + (1,) * (arr.ndim - d - 1)) for d, n in enumerate(arr.shape))
    return arr.at[index].set(values)


# ---------------------------------------------------------------- tril, triu


def _triangle(x, k, fn, lower):
    x = as_tensor(x, fn)
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool):
        raise TypeError(f"{fn}: k must be an int, got {k!r}")
    if not x.shape:
        raise ValueError(f"{fn}: the tensor is 0-d; it needs at least 1 axis")
    rows, cols = (x.shape[-2:] if len(x.shape) >= 2 else (x.shape[-1], x.shape[-1]))
    below = np.tri(rows, cols, k if lower else k - 1, dtype=bool)
    return where(below if lower else ~below, x, np.zeros((), x.dtype))


def tril(x, k=0):
    """x with the elements above the k-th diagonal zeroed (over the last two axes).

    A 1-d x is read as a row repeated into a square matrix, as in numpy.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      k: the diagonal, an int: 0 the main one, above it if positive, below
        if negative.

    Raises:
      TypeError: x is not numeric, or k is not an int.
      ValueError: x is 0-d.

    >>> from rune import nx
    >>> print(nx.tril(nx.array([[1.0, 2.0], [3.0, 4.0]])))
    float64 [2, 2]
    [[1, 0],
     [3, 4]]
    """
    return _triangle(x, k, "nx.tril", lower=True)


def triu(x, k=0):
    """x with the elements below the k-th diagonal zeroed (over the last two axes).

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      k: the diagonal, an int (see `nx.tril`).

    Raises:
      TypeError: x is not numeric, or k is not an int.
      ValueError: x is 0-d.

    >>> from rune import nx
    >>> print(nx.triu(nx.array([[1.0, 2.0], [3.0, 4.0]]), k=1))
    float64 [2, 2]
    [[0, 2],
     [0, 0]]
    """
    return _triangle(x, k, "nx.triu", lower=False)
