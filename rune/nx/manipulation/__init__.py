"""Array manipulation: one module per family of numpy's reference, in its order.

Changing array shape, transpose-like operations, changing number of
dimensions, joining arrays, splitting arrays, tiling arrays, adding and
removing elements, rearranging elements. Each function is one shape
primitive or a short composition of them (all linear), so all
transformations apply. Axes follow numpy: negative ones count from the end,
and an axis out of range raises ValueError naming it.
"""

from .shape import *  # noqa: F403
from .transpose_like import *  # noqa: F403
from .dimensions import *  # noqa: F403
from .joining import *  # noqa: F403
from .splitting import *  # noqa: F403
from .tiling import *  # noqa: F403
from .adding_removing import *  # noqa: F403
from .rearranging import *  # noqa: F403
from . import (adding_removing, dimensions, joining, rearranging, shape, splitting, tiling,
               transpose_like)

FAMILIES = (shape, transpose_like, dimensions, joining, splitting, tiling, adding_removing,
            rearranging)
__all__ = [name for family in FAMILIES for name in family.__all__]
