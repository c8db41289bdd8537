"""Products of tensors: matmul, dot, inner, outer, tensordot, einsum.

matmul and einsum are primitives (rune/primitives/linalg.py); dot, inner,
outer and tensordot are compositions of matmul, reshape and transpose.
"""

import operator
import string

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import linalg as _l
from ..primitives import shape as _s
from .creation import as_tensor
from .tensor import Tensor

__all__ = ["matmul", "dot", "inner", "outer", "tensordot", "einsum"]


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


# ------------------------------------------------------------------- einsum


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
