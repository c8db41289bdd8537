"""`rune.nx`: tensors and numpy-like operations on them.

Every function here is a primitive of `rune.primitives` or a short
composition of primitives, so every transformation applies to it.

One module per family of numpy's reference, in its order: array creation,
manipulation, indexing, logic, mathematical functions (`math/`, one module
per sub-family), sorting/searching/counting, statistics, set routines,
polynomials, linear algebra (`linalg/`), FFT, random; the Array API
standard's extras in `array_api.py`. `Tensor` (tensor.py) and the dtypes are
at the bottom: every family imports them, and they import no family.
"""

import sys as _sys

from . import tensor as _tensor
from .tensor import Tensor, TracedValueError
from .dtypes import *  # noqa: F403
from .creation import *  # noqa: F403
# each sub-family by name, as the API reference's tools read them (statically)
from .manipulation.shape import *  # noqa: F403
from .manipulation.transpose_like import *  # noqa: F403
from .manipulation.dimensions import *  # noqa: F403
from .manipulation.joining import *  # noqa: F403
from .manipulation.splitting import *  # noqa: F403
from .manipulation.tiling import *  # noqa: F403
from .manipulation.adding_removing import *  # noqa: F403
from .manipulation.rearranging import *  # noqa: F403
from .indexing import *  # noqa: F403
from .logic import *  # noqa: F403
from .math.trigonometric import *  # noqa: F403
from .math.hyperbolic import *  # noqa: F403
from .math.rounding import *  # noqa: F403
from .math.sums_products_differences import *  # noqa: F403
from .math.exponents_logarithms import *  # noqa: F403
from .math.special import *  # noqa: F403
from .math.floating_point import *  # noqa: F403
from .math.arithmetic import *  # noqa: F403
from .math.complex import *  # noqa: F403
from .math.extrema import *  # noqa: F403
from .math.miscellaneous import *  # noqa: F403
from .sorting import *  # noqa: F403
from .statistics import *  # noqa: F403
from .sets import *  # noqa: F403
from .polynomials import *  # noqa: F403
from .linalg.products import *  # noqa: F403
from .linalg.norms import *  # noqa: F403
from .array_api import *  # noqa: F403
from . import (array_api, creation, dtypes, indexing, logic, manipulation, math, polynomials, sets,
               sorting, statistics)
from . import fft  # noqa: F401  (the nx.fft namespace)
from . import linalg  # noqa: F401  (the nx.linalg namespace)
from . import random  # noqa: F401  (the nx.random namespace)
from . import _moved
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

# The families: the API reference has a page for each (docs/api/nx/, in the order of numpy's
# reference), and its build fails if one is on no page (scripts/mkdocs_hooks.py).
_families = (dtypes, creation, *manipulation.FAMILIES, indexing, logic, *math.FAMILIES, sorting,
             statistics, sets, polynomials, linalg.products, linalg.norms, array_api)
__all__ = ["Tensor", "TracedValueError", "fft", "linalg", "random"] + [
    name for family in _families for name in family.__all__]

_moved.install()  # `from rune.nx.shapes import reshape`, the modules' old names, still works


def __getattr__(name):
    """`nx.special`: rune.scipy.special, imported on first use (it imports nx).

    scipy.special (with SCIPY_ARRAY_API=1) calls `xp.special.<name>` when an
    array's namespace has it, in anticipation of the standard's special-function
    extension; without it, scipy's numpy ufunc runs on np.asarray(tensor), which
    cannot differentiate (and raises TracedValueError under rune.grad).
    """
    if name == "special":
        from ..scipy import special  # lazy: rune.scipy.special imports nx

        return special
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
