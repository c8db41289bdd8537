"""Data types: numpy's dtypes under short names.

`nx.float64` is `numpy.dtype("float64")`, so tensors and numpy agree on
types and `t.dtype == nx.float64` reads naturally. Each prints as its name
(`print(nx.float32)` shows `float32`); the boolean type is `nx.bool_` (also
`nx.bool`, as in numpy 2) and prints as `bool`, numpy's name for it.

Wherever a function takes a `dtype` argument it accepts one of these, the
name of one (`"float32"`), a Python type (`float` is float64, `int` is int64,
`complex` is complex128, `bool` is bool) or a numpy scalar type
(`numpy.float32`). Anything else raises a TypeError naming what was given
(see `as_dtype`).

>>> from rune import nx
>>> print(nx.float64, nx.bool_, nx.complex64)
float64 bool complex64
>>> nx.zeros(2, dtype="float32").dtype == nx.float32
True
"""

import numpy as np

bool_ = np.dtype(np.bool_)
int8 = np.dtype(np.int8)
int16 = np.dtype(np.int16)
int32 = np.dtype(np.int32)
int64 = np.dtype(np.int64)
uint8 = np.dtype(np.uint8)
uint16 = np.dtype(np.uint16)
uint32 = np.dtype(np.uint32)
uint64 = np.dtype(np.uint64)
float16 = np.dtype(np.float16)
float32 = np.dtype(np.float32)
float64 = np.dtype(np.float64)
complex64 = np.dtype(np.complex64)
complex128 = np.dtype(np.complex128)

DTYPES = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
          float16, float32, float64, complex64, complex128)
_KNOWN = frozenset(DTYPES)
_NAMES = ", ".join(str(d) for d in DTYPES)


def as_dtype(dtype, fn: str) -> np.dtype:
    """The numpy dtype that a `dtype` argument names, or a TypeError.

    Args:
      dtype: a dtype, its name, a Python type or a numpy scalar type. None is
        not accepted here: each function decides what None means.
      fn: the function taking the argument, for the message ("nx.zeros").

    Raises:
      TypeError: `dtype` names no dtype, or one rune does not compute with
        (strings, objects, dates); the message names it and lists the dtypes.

    >>> as_dtype(float, "nx.zeros")
    dtype('float64')
    >>> as_dtype("float8", "nx.zeros")
    Traceback (most recent call last):
    ...
    TypeError: nx.zeros: unknown dtype 'float8'; expected one of bool, int8, int16, int32, \
int64, uint8, uint16, uint32, uint64, float16, float32, float64, complex64, complex128
    """
    if isinstance(dtype, np.dtype) and dtype in _KNOWN:  # the common case, first
        return dtype
    try:
        found = np.dtype(dtype) if dtype is not None else None
    except (TypeError, ValueError):
        found = None
    if found is None or found not in _KNOWN:
        raise TypeError(f"{fn}: unknown dtype {dtype!r}; expected one of {_NAMES}")
    return found


bool = bool_  # noqa: A001  (numpy 2's name; this module uses no builtin bool after here)

__all__ = [
    "bool_", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
]
