"""Array creation: from shape or value, from existing data, numerical ranges, building matrices.

numpy's "Array creation routines": `zeros`, `ones`, `full`, `empty`, `eye`,
`identity` and their `_like` forms; `array`, `asarray`, `astype`, `copy`;
`arange`, `linspace`, `logspace`, `geomspace`, `meshgrid`; `diag`,
`diagflat`, `tri`, `tril`, `triu`.

Those that build from numbers make a constant: the result does not depend on
any traced value, so it has no derivative, and it works under every
transformation (`zeros_like(x)` needs only x's shape and dtype, which a
traced x has). Dtype arguments are checked by `nx.dtypes.as_dtype`.
`empty` and `empty_like` give zeros: a tensor never changes, so there is
nothing to fill in later. Those that build from tensors (`meshgrid`, `diag`,
`diagflat`, `tril`, `triu`, `copy`) are compositions of shape and indexing
operations, differentiable in the tensors they place; they import those
families when called, as the families import this one.

Each also takes the Array API standard's keyword `device=`: None or "cpu",
rune's one device (anything else is a ValueError); `nx.array` and
`nx.asarray` take its `copy=` (see `nx.asarray`).
"""

from __future__ import annotations

import operator

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import elementwise as _elementwise
from ..primitives import indexing as _ix
from .dtypes import as_dtype, float64
from .tensor import Tensor, TracedValueError

__all__ = [
    "array", "asarray", "create", "zeros", "ones", "full", "zeros_like", "ones_like",
    "full_like", "arange", "linspace", "eye", "meshgrid", "tri", "identity", "empty",
    "empty_like", "logspace", "geomspace", "copy", "astype", "diag", "diagflat", "tril", "triu",
]


_NUMERIC = frozenset("biufc")


def array(obj, dtype=None, *, device=None, copy=True) -> Tensor:
    """A tensor holding a copy of `obj`.

    Lists may hold traced values (inside grad, jit...): they are stacked, so
    the result is differentiable in them, as in JAX.

    Args:
      obj: a number, nested lists or tuples of numbers, a numpy array or a
        tensor. Python floats become float64, ints int64, bools bool.
      dtype: the element type (default: inferred from `obj`, as numpy does).
      device, copy: the standard's keywords, as in `nx.asarray` (copy=True here).

    Raises:
      ValueError: nested lists of unequal lengths (ragged), naming where.
      TypeError: an unknown dtype, or data that is not numbers.

    >>> from rune import nx
    >>> print(nx.array([[1, 2], [3, 4]]))
    int64 [2, 2]
    [[1, 2],
     [3, 4]]
    >>> print(nx.array([1, 2], dtype=nx.float32))
    float32 [2] [1, 2]
    """
    check_device(device, "nx.array")
    if copy is not True:
        return asarray(obj, dtype, copy=copy)
    if isinstance(obj, Tensor):
        if type(obj) is not Tensor:  # a traced value: tensors are immutable, no copy needed
            return obj if dtype is None else _astype(obj, dtype, "nx.array")
        obj = obj._value
    return _tensor_of(obj, dtype, "nx.array", copy=True)


def asarray(obj, dtype=None, *, device=None, copy=None) -> Tensor:
    """`obj` as a tensor: a tensor of the right dtype is returned as it is.

    Like `nx.array` otherwise. A numpy array is copied all the same (a tensor
    never changes, and the array could).

    Args:
      obj: a tensor, a number, nested lists or tuples of numbers, or a numpy array.
      dtype: the element type (nx.float32, its name 'float32', or a Python type
        such as float); default: obj's.
      device: None or "cpu" (the standard's keyword; rune has one device).
      copy: the standard's: None copies only what could change later (a numpy
        array, not a tensor); True always makes a new tensor; False never
        copies, and raises if it must (a list, another dtype): the tensor
        then shares a numpy array's memory, which must not change meanwhile.

    Raises:
      TypeError: an unknown dtype, or data that is not numbers.
      ValueError: nested lists of unequal lengths (ragged), naming where;
        copy=False where a copy is needed; a device other than "cpu".

    >>> from rune import nx
    >>> t = nx.array([1.0, 2.0])
    >>> nx.asarray(t) is t
    True
    >>> print(nx.asarray(t, dtype=nx.int32))
    int32 [2] [1, 2]
    """
    check_device(device, "nx.asarray")
    if isinstance(obj, Tensor):
        if dtype is None or as_dtype(dtype, "nx.asarray") == obj.dtype:
            return obj  # immutable: sharing it is as good as a copy
        _refuse_copy(copy, f"converting {obj.dtype} to {dtype}")
        return _astype(obj, dtype, "nx.asarray")
    if copy is False:
        return _shared(obj, dtype)
    return _tensor_of(obj, dtype, "nx.asarray", copy=True)


def create(dtype, shape, values) -> Tensor:
    """A tensor of `dtype` and `shape` from a flat sequence of values, in row-major order.

    Args:
      dtype: the element type (nx.float32, its name 'float32', or a Python type
        such as float).
      shape: an int or a sequence of ints.
      values: a flat sequence (or array) of exactly prod(shape) numbers.

    Raises:
      TypeError: an unknown dtype, a shape that is not ints, or values that
        are not a sequence of numbers.
      ValueError: the number of values is not the size of the shape.

    >>> from rune import nx
    >>> print(nx.create(nx.float64, [2], [1., 2.]))
    float64 [2] [1, 2]
    >>> print(nx.create(nx.int32, [2, 2], range(4)))
    int32 [2, 2]
    [[0, 1],
     [2, 3]]
    """
    dtype = as_dtype(dtype, "nx.create")
    shape = _shape_arg(shape, "nx.create")
    if not hasattr(values, "shape") and not hasattr(values, "__iter__"):
        raise TypeError(f"nx.create: values must be a sequence of numbers, got "
                        f"{type(values).__name__}")
    flat = _to_numpy(list(values) if not hasattr(values, "shape") else values, dtype,
                     "nx.create", copy=True).reshape(-1)
    size = int(np.prod(shape, dtype=np.int64))
    if flat.size != size:
        raise ValueError(
            f"nx.create: shape {list(shape)} holds {size} values, but {flat.size} were given"
        )
    return Tensor(flat.reshape(shape))


def zeros(shape, dtype=float64, *, device=None) -> Tensor:
    """A tensor of zeros.

    Args:
      shape: an int or a sequence of ints.
      dtype: the element type (nx.float32, its name 'float32', or a Python type
        such as float); default float64.
      device: None or "cpu" (the Array API standard's keyword; rune has one
        device, and any other raises ValueError).

    Raises:
      TypeError: an unknown dtype, or a shape that is not ints.
      ValueError: a negative size.

    >>> from rune import nx
    >>> print(nx.zeros((2, 3)))
    float64 [2, 3]
    [[0, 0, 0],
     [0, 0, 0]]
    """
    check_device(device, "nx.zeros")
    return Tensor(np.zeros(_shape_arg(shape, "nx.zeros"), as_dtype(dtype or float64, "nx.zeros")))


def ones(shape, dtype=float64, *, device=None) -> Tensor:
    """A tensor of ones.

    Args:
      shape: an int or a sequence of ints.
      dtype: the element type (nx.float32, its name 'float32', or a Python type
        such as float); default float64.
      device: None or "cpu" (the Array API standard's keyword; rune has one
        device, and any other raises ValueError).

    Raises:
      TypeError: an unknown dtype, or a shape that is not ints.
      ValueError: a negative size.

    >>> from rune import nx
    >>> print(nx.ones(3, dtype=nx.int32))
    int32 [3] [1, 1, 1]
    """
    check_device(device, "nx.ones")
    return Tensor(np.ones(_shape_arg(shape, "nx.ones"), as_dtype(dtype or float64, "nx.ones")))


def full(shape, fill_value, dtype=None, *, device=None) -> Tensor:
    """A tensor of `shape` with every element `fill_value`.

    Args:
      shape: an int or a sequence of ints.
      fill_value: a number (a constant: to spread a traced value, use
        nx.broadcast_to).
      dtype: the element type (nx.float32, its name 'float32', or a Python type
        such as float); default: fill_value's, as numpy does.
      device: None or "cpu" (the Array API standard's keyword; rune has one
        device, and any other raises ValueError).

    Raises:
      TypeError: an unknown dtype, a shape that is not ints, or a fill_value
        that is not a number.
      ValueError: a negative size.

    >>> from rune import nx
    >>> print(nx.full(2, 0.5))
    float64 [2] [0.5, 0.5]
    """
    check_device(device, "nx.full")
    shape = _shape_arg(shape, "nx.full")
    dtype = None if dtype is None else as_dtype(dtype, "nx.full")
    return Tensor(np.full(shape, _to_numpy(fill_value, None, "nx.full"), dtype))


def zeros_like(x, dtype=None, *, device=None) -> Tensor:
    """Zeros of x's shape and dtype (or `dtype`); x may be a traced value.

    Args:
      x: a tensor (traced or not), numpy array or number: only its shape and
        dtype are read.
      dtype: the element type (nx.float32, its name 'float32', or a Python type
        such as float); default x's.
      device: None or "cpu" (the Array API standard's keyword; rune has one
        device, and any other raises ValueError).

    Raises:
      TypeError: an unknown dtype, or x is not numeric.

    >>> from rune import nx
    >>> print(nx.zeros_like(nx.array([1, 2])))
    int64 [2] [0, 0]
    """
    check_device(device, "nx.zeros_like")
    return _full_like(x, 0, dtype, "nx.zeros_like")


def ones_like(x, dtype=None, *, device=None) -> Tensor:
    """Ones of x's shape and dtype (or `dtype`); x may be a traced value.

    Args:
      x: a tensor (traced or not), numpy array or number: only its shape and
        dtype are read.
      dtype: the element type (nx.float32, its name 'float32', or a Python type
        such as float); default x's.
      device: None or "cpu" (the Array API standard's keyword; rune has one
        device, and any other raises ValueError).

    Raises:
      TypeError: an unknown dtype, or x is not numeric.

    >>> from rune import nx
    >>> print(nx.ones_like(nx.array([[1.0], [2.0]])))
    float64 [2, 1]
    [[1],
     [1]]
    """
    check_device(device, "nx.ones_like")
    return _full_like(x, 1, dtype, "nx.ones_like")


def full_like(x, fill_value, dtype=None, *, device=None) -> Tensor:
    """`fill_value` in x's shape and dtype (or `dtype`); x may be a traced value.

    Args:
      x: a tensor (traced or not), numpy array or number: only its shape and
        dtype are read.
      fill_value: a number.
      dtype: the element type (nx.float32, its name 'float32', or a Python type
        such as float); default x's.
      device: None or "cpu" (the Array API standard's keyword; rune has one
        device, and any other raises ValueError).

    Raises:
      TypeError: an unknown dtype, or x or fill_value is not numeric.

    >>> from rune import nx
    >>> print(nx.full_like(nx.zeros(2, dtype=nx.float32), 7))
    float32 [2] [7, 7]
    """
    check_device(device, "nx.full_like")
    return _full_like(x, fill_value, dtype, "nx.full_like")


def _full_like(x, fill_value, dtype, fn):
    if not hasattr(x, "shape"):
        x = _to_numpy(x, None, fn)
    dtype = x.dtype if dtype is None else as_dtype(dtype, fn)
    return Tensor(np.full(x.shape, _to_numpy(fill_value, None, fn), dtype))


def arange(start, stop=None, step=None, dtype=None, *, device=None) -> Tensor:
    """Evenly spaced values in [start, stop): `arange(3)` is [0, 1, 2].

    Args:
      start, stop, step: real numbers, as numpy's arange (one argument is `stop`).
      dtype: the element type (nx.float32, its name 'float32', or a Python type
        such as float); default: ints for int arguments, else float64.
      device: None or "cpu" (the Array API standard's keyword; rune has one
        device, and any other raises ValueError).

    Raises:
      TypeError: an unknown dtype, or arguments that are not real numbers.
      ValueError: a zero step.

    >>> from rune import nx
    >>> print(nx.arange(4))
    int64 [4] [0, 1, 2, 3]
    >>> print(nx.arange(0.0, 1.0, 0.25))
    float64 [4] [0, 0.25, 0.5, 0.75]
    """
    check_device(device, "nx.arange")
    if step == 0:
        raise ValueError("nx.arange: step must not be zero")
    dtype = None if dtype is None else as_dtype(dtype, "nx.arange")
    if stop is None:
        start, stop = 0, start
    try:
        if stop is None:  # nx.arange(None): numpy would give an empty range
            raise TypeError
        return Tensor(np.arange(start, stop, 1 if step is None else step, dtype=dtype))
    except TypeError:  # numpy's message names no argument; arange(None) was empty
        raise TypeError(f"nx.arange: start, stop and step must be real numbers, got "
                        f"{start!r}, {stop!r} and {step!r}") from None


def linspace(start, stop, num=50, endpoint=True, dtype=None, *, device=None) -> Tensor:
    """`num` evenly spaced values from start to stop (included unless endpoint=False).

    Args:
      start, stop: numbers (or 0-d tensors; traced ones too: the values are
        differentiable in the bounds).
      num: how many values, an int.
      endpoint: include stop as the last value.
      dtype: the element type (nx.float32, its name 'float32', or a Python type
        such as float); default float64 (complex128 for complex bounds).
      device: None or "cpu" (the Array API standard's keyword; rune has one
        device, and any other raises ValueError).

    Raises:
      TypeError: an unknown dtype, bounds that are not numbers, or a num
        that is not an int.
      ValueError: a negative num.

    >>> from rune import nx
    >>> print(nx.linspace(0, 1, 5))
    float64 [5] [0, 0.25, 0.5, 0.75, 1]
    """
    check_device(device, "nx.linspace")
    num = _size_arg(num, "nx.linspace", "num")
    dtype = None if dtype is None else as_dtype(dtype, "nx.linspace")
    if _is_traced(start) or _is_traced(stop):
        return _traced_linspace(start, stop, num, endpoint, dtype)
    try:
        return Tensor(np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype))
    except TypeError:  # numpy's message names neither the function nor the argument
        raise TypeError(f"nx.linspace: start and stop must be numbers, got {start!r} and "
                        f"{stop!r}") from None


def _is_traced(x) -> bool:
    return isinstance(x, Tensor) and type(x) is not Tensor


def _traced_linspace(start, stop, num, endpoint, dtype):
    """linspace as numpy computes it (start + i * step, the last value set to
    stop), in operations on the bounds: differentiable in them, as in JAX."""
    for name, bound in (("start", start), ("stop", stop)):
        if tuple(getattr(bound, "shape", ())) != ():
            raise TypeError(f"nx.linspace: {name} must be a number, got a tensor of shape "
                            f"{tuple(bound.shape)}")
    div = num - 1 if endpoint else num
    steps = Tensor(np.arange(num, dtype=np.float64))
    out = steps * ((stop - start) / div) + start if div > 0 else steps * 0.0 + start
    if endpoint and num > 1:
        last = Tensor(np.arange(num) == num - 1)
        out = _elementwise.where(last, stop, out)
    if dtype is None and out.dtype.kind not in "fc":
        dtype = float64
    return out if dtype is None else _astype(out, dtype, "nx.linspace")


def eye(N, M=None, k=0, dtype=float64, *, device=None) -> Tensor:  # noqa: N803  (numpy's names)
    """The N x M matrix with ones on diagonal k (0: the main one) and zeros elsewhere.

    Args:
      N: the number of rows, an int.
      M: the number of columns (default N).
      k: the diagonal, an int: above the main one if positive, below if negative.
      dtype: the element type (nx.float32, its name 'float32', or a Python type
        such as float); default float64.
      device: None or "cpu" (the Array API standard's keyword; rune has one
        device, and any other raises ValueError).

    Raises:
      TypeError: an unknown dtype, or sizes or k that are not ints.
      ValueError: a negative size.

    >>> from rune import nx
    >>> print(nx.eye(2))
    float64 [2, 2]
    [[1, 0],
     [0, 1]]
    """
    check_device(device, "nx.eye")
    n = _size_arg(N, "nx.eye", "N")
    m = n if M is None else _size_arg(M, "nx.eye", "M")
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool):
        raise TypeError(f"nx.eye: k must be an int, got {k!r}")
    return Tensor(np.eye(n, m, k, dtype=as_dtype(dtype or float64, "nx.eye")))


def check_device(device, fn: str):
    """The standard's `device=`: None or "cpu", the one device (or a tensor's `.device`)."""
    if device is not None and device != "cpu":
        raise ValueError(f"{fn}: device must be None or 'cpu' (rune computes on the CPU), "
                         f"got {device!r}")


def _refuse_copy(copy, why: str):
    if copy is False:
        raise ValueError(f"nx.asarray: copy=False, but {why} needs a copy")


def _shared(obj, dtype) -> Tensor:
    """nx.asarray(obj, copy=False): a tensor on obj's own memory, as the standard
    asks; the caller promises not to change obj while the tensor lives."""
    if not isinstance(obj, np.ndarray) and not hasattr(obj, "__array_interface__") \
            and not hasattr(obj, "__dlpack__"):
        _refuse_copy(False, f"a {type(obj).__name__}")
    try:
        return Tensor(np.asarray(obj, dtype=None if dtype is None
                                 else as_dtype(dtype, "nx.asarray"), copy=False))
    except ValueError:
        _refuse_copy(False, "this conversion")


def as_tensor(x, fn: str, result_is_new: bool = False) -> Tensor:
    """x as a Tensor for the nx function `fn`: tensors (traced ones too) pass as
    they are; numbers, nested lists and numpy arrays convert; anything else
    (None, strings) raises TypeError naming `fn`.

    A numpy array (or another object numpy reads without copying) is copied:
    the caller may change it later, and a tensor never changes, though many
    results are views of their input (reshape, transpose, slices...) and a
    graph or a record keeps its inputs. `result_is_new=True` says that fn only
    reads x into new memory (a reduction, a product): outside transformations
    the copy is then skipped (nx.sum of a million values: 0.3 ms, 0.9 with it).
    Lists and numbers are converted into a new array anyway.
    """
    if isinstance(x, Tensor):
        return x
    borrowed = result_is_new and type(x) is np.ndarray and not _transforming()
    return _tensor_of(x, None, fn, copy=not borrowed)


def _transforming() -> bool:
    """Whether a transformation is active in this thread."""
    from ..core import active_traces  # rune.core imports rune.nx: imported when first needed

    return bool(active_traces())


def _tensor_of(obj, dtype, fn, copy=False) -> Tensor:
    """obj as a new tensor; nested lists holding traced values are stacked
    (differentiably, as JAX does), since numpy cannot copy a traced value."""
    try:
        return Tensor(_to_numpy(obj, dtype, fn, copy))
    except TracedValueError:
        if _traced(obj) is None:
            raise
    return _stacked(obj, dtype, fn)


def _stacked(obj, dtype, fn) -> Tensor:
    from .manipulation import stack  # lazy: manipulation imports creation

    if isinstance(obj, (list, tuple)):
        _check_not_ragged(obj, fn)
        out = stack([_stacked(item, None, fn) for item in obj]) if obj else Tensor(
            np.zeros(0))
    else:
        out = obj if isinstance(obj, Tensor) else Tensor(_to_numpy(obj, None, fn))
    return out if dtype is None else _astype(out, dtype, fn)


def _check_not_ragged(obj, fn):
    ragged = _ragged(obj)
    if ragged is not None:
        raise ValueError(f"{fn}: ragged nested sequence: {ragged} (the lists at one depth "
                         f"must all have the same length)")


def _astype(x, dtype, fn):
    return _elementwise.astype(x, dtype=as_dtype(dtype, fn))


def _to_numpy(obj, dtype, fn, copy=False) -> np.ndarray:
    """obj as a numeric numpy array, with errors that say what is wrong."""
    if dtype is not None:
        dtype = as_dtype(dtype, fn)
    try:
        value = np.array(obj, dtype=dtype, copy=copy or None)
    except ValueError as error:
        ragged = _ragged(obj)
        if ragged is None:  # np.array(["a"], float): "could not convert string to float"
            raise TypeError(f"{fn}: expected numbers, got {type(obj).__name__} data that "
                            f"numpy cannot read as {dtype} ({error})") from None
        raise ValueError(f"{fn}: ragged nested sequence: {ragged} (the lists at one depth "
                         f"must all have the same length)") from error
    except TracedValueError as error:
        traced = _traced(obj)
        if traced is None:
            raise
        raise TracedValueError(
            f"{fn}: element {traced[0]} is traced by {traced[1]}, and {fn} copies plain "
            f"numbers only; combine traced values with nx.stack"
        ) from error
    if value.dtype.kind not in _NUMERIC:
        raise TypeError(
            f"{fn}: expected numbers, got {type(obj).__name__} data of numpy dtype "
            f"{value.dtype} (tensors hold booleans, integers, floats or complex numbers)"
        )
    return value


def _ragged(obj, where="") -> str | None:
    """Where nested lists stop having a shape: '[1] has length 1, but [0] has length 2'."""
    if not isinstance(obj, (list, tuple)):
        return None
    lengths = [len(item) if isinstance(item, (list, tuple)) else None for item in obj]
    first = lengths[0] if lengths else None
    for i, n in enumerate(lengths):
        if n != first:
            def describe(j, m):
                return f"{where}[{j}] " + ("is a number" if m is None else f"has length {m}")
            return f"{describe(i, n)}, but {describe(0, first)}"
    for i, item in enumerate(obj):
        found = _ragged(item, f"{where}[{i}]")
        if found is not None:
            return found
    return None


def _traced(obj, where=""):
    """(path, transformation) of the first traced value in nested lists, or None."""
    if isinstance(obj, Tensor) and type(obj) is not Tensor:
        return where, obj._trace.transform
    if isinstance(obj, (list, tuple)):
        for i, item in enumerate(obj):
            found = _traced(item, f"{where}[{i}]")
            if found is not None:
                return found
    return None


def _size_arg(n, fn, name) -> int:
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"{fn}: {name} must be an int, got {n!r}") from None
    if n < 0:
        raise ValueError(f"{fn}: {name} must not be negative, got {n}")
    return n


def _shape_arg(shape, fn) -> tuple:
    """A shape argument (an int or a sequence of ints) as a tuple of ints."""
    items = (shape,) if not isinstance(shape, (list, tuple)) and np.ndim(shape) == 0 else shape
    try:
        dims = tuple(operator.index(n) for n in items)
    except TypeError:
        raise TypeError(f"{fn}: shape must be an int or a sequence of ints, "
                        f"got {shape!r}") from None
    if any(n < 0 for n in dims):
        raise ValueError(f"{fn}: shape {list(dims)} has a negative size")
    return dims


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
    from .manipulation.dimensions import broadcast_arrays  # lazy: manipulation imports creation
    from .manipulation.shape import reshape  # lazy: manipulation imports creation
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


def astype(x, dtype, /, *, copy=True, device=None):
    """x converted to `dtype` (x itself if it has that dtype already).

    Complex to real keeps the real part; float to int truncates toward zero.
    Derivatives flow between float and complex dtypes; an integer or bool
    result has none.

    Args:
      x: a tensor, numpy array or number.
      dtype: the new element type (nx.float32, its name 'float32', or a
        Python type such as float).
      copy: the Array API's keyword, without effect: a tensor never changes, so
        x itself serves as its copy.
      device: None or "cpu" (the Array API's keyword; any other raises ValueError).

    Raises:
      TypeError: an unknown dtype, or x is not numeric.
      ValueError: a device other than "cpu".

    >>> from rune import nx
    >>> print(nx.astype(nx.array([1.7, -1.7]), nx.int32))
    int32 [2] [1, -1]
    """
    check_device(device, "nx.astype")
    dtype = as_dtype(dtype, "nx.astype")
    x = as_tensor(x, "nx.astype")  # None and strings raise, not become nan and floats
    return x if x.dtype == dtype else _e.astype(x, dtype=dtype)


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
    from .indexing import diagonal  # lazy: indexing imports creation
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
    from .manipulation.shape import ravel  # lazy: manipulation imports creation
    return diag(ravel(as_tensor(v, "nx.diagflat")), k)


def _triangle(x, k, fn, lower):
    from .indexing import where  # lazy: indexing imports creation
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
