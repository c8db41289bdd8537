"""Mathematical functions: one module per family of numpy's reference, in its order.

Trigonometric, hyperbolic, rounding, sums/products/differences, exponents
and logarithms, other special functions, floating point routines,
arithmetic operations, handling complex numbers, extrema finding,
miscellaneous. Each applies to tensors, numpy arrays and Python numbers
alike, with numpy's broadcasting and type promotion; the notes on kinks and
complex derivatives are in `arithmetic.py`.
"""

from .trigonometric import *  # noqa: F403
from .hyperbolic import *  # noqa: F403
from .rounding import *  # noqa: F403
from .sums_products_differences import *  # noqa: F403
from .exponents_logarithms import *  # noqa: F403
from .special import *  # noqa: F403
from .floating_point import *  # noqa: F403
from .arithmetic import *  # noqa: F403
from .complex import *  # noqa: F403
from .extrema import *  # noqa: F403
from .miscellaneous import *  # noqa: F403
from . import (arithmetic, complex, exponents_logarithms, extrema, floating_point, hyperbolic,
               miscellaneous, rounding, special, sums_products_differences, trigonometric)

FAMILIES = (trigonometric, hyperbolic, rounding, sums_products_differences, exponents_logarithms,
            special, floating_point, arithmetic, complex, extrema, miscellaneous)
__all__ = [name for family in FAMILIES for name in family.__all__]
