"""Control flow: `rune.cond`, `rune.while_loop`, `rune.fori_loop`, `rune.scan`.

Each runs plain Python control flow when it can read its predicate: on
values, and under differentiation (where `bool()` reads the value beneath
the tracer). Then every differentiation works with no rule of its own, and
the results are Python's.

Under `rune.jit` and `rune.vmap`, a cond whose predicate is traced, and
every while_loop and scan (whose functions may read traced values from
their closures), trace their functions to graphs on Vars of the operands'
or carry's shapes and dtypes instead, and bind one primitive (`cond`,
`while`, `scan`, in rune/calls/control_rules.py) with the graphs as params
(rune/calls/subgraphs.py). The primitives have jvp, reverse-mode and batching
rules, so jit, vmap and the differentiations compose with them.

Operands, carries, xs and ys are structures (rune.ptree) of tensors.
"""

from __future__ import annotations

import numpy as np

from .. import ptree
from ..arguments import FlatFunction, as_tensor, flatten_tensors
from ..graph import WeakVar, type_text
from ..nx.tensor import Tensor
from ..primitives import elementwise as _e
from ..primitives import shape as _shape
from .control_rules import cond_p, scan_p, while_p
from .subgraphs import Aval, SubGraph, join_consts, readable, trace_graph, tracing

__all__ = ["cond", "while_loop", "fori_loop", "scan"]


# ------------------------------------------------------------------ checks


def _check_function(f, name, where):
    if not callable(f):
        raise TypeError(f"{where}: {name} must be a function, got {type(f).__name__}")


def _check_predicate(pred, where):
    """A predicate is a boolean scalar: a Python or numpy bool, or a bool tensor of shape ()."""
    if isinstance(pred, (bool, np.bool_)):
        return
    if not isinstance(pred, (Tensor, np.ndarray)) or (
            type(pred) is WeakVar and pred.python_type is not bool):  # a number traced by jit
        got = pred.python_type if type(pred) is WeakVar else type(pred)
        raise TypeError(f"{where} must be a boolean scalar, got {got.__name__}")
    if pred.dtype != np.bool_:
        raise TypeError(f"{where} must be a boolean scalar, got dtype {pred.dtype} "
                        f"(compare to make one: x > 0)")
    if tuple(pred.shape) != ():
        raise ValueError(f"{where} must be a boolean scalar, got shape {tuple(pred.shape)} "
                         f"(reduce it with nx.any or nx.all)")


def _strong(x, name):
    """A carry leaf as a tensor of a definite dtype: a Python number (or one
    traced by jit) gets numpy's default (float64, int64), as in a numpy array."""
    if type(x) is WeakVar:
        return _e.astype(x, dtype=x.dtype)
    return as_tensor(x, name)


def _carry_leaves(tree, root):
    leaves, structure = ptree.flatten(tree)
    names = ptree.paths(structure, root)
    return [_strong(x, name) for x, name in zip(leaves, names)], structure


def _checked_like(tree, structure, like, what, noun, source):
    """The leaves of `tree`, checked to have the structure, shapes and dtypes
    of `like` (a loop's carry, or a scan's y at the first step)."""
    leaves, got = ptree.flatten(tree)
    if got != structure:
        raise ValueError(f"{what} returned a {noun} of structure {got}, expected {structure} "
                         f"(the structure of {source})")
    names = ptree.paths(structure, noun)
    leaves = [_strong(x, f"{what}: {name}") for x, name in zip(leaves, names)]
    for new, old, name in zip(leaves, like, names):
        if tuple(new.shape) != tuple(old.shape):
            raise ValueError(f"{what} changed the shape of {name} from {tuple(old.shape)} to "
                             f"{tuple(new.shape)}; the {noun} keeps the shapes and dtypes of "
                             f"{source}")
        if new.dtype != old.dtype:
            raise TypeError(f"{what} changed the dtype of {name} from {old.dtype} to "
                            f"{new.dtype}; the {noun} keeps the shapes and dtypes of {source} "
                            f"(cast with .astype)")
    return leaves


def _function_name(f, default):
    name = getattr(f, "__name__", default)
    return name if name.isidentifier() else default


# -------------------------------------------------------------------- cond


def cond(pred, true_fun, false_fun, *operands):
    """`true_fun(*operands)` if pred else `false_fun(*operands)`.

    With a predicate that can be read (a value, also under grad and jvp,
    which read the value beneath their tracers) this is Python's `if`: only
    the branch taken runs on the values, and every differentiation goes
    through it; the other branch is traced (it runs on abstract values), so
    that both are checked to return the same structure, shapes and dtypes
    in every mode, as in JAX.

    With a traced predicate (under rune.jit, or rune.vmap with a predicate
    per example) both branches are traced, so they must return the same
    structure, shapes and dtypes; the graph holds one `cond` equation that
    runs the branch taken. Under vmap with a predicate per example both
    branches run and each example takes its own branch's result (as
    nx.where does): a branch that makes a NaN where it is not taken still
    makes its gradient NaN there (the double-where trick avoids it, see the
    control flow page).

    Args:
      pred: a boolean scalar (a Python or numpy bool, or a bool tensor of shape ()).
      true_fun, false_fun: functions of the operands.
      *operands: the arguments passed to the branch (structures of tensors,
        numpy arrays or numbers).

    Raises:
      TypeError: pred is not boolean; the branches return different dtypes.
      ValueError: pred is not a scalar; the branches return different
        structures or shapes. Both are printed.

    >>> import rune
    >>> from rune import nx
    >>> print(rune.cond(nx.array(2.0) > 0, nx.sin, nx.cos, nx.array(0.0)))
    float64 [] 0
    """
    _check_function(true_fun, "true_fun", "rune.cond")
    _check_function(false_fun, "false_fun", "rune.cond")
    _check_predicate(pred, "rune.cond: pred")
    leaves, structure = ptree.flatten(operands)
    names = ptree.paths(structure, "operands")
    leaves = [x if isinstance(x, (Tensor, bool, int, float, complex)) else as_tensor(x, name)
              for x, name in zip(leaves, names)]
    flats = [FlatFunction(f, structure, f"rune.cond: {name}")
             for f, name in ((true_fun, "true_fun"), (false_fun, "false_fun"))]
    if readable(pred):
        return _cond_on_value(bool(pred), flats, leaves)
    traced = [trace_graph(flat, leaves, "rune.cond") for flat in flats]
    _check_branches(flats, [graph.outputs for graph, _ in traced])
    consts, (true_graph, false_graph) = join_consts(traced)
    outs = cond_p.bind(pred, *consts, *leaves,
                       true=SubGraph(true_graph, _function_name(true_fun, "true_fun")),
                       false=SubGraph(false_graph, _function_name(false_fun, "false_fun")))
    return ptree.unflatten(flats[0].out_structure, outs)


def _cond_on_value(pred, flats, leaves):
    """Python's `if`, with the branch not taken traced (never run on values)
    and checked against the branch taken: a program that works here works
    under jit too, as in JAX."""
    taken, other = (0, 1) if pred else (1, 0)
    outs = flats[taken](*leaves)
    outputs = [outs, trace_graph(flats[other], leaves, "rune.cond")[0].outputs]
    _check_branches(flats, outputs if pred else outputs[::-1])
    return ptree.unflatten(flats[taken].out_structure, outs)


def _check_branches(flats, outputs):
    true_structure, false_structure = (flat.out_structure for flat in flats)
    if true_structure != false_structure:
        raise ValueError(
            f"rune.cond: true_fun and false_fun must return the same structure, got "
            f"{true_structure} from true_fun and {false_structure} from false_fun"
        )
    for a, b, name in zip(*outputs, ptree.paths(true_structure, "output")):
        if tuple(a.shape) != tuple(b.shape) or a.dtype != b.dtype:
            error = ValueError if a.dtype == b.dtype else TypeError
            raise error(
                f"rune.cond: true_fun and false_fun must return the same shapes and dtypes, "
                f"but {name} is {type_text(a)} from true_fun and {type_text(b)} from false_fun"
            )


# -------------------------------------------------------------- while_loop


def while_loop(cond_fun, body_fun, init_val):
    """Apply body_fun to a carry while cond_fun says so; return the carry.

    The same as

        val = init_val
        while cond_fun(val):
            val = body_fun(val)
        return val

    and that is how it runs on values and under differentiation (where the
    predicate is read: grad, jvp, hessian all work). Under rune.jit or
    rune.vmap cond_fun and body_fun are traced once and one `while`
    equation runs the loop. Under vmap with a predicate per example the
    loop goes on while some example's does, and the finished examples keep
    their carry.

    Traced, its derivative is forward mode only (jvp, jacfwd): reverse mode
    needs the trip count in advance, as in JAX; use scan, or fori_loop with
    Python int bounds.

    Args:
      cond_fun: carry -> a boolean scalar.
      body_fun: carry -> a carry of the same structure, shapes and dtypes.
      init_val: the first carry, a structure of tensors (numbers and numpy
        arrays become tensors: a Python float is float64).

    Raises:
      TypeError: cond_fun returns something not boolean; body_fun changes
        a dtype.
      ValueError: cond_fun returns a non-scalar; body_fun changes the
        structure (both are printed) or a shape.
      ValueError: reverse-mode differentiation of a traced loop.

    >>> import rune
    >>> from rune import nx
    >>> print(rune.while_loop(lambda x: x < 10, lambda x: 2 * x, nx.array(1.0)))
    float64 [] 16
    """
    _check_function(cond_fun, "cond_fun", "rune.while_loop")
    _check_function(body_fun, "body_fun", "rune.while_loop")
    leaves, structure = _carry_leaves(init_val, "rune.while_loop: init_val")
    where = "rune.while_loop: the value cond_fun returns"
    # Python runs the loop on values and under differentiation; under jit or vmap cond_fun may
    # read traced values from its closure, so the loop is traced (nothing is run to find out).
    while not tracing() and all(map(readable, leaves)):
        carry = ptree.unflatten(structure, leaves)
        pred = cond_fun(carry)
        _check_predicate(pred, where)
        if not pred:
            return carry
        leaves = _checked_like(body_fun(carry), structure, leaves, "rune.while_loop: body_fun",
                               "carry", "init_val")

    def cond_flat(*xs):
        pred = cond_fun(ptree.unflatten(structure, xs))
        _check_predicate(pred, where)
        return [as_tensor(pred, where)]

    def body_flat(*xs):
        return _checked_like(body_fun(ptree.unflatten(structure, xs)), structure, xs,
                             "rune.while_loop: body_fun", "carry", "init_val")

    cond_graph, cond_consts = trace_graph(cond_flat, leaves, "rune.while_loop")
    body_graph, body_consts = trace_graph(body_flat, leaves, "rune.while_loop")
    outs = while_p.bind(*cond_consts, *body_consts, *leaves,
                        cond=SubGraph(cond_graph, _function_name(cond_fun, "cond_fun")),
                        body=SubGraph(body_graph, _function_name(body_fun, "body_fun")),
                        num_cond_consts=len(cond_consts),
                        num_body_consts=len(body_consts))
    return ptree.unflatten(structure, outs)


def _is_int(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def fori_loop(lower, upper, body_fun, init_val):
    """`val = body_fun(i, val)` for i from lower to upper - 1; returns val.

    With Python int bounds it is a `scan` over `nx.arange(lower, upper)`,
    differentiable in both modes even when traced. With tensor bounds it is
    a `while_loop` (traced, forward mode only). The index i is an integer
    tensor of shape ().

    Args:
      lower, upper: the bounds: Python ints, or integer tensors of shape ().
      body_fun: (i, val) -> val, keeping val's structure, shapes and dtypes.
      init_val: the first val, a structure of tensors (numbers and numpy
        arrays become tensors).

    Raises:
      TypeError: body_fun is not a function, a bound that is not an integer
        (a Python int or an integer tensor), or body_fun changes a dtype.
      ValueError: a tensor bound that is not a scalar, or body_fun changes
        val's structure or a shape.

    >>> import rune
    >>> from rune import nx
    >>> print(rune.fori_loop(0, 4, lambda i, total: total + i, nx.array(0)))
    int64 [] 6
    """
    _check_function(body_fun, "body_fun", "rune.fori_loop")
    if _is_int(lower) and _is_int(upper):
        def step(val, i):
            return body_fun(i, val), None

        return scan(step, init_val, Tensor(np.arange(lower, upper)))[0]
    bounds = []
    for name, bound in (("lower", lower), ("upper", upper)):
        if not _is_int(bound):
            if not isinstance(bound, (Tensor, np.ndarray)) or bound.dtype.kind not in "iu":
                got = (f"dtype {bound.dtype}" if isinstance(bound, (Tensor, np.ndarray))
                       else type(bound).__name__)
                raise TypeError(f"rune.fori_loop: {name} must be an integer (a Python int or "
                                f"an integer tensor), got {got}")
            if tuple(bound.shape) != ():
                raise ValueError(f"rune.fori_loop: {name} must be a scalar, got shape "
                                 f"{tuple(bound.shape)}")
        bounds.append(bound)
    dtype = np.result_type(*[b if _is_int(b) else b.dtype for b in bounds])
    start = _e.astype(as_tensor(lower, "rune.fori_loop: lower"), dtype=dtype)

    def body(carry):
        i, val = carry
        return i + 1, body_fun(i, val)

    return while_loop(lambda carry: carry[0] < upper, body, (start, init_val))[1]


# -------------------------------------------------------------------- scan


def scan(f, init, xs=None, length=None, reverse=False):
    """Loop f over the leading axis of xs, carrying a value; stack what it returns.

    The same as

        carry, ys = init, []
        for x in xs:               # reversed(xs) with reverse=True
            carry, y = f(carry, x)
            ys.append(y)
        return carry, stack(ys)    # ys in xs's order, also with reverse=True

    for structures of tensors: xs is a structure whose leaves share their
    first axis's length, x the structure of one slice, and the ys are
    stacked leaf by leaf along a new first axis. With xs=None, give length:
    f gets x=None.

    On values and under differentiation it runs as that Python loop. Under
    rune.jit or rune.vmap (or in a traced branch or body) f is traced once
    and one `scan` equation runs the loop; it has rules for every
    differentiation (reverse mode runs a scan backward).

    Args:
      f: (carry, x) -> (carry, y), the carry keeping its structure, shapes
        and dtypes.
      init: the first carry (numbers and numpy arrays become tensors).
      xs: a structure of tensors to scan along their first axis, or None.
      length: the number of steps; required if xs is None, else checked.
      reverse: scan from the last slice to the first.

    Returns:
      (the last carry, the stacked ys).

    Raises:
      ValueError: xs leaves of different lengths (naming them), a length
        that disagrees, neither xs nor length; f changes the carry's
        structure (both are printed) or a shape.
      TypeError: f does not return a pair, or changes a carry dtype.

    >>> import rune
    >>> from rune import nx
    >>> total, running = rune.scan(lambda c, x: (c + x, c + x), 0.0, nx.array([1.0, 2.0, 3.0]))
    >>> print(total); print(running)
    float64 [] 6
    float64 [3] [1, 3, 6]
    """
    _check_function(f, "f", "rune.scan")
    carry, carry_structure = _carry_leaves(init, "rune.scan: init")
    x_leaves, x_structure = ptree.flatten(xs)
    x_names = ptree.paths(x_structure, "xs")
    x_leaves = [as_tensor(x, f"rune.scan: {name}") for x, name in zip(x_leaves, x_names)]
    n = _scan_length(x_leaves, x_names, length)
    loop = _Loop(f, carry_structure, x_structure)
    # No predicate to read: Python's loop, unless jit or vmap traces (f may close over
    # traced values).
    if n and not tracing() and all(map(readable, carry + x_leaves)):
        return loop.python(carry, x_leaves, n, reverse)
    return loop.traced(carry, x_leaves, n, reverse)


def _scan_length(x_leaves, names, length):
    if length is not None and (not _is_int(length) or length < 0):
        raise TypeError(f"rune.scan: length must be a non-negative int, got {length!r}")
    if not x_leaves:
        if length is None:
            raise ValueError("rune.scan: xs has no leaves (xs=None?), so give length: the "
                             "number of steps")
        return int(length)
    for x, name in zip(x_leaves, names):
        if len(x.shape) == 0:
            raise ValueError(f"rune.scan: {name} has shape (); each leaf of xs needs a leading "
                             f"axis to scan along")
    n = x_leaves[0].shape[0]
    for x, name in zip(x_leaves[1:], names[1:]):
        if x.shape[0] != n:
            raise ValueError(f"rune.scan: the leaves of xs must have the same length along "
                             f"axis 0, but {names[0]} has length {n} and {name} has length "
                             f"{x.shape[0]}")
    if length is not None and length != n:
        raise ValueError(f"rune.scan: length={length} disagrees with xs, whose leaves have "
                         f"length {n}")
    return n


class _Loop:
    """scan's f on flat leaves, run as a Python loop or traced."""

    def __init__(self, f, carry_structure, x_structure):
        self.f = f
        self.carry_structure, self.x_structure = carry_structure, x_structure
        self.y_structure = None

    def step(self, carry, x_leaves):
        """f on leaves: (carry leaves checked, y leaves)."""
        out = self.f(ptree.unflatten(self.carry_structure, carry),
                     ptree.unflatten(self.x_structure, x_leaves))
        if not (isinstance(out, (tuple, list)) and len(out) == 2):
            got = type(out).__name__ + (f" of length {len(out)}"
                                        if isinstance(out, (tuple, list)) else "")
            raise TypeError(f"rune.scan: f must return a pair (carry, y), got a {got}")
        carry = _checked_like(out[0], self.carry_structure, carry, "rune.scan: f", "carry",
                              "init")
        y_leaves, y_structure = flatten_tensors(out[1], "rune.scan: y")
        return carry, y_leaves, y_structure

    def python(self, carry, x_leaves, n, reverse):
        ys = [None] * n
        for i in range(n - 1, -1, -1) if reverse else range(n):
            carry, y_leaves, y_structure = self.step(carry, [x[i] for x in x_leaves])
            if self.y_structure is None:
                self.y_structure, first = y_structure, y_leaves
            else:
                y_leaves = _checked_like(ptree.unflatten(y_structure, y_leaves), self.y_structure,
                                         first, "rune.scan: f", "y", "the first step's y")
            ys[i] = y_leaves
        stacked = [_shape.stack_examples([y[k] for y in ys]) for k in range(len(ys[0]))]
        return (ptree.unflatten(self.carry_structure, carry),
                ptree.unflatten(self.y_structure, stacked))

    def traced(self, carry, x_leaves, n, reverse):
        num_carry = len(carry)

        def body(*leaves):
            new_carry, y_leaves, self.y_structure = self.step(leaves[:num_carry],
                                                              leaves[num_carry:])
            return new_carry + y_leaves

        x_avals = [Aval(tuple(x.shape[1:]), x.dtype) for x in x_leaves]
        graph, consts = trace_graph(body, carry + x_avals, "rune.scan")
        outs = scan_p.bind(*consts, *carry, *x_leaves,
                           body=SubGraph(graph, _function_name(self.f, "f")), length=n,
                           reverse=bool(reverse), num_consts=len(consts), num_carry=num_carry)
        return (ptree.unflatten(self.carry_structure, outs[:num_carry]),
                ptree.unflatten(self.y_structure, outs[num_carry:]))
