"""Building tensors: block, meshgrid, choose, piecewise, tri, indices, logspace...

Those that build from tensors (`block`, `broadcast_arrays`, `meshgrid`,
`resize`, `choose`, `piecewise`, `compress`, `extract`, `copy`) are
compositions of shape and indexing operations, differentiable in the tensors
they place. Those that build from numbers (`tri`, `tril_indices`,
`triu_indices`, `indices`, `identity`, `empty`, `logspace`, `geomspace`)
are constants. `empty` and `empty_like` give zeros: a tensor never changes,
so there is nothing to fill in later.
"""

from __future__ import annotations

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import shape as _s
from ..primitives import sorting as _st
from .creation import _shape_arg, _size_arg, as_tensor, check_device, eye, zeros, zeros_like
from .dtypes import as_dtype, float64
from .indexing import take
from .shapes import broadcast_to, concatenate, reshape
from .tensor import Tensor, TracedValueError

__all__ = [
    "block", "broadcast_arrays", "meshgrid", "resize", "choose", "piecewise", "compress",
    "extract", "tri", "tril_indices", "triu_indices", "indices", "identity", "empty",
    "empty_like", "logspace", "geomspace", "copy",
]


def _depth(arrays, fn):
    """How deeply `arrays` nests lists; every branch must nest equally."""
    if not isinstance(arrays, list):
        return 0
    if not arrays:
        raise ValueError(f"{fn}: lists cannot be empty")
    depths = {_depth(a, fn) for a in arrays}
    if len(depths) != 1:
        raise ValueError(f"{fn}: list depths are mismatched (every entry of a list must "
                         f"nest as deeply as its siblings)")
    return depths.pop() + 1


def block(arrays):
    """A tensor assembled from nested lists of blocks, as numpy's block: the
    innermost lists are joined along the last axis, the next ones along the
    one before, and so on.

    Args:
      arrays: nested lists of tensors (or numbers, numpy arrays). Tuples are
        not lists here, as in numpy.

    Raises:
      TypeError: a block is not numeric.
      ValueError: empty lists, uneven nesting, or blocks whose shapes do not fit.

    >>> from rune import nx
    >>> print(nx.block([[nx.eye(2), nx.zeros((2, 1))], [nx.ones((1, 2)), nx.array([[5.0]])]]))
    float64 [3, 3]
    [[1, 0, 0],
     [0, 1, 0],
     [1, 1, 5]]
    """
    depth = _depth(arrays, "nx.block")

    def leaves(a):
        return [x for item in a for x in leaves(item)] if isinstance(a, list) else [a]

    ndim = max([depth] + [as_tensor(x, "nx.block").ndim for x in leaves(arrays)])

    def build(a, level):
        if not isinstance(a, list):
            a = as_tensor(a, "nx.block")
            return reshape(a, (1,) * (ndim - a.ndim) + tuple(a.shape))
        parts = [build(item, level + 1) for item in a]
        return concatenate(parts, axis=ndim - depth + level) if len(parts) > 1 else parts[0]

    return build(arrays, 0)


def broadcast_arrays(*args):
    """The arguments broadcast to their common shape, as a list (the standard's
    2024.12 revision says a list; numpy 2 gives a tuple).

    Args:
      *args: tensors (or numbers, numpy arrays).

    Raises:
      TypeError: an argument is not numeric.
      ValueError: shapes that do not broadcast together (naming them).

    >>> from rune import nx
    >>> a, b = nx.broadcast_arrays(nx.array([1.0, 2.0]), nx.array([[0.0], [1.0]]))
    >>> print(a.shape, b.shape)
    (2, 2) (2, 2)
    """
    xs = [as_tensor(a, "nx.broadcast_arrays") for a in args]
    try:
        shape = np.broadcast_shapes(*[tuple(x.shape) for x in xs])
    except ValueError:
        raise ValueError(f"nx.broadcast_arrays: shapes {[tuple(x.shape) for x in xs]} do not "
                         f"broadcast together") from None
    return [broadcast_to(x, shape) for x in xs]


def meshgrid(*xi, indexing="xy", sparse=False, copy=True):
    """Coordinate tensors from coordinate vectors, as numpy's meshgrid, in a list
    (the standard's 2024.12 revision says a list; numpy 2 gives a tuple).

    Args:
      *xi: 1-d tensors (others are flattened), one per dimension.
      indexing: "xy" (the first two axes swapped, as for images and plots) or "ij".
      sparse: keep size-1 axes instead of broadcasting (shapes then broadcast).
      copy: accepted for numpy's signature (tensors never share changes).

    Raises:
      TypeError: an argument is not numeric.
      ValueError: indexing is neither "xy" nor "ij".

    >>> from rune import nx
    >>> x, y = nx.meshgrid(nx.array([1.0, 2.0, 3.0]), nx.array([0.0, 1.0]))
    >>> print(x.shape, y)
    (2, 3) float64 [2, 3]
    [[0, 0, 0],
     [1, 1, 1]]
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"nx.meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    xs = [as_tensor(x, "nx.meshgrid") for x in xi]
    xs = [reshape(x, (x.size,)) for x in xs]
    n = len(xs)
    out = []
    for i, x in enumerate(xs):
        shape = [1] * n
        shape[i] = x.size
        if indexing == "xy" and n > 1 and i < 2:
            shape[0], shape[1] = shape[1], shape[0]
        out.append(reshape(x, tuple(shape)))
    return broadcast_arrays(*out) if not sparse else out


def resize(a, new_shape):
    """A tensor of `new_shape` filled with a's elements, repeated cyclically
    (numpy's resize; zeros if a is empty).

    Args:
      a: a tensor (or numpy array, nested lists).
      new_shape: an int or a sequence of ints.

    Raises:
      TypeError: a is not numeric, or new_shape is not ints.
      ValueError: a negative size.

    >>> from rune import nx
    >>> print(nx.resize(nx.array([1.0, 2.0, 3.0]), (2, 2)))
    float64 [2, 2]
    [[1, 2],
     [3, 1]]
    """
    a = as_tensor(a, "nx.resize")
    shape = _shape_arg(new_shape, "nx.resize")
    total = int(np.prod(shape, dtype=np.int64))
    if a.size == 0:
        return zeros(shape, a.dtype)
    flat = reshape(a, (a.size,))
    return reshape(take(flat, np.arange(total) % a.size), shape)


def choose(a, choices, mode="raise"):
    """Elements picked from `choices` by the indices in a: `out[i] = choices[a[i]][i]`,
    everything broadcast together (numpy's choose). Differentiable in the choices.

    Args:
      a: an integer tensor of indices into choices.
      choices: a sequence of tensors (or a tensor whose first axis indexes them).
      mode: "raise" (indices out of range raise), "wrap" or "clip".

    Raises:
      TypeError: a is not integers, or a choice is not numeric.
      ValueError: an index out of range (mode "raise"), an unknown mode, or
        shapes that do not broadcast.

    >>> from rune import nx
    >>> print(nx.choose(nx.array([0, 1, 0]), [nx.array([1.0, 2.0, 3.0]), nx.array(-1.0)]))
    float64 [3] [1, -1, 3]
    """
    fn = "nx.choose"
    a = as_tensor(a, fn)
    if a.dtype.kind not in "iu":
        raise TypeError(f"{fn}: a must hold integers, got {a.dtype}")
    if isinstance(choices, Tensor):
        choices = [choices[i] for i in range(choices.shape[0])]
    n = len(choices)
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"{fn}: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    if mode == "wrap":
        a = _e.mod(a, n)
    elif mode == "clip":
        a = _e.minimum(_e.maximum(a, 0), n - 1)
    else:
        known = _values(a)
        if known is not None and known.size and (known.min() < 0 or known.max() >= n):
            raise ValueError(f"{fn}: index {known[(known < 0) | (known >= n)].flat[0]} is out "
                             f"of range for {n} choices")
    parts = broadcast_arrays(a, *choices)
    stacked = _s.concatenate(*[reshape(c, (1,) + tuple(c.shape)) for c in parts[1:]], axis=0)
    index = reshape(parts[0], (1,) + tuple(parts[0].shape))
    return reshape(_st.take_along_axis(stacked, index, 0), tuple(parts[0].shape))


def _values(t):
    try:
        return np.asarray(t._concrete("nx.choose", lossless=True))
    except TracedValueError:
        return None


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


def compress(condition, a, axis=None):
    """The slices of a along `axis` (of the flattened a if None) where condition
    is true; condition may be shorter than the axis (numpy's compress).

    Args:
      condition: a 1-d bool tensor; its values are read (eager and under
        differentiation, not under jit or vmap).
      a: a tensor (or numpy array, nested lists).
      axis: an int, or None.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: condition longer than the axis, or not 1-d.
      rune.TracedValueError: a traced condition.

    >>> from rune import nx
    >>> print(nx.compress([True, False, True], nx.array([1.0, 2.0, 3.0, 4.0])))
    float64 [2] [1, 3]
    """
    fn = "nx.compress"
    a = as_tensor(a, fn)
    condition = as_tensor(condition, fn)
    if condition.ndim != 1:
        raise ValueError(f"{fn}: condition must be 1-d, got shape {condition.shape}")
    mask = np.asarray(condition._concrete(f"{fn}: condition", lossless=True)).astype(bool)
    n = a.size if axis is None else a.shape[axis]
    if mask.size > n:
        raise ValueError(f"{fn}: condition has {mask.size} entries; the axis has {n}")
    return take(a, np.flatnonzero(mask), axis=axis)


def extract(condition, arr):
    """The elements of the flattened arr where the flattened condition is nonzero.

    Args:
      condition: a tensor of arr's size; its values are read (eager and under
        differentiation, not under jit or vmap).
      arr: a tensor (or numpy array, nested lists).

    Raises:
      TypeError: an argument is not numeric.
      rune.TracedValueError: a traced condition.

    >>> from rune import nx
    >>> x = nx.array([[1.0, -2.0], [3.0, -4.0]])
    >>> print(nx.extract(x > 0, x))
    float64 [2] [1, 3]
    """
    condition = as_tensor(condition, "nx.extract")
    mask = np.asarray(condition._concrete("nx.extract: condition", lossless=True))
    arr = as_tensor(arr, "nx.extract")
    return take(reshape(arr, (arr.size,)), np.flatnonzero(mask.ravel()[:arr.size]))


def tri(N, M=None, k=0, dtype=float64):  # noqa: N803  (numpy's names)
    """The N x M matrix with ones at and below diagonal k, zeros above.

    Args:
      N: the number of rows.
      M: the number of columns (default N).
      k: the diagonal: above the main one if positive, below if negative.
      dtype: the element type; default float64.

    Raises:
      TypeError: sizes or k not ints, or an unknown dtype.
      ValueError: a negative size.

    >>> from rune import nx
    >>> print(nx.tri(2, 3, dtype=nx.int32))
    int32 [2, 3]
    [[1, 0, 0],
     [1, 1, 0]]
    """
    n = _size_arg(N, "nx.tri", "N")
    m = n if M is None else _size_arg(M, "nx.tri", "M")
    return Tensor(np.tri(n, m, _int(k, "nx.tri", "k"), dtype=as_dtype(dtype, "nx.tri")))


def _int(k, fn, name):
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"{fn}: {name} must be an int, got {k!r}")
    return int(k)


def tril_indices(n, k=0, m=None):
    """The (rows, columns) indices of the lower triangle of an n x m matrix.

    Args:
      n: the number of rows.
      k: the diagonal bounding the triangle (0: the main one).
      m: the number of columns (default n).

    Raises:
      TypeError: sizes or k not ints.
      ValueError: a negative size.

    >>> from rune import nx
    >>> print(*nx.tril_indices(2))
    int64 [3] [0, 1, 1] int64 [3] [0, 0, 1]
    """
    return _triangle_indices(np.tril_indices, "nx.tril_indices", n, k, m)


def triu_indices(n, k=0, m=None):
    """The (rows, columns) indices of the upper triangle of an n x m matrix.

    Args:
      n: the number of rows.
      k: the diagonal bounding the triangle (0: the main one).
      m: the number of columns (default n).

    Raises:
      TypeError: sizes or k not ints.
      ValueError: a negative size.

    >>> from rune import nx
    >>> print(*nx.triu_indices(2))
    int64 [3] [0, 0, 1] int64 [3] [0, 1, 1]
    """
    return _triangle_indices(np.triu_indices, "nx.triu_indices", n, k, m)


def _triangle_indices(np_fn, fn, n, k, m):
    n = _size_arg(n, fn, "n")
    m = n if m is None else _size_arg(m, fn, "m")
    return tuple(Tensor(i) for i in np_fn(n, _int(k, fn, "k"), m))


def indices(dimensions, dtype=int, sparse=False):
    """A grid of indices: for each axis, a tensor holding each element's index along it.

    Args:
      dimensions: the grid's shape (a sequence of ints).
      dtype: the element type; default int64.
      sparse: one tensor per axis with size-1 axes elsewhere (they broadcast),
        instead of one stacked tensor.

    Raises:
      TypeError: dimensions not ints, or an unknown dtype.
      ValueError: a negative size.

    >>> from rune import nx
    >>> print(nx.indices((2, 2))[1])
    int64 [2, 2]
    [[0, 1],
     [0, 1]]
    """
    shape = _shape_arg(dimensions, "nx.indices")
    out = np.indices(shape, dtype=as_dtype(dtype, "nx.indices"), sparse=sparse)
    return tuple(Tensor(i) for i in out) if sparse else Tensor(out)


def identity(n, dtype=None):
    """The n x n identity matrix (`nx.eye(n)`).

    Args:
      n: the size.
      dtype: the element type; default float64.

    Raises:
      TypeError: n not an int, or an unknown dtype.
      ValueError: a negative size.

    >>> from rune import nx
    >>> print(nx.identity(2, dtype=nx.int32))
    int32 [2, 2]
    [[1, 0],
     [0, 1]]
    """
    return eye(n, dtype=float64 if dtype is None else dtype)


def empty(shape, dtype=float64, *, device=None):
    """Zeros: numpy's empty leaves memory to be filled in, and a tensor never changes.

    Args:
      shape: an int or a sequence of ints.
      dtype: the element type; default float64.
      device: None or "cpu" (the Array API standard's keyword; rune has one
        device, and any other raises ValueError).

    Raises:
      TypeError: an unknown dtype, or a shape that is not ints.
      ValueError: a negative size.

    >>> from rune import nx
    >>> print(nx.empty(2))
    float64 [2] [0, 0]
    """
    check_device(device, "nx.empty")
    return zeros(shape, dtype)


def empty_like(prototype, dtype=None, *, device=None):
    """Zeros of the prototype's shape and dtype (or `dtype`), as `empty`.

    Args:
      prototype: a tensor (traced or not), numpy array or number.
      dtype: the element type; default the prototype's.
      device: None or "cpu" (the Array API standard's keyword; rune has one
        device, and any other raises ValueError).

    Raises:
      TypeError: an unknown dtype, or prototype is not numeric.

    >>> from rune import nx
    >>> print(nx.empty_like(nx.array([1, 2])))
    int64 [2] [0, 0]
    """
    check_device(device, "nx.empty_like")
    return zeros_like(prototype, dtype)


def _spaced(np_fn, fn, start, stop, num, endpoint, dtype, **extra):
    num = _size_arg(num, fn, "num")
    dtype = None if dtype is None else as_dtype(dtype, fn)
    for name, value in (("start", start), ("stop", stop)):
        if isinstance(value, Tensor) or not np.isscalar(value):
            raise TypeError(f"{fn}: {name} must be a number, got {value!r}")
    return Tensor(np_fn(start, stop, num, endpoint=endpoint, dtype=dtype, **extra))


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None):
    """`num` numbers from `base**start` to `base**stop`, evenly spaced in the exponent.

    Args:
      start, stop: the first and last exponents (numbers).
      num: how many.
      endpoint: include `base**stop`.
      base: the base of the exponents.
      dtype: the element type; default float64.

    Raises:
      TypeError: bounds that are not numbers, num not an int, or an unknown dtype.
      ValueError: a negative num.

    >>> from rune import nx
    >>> print(nx.logspace(0, 3, 4))
    float64 [4] [1, 10, 100, 1000]
    """
    return _spaced(np.logspace, "nx.logspace", start, stop, num, endpoint, dtype, base=base)


def geomspace(start, stop, num=50, endpoint=True, dtype=None):
    """`num` numbers from start to stop, evenly spaced on a log scale.

    Args:
      start, stop: the first and last values (nonzero numbers).
      num: how many.
      endpoint: include stop.
      dtype: the element type; default float64.

    Raises:
      TypeError: bounds that are not numbers, num not an int, or an unknown dtype.
      ValueError: a negative num, or a bound that is 0.

    >>> from rune import nx
    >>> print(nx.geomspace(1, 1000, 4))
    float64 [4] [1, 10, 100, 1000]
    """
    if start == 0 or stop == 0:
        raise ValueError("nx.geomspace: start and stop must be nonzero")
    return _spaced(np.geomspace, "nx.geomspace", start, stop, num, endpoint, dtype)


def copy(a):
    """A tensor with a's values. Tensors never change, so this is a itself under
    transformations; eagerly, the values are copied (numpy's copy).

    Args:
      a: a tensor (or numpy array, number, nested lists).

    Raises:
      TypeError: a is not numeric.

    >>> from rune import nx
    >>> print(nx.copy(nx.array([1.0, 2.0])))
    float64 [2] [1, 2]
    """
    a = as_tensor(a, "nx.copy")
    return Tensor(np.array(a._value, copy=True)) if type(a) is Tensor else a
