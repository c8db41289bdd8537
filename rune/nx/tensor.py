"""`Tensor`: an immutable n-dimensional array over numpy.

A Tensor holds one numpy array and never changes it. Every operation returns
a new Tensor, so a Tensor can be shared freely. Operators and methods are
thin: each calls the `rune.nx` function of the same name, so that they work
the same on values and on the tracers that transformations pass to a function.
"""

from __future__ import annotations

import numpy as np


class TracedValueError(Exception):
    """Raised when code reads the data of a value that a transformation traces.

    Under `rune.jit` and `rune.vmap` a value has a shape and a dtype but no
    data while the function is traced, so `item()`, `float()`, `bool()`,
    `numpy()` and Python control flow on it cannot be answered.
    """


class Tensor:
    """An immutable n-dimensional array: a dtype, a shape and values.

    Create tensors with `nx.array`, `nx.create`, `nx.zeros`... Tensors mix with
    Python scalars and numpy arrays in every operation, with numpy's type
    promotion (`2 * t`, `t + np.ones(3)`).

    >>> from rune import nx
    >>> t = nx.array([[1., 2.], [3., 4.]])
    >>> t.shape, t.dtype, t.ndim, t.size
    ((2, 2), dtype('float64'), 2, 4)
    >>> print(t.T @ t)
    float64 [2, 2]
    [[10, 14],
     [14, 20]]
    """

    __slots__ = ("_value",)

    # numpy defers to our reflected operators (`ndarray + Tensor` -> Tensor).
    __array_ufunc__ = None

    def __init__(self, value):
        self._value = np.asarray(value)

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
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def T(self) -> Tensor:
        """The tensor with its axes reversed (`nx.transpose(t)`)."""
        return _ops.transpose(self)

    # -------------------------------------------------------- reading values
    def _concrete(self, read, lossless=False):
        """The numpy value behind this tensor; tracers override (see core).

        `read` names the read for error messages; `lossless` says the read
        keeps derivatives exact (bool, int), which differentiation allows.
        """
        return self._value

    def item(self):
        """The single element as a Python scalar; raises ValueError otherwise."""
        value = self._concrete("Tensor.item()")
        if value.size != 1:
            raise ValueError(
                f"item(): expected a tensor with one element, got shape {value.shape} "
                f"({value.size} elements)"
            )
        return value.item()

    def tolist(self):
        """The values as nested Python lists of Python scalars."""
        return self._concrete("Tensor.tolist()").tolist()

    def numpy(self) -> np.ndarray:
        """A numpy copy of the values (changing it does not change the tensor)."""
        return np.array(self._concrete("Tensor.numpy()"), copy=True)

    def __array__(self, dtype=None, copy=None):
        value = self._concrete("numpy.asarray(Tensor)")
        if dtype is not None and value.dtype != dtype:
            return value.astype(dtype)
        if copy:
            return np.array(value, copy=True)
        view = np.asarray(value).view()
        view.flags.writeable = False  # the tensor is immutable; so is its view
        return view

    def _scalar(self, read, convert, lossless=False):
        value = self._concrete(read, lossless)
        if value.size != 1:
            raise ValueError(
                f"{read}: expected a tensor with one element, got shape {value.shape}"
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
        if not self.shape:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self.shape[0]))

    __hash__ = None  # == is elementwise, so tensors are not hashable

    # -------------------------------------------------------------- printing
    def __str__(self):
        return _printing.format_tensor(self._concrete("str(Tensor)"))

    def __repr__(self):
        try:
            value = self._concrete("repr(Tensor)")
        except TracedValueError:
            return f"{type(self).__name__}({self.dtype} {list(self.shape)})"
        return f"Tensor({_printing.format_tensor(value)})"

    def __format__(self, spec):
        if not spec:
            return str(self)
        return format(self.item(), spec)

    # ------------------------------------------------------------ operations
    def astype(self, dtype) -> Tensor:
        """The tensor converted to `dtype` (see `nx.astype`)."""
        return _ops.astype(self, dtype)

    def reshape(self, *shape) -> Tensor:
        """The tensor with a new shape: `t.reshape(2, 3)` or `t.reshape((2, 3))`."""
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = shape[0]
        return _ops.reshape(self, shape)

    def sum(self, axis=None, keepdims=False):
        return _ops.sum(self, axis=axis, keepdims=keepdims)

    def mean(self, axis=None, keepdims=False):
        return _ops.mean(self, axis=axis, keepdims=keepdims)

    def prod(self, axis=None, keepdims=False):
        return _ops.prod(self, axis=axis, keepdims=keepdims)

    def max(self, axis=None, keepdims=False):
        return _ops.max(self, axis=axis, keepdims=keepdims)

    def min(self, axis=None, keepdims=False):
        return _ops.min(self, axis=axis, keepdims=keepdims)

    def var(self, axis=None, keepdims=False, ddof=0):
        return _ops.var(self, axis=axis, keepdims=keepdims, ddof=ddof)

    def std(self, axis=None, keepdims=False, ddof=0):
        return _ops.std(self, axis=axis, keepdims=keepdims, ddof=ddof)

    def argmax(self, axis=None, keepdims=False):
        return _ops.argmax(self, axis=axis, keepdims=keepdims)

    def argmin(self, axis=None, keepdims=False):
        return _ops.argmin(self, axis=axis, keepdims=keepdims)

    def cumsum(self, axis=None):
        return _ops.cumsum(self, axis=axis)

    def all(self, axis=None, keepdims=False):
        return _ops.all(self, axis=axis, keepdims=keepdims)

    def any(self, axis=None, keepdims=False):
        return _ops.any(self, axis=axis, keepdims=keepdims)

    def transpose(self, *axes):
        if len(axes) == 1 and not isinstance(axes[0], int):
            axes = axes[0]
        return _ops.transpose(self, axes or None)

    def squeeze(self, axis=None):
        return _ops.squeeze(self, axis)

    def flatten(self):
        return _ops.reshape(self, (-1,))

    def conj(self):
        return _ops.conj(self)

    @property
    def real(self):
        return _ops.real(self)

    @property
    def imag(self):
        return _ops.imag(self)

    def __getitem__(self, index):
        return _ops.getitem(self, index)

    # Operators call the primitives directly: they are the hot path of user code.
    def __add__(self, other):
        return _prims.add(self, other)

    def __radd__(self, other):
        return _prims.add(other, self)

    def __sub__(self, other):
        return _prims.subtract(self, other)

    def __rsub__(self, other):
        return _prims.subtract(other, self)

    def __mul__(self, other):
        return _prims.multiply(self, other)

    def __rmul__(self, other):
        return _prims.multiply(other, self)

    def __truediv__(self, other):
        return _prims.divide(self, other)

    def __rtruediv__(self, other):
        return _prims.divide(other, self)

    def __floordiv__(self, other):
        return _ops.floor_divide(self, other)

    def __rfloordiv__(self, other):
        return _ops.floor_divide(other, self)

    def __mod__(self, other):
        return _ops.mod(self, other)

    def __rmod__(self, other):
        return _ops.mod(other, self)

    def __pow__(self, other):
        return _ops.power(self, other)

    def __rpow__(self, other):
        return _ops.power(other, self)

    def __matmul__(self, other):
        return _ops.matmul(self, other)

    def __rmatmul__(self, other):
        return _ops.matmul(other, self)

    def __neg__(self):
        return _prims.negative(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return _ops.abs(self)

    def __invert__(self):
        return _ops.logical_not(self)

    def __and__(self, other):
        return _ops.logical_and(self, other)

    __rand__ = __and__

    def __or__(self, other):
        return _ops.logical_or(self, other)

    __ror__ = __or__

    def __eq__(self, other):
        return _ops.equal(self, other)

    def __ne__(self, other):
        return _ops.not_equal(self, other)

    def __lt__(self, other):
        return _ops.less(self, other)

    def __le__(self, other):
        return _ops.less_equal(self, other)

    def __gt__(self, other):
        return _ops.greater(self, other)

    def __ge__(self, other):
        return _ops.greater_equal(self, other)


# The operations that the methods call need Tensor themselves, so they are
# bound here after it is defined, by rune/nx/__init__.py.
_ops = _prims = None

from . import printing as _printing  # noqa: E402
