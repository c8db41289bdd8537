"""Matrix and vector products: matmul, dot, vdot, inner, outer, tensordot, einsum, kron...

numpy's "Linear algebra: matrix and vector products", with numpy 2's
`vecdot`, `matvec` and `vecmat`, and `nx.linalg`'s `matrix_power` and
`multi_dot`. matmul and einsum are primitives (rune/primitives/linalg.py);
dot, inner, outer and tensordot are compositions of matmul, reshape and
transpose. `LinAlgError` (numpy's) is defined here, at the bottom of
`nx.linalg`.
"""

from __future__ import annotations

import operator
import string

import numpy as np

from ...primitives import elementwise as _e
from ...primitives import linalg as _l
from ...primitives import reduce as _r
from ...primitives import shape as _s
from ..creation import as_tensor, eye
from ..manipulation import dimensions as _dimensions
from ..manipulation import shape as _shape
from ..manipulation.shape import reshape
from ..math import arithmetic as _arithmetic
from ..math.sums_products_differences import sum as _sum
from ..tensor import Tensor

__all__ = [
    "matmul", "dot", "inner", "outer", "tensordot", "einsum", "kron", "vdot", "vecdot",
    "matvec", "vecmat",
]


def _operands(a, b, fn):
    """a and b as tensors; a product writes new memory, so numpy arrays need no copy."""
    return as_tensor(a, fn, result_is_new=True), as_tensor(b, fn, result_is_new=True)


def matmul(x1, x2):
    """The matrix product x1 @ x2, with numpy's rules.

    Two matrices give their product. A 1-d operand is a vector: on the left
    a row (its axis is contracted and dropped), on the right a column. With
    more than two axes, the last two are the matrices and the leading axes
    broadcast (a stack of products).

    Args:
      x1, x2: tensors (or numpy arrays, nested lists) with at least one axis each.

    Raises:
      TypeError: an operand is not numeric.
      ValueError: a 0-d operand, contracted axes of different sizes (naming
        both shapes and both sizes), or leading axes that do not broadcast.

    >>> from rune import nx
    >>> print(nx.matmul(nx.array([[1., 2.], [3., 4.]]), nx.array([1., 1.])))
    float64 [2] [3, 7]
    """
    if not (isinstance(x1, Tensor) and isinstance(x2, Tensor)):
        x1, x2 = _operands(x1, x2, "nx.matmul")
    try:
        return _matmul(x1, x2)
    except ValueError:
        _l.matmul_shape(x1.shape, x2.shape)  # our message, when the shapes are at fault
        raise


_matmul = _l.matmul


def dot(a, b):
    """numpy's dot product.

    Scalars (0-d) multiply; a vector with anything contracts the vector's
    axis with the other's last axis (a 1-d b) or second-to-last (a 1-d a),
    like matmul; two N-d tensors contract a's last axis with b's
    second-to-last: the result has shape a.shape[:-1] + b.shape[:-2] + b.shape[-1:].

    Args:
      a, b: tensors, numpy arrays, numbers or nested lists of numbers.

    Raises:
      TypeError: an operand is not numeric.
      ValueError: the contracted axes differ in size (naming both shapes).

    >>> from rune import nx
    >>> print(nx.dot(nx.array([1., 2., 3.]), nx.array([4., 5., 6.])))
    float64 [] 32
    """
    a, b = _operands(a, b, "nx.dot")
    if a.ndim == 0 or b.ndim == 0:
        return _e.multiply(a, b)
    if a.ndim <= 2 and b.ndim <= 2 or a.ndim == 1 or b.ndim == 1:
        _l.matmul_shape(a.shape, b.shape, "nx.dot")
        return _l.matmul(a, b)
    return _tensordot(a, b, (a.ndim - 1,), (b.ndim - 2,), "nx.dot")


def inner(a, b):
    """The inner product over the last axes: sum(a[..., k] * b[..., k]).

    The result has shape a.shape[:-1] + b.shape[:-1]; a 0-d operand
    multiplies. Complex operands are not conjugated (as numpy's inner).

    Args:
      a, b: tensors, numpy arrays, numbers or nested lists of numbers.

    Raises:
      TypeError: an operand is not numeric.
      ValueError: the last axes differ in size (naming both shapes).

    >>> from rune import nx
    >>> print(nx.inner(nx.array([[1., 2.], [3., 4.]]), nx.array([1., 10.])))
    float64 [2] [21, 43]
    """
    a, b = _operands(a, b, "nx.inner")
    if a.ndim == 0 or b.ndim == 0:
        return _e.multiply(a, b)
    return _tensordot(a, b, (a.ndim - 1,), (b.ndim - 1,), "nx.inner")


def outer(a, b):
    """The outer product of a and b flattened: out[i, j] = a[i] * b[j].

    Args:
      a, b: tensors, numpy arrays, numbers or nested lists of numbers (of any
        shape: they are flattened).

    Raises:
      TypeError: an operand is not numeric.

    >>> from rune import nx
    >>> print(nx.outer(nx.array([1., 2.]), nx.array([1., 10., 100.])))
    float64 [2, 3]
    [[  1,  10, 100],
     [  2,  20, 200]]
    """
    a, b = _operands(a, b, "nx.outer")
    return _e.multiply(_s.reshape(a, shape=(a.size, 1)), _s.reshape(b, shape=(1, b.size)))


def _axes_list(axes, ndim, name):
    axes = tuple(axes) if isinstance(axes, (tuple, list)) else (axes,)
    out = []
    for ax in axes:
        if not isinstance(ax, (int, np.integer)) or isinstance(ax, bool):
            raise TypeError(f"nx.tensordot: the axes of {name} must be ints, got {axes!r}")
        if not -ndim <= ax < ndim:
            raise ValueError(f"nx.tensordot: axis {ax} of {name} is out of range for a tensor "
                             f"with {ndim} axes (expected -{ndim} <= axis < {ndim})")
        out.append(int(ax) % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"nx.tensordot: the axes of {name} repeat an axis: {axes}")
    return tuple(out)


def tensordot(a, b, axes=2):
    """Sum products over the given axes of a and b (numpy's tensordot).

    The result's axes are a's remaining axes, then b's.

    Args:
      a, b: tensors (or numpy arrays, numbers, nested lists).
      axes: an int N (a's last N axes with b's first N, in order) or a pair
        (axes of a, axes of b) of ints or equally long sequences.

    Raises:
      TypeError: an operand is not numeric, or axes is not an int or a pair
        of ints or sequences of ints.
      ValueError: an axis out of range or repeated, axes lists of different
        lengths, or paired axes of different sizes (naming both).

    >>> from rune import nx
    >>> a = nx.array([[1., 2.], [3., 4.]])
    >>> print(nx.tensordot(a, a, axes=2), nx.tensordot(a, a, axes=([0], [1])).shape)
    float64 [] 30 (2, 2)
    """
    a, b = _operands(a, b, "nx.tensordot")
    if isinstance(axes, (int, np.integer)):
        if not 0 <= axes <= min(a.ndim, b.ndim):
            raise ValueError(f"nx.tensordot: axes={axes} must be between 0 and the smaller "
                             f"number of axes ({min(a.ndim, b.ndim)}) for shapes {a.shape} "
                             f"and {b.shape}")
        axes_a, axes_b = tuple(range(a.ndim - axes, a.ndim)), tuple(range(axes))
    else:
        if not isinstance(axes, (tuple, list)):
            raise TypeError(f"nx.tensordot: axes must be an int or a pair (axes of a, axes "
                            f"of b), got {axes!r}")
        if len(axes) != 2:
            raise ValueError(f"nx.tensordot: axes must be an int or a pair (axes of a, axes "
                             f"of b), got {axes!r}")
        axes_a, axes_b = _axes_list(axes[0], a.ndim, "a"), _axes_list(axes[1], b.ndim, "b")
        if len(axes_a) != len(axes_b):
            raise ValueError(f"nx.tensordot: {len(axes_a)} axes of a {axes_a} but "
                             f"{len(axes_b)} axes of b {axes_b}; they are summed in pairs")
    return _tensordot(a, b, axes_a, axes_b, "nx.tensordot")


def _tensordot(a, b, axes_a, axes_b, fn):
    """Contract axes_a of a with axes_b of b as one matrix product."""
    for i, j in zip(axes_a, axes_b):
        if a.shape[i] != b.shape[j]:
            raise ValueError(f"{fn}: shapes {a.shape} and {b.shape} do not match: axis {i} of "
                             f"a has size {a.shape[i]} but axis {j} of b has size {b.shape[j]} "
                             f"(these are summed together)")
    free_a = tuple(i for i in range(a.ndim) if i not in axes_a)
    free_b = tuple(j for j in range(b.ndim) if j not in axes_b)
    free_a_shape = tuple(a.shape[i] for i in free_a)
    free_b_shape = tuple(b.shape[j] for j in free_b)
    size = _size(a.shape[i] for i in axes_a)
    a2 = _as_matrix(a, free_a + axes_a, (_size(free_a_shape), size))
    b2 = _as_matrix(b, axes_b + free_b, (size, _size(free_b_shape)))
    out = _l.matmul(a2, b2)
    shape = free_a_shape + free_b_shape
    return out if out.shape == shape else _s.reshape(out, shape=shape)


def _size(shape):
    return int(np.prod(tuple(shape), dtype=np.int64))


def _as_matrix(x, order, shape):
    """x's axes put in `order`, then reshaped to the matrix `shape`."""
    if order != tuple(range(x.ndim)):
        x = _s.transpose(x, axes=order)
    return x if x.shape == shape else _s.reshape(x, shape=shape)


def einsum(subscripts, *operands):
    """Einstein summation, as numpy's einsum.

    `subscripts` names each operand's axes with letters, separated by commas;
    after `->` come the output's axes. Letters that are not in the output are
    summed over. Without `->` the output is every letter used exactly once,
    in alphabetical order. `...` stands for the remaining (leading) axes of
    an operand; these broadcast, and come first in an implicit output.

    Args:
      subscripts: a string such as 'ij,jk->ik', 'ii', 'bij,bjk->bik', '...ij->...ji';
        or, numpy's interleaved form, the first operand: `einsum(a, [0, 1], b,
        [1, 2], [0, 2])` (operands each followed by a list of ints naming its
        axes, or `...`; a final list names the output's).
      *operands: tensors, one per comma-separated term.

    Raises:
      TypeError: subscripts is not a string, or an operand is not numeric.
      ValueError: a number of terms different from the number of operands,
        a term with a different number of letters than its operand has axes,
        an output letter not in the inputs or repeated, a letter whose sizes
        disagree, or characters other than letters, ',', '->' and '...'.

    >>> from rune import nx
    >>> a = nx.array([[1., 2.], [3., 4.]])
    >>> print(nx.einsum('ij,j->i', a, nx.array([1., 1.])), nx.einsum('ii', a))
    float64 [2] [3, 7] float64 [] 5
    >>> print(nx.einsum(a, [0, 1], nx.array([1., 1.]), [1], [0]))
    float64 [2] [3, 7]
    """
    if not isinstance(subscripts, str):
        subscripts, operands = _interleaved((subscripts,) + operands)
    operands = [as_tensor(o, "nx.einsum") for o in operands]
    spec = normalize_subscripts(subscripts, [o.shape for o in operands])
    return _l.einsum(*operands, subscripts=spec)


def _interleaved(args):
    """numpy's `einsum(op0, sublist0, op1, sublist1, ..., [output])` as
    subscripts and operands: axis number i is the i-th letter."""
    fn = "nx.einsum"
    output = args[-1] if len(args) % 2 else None
    if output is not None:
        args = args[:-1]
    operands, sublists = args[0::2], args[1::2]

    def term(sublist):
        if isinstance(sublist, str) or not isinstance(sublist, (list, tuple)):
            raise TypeError(f"{fn}: subscripts must be a string such as 'ij,jk->ik' or, in "
                            f"the interleaved form, lists of ints; got {sublist!r}")
        letters = []
        for i in sublist:
            if i is Ellipsis:
                letters.append("...")
            elif hasattr(i, "__index__") and 0 <= operator.index(i) < 52:
                letters.append(string.ascii_letters[operator.index(i)])
            else:
                raise ValueError(f"{fn}: axis numbers in sublists must be ints in [0, 52) or "
                                 f"..., got {i!r}")
        return "".join(letters)

    spec = ",".join(term(s) for s in sublists)
    if output is not None:
        spec += "->" + term(output)
    return spec, tuple(operands)


def normalize_subscripts(subscripts, shapes):
    """Explicit einsum subscripts: `...` replaced by letters and the output written out.

    'ij,jk' -> 'ij,jk->ik'; '...ij->...ji' for a 3-d operand -> 'aij->aji'. The
    primitive and its rules then never parse ellipses or implicit outputs.
    """
    fn = "nx.einsum"
    if not isinstance(subscripts, str):
        raise TypeError(f"{fn}: subscripts must be a string such as 'ij,jk->ik', got "
                        f"{type(subscripts).__name__}")
    text = subscripts.replace(" ", "")
    bad = set(text) - set(string.ascii_letters) - set(",.->")
    if bad or text.count("->") > 1:
        raise ValueError(f"{fn}: invalid subscripts {subscripts!r}: use letters, ',', '...' "
                         f"and one '->'")
    inputs, arrow, output = text.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"{fn}: the subscripts {subscripts!r} name {len(terms)} operand(s) "
                         f"but {len(shapes)} were given")
    fresh = [c for c in string.ascii_letters if c not in text]
    ellipsis_ranks = [_check_term(term, shape, k, fn) for k, (term, shape) in
                      enumerate(zip(terms, shapes))]
    rank = max(ellipsis_ranks, default=0)
    if rank + 1 > len(fresh):
        raise ValueError(f"{fn}: too many axes: einsum has 52 letters for all of them")
    letters = "".join(fresh[:rank])
    terms = [t.replace("...", letters[rank - r:]) for t, r in zip(terms, ellipsis_ranks)]
    if arrow:
        if output.replace("...", "").count(".") or output.count("...") > 1:
            raise ValueError(f"{fn}: invalid output subscripts {output!r}")
        if rank and "..." not in output:
            raise ValueError(f"{fn}: the operands have '...' axes, so the output "
                             f"{output!r} must place them with '...' too")
        output = output.replace("...", letters)
    else:
        counts = "".join(terms)
        output = letters + "".join(sorted(c for c in set(counts) - set(letters)
                                          if counts.count(c) == 1))
    _check_output(output, terms, subscripts, fn)
    _check_sizes(terms, shapes, fn)
    return ",".join(terms) + "->" + output


def _check_term(term, shape, k, fn):
    """The number of axes `...` stands for in one operand's term (0 if none)."""
    letters = term.replace("...", "")
    if "." in letters or term.count("...") > 1:
        raise ValueError(f"{fn}: invalid subscripts {term!r} for operand {k}: '...' is "
                         f"three dots, at most once per operand")
    if "..." in term:
        if len(letters) > len(shape):
            raise ValueError(f"{fn}: operand {k} has {len(shape)} axes but its subscripts "
                             f"{term!r} name at least {len(letters)}")
        return len(shape) - len(letters)
    if len(letters) != len(shape):
        raise ValueError(f"{fn}: operand {k} has {len(shape)} axes (shape {tuple(shape)}) but "
                         f"its subscripts {term!r} name {len(letters)}")
    return 0


def _check_output(output, terms, subscripts, fn):
    for c in output:
        if output.count(c) > 1:
            raise ValueError(f"{fn}: the output of {subscripts!r} repeats the index {c!r}")
        if not any(c in t for t in terms):
            raise ValueError(f"{fn}: the output index {c!r} of {subscripts!r} is not in any "
                             f"input")


def _check_sizes(terms, shapes, fn):
    seen = {}
    for k, (term, shape) in enumerate(zip(terms, shapes)):
        for c, n in zip(term, shape):
            first = shape[term.index(c)]
            if n != first:
                raise ValueError(f"{fn}: index {c!r} repeats in operand {k} with sizes {first} "
                                 f"and {n}; a repeated index takes a diagonal, which needs "
                                 f"equal sizes")
            if c in seen and n != seen[c][0] and 1 not in (n, seen[c][0]):
                size, where = seen[c]
                raise ValueError(f"{fn}: index {c!r} has size {size} in operand {where} but "
                                 f"size {n} in operand {k}")
            if n != 1 or c not in seen:
                seen[c] = (n, k)


def kron(a, b):
    """The Kronecker product: block (i, j, ...) is a[i, j, ...] * b. The shorter
    shape gets leading ones first, as in numpy.

    Args:
      a, b: tensors (numpy arrays, numbers).

    Raises:
      TypeError: an argument is not numeric.

    >>> from rune import nx
    >>> print(nx.kron(nx.eye(2), nx.array([[1.0, 2.0]])))
    float64 [2, 4]
    [[1, 2, 0, 0],
     [0, 0, 1, 2]]
    """
    fn = "nx.kron"
    a, b = as_tensor(a, fn), as_tensor(b, fn)
    ndim = max(a.ndim, b.ndim)
    sa = (1,) * (ndim - a.ndim) + tuple(a.shape)
    sb = (1,) * (ndim - b.ndim) + tuple(b.shape)
    wide_a = reshape(a, tuple(d for n in sa for d in (n, 1)))
    wide_b = reshape(b, tuple(d for n in sb for d in (1, n)))
    return reshape(wide_a * wide_b, tuple(x * y for x, y in zip(sa, sb)))


def vdot(a, b):
    """sum(conj(a) * b) over all elements (a is conjugated; both are flattened).

    Args:
      a, b: tensors, numpy arrays or nested lists with the same number of elements.

    Raises:
      TypeError: a or b is not numeric.
      ValueError: a and b have different sizes.

    >>> from rune import nx
    >>> print(nx.vdot(nx.array([1j, 2.0]), nx.array([1j, 3.0])))
    complex128 [] 7+0i
    """
    a, b = as_tensor(a, "nx.vdot"), as_tensor(b, "nx.vdot")
    if a.size != b.size:
        raise ValueError(f"nx.vdot: a and b have {a.size} and {b.size} elements; they must "
                         f"have as many")
    flat_a = _s.reshape(_e.conj(a) if a.dtype.kind == "c" else a, shape=(a.size,))
    product = _e.multiply(flat_a, _s.reshape(b, shape=(b.size,)))
    return _r.sum(product, axis=(0,), keepdims=False)


LinAlgError = np.linalg.LinAlgError


def _square(a, fn, name="a"):
    """a as a tensor holding square matrices in its last two axes, or a ValueError."""
    a = as_tensor(a, fn)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{fn}: {name} must be a square matrix (or a stack of them in the "
                         f"last two axes), got shape {a.shape}")
    return a


def _inexact(x):
    return x if x.dtype.kind in "fc" else _e.astype(x, dtype=np.dtype(np.float64))


def matrix_power(a, n):
    r"""a multiplied by itself n times (numpy.linalg.matrix_power), for each matrix
    in a stack: the identity for n = 0, powers of inv(a) for n < 0.

    The products are numpy's (repeated squaring beyond n = 3), so the values
    are numpy's; the derivative is that of matmul and inv.

    Args:
      a: a square matrix (M, M), or a stack of them (..., M, M).
      n: an integer (a Python int, a numpy integer, or anything with `__index__`).

    Raises:
      TypeError: a is not numeric, or n is not an integer.
      ValueError: a is not square in its last two axes.
      LinAlgError: n < 0 and a is singular.

    >>> from rune import nx
    >>> a = nx.array([[1.0, 1.0], [0.0, 1.0]])
    >>> print(nx.linalg.matrix_power(a, 5), nx.linalg.matrix_power(a, -2), sep="\n")
    float64 [2, 2]
    [[1, 5],
     [0, 1]]
    float64 [2, 2]
    [[ 1, -2],
     [ 0,  1]]
    """
    from .solvers import inv  # lazy: solvers imports products
    fn = "nx.linalg.matrix_power"
    a = _square(a, fn)
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"{fn}: the exponent n must be an integer, got {n!r}") from None
    if n == 0:
        return _dimensions.broadcast_to(eye(a.shape[-1], dtype=a.dtype), a.shape)
    if n < 0:
        a, n = inv(a), -n
    if n <= 3:
        result = a
        for _ in range(n - 1):
            result = matmul(result, a)
        return result
    power = result = None  # numpy's order of products: a^(2^k) for each bit of n
    while n > 0:
        power = a if power is None else matmul(power, power)
        n, bit = divmod(n, 2)
        if bit:
            result = power if result is None else matmul(result, power)
    return result


def multi_dot(arrays, *, out=None):
    """The product of several matrices, in the cheapest order (numpy.linalg.multi_dot).

    The order is numpy's (the fewest scalar multiplications, by the matrix
    chain algorithm), so the values are numpy's.

    Args:
      arrays: a sequence of at least two tensors: matrices, except that the
        first may be a vector (a row) and the last a vector (a column). With
        two, it is `nx.dot` of them.
      out: not supported (tensors are immutable).

    Raises:
      TypeError: an operand is not numeric, or out is given.
      ValueError: fewer than two arrays, an operand that is not a matrix
        (LinAlgError, as numpy), or neighbours whose sizes do not match.

    >>> from rune import nx
    >>> a, b = nx.ones((10, 100)), nx.ones((100, 5))
    >>> print(nx.linalg.multi_dot([a, b, nx.ones(5)]).shape)
    (10,)
    """
    fn = "nx.linalg.multi_dot"
    if out is not None:
        raise TypeError(f"{fn}: out= is not supported (tensors are immutable); use the result")
    arrays = [as_tensor(a, fn) for a in arrays]
    if len(arrays) < 2:
        raise ValueError(f"{fn}: expected at least two arrays, got {len(arrays)}")
    if len(arrays) == 2:
        return dot(*arrays)
    row, column = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if row:
        arrays[0] = _shape.reshape(arrays[0], (1, -1))
    if column:
        arrays[-1] = _shape.reshape(arrays[-1], (-1, 1))
    for i, a in enumerate(arrays):
        if a.ndim != 2:
            raise LinAlgError(f"{fn}: arrays[{i}] has shape {a.shape}; expected a matrix (the "
                              f"first and the last may be vectors)")
    for i in range(len(arrays) - 1):
        if arrays[i].shape[1] != arrays[i + 1].shape[0]:
            raise ValueError(f"{fn}: arrays[{i}] of shape {arrays[i].shape} and arrays[{i + 1}] "
                             f"of shape {arrays[i + 1].shape} do not match")
    split = _chain_order([a.shape[0] for a in arrays] + [arrays[-1].shape[1]])
    result = _chain_product(arrays, split, 0, len(arrays) - 1)
    if row and column:
        return _shape.reshape(result, ())
    return _shape.reshape(result, (-1,)) if row or column else result


def _chain_order(sizes):
    """split[i][j]: where the cheapest product of matrices i..j splits (matrix i
    is sizes[i] x sizes[i + 1]); numpy's dynamic programme, ties to the left."""
    n = len(sizes) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = np.inf
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + sizes[i] * sizes[k + 1] * sizes[j + 1]
                if q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


def _chain_product(arrays, split, i, j):
    if i == j:
        return arrays[i]
    k = split[i][j]
    return matmul(_chain_product(arrays, split, i, k), _chain_product(arrays, split, k + 1, j))


def _conj(x):
    return _e.conj(x) if x.dtype.kind == "c" else x


def vecdot(x1, x2, axis=-1):
    """The dot product of vectors along `axis`, conj(x1) . x2; other axes broadcast.

    Args:
      x1, x2: tensors (or numpy arrays, nested lists) that broadcast together.
      axis: the axis of the vectors (an int; negative counts from the end).

    Raises:
      TypeError: an argument is not numeric.
      ValueError: shapes that do not broadcast, or sizes along axis that differ.

    >>> from rune import nx
    >>> print(nx.vecdot(nx.array([[1.0, 2.0], [3.0, 4.0]]), nx.array([1.0, 1.0])))
    float64 [2] [3, 7]
    """
    x1, x2 = as_tensor(x1, "nx.vecdot"), as_tensor(x2, "nx.vecdot")
    n1, n2 = x1.shape[axis:][:1], x2.shape[axis:][:1]
    if n1 != n2:
        raise ValueError(f"nx.vecdot: the vectors along axis {axis} have sizes {n1} and {n2} "
                         f"(shapes {x1.shape} and {x2.shape})")
    products = _arithmetic.multiply(_conj(x1), x2)
    # numpy's sum widens small integers (uint8 to uint64); numpy's vecdot does not
    return _sum(products, axis=axis, dtype=products.dtype)


def matvec(x1, x2):
    """Matrix times vector over the last axes: (..., m, n) and (..., n) give (..., m).

    Args:
      x1: a tensor of matrices (at least two axes).
      x2: a tensor of vectors (at least one axis); leading axes broadcast.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: too few axes, or sizes that do not match.

    >>> from rune import nx
    >>> print(nx.matvec(nx.array([[1.0, 2.0], [3.0, 4.0]]), nx.array([1.0, 1.0])))
    float64 [2] [3, 7]
    """
    x1, x2 = as_tensor(x1, "nx.matvec"), as_tensor(x2, "nx.matvec")
    if x1.ndim < 2 or x2.ndim < 1:
        raise ValueError(f"nx.matvec: expected matrices and vectors, got shapes {x1.shape} "
                         f"and {x2.shape}")
    return matmul(x1, _dimensions.expand_dims(x2, -1))[..., 0]


def vecmat(x1, x2):
    """Vector times matrix over the last axes, conj(x1) @ x2: (..., n) and (..., n, m)
    give (..., m).

    Args:
      x1: a tensor of vectors (at least one axis), conjugated if complex.
      x2: a tensor of matrices (at least two axes); leading axes broadcast.

    Raises:
      TypeError: an argument is not numeric.
      ValueError: too few axes, or sizes that do not match.

    >>> from rune import nx
    >>> print(nx.vecmat(nx.array([1.0, 1.0]), nx.array([[1.0, 2.0], [3.0, 4.0]])))
    float64 [2] [4, 6]
    """
    x1, x2 = as_tensor(x1, "nx.vecmat"), as_tensor(x2, "nx.vecmat")
    if x1.ndim < 1 or x2.ndim < 2:
        raise ValueError(f"nx.vecmat: expected vectors and matrices, got shapes {x1.shape} "
                         f"and {x2.shape}")
    return matmul(_dimensions.expand_dims(_conj(x1), -2), x2)[..., 0, :]
