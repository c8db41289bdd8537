"""rune: a compact, readable automatic-differentiation engine on numpy.

The transformations (`grad`, `jvp`, `vjp`, `linearize`...) take functions of
tensors from `rune.nx` and return functions; `rune.ptree` handles structures.
"""

from . import nx, ptree
from .nx import TracedValueError
from .forward import jvp
from .reverse import grad, linear_transpose, linearize, value_and_grad, vjp
from .detach import detach, stop_gradient
from .vmap import vmap
from .jacobians import hessian, hvp, jacfwd, jacrev
from .checks import GradientCheckError, check_grads
from .jit import jit, make_graph
from .calls import checkpoint, custom_jvp, custom_transpose, custom_vjp
from .calls import cond, fori_loop, scan, while_loop

__all__ = [
    "nx", "ptree", "TracedValueError",
    "jvp", "grad", "linear_transpose", "linearize", "value_and_grad", "vjp",
    "detach", "stop_gradient", "vmap", "hessian", "hvp", "jacfwd", "jacrev",
    "GradientCheckError", "check_grads", "jit", "make_graph",
    "checkpoint", "custom_jvp", "custom_transpose", "custom_vjp",
    "cond", "fori_loop", "scan", "while_loop",
]
