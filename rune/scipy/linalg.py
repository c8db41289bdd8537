"""`rune.scipy.linalg`: scipy.linalg's names that numpy.linalg lacks, differentiable.

sqrtm is a primitive (rune/primitives/matrix_functions.py: its method, and its
derivative by a Sylvester equation); solve_sylvester and solve_banded are
compositions of rune's own primitives, so every transformation applies.
numpy has no Schur or banded factorization, so solve_sylvester solves the
Kronecker system of size n m (cost O(n^3 m^3)) and solve_banded the dense
system (cost O(n^3)): right, and differentiable, for the moderate sizes they
are meant for here; scipy's are faster on large matrices.
"""

from __future__ import annotations

import numpy as np

from .. import nx
from ..nx.creation import as_tensor
from ..primitives import matrix_functions as _m

__all__ = ["sqrtm", "solve_sylvester", "solve_banded"]


def _matrix(a, fn, name, square=True):
    a = as_tensor(a, fn)
    if a.dtype.kind not in "fc":
        if a.dtype.kind not in "iub":
            raise TypeError(f"{fn}: {name} must be numeric, got dtype {a.dtype}")
        a = a * 1.0
    if a.ndim != 2 or (square and a.shape[0] != a.shape[1]):
        kind = "a square matrix" if square else "a matrix"
        raise ValueError(f"{fn}: {name} must be {kind} (2-d), got shape {a.shape}")
    return a


def sqrtm(a):
    """The principal square root X of a square matrix: X @ X = a, the eigenvalues
    of X in the right half-plane.

    Differentiable to every order: dX solves X dX + dX X = dA. Stacks of
    matrices (..., M, M) are taken one matrix at a time. The dtype is a's:
    a real matrix whose root is complex (it has a negative real eigenvalue)
    raises, where scipy would return a complex array: pass it as complex.

    Args:
      a: a square matrix (M, M), or a stack of them (..., M, M); real or complex.

    Raises:
      TypeError: a is not numeric.
      ValueError: a is not square, holds inf or nan, or is real with a
        negative real eigenvalue.
      LinAlgError: a (near-defective) matrix whose iteration does not converge.

    >>> from rune import nx
    >>> from rune.scipy import linalg
    >>> print(linalg.sqrtm(nx.array([[4.0, 1.0], [0.0, 9.0]])))
    float64 [2, 2]
    [[                  2, 0.20000000000000004],
     [                  0,  3.0000000000000004]]
    """
    a = as_tensor(a, "rune.scipy.linalg.sqrtm")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"rune.scipy.linalg.sqrtm: a must be a square matrix (or a stack of "
                         f"them in the last two axes), got shape {a.shape}")
    if a.dtype.kind not in "fc":
        a = _matrix(a, "rune.scipy.linalg.sqrtm", "a") if a.ndim == 2 else a * 1.0
    return _m.sqrtm(a)


def solve_sylvester(a, b, q):
    """X with a @ X + X @ b = q (scipy's Sylvester equation).

    Differentiable in a, b and q (a composition of rune's solve). Solved as
    the Kronecker system of size M N: for moderate M, N.

    Args:
      a: a square matrix (M, M).
      b: a square matrix (N, N).
      q: a matrix (M, N).

    Raises:
      TypeError: an argument is not numeric.
      ValueError: shapes that do not fit.
      LinAlgError: a and -b share an eigenvalue (no unique solution).

    >>> from rune import nx
    >>> from rune.scipy import linalg
    >>> a = nx.array([[1.0, 0.0], [0.0, 2.0]])
    >>> print(linalg.solve_sylvester(a, a, nx.array([[2.0, 3.0], [3.0, 4.0]])))
    float64 [2, 2]
    [[1, 1],
     [1, 1]]
    """
    fn = "rune.scipy.linalg.solve_sylvester"
    a, b, q = _matrix(a, fn, "a"), _matrix(b, fn, "b"), _matrix(q, fn, "q", square=False)
    if q.shape != (a.shape[0], b.shape[0]):
        raise ValueError(f"{fn}: q must have shape (a's size, b's size) = "
                         f"{(a.shape[0], b.shape[0])}, got {q.shape}")
    try:
        return _m.sylvester(a, b, q)
    except np.linalg.LinAlgError:
        raise np.linalg.LinAlgError(f"{fn}: a and -b share an eigenvalue, so the equation "
                                    f"has no unique solution") from None


def solve_banded(l_and_u, ab, b):
    """x with A @ x = b, for A given by its diagonals in scipy's band storage:
    ab[u + i - j, j] = A[i, j], l diagonals below the main one and u above.

    Differentiable in ab and b. The banded matrix is formed densely and
    solved with nx.linalg.solve (O(n^3)).

    Args:
      l_and_u: (l, u), the numbers of lower and upper diagonals (non-negative ints).
      ab: the band, of shape (l + u + 1, n).
      b: a vector (n,) or a matrix (n, k) of right-hand sides.

    Raises:
      TypeError: ab or b is not numeric.
      ValueError: l_and_u not two non-negative ints, or shapes that do not fit.
      LinAlgError: the matrix is singular.

    >>> from rune import nx
    >>> from rune.scipy import linalg
    >>> ab = nx.array([[0.0, 1.0, 1.0], [2.0, 2.0, 2.0], [1.0, 1.0, 0.0]])  # tridiagonal
    >>> print(linalg.solve_banded((1, 1), ab, nx.array([3.0, 4.0, 3.0])))
    float64 [3] [1, 1, 1]
    """
    fn = "rune.scipy.linalg.solve_banded"
    if (not isinstance(l_and_u, (tuple, list)) or len(l_and_u) != 2
            or not all(isinstance(k, (int, np.integer)) and not isinstance(k, bool) and k >= 0
                       for k in l_and_u)):
        raise ValueError(f"{fn}: l_and_u must be (l, u), two non-negative ints, got {l_and_u!r}")
    lower, upper = (int(k) for k in l_and_u)
    ab = _matrix(ab, fn, "ab", square=False)
    b = as_tensor(b, fn)
    n = ab.shape[1]
    if ab.shape[0] != lower + upper + 1:
        raise ValueError(f"{fn}: ab must have l + u + 1 = {lower + upper + 1} rows, got shape "
                         f"{ab.shape}")
    if b.ndim not in (1, 2) or b.shape[0] != n:
        raise ValueError(f"{fn}: b must be (n,) or (n, k) with n = {n} (ab's columns), got "
                         f"shape {b.shape}")
    dense = None
    for row in range(lower + upper + 1):
        offset = upper - row  # the diagonal A[i, i + offset]
        if abs(offset) >= n:
            continue
        band = ab[row, offset:] if offset >= 0 else ab[row, :n + offset]
        diagonal = nx.diag(band, k=offset)
        dense = diagonal if dense is None else dense + diagonal
    try:
        return nx.linalg.solve(dense, b)
    except np.linalg.LinAlgError:
        raise np.linalg.LinAlgError(f"{fn}: the banded matrix is singular") from None
