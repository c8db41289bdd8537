"""`rune.vmap`: map a function over an axis of its arguments without a loop.

Under vmap each value is a BatchTracer: a value of the level below with one
extra axis (`dim`) holding the examples. f sees one example's shape. A
primitive's batching rule turns "apply to each example" into one call on the
whole batch, saying where the result's batch axis is; unbatched arguments
(`dim` None) are the same for every example.
"""

from __future__ import annotations

import math

import numpy as np

from . import ptree
from .arguments import as_tensor, flatten_tensors
from .core import Trace, Tracer, new_trace
from .nx.tensor import Tensor, TracedValueError
from .primitives import shape as _shape
from .primitives.elementwise import multiply
from .primitives.linalg import matmul


_PYTHON_NUMBERS = (bool, int, float, complex)


class BatchTracer(Tracer):
    __slots__ = ("value", "dim")

    def __init__(self, trace, value, dim):
        self._trace = trace
        self.value = value
        self.dim = dim

    @property
    def shape(self):
        shape = self.value.shape
        return shape[: self.dim] + shape[self.dim + 1:]

    @property
    def dtype(self):
        return self.value.dtype

    def _concrete(self, read, lossless=False):
        raise TracedValueError(
            f"{read}: the value is traced by rune.vmap (it stands for a whole batch of "
            f"values, one per example)"
        )


class DiagonalTracer(BatchTracer):
    """A batch of n vectors, the b-th d[b] * e_b: the rows of diag(d), stored
    as d alone.

    jacfwd and jacrev map over the basis vectors of a vector's space (the
    rows of the identity, d = 1). Dense, the identity holds n^2 numbers, n of
    them not zero, and a layer's Jacobian becomes a product with it: n^3
    multiplications for what is W's rows scaled. Kept diagonal, multiplying by
    an unbatched vector scales d, and a matrix product with an unbatched
    matrix scales that matrix's rows or columns (`_diagonal_shortcut`). Any
    other use reads `value`, the dense batch, made once.
    """

    __slots__ = ("d", "_dense")

    def __init__(self, trace, d):
        self._trace = trace
        self.d = d
        self.dim = 0
        self._dense = None

    @property
    def value(self):
        if self._dense is None:
            n = self.d.shape[0]
            self._dense = multiply(_shape.reshape(self.d, shape=(n, 1)),
                                   Tensor(np.eye(n, dtype=self.d.dtype)))
        return self._dense

    @property
    def shape(self):
        return tuple(self.d.shape)

    @property
    def dtype(self):
        return self.d.dtype


def _diagonal_shortcut(trace, prim, args):
    """prim applied to args, one of them a DiagonalTracer of `trace` and the
    other unbatched, in n^2 work; None where no shortcut applies."""
    if len(args) != 2:
        return None
    x, y = args
    diagonal_first = type(x) is DiagonalTracer and x._trace is trace
    diag, other = (x, y) if diagonal_first else (y, x)
    if type(diag) is not DiagonalTracer or isinstance(other, Tracer) and other._trace is trace:
        return None
    n, other_shape = diag.d.shape[0], tuple(getattr(other, "shape", ()))
    if prim is multiply.primitive and other_shape in ((), (n,)):
        return DiagonalTracer(trace, multiply(diag.d, other))
    if prim is not matmul.primitive or len(other_shape) not in (1, 2):
        return None
    if other_shape[0 if diagonal_first else -1] != n:
        return None  # axes that do not line up: the dense product raises numpy's error
    # Example b is d[b] * e_b: a product with it picks row b of y (e_b @ y)
    # or column b of x (x @ e_b), scaled by d[b].
    if len(other_shape) == 1:  # a vector product: d[b] * other[b]
        return BatchTracer(trace, multiply(diag.d, other), 0)
    if diagonal_first:  # the rows of y, scaled: batch axis 0
        return BatchTracer(trace, multiply(_shape.reshape(diag.d, shape=(n, 1)), other), 0)
    return BatchTracer(trace, multiply(other, diag.d), 1)  # the columns of x: batch axis 1


class BatchTrace(Trace):
    transform = "rune.vmap"
    kind = "batch"

    def __init__(self, level, size):
        super().__init__(level)
        self.size = size

    def process(self, prim, args, params):
        # split_by_trace, inlined: every operation under vmap comes here.
        values, dims = [], []
        for a in args:
            if type(a) is BatchTracer and a._trace is self:
                values.append(a.value)
                dims.append(a.dim)
            elif type(a) is DiagonalTracer and a._trace is self:
                out = _diagonal_shortcut(self, prim, args) if not params else None
                if out is not None:
                    return out
                values.append(a.value)  # dense from here on
                dims.append(0)
            else:
                values.append(a)
                dims.append(None)
        if prim.batch is None:
            out, out_dim = _batch_by_loop(prim, values, dims, params, self.size)
        else:
            out, out_dim = prim.batch(values, dims, **params)
        if out_dim is None:
            return out
        return BatchTracer(self, out, out_dim)


def _batch_by_loop(prim, values, dims, params, size):
    """The fallback for a primitive without a batching rule: one call per example."""
    results = []
    for i in range(size):
        example = [v if d is None else _shape.take_along(v, i, d) for v, d in zip(values, dims)]
        results.append(prim.bind(*example, **params))
    return _shape.stack_examples(results), 0


def vmap(f, in_axes=0, out_axes=0):
    """Map f over an axis of its arguments, as if by a loop, in one batched call.

    Args:
      f: a function of tensors (or structures).
      in_axes: the axis to map of each positional argument: an int for all,
        None for none, or a tuple with one entry per argument (an int, None,
        or a structure matching the argument's). Negative axes count from the end.
        Keyword arguments of the call are mapped along axis 0 (as in JAX).
      out_axes: where the mapped axis goes in each output (int, or structure).

    Returns:
      The mapped function.

    Raises:
      TypeError: in_axes or out_axes holding something other than ints and None.
      ValueError: an axis out of range for its argument or output, mapped
        sizes that disagree, or no argument mapped, naming the argument.

    >>> import rune
    >>> from rune import nx
    >>> print(rune.vmap(lambda row: nx.sum(row * row))(nx.array([[1.0, 2.0], [3.0, 4.0]])))
    float64 [2] [5, 25]
    """
    _check_axes(in_axes, "in_axes")
    _check_axes(out_axes, "out_axes")

    def mapped(*args, **kwargs):
        leaves, structure = ptree.flatten(args)
        axes = _leaf_axes(in_axes, args, structure, "in_axes")
        names = [_argument_name(path) for path in ptree.paths(structure, "")]
        # Keyword arguments are mapped along their first axis (JAX's rule).
        kw_leaves, kw_structure = ptree.flatten(kwargs)
        num_positional = len(leaves)
        leaves = leaves + kw_leaves
        axes = axes + [0] * len(kw_leaves)
        names += [f"keyword argument {path}" for path in ptree.paths(kw_structure, "")]
        # Mapped leaves become tensors; unmapped Python numbers stay numbers,
        # so they keep numpy's weak typing (x32 * 2.0 stays float32).
        leaves = [leaf if ax is None and isinstance(leaf, _PYTHON_NUMBERS)
                  else as_tensor(leaf, f"rune.vmap: {name}")
                  for leaf, ax, name in zip(leaves, axes, names)]
        size = _batch_size(leaves, axes, names)
        axes = [None if ax is None else ax % len(leaf.shape) for leaf, ax in zip(leaves, axes)]
        with new_trace(BatchTrace, size) as trace:
            tracers = [leaf if ax is None else BatchTracer(trace, leaf, ax)
                       for leaf, ax in zip(leaves, axes)]
            out = f(*ptree.unflatten(structure, tracers[:num_positional]),
                    **ptree.unflatten(kw_structure, tracers[num_positional:]))
            out_leaves, out_structure = flatten_tensors(out, "rune.vmap: the output")
            out_dims = _leaf_axes(out_axes, out, out_structure, "out_axes", single=True)
            out_names = ptree.paths(out_structure, "the output")
            results = [_to_out_axis(trace, leaf, d, size, name)
                       for leaf, d, name in zip(out_leaves, out_dims, out_names)]
        return ptree.unflatten(out_structure, results)

    return mapped


def _check_axes(axes, what):
    for axis in ptree.leaves(axes, is_leaf=lambda x: x is None):
        if axis is not None and (not isinstance(axis, int) or isinstance(axis, bool)):
            raise TypeError(
                f"rune.vmap: {what} must be an int, None, or a structure of them (one per "
                f"argument), got {axis!r}"
            )


def _argument_name(path):
    """'[0]['w']' -> "argument 0 at ['w']": how error messages name a leaf."""
    end = path.index("]")
    rest = path[end + 1:]
    return f"argument {path[1:end]}" + (f" at {rest}" if rest else "")


def _leaf_axes(axes, tree, structure, what, single=False):
    """One axis (or None) per leaf: `axes` is broadcast over the tree it prefixes."""
    if axes is None or isinstance(axes, int):
        return [axes] * structure.num_leaves
    if not single and isinstance(axes, (tuple, list)) and isinstance(tree, tuple):
        if len(axes) != len(tree):
            raise ValueError(
                f"rune.vmap: {what} has {len(axes)} entries, but the function was called "
                f"with {len(tree)} positional argument{'s' if len(tree) != 1 else ''}"
            )
        out = []
        for ax, arg in zip(axes, tree):
            sub = ptree.structure(arg)
            out += _leaf_axes(ax, arg, sub, what, single=True)
        return out
    leaves, axes_structure = ptree.flatten(axes, is_leaf=lambda x: x is None)
    if axes_structure == structure:
        return leaves
    raise ValueError(
        f"rune.vmap: {what} has structure {axes_structure}, which does not match the "
        f"value's structure {structure}"
    )


def _batch_size(leaves, axes, names):
    size, first = None, None
    for leaf, ax, name in zip(leaves, axes, names):
        if ax is None:
            continue
        ndim = len(leaf.shape)
        if not -ndim <= ax < ndim:
            raise ValueError(
                f"rune.vmap: in_axes={ax} is out of range for {name.strip()} of shape "
                f"{leaf.shape} (it has {ndim} axes)"
            )
        n = leaf.shape[ax]
        if size is None:
            size, first = n, f"{name.strip()} has size {n} along axis {ax}"
        elif n != size:
            raise ValueError(
                f"rune.vmap: mapped sizes disagree: {first}, but {name.strip()} has size "
                f"{n} along axis {ax}"
            )
    if size is None:
        raise ValueError("rune.vmap: in_axes maps no argument; map at least one axis")
    return size


def map_basis(f, x):
    """vmap(f) over the basis vectors of x's space, shaped like x: the rows
    of the identity, which jacfwd pushes and jacrev pulls.

    f returns a pair of lists: values the same for every basis vector
    (jacfwd's output and aux, which forward mode computes along), returned
    as they are, and tensors batched along their first axis. For a vector x
    the batch is a DiagonalTracer: no n x n identity unless f needs it dense.
    """
    n = math.prod(x.shape)  # np.prod would cost a numpy reduction (~4 us) per Jacobian
    with new_trace(BatchTrace, n) as trace:
        if len(x.shape) == 1:
            basis = DiagonalTracer(trace, Tensor(np.ones(n, dtype=x.dtype)))
        else:
            identity = np.eye(n, dtype=x.dtype).reshape((n,) + tuple(x.shape))
            basis = BatchTracer(trace, Tensor(identity), 0)
        same, batched = f(basis)
        return ([_first_example(trace, leaf) for leaf in same],
                [_to_out_axis(trace, leaf, 0, n, "the output") for leaf in batched])


def _first_example(trace, leaf):
    """A value the same for every example, unbatched. A batching rule may
    batch it anyway: one equation of a jvp can take primals and tangents
    together (a loop's or a call's), and a rule that batches all its outputs
    when one operand is batched batches the primal output too. Its rows are
    equal; take one."""
    if not (isinstance(leaf, BatchTracer) and leaf._trace is trace):
        return leaf
    return _to_out_axis(trace, leaf, 0, trace.size, "the output")[0]


def _to_out_axis(trace, leaf, out_dim, size, name):
    batched = isinstance(leaf, BatchTracer) and leaf._trace is trace
    if out_dim is None:
        if batched:
            raise ValueError(
                f"rune.vmap: out_axes=None says {name} is the same for every example, but it "
                f"depends on the mapped arguments (give out_axes=0 to return it batched)"
            )
        return leaf
    if batched:
        value, dim = leaf.value, leaf.dim
    else:  # the same for every example: give it the batch axis explicitly
        value = _shape.broadcast_to(_shape.reshape(leaf, shape=(1,) + tuple(leaf.shape)),
                                    shape=(size,) + tuple(leaf.shape))
        dim = 0
    ndim = len(value.shape)  # the batch axis included
    if not -ndim <= out_dim < ndim:
        raise ValueError(
            f"rune.vmap: out_axes={out_dim} is out of range for {name}, which has {ndim} "
            f"{'axis' if ndim == 1 else 'axes'} with the batch axis "
            f"(expected {-ndim} <= out_axes < {ndim})"
        )
    target = out_dim % ndim
    return value if target == dim else _shape.moveaxis(value, dim, target)

