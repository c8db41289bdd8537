"""Creating tensors: from data, and filled ones."""

import numpy as np

from .tensor import Tensor

__all__ = ["array"]


def array(obj, dtype=None) -> Tensor:
    """A tensor holding a copy of `obj` (nested lists, numbers, arrays, tensors)."""
    return Tensor(np.array(obj, dtype=dtype))
