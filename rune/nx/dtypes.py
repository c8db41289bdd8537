"""The element types: numpy's dtypes under short names.

`nx.float64` is `numpy.dtype("float64")`, so tensors and numpy agree on
types and `t.dtype == nx.float64` reads naturally. Each prints as its name;
the boolean type is `nx.bool_` (also `nx.bool`), and prints as `bool`.
"""

import numpy as np

bool_ = np.dtype(np.bool_)
int8 = np.dtype(np.int8)
int16 = np.dtype(np.int16)
int32 = np.dtype(np.int32)
int64 = np.dtype(np.int64)
uint8 = np.dtype(np.uint8)
float16 = np.dtype(np.float16)
float32 = np.dtype(np.float32)
float64 = np.dtype(np.float64)
complex64 = np.dtype(np.complex64)
complex128 = np.dtype(np.complex128)

__all__ = [
    "bool_", "int8", "int16", "int32", "int64", "uint8",
    "float16", "float32", "float64", "complex64", "complex128",
]
