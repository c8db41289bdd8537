"""Array API standard: the standard's own names, which make rune.nx an array namespace.

`t.__array_namespace__()` returns `rune.nx` itself, as numpy 2's arrays return
`numpy`: code written against the standard (scipy with SCIPY_ARRAY_API=1,
scikit-learn with array_api_dispatch) then calls nx's functions, and
`rune.grad` goes through it.

Why one namespace, not a separate `rune.array_api`: numpy 2 made its main
namespace the standard's, so the two now differ in few places, and those are
keywords rather than meanings. nx takes the standard's keywords beside
numpy's (`correction=` beside `ddof=`, `device=` and `copy=` on the creation
functions), so one set of functions serves both readers and there is no
second namespace to drift. Where a result of numpy's still differs from the
standard's, nx gives numpy's and the difference is listed in the docs.
Tensors are immutable: the standard's in-place operators (`x += 1`) rebind
the name to a new tensor, as in JAX.

This module holds what the standard adds to numpy's vocabulary: the version,
the inspection namespace, the data-type queries (`finfo`, `iinfo`,
`isdtype`, `can_cast`, `result_type`, with numpy's promotion, which is the
standard's table and more) and the bitwise functions under the standard's
names. The one device is the CPU, named "cpu".
"""

from __future__ import annotations

import math as _math
from typing import NamedTuple

import numpy as np

from ..primitives import elementwise as _e
from .creation import as_tensor, check_device
from .dtypes import DTYPES, as_dtype
from .tensor import Tensor, call_broadcasting

__array_api_version__ = "2024.12"
SUPPORTED_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")

e, inf, nan, pi, newaxis = _math.e, _math.inf, _math.nan, _math.pi, None

__all__ = [
    "__array_api_version__", "__array_namespace_info__", "e", "inf", "nan", "pi", "newaxis",
    "finfo", "iinfo", "isdtype", "can_cast", "result_type",
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_invert", "bitwise_left_shift",
    "bitwise_right_shift", "nextafter", "from_dlpack",
]


def namespace_for(api_version):
    """rune.nx, for `Tensor.__array_namespace__`: None or a version it implements."""
    if api_version is not None and api_version not in SUPPORTED_VERSIONS:
        raise ValueError(f"Tensor.__array_namespace__: api_version must be None or one of "
                         f"{', '.join(SUPPORTED_VERSIONS)}, got {api_version!r}")
    from .. import nx  # lazy: rune.nx imports this module

    return nx


# ------------------------------------------------------------ inspection

_KINDS = {
    "bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
    "real floating": "f", "complex floating": "c", "numeric": "iufc",
}


_STANDARD_DTYPES = [d for d in DTYPES if d != np.float16]  # the standard has no float16


class ArrayNamespaceInfo:
    """The standard's inspection namespace, `nx.__array_namespace_info__()`: devices,
    capabilities, default dtypes (as numpy's: float64, complex128, int64) and dtypes.

    >>> from rune import nx
    >>> info = nx.__array_namespace_info__()
    >>> info.devices(), info.default_dtypes()["real floating"]
    (['cpu'], dtype('float64'))
    """

    def capabilities(self) -> dict:
        """Boolean masks and data-dependent shapes (nonzero, unique) work eagerly.

        >>> from rune import nx
        >>> info = nx.__array_namespace_info__()
        >>> info.capabilities()["boolean indexing"]
        True
        """
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": 64}

    def default_device(self) -> str:
        """"cpu": rune computes with numpy, on the CPU.

        >>> from rune import nx
        >>> nx.__array_namespace_info__().default_device()
        'cpu'
        """
        return "cpu"

    def devices(self) -> list:
        """The devices tensors can live on: the CPU only.

        >>> from rune import nx
        >>> nx.__array_namespace_info__().devices()
        ['cpu']
        """
        return ["cpu"]

    def default_dtypes(self, *, device=None) -> dict:
        """The dtypes tensors get when none is asked for, by kind (numpy's).

        >>> from rune import nx
        >>> nx.__array_namespace_info__().default_dtypes()["integral"]
        dtype('int64')
        """
        check_device(device, "nx.__array_namespace_info__().default_dtypes")
        return {"real floating": np.dtype(np.float64), "complex floating":
                np.dtype(np.complex128), "integral": np.dtype(np.int64),
                "indexing": np.dtype(np.int64)}

    def dtypes(self, *, device=None, kind=None) -> dict:
        """The dtypes by name, those of `kind` (a kind name, a dtype or a tuple) if given.

        >>> from rune import nx
        >>> info = nx.__array_namespace_info__()
        >>> list(info.dtypes(kind="real floating"))
        ['float32', 'float64']
        """
        check_device(device, "nx.__array_namespace_info__().dtypes")
        chosen = [d for d in _STANDARD_DTYPES if kind is None or isdtype(d, kind)]
        return {str(d): d for d in chosen}


# numpy 2 too makes its info namespace the class itself
__array_namespace_info__ = ArrayNamespaceInfo


# ------------------------------------------------------------ data types


def _dtype_of(x, fn: str) -> np.dtype:
    """The dtype a data-type query is about: a tensor's, a numpy array's or a dtype."""
    if isinstance(x, (Tensor, np.ndarray, np.generic)):
        return x.dtype
    return as_dtype(x, fn)


class FInfo(NamedTuple):
    """nx.finfo's answer: the standard's fields, as Python numbers (numpy.finfo's
    are numpy scalars of the dtype); dtype is the real dtype (float32 for complex64)."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: np.dtype


class IInfo(NamedTuple):
    """nx.iinfo's answer: the standard's fields, as Python ints."""

    bits: int
    max: int
    min: int
    dtype: np.dtype


def finfo(type):  # noqa: A002  (the standard's name)
    """Machine limits of a floating dtype (or of a tensor's): bits, eps, max, min,
    smallest_normal (Python floats) and dtype, numpy.finfo's values.

    Args:
      type: a dtype (or its name, a Python type), or a tensor or numpy array.

    Raises:
      TypeError: not a floating or complex dtype, naming it.

    >>> from rune import nx
    >>> print(nx.finfo(nx.float32).eps, nx.finfo(nx.float64).bits)
    1.1920928955078125e-07 64
    """
    dtype = _dtype_of(type, "nx.finfo")
    if dtype.kind not in "fc":
        raise TypeError(f"nx.finfo: expected a floating or complex dtype, got {dtype}")
    found = np.finfo(dtype)
    return FInfo(found.bits, float(found.eps), float(found.max), float(found.min),
                 float(found.smallest_normal), found.dtype)


def iinfo(type):  # noqa: A002  (the standard's name)
    """Limits of an integer dtype (or of a tensor's): bits, max, min, dtype.

    Args:
      type: a dtype (or its name, a Python type), or a tensor or numpy array.

    Raises:
      TypeError: not an integer dtype, naming it.

    >>> from rune import nx
    >>> print(nx.iinfo(nx.int8).min, nx.iinfo(nx.uint8).max)
    -128 255
    """
    dtype = _dtype_of(type, "nx.iinfo")
    if dtype.kind not in "iu":
        raise TypeError(f"nx.iinfo: expected an integer dtype, got {dtype}")
    found = np.iinfo(dtype)
    return IInfo(found.bits, int(found.max), int(found.min), found.dtype)


def isdtype(dtype, kind) -> bool:
    """Whether `dtype` is of `kind`: a dtype, one of the standard's kind names
    ("bool", "signed integer", "unsigned integer", "integral", "real floating",
    "complex floating", "numeric") or a tuple of these.

    Args:
      dtype: a dtype (or its name, a Python type).
      kind: a dtype, a kind's name or a tuple of these.

    Raises:
      TypeError: dtype is not a dtype, or kind names no kind.

    >>> from rune import nx
    >>> nx.isdtype(nx.float32, "real floating"), nx.isdtype(nx.int8, ("bool", nx.int16))
    (True, False)
    """
    dtype = as_dtype(dtype, "nx.isdtype")
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, str) and kind in _KINDS:
        return dtype.kind in _KINDS[kind]
    if isinstance(kind, str):
        raise TypeError(f"nx.isdtype: unknown kind {kind!r}; expected a dtype, a tuple or "
                        f"one of {', '.join(_KINDS)}")
    return dtype == as_dtype(kind, "nx.isdtype")


def can_cast(from_, to) -> bool:
    """Whether values of `from_` (a dtype or a tensor) convert to dtype `to` without loss.

    Args:
      from_: a dtype, or a tensor or numpy array (its dtype).
      to: a dtype.

    Raises:
      TypeError: an argument names no dtype.

    >>> from rune import nx
    >>> nx.can_cast(nx.int8, nx.float32), nx.can_cast(nx.float64, nx.float32)
    (True, False)
    """
    return bool(np.can_cast(_dtype_of(from_, "nx.can_cast"), as_dtype(to, "nx.can_cast")))


def result_type(*arrays_and_dtypes) -> np.dtype:
    """The dtype an operation on these tensors, dtypes and Python numbers gives,
    as nx's operators promote (numpy's rules: Python numbers are weak).

    Args:
      *arrays_and_dtypes: tensors, numpy arrays, dtypes and Python numbers.

    Raises:
      TypeError: nothing given, or an argument that is neither.

    >>> from rune import nx
    >>> print(nx.result_type(nx.int8, nx.float32), nx.result_type(nx.ones(2, nx.float32), 1.0))
    float32 float32
    """
    if not arrays_and_dtypes:
        raise TypeError("nx.result_type: expected at least one tensor or dtype, got none")
    args = [a if isinstance(a, (bool, int, float, complex)) else _dtype_of(a, "nx.result_type")
            for a in arrays_and_dtypes]
    return np.result_type(*args)


def weak_operands(fn: str, x1, x2) -> tuple:
    """x1 and x2 as tensors, a Python number taking the dtype numpy 2 gives it
    beside the other (weakly: 1.5 beside float32 is float32), as the standard's
    2024.12 revision asks of binary functions given a scalar."""
    python = (int, float, complex)
    if isinstance(x1, python) and not isinstance(x2, python):
        x2 = as_tensor(x2, fn)
        return as_tensor(np.asarray(x1, np.result_type(x2.dtype, x1)), fn), x2
    if isinstance(x2, python) and not isinstance(x1, python):
        x1 = as_tensor(x1, fn)
        return x1, as_tensor(np.asarray(x2, np.result_type(x1.dtype, x2)), fn)
    return as_tensor(x1, fn), as_tensor(x2, fn)


# ------------------------------------------------------------ bitwise


def _bitwise(fn: str, prim, *args):
    """prim(*args) once every argument is an integer or boolean tensor or number."""
    args = [a if isinstance(a, (Tensor, int)) else as_tensor(a, fn) for a in args]
    for a in args:
        if isinstance(a, Tensor) and a.dtype.kind not in "biu":
            raise TypeError(f"{fn}: expected integer or boolean tensors, got {a.dtype}")
    return call_broadcasting(fn, prim, *args)


def bitwise_and(x1, x2):
    """x1 & x2 bit by bit, for integers and booleans (no derivative).

    Args:
      x1, x2: integer or boolean tensors, numpy arrays or numbers; they broadcast.

    Raises:
      TypeError: a float or complex argument.
      ValueError: shapes that do not broadcast.

    >>> from rune import nx
    >>> print(nx.bitwise_and(nx.array([12, 10]), 6))
    int64 [2] [4, 2]
    """
    return _bitwise("nx.bitwise_and", _e.bitwise_and, x1, x2)


def bitwise_or(x1, x2):
    """x1 | x2 bit by bit, for integers and booleans (no derivative).

    Args:
      x1, x2: integer or boolean tensors, numpy arrays or numbers; they broadcast.

    Raises:
      TypeError: a float or complex argument.
      ValueError: shapes that do not broadcast.

    >>> from rune import nx
    >>> print(nx.bitwise_or(nx.array([12, 10]), 1))
    int64 [2] [13, 11]
    """
    return _bitwise("nx.bitwise_or", _e.bitwise_or, x1, x2)


def bitwise_xor(x1, x2):
    """x1 ^ x2 bit by bit, for integers and booleans (no derivative).

    Args:
      x1, x2: integer or boolean tensors, numpy arrays or numbers; they broadcast.

    Raises:
      TypeError: a float or complex argument.
      ValueError: shapes that do not broadcast.

    >>> from rune import nx
    >>> print(nx.bitwise_xor(nx.array([12, 10]), 6))
    int64 [2] [10, 12]
    """
    return _bitwise("nx.bitwise_xor", _e.bitwise_xor, x1, x2)


def bitwise_invert(x):
    """~x: every bit flipped (for booleans, not x); no derivative.

    Args:
      x: an integer or boolean tensor, numpy array or number.

    Raises:
      TypeError: a float or complex argument.

    >>> from rune import nx
    >>> print(nx.bitwise_invert(nx.array([0, 5])), nx.bitwise_invert(nx.array(True)))
    int64 [2] [-1, -6] bool [] False
    """
    return _bitwise("nx.bitwise_invert", _e.invert, x)


def bitwise_left_shift(x1, x2):
    """x1 << x2 for integers (no derivative); x2 must not be negative.

    Args:
      x1, x2: integer tensors, numpy arrays or numbers; they broadcast.

    Raises:
      TypeError: a float or complex argument.
      ValueError: shapes that do not broadcast.

    >>> from rune import nx
    >>> print(nx.bitwise_left_shift(nx.array([1, 3]), 2))
    int64 [2] [4, 12]
    """
    return _bitwise("nx.bitwise_left_shift", _e.left_shift, x1, x2)


def bitwise_right_shift(x1, x2):
    """x1 >> x2 for integers, rounding towards minus infinity (no derivative).

    Args:
      x1, x2: integer tensors, numpy arrays or numbers; they broadcast.

    Raises:
      TypeError: a float or complex argument.
      ValueError: shapes that do not broadcast.

    >>> from rune import nx
    >>> print(nx.bitwise_right_shift(nx.array([8, -8]), 2))
    int64 [2] [2, -2]
    """
    return _bitwise("nx.bitwise_right_shift", _e.right_shift, x1, x2)


# ------------------------------------------------------------ the 2024.12 revision's functions


def nextafter(x1, x2):
    """The next floating-point number after x1 towards x2, elementwise, in x1's
    precision (x1 itself where they are equal).

    The derivative is 1 in x1 and 0 in x2: the result follows x1, one step away.

    Args:
      x1, x2: real tensors, numpy arrays or numbers; they broadcast together.

    Raises:
      TypeError: a complex argument.
      ValueError: shapes that do not broadcast (naming both).

    >>> from rune import nx
    >>> print(nx.nextafter(nx.array([1.0, 1.0]), nx.array([2.0, 0.0])) - 1)
    float64 [2] [2.220446049250313e-16, -1.1102230246251565e-16]
    """
    x1, x2 = weak_operands("nx.nextafter", x1, x2)
    for x in (x1, x2):
        if x.dtype.kind == "c":
            raise TypeError(f"nx.nextafter: expected real numbers, got {x.dtype}")
    return call_broadcasting("nx.nextafter", _e.nextafter, x1, x2)


# ------------------------------------------------------------ special cases


def tanh_at_complex_infinities(x, out):
    """`out`, tanh(x) for complex x, with tanh(±inf + bj) = ±1 + 0j, the zero signed
    as b (finite b), as the standard says: numpy's takes the sign of sin(2b). Made
    of primitives in nx.tanh, not in the tanh primitive, whose impl stays numpy's
    ufunc (jit's replay writes ufuncs' results into dead buffers)."""
    a, b = _e.real(x), _e.imag(x)
    limit = _e.astype(_e.sign(a), dtype=out.dtype)  # ±1 + 0j; conj makes the zero -0
    limit = _e.where(_e.signbit(b), _e.conj(limit), limit)
    return _e.where(_e.logical_and(_e.isinf(a), _e.isfinite(b)), limit, out)


# ------------------------------------------------------------ DLPack


def from_dlpack(x, /, *, device=None, copy=None):
    """A tensor of the values of any DLPack exporter (a numpy array, a torch
    tensor, a JAX array, a tensor), sharing its memory unless copy=True.

    With copy=None or False the tensor reads x's memory: x must not change
    while the tensor lives (tensors never change, and rune trusts that).

    Args:
      x: an object with `__dlpack__` on the CPU.
      device: None or "cpu".
      copy: True copies; None and False share x's memory.

    Raises:
      ValueError: a device other than "cpu", or copy=False where a copy is needed.
      TypeError: x does not export DLPack.

    >>> import numpy as np
    >>> from rune import nx
    >>> print(nx.from_dlpack(np.arange(3.0)))
    float64 [3] [0, 1, 2]
    """
    check_device(device, "nx.from_dlpack")
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"nx.from_dlpack: expected an object with __dlpack__ (a numpy "
                        f"array, a torch tensor, a JAX array), got {type(x).__name__}")
    if isinstance(x, Tensor) and not copy:
        return x
    return Tensor(np.from_dlpack(x, copy=copy))
