"""Linear algebra (`nx.linalg`): numpy.linalg's names, a module per family of numpy's reference.

Matrix and vector products (`products.py`), decompositions and eigenvalues
(`decompositions.py`), norms and other numbers (`norms.py`), solving
equations and inverting matrices (`solvers.py`), and the array API's linalg
names (`array_api.py`). Each function takes a matrix or a stack of matrices
in the last two axes (numpy's convention) and works for float32, float64,
complex64 and complex128; integer input is computed in float64, as numpy
does.

The products `matmul`, `dot`, `vdot`, `inner`, `outer`, `tensordot`,
`einsum`, `kron`, `vecdot`, `matvec` and `vecmat` are in `rune.nx` itself,
as in numpy; `nx.linalg` holds numpy.linalg's names.
"""

from .products import LinAlgError  # noqa: F401  (nx.linalg.LinAlgError, as numpy.linalg's)
from .products import matmul, matrix_power, multi_dot
from .decompositions import cholesky, eig, eigh, eigvals, eigvalsh, qr, svd, svdvals
from .norms import SlogdetResult  # noqa: F401  (slogdet's result type)
from .norms import cond, det, matrix_norm, matrix_rank, norm, slogdet, vector_norm
from .solvers import inv, lstsq, pinv, solve, tensorinv, tensorsolve
from .array_api import cross, diagonal, matrix_transpose, outer, tensordot, trace, vecdot

__all__ = [
    "inv", "solve", "det", "slogdet", "cholesky", "norm", "vector_norm", "matrix_norm",
    "svdvals", "svd", "eigh", "eigvalsh", "eig", "eigvals", "qr", "pinv", "lstsq",
    "matrix_power", "matrix_rank", "cond", "multi_dot", "tensorsolve", "tensorinv", "matmul",
    "matrix_transpose", "vecdot", "tensordot", "outer", "trace", "diagonal", "cross",
]
