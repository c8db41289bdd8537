"""`Tensor`: an immutable n-dimensional array over numpy.

A Tensor holds one numpy array and never changes it. Every operation returns
a new Tensor, so a Tensor can be shared freely. Operators and methods are
thin: each calls the `rune.nx` function (or the primitive) of the same name,
so that they work the same on values and on the tracers that
transformations pass to a function.

The argument helpers every family uses live here too, below them all:
`broadcast_error`, `call_broadcasting`, and `normalize_axis` /
`normalize_axes` (an `axis` is None for all axes, an int or a tuple of ints;
negative axes count from the end; each function normalizes it once before it
reaches a primitive, and raises ValueError for an axis out of range).
"""

from __future__ import annotations

import functools
import math
import operator

import numpy as np

from . import printing as _printing


class TracedValueError(Exception):
    """Raised when code reads the data of a value that a transformation traces.

    Under `rune.jit` and `rune.vmap` a value has a shape and a dtype but no
    data while the function is traced, so `item()`, `float()`, `bool()`,
    `numpy()` and Python control flow on it cannot be answered. Under
    differentiation `bool()` and `int()` read the value (their result does not
    move with it, so Python control flow works), while `float()`, `item()`
    and `numpy()` raise: the number would drop the derivative.

    >>> import rune
    >>> from rune import nx
    >>> try:
    ...     rune.jit(lambda x: x * float(x))(nx.array(2.0))
    ... except rune.TracedValueError as error:
    ...     print(str(error).split(",")[0])
    float(Tensor): the value is traced by rune.jit
    """


def broadcast_error(fn: str, error: Exception, *args) -> Exception:
    """The error to raise when applying `fn` to `args` failed with `error`.

    If the arguments' shapes do not broadcast, a ValueError naming `fn` and
    every shape (numpy's own message names neither the function nor, under
    vmap, the shapes the user sees); for integers to negative integer powers
    one naming `fn`; otherwise `error` itself.
    """
    if "negative integer powers" in str(error):  # numpy's message names no function
        return ValueError(
            f"{fn}: an integer base x to a negative integer power y is not an integer; "
            f"expected a float base (x.astype(nx.float64)) for fractional results"
        )
    shapes = [tuple(a.shape) if hasattr(a, "shape") else np.shape(a) for a in args]
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        listed = ", ".join(str(s) for s in shapes[:-1]) + f" and {shapes[-1]}"
        return ValueError(
            f"{fn}: shapes {listed} do not broadcast together (aligned from the last "
            f"axis, each pair of sizes must be equal, or one of them 1)"
        )
    return error


def call_broadcasting(fn: str, prim, *args):
    """`prim(*args)`, raising `broadcast_error`'s message if numpy's broadcasting fails."""
    try:
        return prim(*args)
    except ValueError as error:
        raise broadcast_error(fn, error, *args) from None


def _binary(name: str, symbol: str, reflected: bool = False):
    """An operator method applying the elementwise function `name` (`x + y`).

    The function is looked up in `_functions` (filled by rune/nx/__init__.py
    once the primitives exist); the try costs nothing until numpy raises.
    """
    fn = f"the {symbol} operator (nx.{name})"
    if reflected:
        def method(self, other):
            try:
                return _functions[name](other, self)
            except ValueError as error:
                raise broadcast_error(fn, error, other, self) from None
    else:
        def method(self, other):
            try:
                return _functions[name](self, other)
            except ValueError as error:
                raise broadcast_error(fn, error, self, other) from None
    method.__doc__ = f"{'other' if reflected else 'self'} {symbol} " \
                     f"{'self' if reflected else 'other'}, elementwise (nx.{name})."
    return method


TracedValueError.__module__ = "rune"  # rune.TracedValueError, as users import it


class Tensor:
    """An immutable n-dimensional array: a dtype, a shape and values.

    Create tensors with `nx.array`, `nx.create`, `nx.zeros`... Tensors mix with
    Python scalars and numpy arrays in every operation, on either side, with
    numpy's type promotion (`2 * t`, `t + np.ones(2)`, `np.ones(2) + t` are
    tensors; Python numbers are weakly typed, so float32 stays float32).
    Operations never change a tensor: `t.numpy()` is a copy and
    `np.asarray(t)` a read-only view. `Tensor(array)` wraps an array without
    copying it (rune's own functions use it); `nx.array` copies.

    Args:
      value: a numpy array (or anything np.asarray reads) of booleans,
        integers, floats or complex numbers.

    Raises:
      TypeError: value is not numeric (None, strings, objects).
      ValueError: value is a ragged nested list.

    >>> from rune import nx
    >>> t = nx.array([[1., 2.], [3., 4.]])
    >>> t.shape, t.dtype, t.ndim, t.size
    ((2, 2), dtype('float64'), 2, 4)
    >>> print(t.T + t)
    float64 [2, 2]
    [[2, 5],
     [5, 8]]
    """

    # _value: a numpy array, or a numpy scalar for a 0-d result (eager `bind`
    # stores what a primitive's impl returns: see core.Primitive), so code that
    # needs an array (a view, a conversion) reads np.asarray(_value).
    __slots__ = ("_value",)

    # numpy defers to our reflected operators (`ndarray + Tensor` -> Tensor).
    __array_ufunc__ = None

    def __init__(self, value):
        self._value = np.asarray(value)
        if self._value.dtype.kind not in "biufc":
            raise TypeError(f"Tensor: expected numbers, got {type(value).__name__} data of "
                            f"numpy dtype {self._value.dtype} (use nx.array, which names "
                            f"what is wrong)")

    # ------------------------------------------------------------ attributes
    @property
    def shape(self) -> tuple:
        """The size of each axis, a tuple of ints."""
        return self._value.shape

    @property
    def dtype(self) -> np.dtype:
        """The element type, a numpy dtype (`nx.float64`...)."""
        return self._value.dtype

    @property
    def ndim(self) -> int:
        """The number of axes."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """The number of elements."""
        return math.prod(self.shape)

    @property
    def T(self) -> Tensor:
        """The tensor with its axes reversed (`nx.transpose(t)`)."""
        return _ops.transpose(self)

    @property
    def mT(self) -> Tensor:
        """The tensor with its last two axes swapped (`nx.matrix_transpose(t)`)."""
        return _ops.matrix_transpose(self)

    @property
    def real(self) -> Tensor:
        """The real part (`nx.real(t)`)."""
        return _ops.real(self)

    @property
    def imag(self) -> Tensor:
        """The imaginary part (`nx.imag(t)`)."""
        return _ops.imag(self)

    @property
    def at(self):
        """Functional indexed updates, as JAX's: `t.at[index].set(v)` is t with v
        written at index, a new tensor (t does not change).

        `t.at[index]` has the methods `set(v)`, `add(v)`, `multiply(v)`,
        `divide(v)`, `min(v)`, `max(v)` (each returns the updated tensor) and
        `get()` (`t[index]`). The index is any numpy index: ints, slices,
        None, `...`, integer arrays (traced ones too) and boolean masks (not
        traced). v broadcasts to the shape of `t[index]` and takes t's dtype.
        A place that integer arrays name several times receives every value:
        `add` sums them, `multiply` multiplies, `min` and `max` take the
        extremum, and `set` keeps the last, as numpy's `t[index] = v`.
        Differentiable in t and in v at any order, in both modes, under
        vmap (batched indices too) and jit.

        Raises (from the methods): IndexError for an index out of range or
        invalid; ValueError when v does not broadcast to `t[index]`;
        TypeError for `min`/`max` of complex tensors; rune.TracedValueError
        for a traced boolean mask.

        >>> from rune import nx
        >>> t = nx.zeros((2, 3))
        >>> print(t.at[0, 1:].set(1.0).at[[1, 1], 0].add(2.0))
        float64 [2, 3]
        [[0, 1, 1],
         [4, 0, 0]]
        """
        return _ops.indexing.IndexUpdates(self)

    # -------------------------------------------------------- reading values
    def _concrete(self, read, lossless=False):
        """The numpy value behind this tensor; tracers override (see core).

        `read` names the read for error messages; `lossless` says the read
        keeps derivatives exact (bool, int), which differentiation allows.
        """
        return self._value

    def item(self):
        """The single element as a Python scalar.

        Raises:
          ValueError: the tensor has more than one element (naming its shape).
          TracedValueError: the value is traced (under differentiation, read
            `rune.detach(t).item()` to mean the number without its derivative).

        >>> from rune import nx
        >>> nx.array([[2.5]]).item()
        2.5
        """
        return self._scalar("Tensor.item()", _identity)

    def tolist(self):
        """The values as nested Python lists of Python scalars.

        >>> from rune import nx
        >>> nx.array([[1, 2], [3, 4]]).tolist()
        [[1, 2], [3, 4]]
        """
        return self._concrete("Tensor.tolist()").tolist()

    def numpy(self) -> np.ndarray:
        """A numpy copy of the values (changing it does not change the tensor).

        >>> from rune import nx
        >>> nx.array([1.0, 2.0]).numpy()
        array([1., 2.])
        """
        return np.array(self._concrete("Tensor.numpy()"), copy=True)

    def __array__(self, dtype=None, copy=None):
        value = self._concrete("numpy.asarray(Tensor)")
        if dtype is not None and value.dtype != dtype:
            if copy is False:
                raise ValueError(f"numpy.asarray(Tensor, copy=False): converting {value.dtype} "
                                 f"to {np.dtype(dtype)} needs a copy")
            return np.asarray(value, dtype=dtype)  # value may be a numpy scalar: see _value
        if copy:
            return np.array(value, copy=True)
        view = np.asarray(value).view()
        view.flags.writeable = False  # the tensor is immutable; so is its view
        return view

    def _scalar(self, read, convert, lossless=False):
        value = self._concrete(read, lossless)
        if value.size != 1:
            raise ValueError(
                f"{read}: expected a tensor with one element, got shape {value.shape} "
                f"({value.size} elements)"
            )
        return convert(value.reshape(()).item())

    def __bool__(self):
        return self._scalar("bool(Tensor)", bool, lossless=True)

    def __float__(self):
        return self._scalar("float(Tensor)", float)

    def __int__(self):
        return self._scalar("int(Tensor)", int, lossless=True)

    def __complex__(self):
        return self._scalar("complex(Tensor)", complex)

    def __index__(self):
        if self.dtype.kind not in "iub":
            raise TypeError(f"only integer tensors can be used as an index, got {self.dtype}")
        return self._scalar("operator.index(Tensor)", int, lossless=True)

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def __iter__(self):
        """The sub-tensors along axis 0: `for row in matrix`."""
        if not self.shape:
            raise TypeError("iteration over a 0-d tensor")
        if type(self) is Tensor:  # no transformation: slice the array directly
            return (Tensor(row) for row in self._value)
        return (self[i] for i in range(self.shape[0]))

    __hash__ = None  # == is elementwise, so tensors are not hashable

    # -------------------------------------------------------------- printing
    def _printable(self):
        """The values to print, or None for a traced value that has none.

        Printing under differentiation shows the value (it does not feed
        back into the computation); under jit and vmap there is none.
        """
        try:
            return self._concrete("str(Tensor)", lossless=True)
        except (TracedValueError, RuntimeError):
            return None

    def __str__(self):
        value = self._printable()
        if value is None:
            return f"{self.dtype} {list(self.shape)} <traced by {self._trace.transform}>"
        return _printing.format_tensor(value)

    def __repr__(self):
        trace = getattr(self, "_trace", None)
        if trace is None:
            return f"Tensor({_printing.format_tensor(self._value)})"
        value = self._printable()
        text = f"{self.dtype} {list(self.shape)}" if value is None else \
            _printing.format_tensor(value)
        return f"Tensor({text}, traced by {trace.transform})"

    def __format__(self, spec):
        if not spec:
            return str(self)
        return format(self.item(), spec)

    # ------------------------------------------------------------ operations
    def astype(self, dtype) -> Tensor:
        """The tensor converted to `dtype` (see `nx.astype`).

        >>> from rune import nx
        >>> print(nx.array([1.7, -2.2]).astype("int64"))
        int64 [2] [1, -2]
        """
        return _ops.astype(self, dtype)

    def reshape(self, *shape) -> Tensor:
        """The tensor with a new shape: `t.reshape(2, 3)` or `t.reshape((2, 3))`.

        >>> from rune import nx
        >>> print(nx.arange(6).reshape(2, 3))
        int64 [2, 3]
        [[0, 1, 2],
         [3, 4, 5]]
        """
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = shape[0]
        return _ops.reshape(self, shape)

    def transpose(self, *axes) -> Tensor:
        """The tensor with its axes permuted: `t.transpose(1, 0)` (reversed by default).

        >>> from rune import nx
        >>> print(nx.arange(6).reshape(2, 3).transpose())
        int64 [3, 2]
        [[0, 3],
         [1, 4],
         [2, 5]]
        """
        if len(axes) == 1 and not isinstance(axes[0], int):
            axes = axes[0]
        return _ops.transpose(self, axes or None)

    def squeeze(self, axis=None) -> Tensor:
        """The tensor without its axes of size 1 (`nx.squeeze`).

        >>> from rune import nx
        >>> nx.zeros((1, 3, 1)).squeeze().shape
        (3,)
        """
        return _ops.squeeze(self, axis)

    def ravel(self) -> Tensor:
        """The elements in one axis, in row-major order (`nx.ravel`).

        >>> from rune import nx
        >>> print(nx.array([[1, 2], [3, 4]]).ravel())
        int64 [4] [1, 2, 3, 4]
        """
        return _ops.ravel(self)

    def flatten(self) -> Tensor:
        """The elements in one axis, in row-major order.

        >>> from rune import nx
        >>> print(nx.array([[1, 2], [3, 4]]).flatten())
        int64 [4] [1, 2, 3, 4]
        """
        return _ops.reshape(self, (-1,))

    def conj(self) -> Tensor:
        """The complex conjugate (`nx.conj`).

        >>> from rune import nx
        >>> print(nx.array([1 + 2j, 3 - 1j]).conj())
        complex128 [2] [1-2i, 3+1i]
        """
        return _ops.conj(self)

    conjugate = conj

    def round(self, decimals=0) -> Tensor:
        """Rounded to `decimals` decimals, halves to even (`nx.round`).

        >>> from rune import nx
        >>> print(nx.array([0.5, 1.5, 2.5, 2.675]).round())
        float64 [4] [0, 2, 2, 3]
        >>> print(nx.array([2.675]).round(2))
        float64 [1] [2.68]
        """
        return _ops.round(self, decimals)

    def __round__(self, ndigits=None) -> Tensor:
        """`round(t)` and `round(t, 2)`: a tensor, as numpy's arrays do."""
        return _ops.round(self, ndigits or 0)

    def clip(self, min=None, max=None, *, a_min=None, a_max=None) -> Tensor:  # noqa: A002
        """Limited to [min, max] (`nx.clip`).

        >>> from rune import nx
        >>> print(nx.array([-2.0, 0.5, 3.0]).clip(0, 1))
        float64 [3] [0, 0.5, 1]
        """
        return _ops.clip(self, min, max, a_min=a_min, a_max=a_max)

    # Reductions, by the nx functions of the same names.
    def sum(self, axis=None, keepdims=False):
        r"""The sum over `axis` (all axes by default): `nx.sum(t, ...)`.

        >>> from rune import nx
        >>> t = nx.array([[1.0, 2.0], [3.0, 4.0]])
        >>> print(t.sum(), t.sum(axis=0), sep="\n")
        float64 [] 10
        float64 [2] [4, 6]
        """
        return _ops.sum(self, axis=axis, keepdims=keepdims)

    def mean(self, axis=None, keepdims=False):
        r"""The mean over `axis`: `nx.mean(t, ...)`.

        >>> from rune import nx
        >>> t = nx.array([[1.0, 2.0], [3.0, 4.0]])
        >>> print(t.mean(), t.mean(axis=1), sep="\n")
        float64 [] 2.5
        float64 [2] [1.5, 3.5]
        """
        return _ops.mean(self, axis=axis, keepdims=keepdims)

    def prod(self, axis=None, keepdims=False):
        r"""The product over `axis`: `nx.prod(t, ...)`.

        >>> from rune import nx
        >>> t = nx.array([[1.0, 2.0], [3.0, 4.0]])
        >>> print(t.prod(), t.prod(axis=0), sep="\n")
        float64 [] 24
        float64 [2] [3, 8]
        """
        return _ops.prod(self, axis=axis, keepdims=keepdims)

    def max(self, axis=None, keepdims=False):
        r"""The largest element over `axis`: `nx.max(t, ...)`.

        >>> from rune import nx
        >>> t = nx.array([[1.0, 5.0], [3.0, 4.0]])
        >>> print(t.max(), t.max(axis=0), sep="\n")
        float64 [] 5
        float64 [2] [3, 5]
        """
        return _ops.max(self, axis=axis, keepdims=keepdims)

    def min(self, axis=None, keepdims=False):
        r"""The smallest element over `axis`: `nx.min(t, ...)`.

        >>> from rune import nx
        >>> t = nx.array([[1.0, 5.0], [3.0, 4.0]])
        >>> print(t.min(), t.min(axis=1), sep="\n")
        float64 [] 1
        float64 [2] [1, 3]
        """
        return _ops.min(self, axis=axis, keepdims=keepdims)

    def var(self, axis=None, keepdims=False, ddof=0, *, correction=None):
        r"""The variance over `axis`: `nx.var(t, ...)`.

        >>> from rune import nx
        >>> t = nx.array([1.0, 2.0, 3.0, 4.0])
        >>> print(t.var(), t.var(ddof=1), sep="\n")
        float64 [] 1.25
        float64 [] 1.6666666666666667
        """
        return _ops.var(self, axis=axis, keepdims=keepdims, ddof=ddof, correction=correction)

    def std(self, axis=None, keepdims=False, ddof=0, *, correction=None):
        r"""The standard deviation over `axis`: `nx.std(t, ...)`.

        >>> from rune import nx
        >>> t = nx.array([1.0, 2.0, 3.0, 4.0])
        >>> print(t.std(), t.std(ddof=1), sep="\n")
        float64 [] 1.118033988749895
        float64 [] 1.2909944487358056
        """
        return _ops.std(self, axis=axis, keepdims=keepdims, ddof=ddof, correction=correction)

    def argmax(self, axis=None, keepdims=False):
        r"""The index of the largest element over `axis`: `nx.argmax(t, ...)`.

        >>> from rune import nx
        >>> t = nx.array([[1.0, 5.0], [3.0, 4.0]])
        >>> print(t.argmax(), t.argmax(axis=0), sep="\n")
        int64 [] 1
        int64 [2] [1, 0]
        """
        return _ops.argmax(self, axis=axis, keepdims=keepdims)

    def argmin(self, axis=None, keepdims=False):
        r"""The index of the smallest element over `axis`: `nx.argmin(t, ...)`.

        >>> from rune import nx
        >>> t = nx.array([[1.0, 5.0], [3.0, 4.0]])
        >>> print(t.argmin(), t.argmin(axis=1), sep="\n")
        int64 [] 0
        int64 [2] [0, 0]
        """
        return _ops.argmin(self, axis=axis, keepdims=keepdims)

    def cumsum(self, axis=None):
        """The running sum along `axis`: `nx.cumsum(t, ...)`.

        >>> from rune import nx
        >>> print(nx.array([1.0, 2.0, 3.0]).cumsum())
        float64 [3] [1, 3, 6]
        """
        return _ops.cumsum(self, axis=axis)

    def cumprod(self, axis=None):
        """The running product along `axis`: `nx.cumprod(t, ...)`.

        >>> from rune import nx
        >>> print(nx.array([1.0, 2.0, 3.0]).cumprod())
        float64 [3] [1, 2, 6]
        """
        return _ops.cumprod(self, axis=axis)

    def sort(self, axis=-1, *, descending=False, stable=True):
        r"""The tensor sorted along `axis`, a new tensor (as JAX's; numpy's sorts in
        place): `nx.sort(t, ...)`.

        >>> from rune import nx
        >>> t = nx.array([3.0, 1.0, 2.0])
        >>> print(t.sort(), t.sort(descending=True), t, sep="\n")
        float64 [3] [1, 2, 3]
        float64 [3] [3, 2, 1]
        float64 [3] [3, 1, 2]
        """
        return _ops.sort(self, axis, descending=descending, stable=stable)

    def argsort(self, axis=-1, *, descending=False, stable=True):
        """The indices that sort the tensor along `axis`: `nx.argsort(t, ...)`.

        >>> from rune import nx
        >>> print(nx.array([3.0, 1.0, 2.0]).argsort())
        int64 [3] [1, 2, 0]
        """
        return _ops.argsort(self, axis, descending=descending, stable=stable)

    def searchsorted(self, v, side="left", sorter=None):
        """Where v's elements go in this sorted vector: `nx.searchsorted(t, v, ...)`.

        >>> from rune import nx
        >>> print(nx.array([1.0, 2.0, 3.0]).searchsorted(nx.array([0.5, 2.0, 9.0])))
        int64 [3] [0, 1, 3]
        """
        return _ops.searchsorted(self, v, side=side, sorter=sorter)

    def nonzero(self, *, size=None, fill_value=None):
        r"""The indices of the nonzero elements, one tensor per axis: `nx.nonzero(t)`.

        >>> from rune import nx
        >>> rows, columns = nx.array([[0, 7], [8, 0]]).nonzero()
        >>> print(rows, columns, sep="\n")
        int64 [2] [0, 1]
        int64 [2] [1, 0]
        """
        return _ops.nonzero(self, size=size, fill_value=fill_value)

    def all(self, axis=None, keepdims=False):
        r"""Whether every element over `axis` is true: `nx.all(t, ...)`.

        >>> from rune import nx
        >>> t = nx.array([[True, False], [True, True]])
        >>> print(t.all(), t.all(axis=1), sep="\n")
        bool [] False
        bool [2] [False, True]
        """
        return _ops.all(self, axis=axis, keepdims=keepdims)

    def any(self, axis=None, keepdims=False):
        r"""Whether some element over `axis` is true: `nx.any(t, ...)`.

        >>> from rune import nx
        >>> t = nx.array([[True, False], [False, False]])
        >>> print(t.any(), t.any(axis=1), sep="\n")
        bool [] True
        bool [2] [True, False]
        """
        return _ops.any(self, axis=axis, keepdims=keepdims)

    def dot(self, other):
        """The dot product with other (`nx.dot(t, other)`).

        >>> from rune import nx
        >>> print(nx.array([1.0, 2.0]).dot(nx.array([3.0, 4.0])))
        float64 [] 11
        """
        return _ops.dot(self, other)

    def swapaxes(self, axis1, axis2):
        """The tensor with two axes exchanged (`nx.swapaxes`).

        >>> from rune import nx
        >>> nx.zeros((2, 3, 4)).swapaxes(0, 2).shape
        (4, 3, 2)
        """
        return _ops.swapaxes(self, axis1, axis2)

    def repeat(self, repeats, axis=None):
        """Each element repeated along `axis` (`nx.repeat`).

        >>> from rune import nx
        >>> print(nx.array([1, 2]).repeat(3))
        int64 [6] [1, 1, 1, 2, 2, 2]
        """
        return _ops.repeat(self, repeats, axis)

    def take(self, indices, axis=None):
        """Elements at `indices` along `axis` (`nx.take`).

        >>> from rune import nx
        >>> print(nx.array([10.0, 20.0, 30.0]).take(nx.array([2, 0])))
        float64 [2] [30, 10]
        """
        return _ops.take(self, indices, axis)

    def trace(self, offset=0, axis1=0, axis2=1):
        """The sum of a diagonal (`nx.trace`).

        >>> from rune import nx
        >>> print(nx.array([[1.0, 2.0], [3.0, 4.0]]).trace())
        float64 [] 5
        """
        return _ops.trace(self, offset, axis1, axis2)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        """A diagonal, as the last axis (`nx.diagonal`).

        >>> from rune import nx
        >>> print(nx.array([[1.0, 2.0], [3.0, 4.0]]).diagonal())
        float64 [2] [1, 4]
        """
        return _ops.diagonal(self, offset, axis1, axis2)

    def copy(self):
        """A tensor with the same values (`nx.copy`).

        >>> from rune import nx
        >>> t = nx.array([1.0, 2.0])
        >>> u = t.copy()
        >>> print(u, u is t)
        float64 [2] [1, 2] False
        """
        return _ops.copy(self)

    def __getitem__(self, index):
        """Indexing and slicing as numpy's basic and advanced indexing (`nx.getitem`)."""
        return _ops.getitem(self, index)

    def __setitem__(self, index, value):
        raise TypeError("'Tensor' object does not support item assignment: tensors never "
                        "change; t.at[index].set(value) returns the updated tensor")

    # Operators call the primitives directly: they are the hot path of user code.
    __add__, __radd__ = _binary("add", "+"), _binary("add", "+", reflected=True)
    __sub__, __rsub__ = _binary("subtract", "-"), _binary("subtract", "-", reflected=True)
    __mul__, __rmul__ = _binary("multiply", "*"), _binary("multiply", "*", reflected=True)
    __truediv__ = _binary("divide", "/")
    __rtruediv__ = _binary("divide", "/", reflected=True)
    __floordiv__ = _binary("floor_divide", "//")
    __rfloordiv__ = _binary("floor_divide", "//", reflected=True)
    __mod__, __rmod__ = _binary("mod", "%"), _binary("mod", "%", reflected=True)
    __pow__, __rpow__ = _binary("power", "**"), _binary("power", "**", reflected=True)
    # Bitwise, as numpy's: on booleans they are the logical operations.
    __and__, __rand__ = _binary("bitwise_and", "&"), _binary("bitwise_and", "&", True)
    __or__, __ror__ = _binary("bitwise_or", "|"), _binary("bitwise_or", "|", True)
    __xor__, __rxor__ = _binary("bitwise_xor", "^"), _binary("bitwise_xor", "^", True)
    __lshift__ = _binary("bitwise_left_shift", "<<")
    __rlshift__ = _binary("bitwise_left_shift", "<<", reflected=True)
    __rshift__ = _binary("bitwise_right_shift", ">>")
    __rrshift__ = _binary("bitwise_right_shift", ">>", reflected=True)
    __eq__, __ne__ = _binary("equal", "=="), _binary("not_equal", "!=")
    __lt__, __le__ = _binary("less", "<"), _binary("less_equal", "<=")
    __gt__, __ge__ = _binary("greater", ">"), _binary("greater_equal", ">=")

    def __matmul__(self, other):
        """self @ other (`nx.matmul`)."""
        return _ops.matmul(self, other)

    def __rmatmul__(self, other):
        """other @ self (`nx.matmul`)."""
        return _ops.matmul(other, self)

    def __neg__(self):
        return _functions["negative"](self)

    def __pos__(self):
        return self

    def __abs__(self):
        return _functions["absolute"](self)

    def __invert__(self):
        return _ops.bitwise_invert(self)

    # ------------------------------------------------ the Array API standard
    def __array_namespace__(self, *, api_version=None):
        """rune.nx: the namespace of the Array API standard that tensors belong to.

        Raises:
          ValueError: api_version is not None nor a version nx implements.
        """
        return _ops.array_api.namespace_for(api_version)

    @property
    def device(self) -> str:
        """"cpu": rune's one device."""
        return "cpu"

    def to_device(self, device, /, *, stream=None):
        """The tensor itself on device "cpu" (the only one); other devices raise ValueError.

        >>> from rune import nx
        >>> t = nx.array([1.0, 2.0])
        >>> t.to_device("cpu") is t
        True
        """
        _ops.creation.check_device(device, "Tensor.to_device")
        return self

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """The DLPack capsule of the tensor's values: a copy, the consumer's to
        change; with copy=False (`np.from_dlpack(t, copy=False)`) the tensor's
        memory, marked read-only, for consumers of DLPack 1.0 and later. A copy by
        default because not every consumer honours that mark (torch 2.13 gives a
        writable tensor over it), and a tensor never changes.
        """
        values = np.asarray(self._concrete("Tensor.__dlpack__"))
        if copy is False and max_version is not None and max_version[0] >= 1:
            values = values.view()
            values.flags.writeable = False
        else:  # DLPack 0.x (JAX's today) cannot say read-only: a copy, even if asked not to
            values = np.array(values, copy=True)
        return values.__dlpack__(stream=stream, max_version=max_version,
                                 dl_device=dl_device)  # copied or shared above: as it is

    def __dlpack_device__(self):
        return np.asarray(self._value).__dlpack_device__()


def _identity(x):
    return x


def _numpy_options(tensor, method, dtype, out):
    """The tensor a reduction method works on, given numpy's keywords: `numpy.sum(t)`
    calls `t.sum(axis=None, dtype=None, out=None)`. A dtype converts first; an out
    array cannot receive the result (tensors are immutable), so it raises."""
    if out is not None:
        raise TypeError(f"Tensor.{method}: out= is not supported (tensors are immutable); "
                        f"use the tensor it returns")
    return tensor if dtype is None else _ops.astype(tensor, dtype)


def _accepting_numpy_keywords(method):
    """`method` also taking numpy's dtype= and out= keywords (see `_numpy_options`)."""

    @functools.wraps(method)
    def wrapped(self, *args, dtype=None, out=None, **kwargs):
        return method(_numpy_options(self, method.__name__, dtype, out), *args, **kwargs)

    return wrapped


# numpy's reductions (numpy.sum(t), numpy.mean(t)...) call these methods with
# dtype= and out=: each reduction method the class has accepts them.
for _name in ("sum", "mean", "prod", "max", "min", "var", "std", "argmax", "argmin", "cumsum",
              "cumprod", "all", "any"):
    if _name in vars(Tensor):
        setattr(Tensor, _name, _accepting_numpy_keywords(vars(Tensor)[_name]))


# The operations that the methods call need Tensor themselves, so they are
# bound here after it is defined, by rune/nx/__init__.py: `_ops` is the
# rune.nx namespace, `_functions` the elementwise primitives by name.
_ops = None
_functions: dict = {}


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
