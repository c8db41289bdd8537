"""`rune.nx`: tensors and numpy-like operations on them.

Every function here is a primitive of `rune.primitives` or a short
composition of primitives, so every transformation applies to it.
"""

import sys as _sys

from . import comparisons, creation, differences, dtypes, indexing, math, more_math, products
from . import trigonometry
from . import averages, reductions, shapes
from . import aliases, building, calculus, elementwise, sorting, statistics
from . import array_api, rearranging, stacking
from . import updates  # noqa: F401  (Tensor.at)
from . import tensor as _tensor
from .tensor import Tensor, TracedValueError
from .dtypes import *  # noqa: F403
from .creation import *  # noqa: F403
from .math import *  # noqa: F403
from .trigonometry import *  # noqa: F403
from .comparisons import *  # noqa: F403
from .reductions import *  # noqa: F403
from .shapes import *  # noqa: F403
from .indexing import *  # noqa: F403
from .products import *  # noqa: F403
from .more_math import *  # noqa: F403
from .differences import *  # noqa: F403
from .averages import *  # noqa: F403
from .elementwise import *  # noqa: F403
from .building import *  # noqa: F403
from .stacking import *  # noqa: F403
from .rearranging import *  # noqa: F403
from .sorting import *  # noqa: F403
from .statistics import *  # noqa: F403
from .calculus import *  # noqa: F403
from .aliases import *  # noqa: F403
from .array_api import *  # noqa: F403
from . import fft  # noqa: F401  (the nx.fft namespace)
from . import linalg  # noqa: F401  (the nx.linalg namespace)
from . import random  # noqa: F401  (the nx.random namespace)
from ..primitives import elementwise as _elementwise

# Tensor's methods and operators call these functions, which need Tensor
# themselves: they are bound here, once both exist. The operators call the
# elementwise primitives' functions directly, and power, which picks one.
_tensor._ops = _sys.modules[__name__]
_tensor._functions.update(
    (name, f) for name, f in vars(_elementwise).items() if hasattr(f, "primitive"))
_tensor._functions["power"] = _elementwise.power
_tensor._functions.update((name, getattr(array_api, name)) for name in (
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"))

_families = (dtypes, creation, math, trigonometry, comparisons, reductions, shapes, indexing,
             products, more_math, differences, averages, elementwise, building, sorting,
             statistics, calculus, aliases, stacking, rearranging, array_api)
__all__ = ["Tensor", "TracedValueError", "fft", "linalg", "random"] + [
    name for family in _families for name in family.__all__]


def __getattr__(name):
    """`nx.special`: rune.scipy.special, imported on first use (it imports nx).

    scipy.special (with SCIPY_ARRAY_API=1) calls `xp.special.<name>` when an
    array's namespace has it, in anticipation of the standard's special-function
    extension; without it, scipy's numpy ufunc runs on np.asarray(tensor), which
    cannot differentiate (and raises TracedValueError under rune.grad).
    """
    if name == "special":
        from ..scipy import special

        return special
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
