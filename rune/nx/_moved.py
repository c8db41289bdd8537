"""The modules rune.nx had before its files followed numpy's families (issue 30).

`from rune.nx.shapes import reshape` keeps working: each old module name is
a small module object here whose names resolve, on first use, to their new
home, with a DeprecationWarning naming it. CHANGELOG.md has the same table.
Old names that are still modules (creation, indexing, sorting, statistics,
linalg, math) are the new families; the few names those lost are listed
there too.
"""

from __future__ import annotations

import importlib
import sys
import types
import warnings

# old module -> {new module (under rune.nx): its names}
MOVED = {
    "aliases": {
        "math.trigonometric": "acos asin atan atan2",
        "math.hyperbolic": "acosh asinh atanh",
        "math.arithmetic": "pow",
        "manipulation": "concat permute_dims matrix_transpose unstack",
        "linalg.products": "vecdot matvec vecmat",
        "math.sums_products_differences": "cumulative_sum cumulative_prod",
    },
    "averages": {
        "statistics": "average nanmean nanvar nanstd",
        "math.sums_products_differences": "nansum",
        "math.extrema": "nanmax nanmin",
    },
    "building": {
        "manipulation": "block broadcast_arrays resize",
        "creation": "meshgrid tri identity empty empty_like logspace geomspace copy",
        "indexing": "choose compress tril_indices triu_indices indices",
        "math.miscellaneous": "piecewise",
        "sorting": "extract",
    },
    "calculus": {
        "math.sums_products_differences": "diff ediff1d trapezoid",
        "math.miscellaneous": "interp",
        "polynomials": "polyval polyfit",
    },
    "comparisons": {
        "math.extrema": "maximum minimum",
        "math.miscellaneous": "clip",
        "indexing": "where",
        "logic": ("equal not_equal less less_equal greater greater_equal logical_and logical_or "
                "logical_xor logical_not isnan isfinite isinf"),
        "math.rounding": "floor ceil round",
    },
    "decompositions": {
        "linalg.decompositions": "svd eigh eigvalsh eig eigvals qr",
    },
    "differences": {
        "math.sums_products_differences": "gradient cross",
        "linalg.products": "vdot",
        "math.miscellaneous": "convolve",
        "statistics": "correlate",
    },
    "elementwise": {
        "math.rounding": "rint around trunc",
        "math.floating_point": "copysign signbit",
        "math.arithmetic": "fmod float_power positive true_divide divmod modf",
        "math.miscellaneous": "heaviside",
        "logic": "isclose",
        "math.special": "i0",
    },
    "more_math": {
        "math.exponents_logarithms": "exp2 logaddexp logaddexp2",
        "math.miscellaneous": "cbrt fabs nan_to_num real_if_close",
        "math.trigonometric": "hypot deg2rad rad2deg radians degrees",
        "math.special": "sinc",
        "math.extrema": "fmax fmin",
        "logic": "iscomplex isreal",
        "math.complex": "real_tensor",
    },
    "products": {
        "linalg.products": "matmul dot inner outer tensordot einsum normalize_subscripts",
    },
    "rearranging": {
        "manipulation": "roll rollaxis rot90 flipud fliplr",
        "creation": "diag diagflat tril triu",
        "linalg.products": "kron",
        "indexing": "select put_along_axis",
    },
    "reductions": {
        "math.sums_products_differences": "sum prod cumsum cumprod",
        "statistics": "mean var std",
        "math.extrema": "max min",
        "sorting": "argmax argmin",
        "logic": "all any allclose",
        "math.exponents_logarithms": "logsumexp softmax log_softmax",
        "tensor": "normalize_axis normalize_axes",
    },
    "shapes": {
        "manipulation": ("ndim reshape ravel transpose swapaxes moveaxis expand_dims squeeze "
                         "broadcast_to concatenate stack split tile repeat flip pad"),
    },
    "solvers": {
        "linalg.solvers": "pinv lstsq tensorsolve tensorinv",
        "linalg.products": "matrix_power multi_dot matmul",
        "linalg.norms": "matrix_rank cond",
        "linalg.array_api": "matrix_transpose vecdot tensordot outer trace diagonal cross",
    },
    "stacking": {
        "manipulation": ("atleast_1d atleast_2d atleast_3d vstack row_stack hstack dstack "
                         "column_stack array_split hsplit vsplit dsplit append insert delete "
                         "r_ c_"),
    },
    "trigonometry": {
        "math.trigonometric": "sin cos tan arcsin arccos arctan arctan2",
        "math.hyperbolic": "sinh cosh tanh arcsinh arccosh arctanh",
    },
    "updates": {
        "indexing": "IndexUpdates IndexUpdate",
    },
}
# Public helpers that were never in their module's __all__.
_NOT_IN_ALL = frozenset({"IndexUpdate", "IndexUpdates", "normalize_axes", "normalize_axis",
                         "normalize_subscripts", "real_tensor"})


class MovedModule(types.ModuleType):
    """An old module name: each name it had resolves to its new module."""

    def __init__(self, old: str, homes: dict):
        super().__init__(f"rune.nx.{old}", f"Moved: see rune.nx._moved.MOVED[{old!r}].")
        self._homes = {name: new for new, names in homes.items() for name in names.split()}
        self.__all__ = [name for name in self._homes if name not in _NOT_IN_ALL]

    def __getattr__(self, name):
        homes = self.__dict__.get("_homes", {})
        if name not in homes:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        new = f"rune.nx.{homes[name]}"
        warnings.warn(f"{self.__name__}.{name} is now {new}.{name} (and rune.nx's own name is "
                      f"unchanged); {self.__name__} will go", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(new), name)

    def __dir__(self):
        return sorted(self._homes)


def install() -> None:
    """Put the old module names in sys.modules (rune.nx's __init__ calls it once)."""
    for old, homes in MOVED.items():
        sys.modules.setdefault(f"rune.nx.{old}", MovedModule(old, homes))
