"""Reverse mode: linearize, then transpose the record.

Running f under a LinearizeTrace computes its value and, beside it, records
how tangents flow: each primitive's jvp rule, applied to tangent *variables*
(`Var`s of a graph, which have a shape and a dtype but no value), appends linear
equations to a `Record` instead of computing numbers. The record is a
straight-line linear program from input tangents to output tangents:

    b = multiply a 0.5403      # sin: t * cos(x)
    c = add b d

`linearize` evaluates it forward for any new tangent without running f again.
`vjp` evaluates it backward, equation by equation from the last, applying
each linear primitive's transpose rule to the output's cotangent: that is
reverse mode. One jvp rule per primitive and one transpose rule per linear
primitive give forward mode, linearize and reverse mode together.
"""

from __future__ import annotations

import functools
import weakref

import numpy as np

from . import ptree
from .arguments import (FlatFunction, check_differentiable, check_like, check_structure,
                        flatten_tensors, normalize_argnums)
from .core import Scaled, Trace, new_trace
from .graph import Graph, GraphTrace, Var
from .forward import DifferentiationTracer, _primals_and_tangents, apply_jvp
from .nx.tensor import Tensor
from .primitives.elementwise import add, fit, multiply
from .primitives.shape import zeros_like


class Record(GraphTrace):
    """The linear program recorded by one linearization: a graph of tangents.

    Its Vars are tangent variables. Its equations apply linear primitives to
    them, with constants (residuals such as cos(x), kept from the forward
    pass) in the other arguments.
    """

    kind = "record"

    def process(self, prim, args, params):
        rules = prim.transpose_rules
        if rules is None or ((prim.multilinear or (type(rules) is tuple and None in rules))
                             and not self._linear_use(prim, args)):
            raise TypeError(self.not_linear_message(prim))
        return super().process(prim, args, params)

    def not_linear_message(self, prim):
        message = (
            f"{prim.name} was applied to a tangent in a way that is not linear in it: "
            f"a jvp rule must only scale, add and rearrange its tangents"
        )
        if prim.transpose_rules is None:
            # Or a new linear primitive lacks its transpose rule: say that too.
            message += (f" ({prim.name} has no transpose rule: if it is linear, give it "
                        f"transpose_rules)")
        return message

    def _linear_use(self, prim, args):
        """Whether the tangents among args are where the primitive is linear."""
        tangents = [i for i, a in enumerate(args) if type(a) is Var and a._trace is self]
        if prim.multilinear and len(tangents) > 1:
            return False  # t * t is not linear in t
        rules = prim.transpose_rules
        return not (type(rules) is tuple and any(rules[i] is None for i in tangents))

    def read_error(self, read):
        raise RuntimeError(
            f"{read}: a jvp rule read the value of a tangent recorded by "
            f"{self.transform}; rules must be linear in their tangents"
        )

    def scale(self, t, factor, ans):
        """Record t * factor directly: the Scaled rules' fast path."""
        factor_shape = factor._value.shape if type(factor) is Tensor else getattr(
            factor, "shape", ())
        t_shape = t.shape
        if factor_shape == t_shape or factor_shape == ():
            shape = t_shape
        else:
            shape = np.broadcast_shapes(t_shape, factor_shape)
        out = _new_var(Var)  # new_var, inlined on this hot path
        out._trace = self
        out.shape = shape
        out.dtype = ans.dtype
        out.index = self.num_vars
        self.num_vars += 1
        self.equations.append((_multiply, (t, factor), _SCALED, out))
        return out

    def add(self, a, b):
        """Record a + b: how the parts of a tangent are summed (fast when alike)."""
        if a.shape != b.shape or a.dtype != b.dtype:
            return add(a, b)  # broadcasting or promoting: the general path
        out = _new_var(Var)
        out._trace = self
        out.shape = a.shape
        out.dtype = a.dtype
        out.index = self.num_vars
        self.num_vars += 1
        self.equations.append((_add, (a, b), _ADDED, out))
        return out


_new_var = object.__new__
_multiply = multiply.primitive
_add = add.primitive
# The params of every equation recorded by `scale` and `add` (never
# mutated): they mark those equations for the backward pass's fast paths.
_SCALED: dict = {}
_ADDED: dict = {}


class LinearizeTracer(DifferentiationTracer):
    """A value under linearization: its primal, and its tangent's Var."""

    __slots__ = ()


_new_tracer = object.__new__


class LinearizeTrace(Trace):
    kind = "linearize"

    def __init__(self, level, transform="rune.linearize"):
        super().__init__(level)
        self.transform = transform
        self.record = Record(level, transform)

    def process(self, prim, args, params):
        if len(args) == 1:  # then it is our tracer: this trace is the top one
            x = args[0]
            rules = prim.jvp_rules
            if rules is not None and type(rules[0]) is Scaled and prim.jvp is None:
                # sin, exp, tanh...: apply_jvp's work for one Scaled rule, inlined
                # on the hottest path of reverse mode.
                primal = x.primal
                ans = prim.call(primal, **params)
                tangent = self.record.scale(x.tangent, rules[0].factor(ans, primal, **params), ans)
            else:
                ans, tangent = apply_jvp(prim, (x.primal,), (x.tangent,), params, self.record)
        else:
            # split_by_trace, inlined (and copying arrays): the hot path of every
            # gradient (the call costs ~0.3 us of a ~12 us binary operation).
            primals = []
            tangents = []
            for a in args:
                if type(a) is LinearizeTracer and a._trace is self:
                    primals.append(a.primal)
                    tangents.append(a.tangent)
                else:  # a constant; a numpy array is copied: the record outlives the
                    # call, and the caller may change the array before the backward pass
                    primals.append(np.array(a) if type(a) is np.ndarray else a)
                    tangents.append(None)
            ans, tangent = apply_jvp(prim, primals, tangents, params, self.record)
        if tangent is None:
            return ans
        out = _new_tracer(LinearizeTracer)  # LinearizeTracer(self, ans, tangent), inlined
        out._trace = self
        out.primal = ans
        out.tangent = tangent
        return out

    def new_input(self, primal):
        """A tracer for one input leaf; integer and boolean inputs get no tangent."""
        if primal.dtype.kind not in "fc":
            return primal
        return LinearizeTracer(self, primal, self.record.new_var(primal.shape, primal.dtype))

    def split_output(self, out):
        """(primal, tangent var or None) of one output leaf."""
        if type(out) is LinearizeTracer and out._trace is self:
            return out.primal, out.tangent
        return out, None


def linearize_flat(f, primals, transform="rune.linearize"):
    """Run f on linearize tracers. Returns (out primals, in vars, out vars, record)."""
    with new_trace(LinearizeTrace, transform) as trace:
        tracers = [trace.new_input(p) for p in primals]
        outs = f(*tracers)
        split = [trace.split_output(o) for o in outs]
    trace.record.active = False
    in_vars = [t.tangent if type(t) is LinearizeTracer else None for t in tracers]
    out_primals = [p for p, _ in split]
    out_vars = [v for _, v in split]
    return out_primals, in_vars, out_vars, trace.record


def evaluate_forward(record, in_vars, out_vars, in_tangents):
    """Run the record forward: the output tangents for new input tangents."""
    env = [None] * record.num_vars
    for var, t in zip(in_vars, in_tangents):
        if var is not None:
            env[var.index] = t
    # A Var of another graph (jit tracing f) is a constant to the record.
    for prim, args, params, out in record.equations:
        values = [env[a.index] if type(a) is Var and a._trace is record else a for a in args]
        if any(v is None for v in values):
            # An input without a tangent (integer) contributes zero.
            values = [zeros_like(a) if v is None else v for a, v in zip(args, values)]
        if type(out) is tuple:  # several results (a call of rune/calls)
            for var, value in zip(out, prim.bind(*values, **params)):
                env[var.index] = value
        else:
            env[out.index] = prim.bind(*values, **params)
    return [None if v is None else env[v.index] for v in out_vars]


def evaluate_backward(record, out_vars, out_cts, in_vars):
    """Run the record backward: each input's cotangent (None if zero).

    Walks the equations from the last, giving each Var argument the
    transpose rule's share of the output's cotangent; shares add up where a
    variable is used more than once.
    """
    cts = [None] * record.num_vars
    for var, ct in zip(out_vars, out_cts):
        if var is not None and ct is not None:
            _accumulate(cts, var.index, ct)
    for prim, args, params, out in reversed(record.equations):
        if type(out) is tuple:  # several results (a call of rune/calls)
            _transpose_results(cts, record, prim, args, params, out)
            continue
        ct = cts[out.index]
        if ct is None:
            continue
        cts[out.index] = None  # free it: nothing reads it again
        if params is _SCALED:  # the two most common equations (Record.scale, .add): fast paths
            _transpose_scaled(cts, ct, args, out)
        elif params is _ADDED:
            _transpose_added(cts, ct, args)
        else:
            rules = prim.transpose_rules
            for i, arg in enumerate(args):
                if type(arg) is Var and arg._trace is record:  # not a Var of jit's graph
                    _accumulate(cts, arg.index, rules[i](ct, *args, **params))
    return [None if v is None else cts[v.index] for v in in_vars]


def _transpose_scaled(cts, ct, args, out):
    """out = t * factor (Record.scale), the hot path: t's cotangent is
    ct * factor, reshaped only where the factor broadcast t to a larger shape."""
    t, factor = args
    worth_checking = type(ct) is Tensor and (type(factor) is not Tensor
                                             or ct._value.size >= _SPREAD_MIN)
    if worth_checking and _is_spread_one(ct, factor):
        share = factor
    else:
        share = multiply(ct, factor)
    if out.shape != t.shape or out.dtype != t.dtype:
        share = fit(share, t)
    _accumulate(cts, t.index, share)


def _transpose_added(cts, ct, args):
    """out = a + b of alike tangents (Record.add): each gets the whole cotangent."""
    a, b = args
    _accumulate(cts, a.index, ct)
    _accumulate(cts, b.index, ct)


def _transpose_results(cts, record, prim, args, params, out):
    """Transpose an equation with several results as a whole: its primitive's
    `transpose(out_cts, *args, **params)` maps the results' cotangents (None
    for zero) to one cotangent per argument (None for zero)."""
    out_cts = [cts[var.index] for var in out]
    if all(ct is None for ct in out_cts):
        return
    for var in out:
        cts[var.index] = None
    for arg, ct in zip(args, prim.transpose(out_cts, *args, **params)):
        if type(arg) is Var and arg._trace is record and ct is not None:
            _accumulate(cts, arg.index, ct)


def _is_spread_one(ct, factor):
    """Whether ct * factor is factor itself: ct is a single 1 spread over
    factor's shape without copies (strides 0), as the transpose of a sum
    spreads grad's seed. Saves a full pass over large arrays. The factor
    may be traced (by a jvp around this gradient, say): 1 * f is f there too."""
    value = ct._value
    return (value.size > 1 and not any(value.strides) and value.flat[0] == 1
            and isinstance(factor, Tensor)
            and value.shape == factor.shape and value.dtype == factor.dtype)


# Below this size, checking for a spread 1 costs about what multiplying does
# (a traced factor is always checked: that multiplication would be replayed).
_SPREAD_MIN = 1024


def _accumulate(cts, index, ct):
    previous = cts[index]
    cts[index] = ct if previous is None else add(previous, ct)


def _free_with(function, record):
    """Free the record's residuals as soon as `function` (a pullback) is dropped.

    A record and its Vars refer to each other (a Var knows its trace, the
    record lists the Vars), so without help only Python's cycle collector
    would free them, late, with all the arrays the record keeps alive.
    Emptying the equation list breaks the cycle.
    """
    weakref.finalize(function, record.equations.clear)


# ------------------------------------------------------------- public API


def linearize(f, *primals, has_aux=False):
    """f's value at `primals`, and its tangent map there.

    f runs once. The tangent map `f_jvp(*tangents)` evaluates the recorded
    linear program for each new tangent (one per primal, of its structure)
    without running f again; it returns the output's tangent.

    Args:
      f: a function of tensors (or structures of tensors).
      *primals: f's positional arguments, where to differentiate.
      has_aux: f returns a pair (output, aux); aux is returned undifferentiated.

    Returns:
      `(out, f_jvp)`: f's output, and its tangent map; `(out, f_jvp, aux)`
      with has_aux.

    Raises:
      TypeError: a primal leaf that is not a tensor, a numpy array or a
        number; has_aux and f does not return a pair. Calling f_jvp: a
        tangent of another dtype.
      ValueError: calling f_jvp: tangents of another structure, or a leaf of
        another shape (naming the leaf).

    >>> import rune
    >>> from rune import nx
    >>> out, f_jvp = rune.linearize(lambda x: x * x, nx.array([1.0, 2.0]))
    >>> print(f_jvp(nx.array([1.0, 1.0])))
    float64 [2] [2, 4]
    """
    leaves, structure = flatten_tensors(primals, "primals", "rune.linearize")
    flat_f = FlatFunction(f, structure, "rune.linearize", has_aux)
    outs, in_vars, out_vars, record = linearize_flat(flat_f, leaves, "rune.linearize")
    out, aux = flat_f.split(outs)
    out_primals, out_vars = outs[: flat_f.num_out], out_vars[: flat_f.num_out]

    def f_jvp(*tangents):
        _, _, tangent_leaves = _primals_and_tangents(primals, tangents, "f_jvp")
        out = evaluate_forward(record, in_vars, out_vars, tangent_leaves)
        out = [zeros_like(p) if t is None else t for p, t in zip(out_primals, out)]
        return ptree.unflatten(flat_f.out_structure, out)

    f_jvp.record = record
    _free_with(f_jvp, record)
    f_jvp.in_vars = in_vars
    f_jvp.out_vars = out_vars
    # The record as a printable Graph: tangents of the float inputs in, the
    # output tangents out (a zero constant where an output has none).
    f_jvp.graph = Graph([v for v in in_vars if v is not None], record.equations,
                        [zeros_like(p) if v is None else v for p, v in zip(out_primals, out_vars)])
    return (out, f_jvp, aux) if has_aux else (out, f_jvp)


def vjp(f, *primals, has_aux=False, **kwargs):
    """Reverse mode: f's value at `primals`, and its pullback.

    `pullback(cotangent)` takes a cotangent of the output's structure, shapes
    and dtypes, and returns a tuple with one cotangent per primal, each of
    its primal's structure. It runs the recorded linear program backward and
    can be called any number of times.

    Args:
      f: a function of tensors (or structures of tensors).
      *primals: f's positional arguments, where to differentiate.
      has_aux: f returns a pair (output, aux); aux is returned undifferentiated.
      **kwargs: keyword arguments passed through to f, not differentiated.

    Returns:
      `(out, pullback)`, or `(out, pullback, aux)` with has_aux.

    Raises:
      TypeError: a leaf that is not a tensor; has_aux and f does not return
        a pair. Calling the pullback: a cotangent of another dtype.
      ValueError: calling the pullback: a cotangent of another structure or
        shape, naming the leaf.

    >>> import rune
    >>> from rune import nx
    >>> out, pullback = rune.vjp(lambda x: x * x, nx.array([1.0, 2.0]))
    >>> print(pullback(nx.ones_like(out))[0])
    float64 [2] [2, 4]
    """
    leaves, structure = flatten_tensors(primals, "primals", "rune.vjp")
    if kwargs:  # passed through to f, not differentiated
        f = functools.partial(f, **kwargs)
    flat_f = FlatFunction(f, structure, "rune.vjp", has_aux)
    outs, in_vars, out_vars, record = linearize_flat(flat_f, leaves, "rune.vjp")
    out, aux = flat_f.split(outs)
    out_leaves = outs[: flat_f.num_out]
    out_vars = out_vars[: flat_f.num_out]
    out_paths = ptree.paths(flat_f.out_structure, "cotangent")

    def pullback(cotangent):
        ct_leaves, ct_structure = flatten_tensors(cotangent, "cotangent", "pullback")
        check_structure(ct_structure, flat_f.out_structure, "pullback: the cotangent")
        ct_leaves = [check_like(ct, o, f"pullback: {name}", "cotangent")
                     for ct, o, name in zip(ct_leaves, out_leaves, out_paths)]
        cts = evaluate_backward(record, out_vars, ct_leaves, in_vars)
        cts = [zeros_like(p) if c is None else c for p, c in zip(leaves, cts)]
        return tuple(ptree.unflatten(structure, cts))

    pullback.record = record
    _free_with(pullback, record)
    return (out, pullback, aux) if has_aux else (out, pullback)


def value_and_grad(f, argnums=0, has_aux=False, holomorphic=False):
    """A function returning `(f(*args), gradient)`; see `rune.grad`.

    The value comes from the same run of f as the gradient.

    Args:
      f: a function whose output is a real scalar (a complex one with
        holomorphic=True).
      argnums: the positional argument (an int) or arguments (a tuple) to
        differentiate with respect to; the gradient has its structure.
        Keyword arguments of the call pass through to f, not differentiated.
      has_aux: f returns (output, aux); the function then returns
        ((value, aux), gradient).
      holomorphic: allow complex outputs of a holomorphic f (inputs complex).

    Raises:
      TypeError: calling the function: a non-scalar, integer or (without
        holomorphic) complex output; an integer or boolean argument, naming
        argnums and the dtype; has_aux and f does not return a pair.
      ValueError: calling the function: argnums out of range or repeated.

    >>> import rune
    >>> from rune import nx
    >>> value, gradient = rune.value_and_grad(lambda x: nx.sum(x * x))(nx.array([1.0, 2.0]))
    >>> print(value); print(gradient)
    float64 [] 5
    float64 [2] [2, 4]
    """

    def value_and_grad_f(*args, **kwargs):
        nums = normalize_argnums(argnums, len(args), "rune.grad")
        diff_args = tuple(args[i] for i in nums)
        leaves, structure = flatten_tensors(diff_args, "args", "rune.grad", nums)
        check_differentiable(leaves, structure, "rune.grad", argnums, nums)
        if holomorphic:
            _check_complex(leaves, ptree.paths(structure, "args"), argnums)

        def f_of_diff_args(*diff):
            full = list(args)
            for i, value in zip(nums, diff):
                full[i] = value
            return f(*full, **kwargs)  # keyword arguments pass through, not differentiated

        flat_f = FlatFunction(f_of_diff_args, structure, "rune.grad", has_aux)
        outs, in_vars, out_vars, record = linearize_flat(flat_f, leaves, "rune.grad")
        value, aux = flat_f.split(outs)
        seed = _gradient_seed(value, holomorphic)
        cts = evaluate_backward(record, out_vars[:1], [seed], in_vars)
        record.equations.clear()  # see _free_with
        cts = [zeros_like(p) if c is None else c for p, c in zip(leaves, cts)]
        grads = ptree.unflatten(structure, cts)
        grads = grads[0] if not isinstance(argnums, (tuple, list)) else grads
        return ((value, aux), grads) if has_aux else (value, grads)

    return value_and_grad_f


def grad(f, argnums=0, has_aux=False, holomorphic=False):
    """The gradient of a function with a scalar output.

    Args:
      f: a function whose output is a real scalar (a complex one with
        holomorphic=True).
      argnums: the positional argument (an int) or arguments (a tuple) to
        differentiate with respect to; the gradient has its structure.
        Keyword arguments of the call pass through to f, not differentiated.
      has_aux: f returns (output, aux); the function then returns
        (gradient, aux).
      holomorphic: allow complex outputs of a holomorphic f (inputs complex).

    For a complex input z = x + iy of a real f the gradient is
    df/dx - i df/dy (so grad |z|^2 = 2 conj z); step against its conjugate.

    Raises:
      TypeError: a non-scalar, integer or (without holomorphic) complex
        output, saying to use rune.vjp; an integer or boolean argument, naming
        argnums and the dtype; has_aux and f does not return a pair.
      ValueError: argnums out of range or repeated.

    >>> import rune
    >>> from rune import nx
    >>> print(rune.grad(lambda x: nx.sum(x * x))(nx.array([1.0, 2.0])))
    float64 [2] [2, 4]
    """
    value_and_grad_f = value_and_grad(f, argnums, has_aux, holomorphic)

    def grad_f(*args, **kwargs):
        out, grads = value_and_grad_f(*args, **kwargs)
        return (grads, out[1]) if has_aux else grads

    return grad_f


def _check_complex(leaves, names, argnums):
    for leaf, name in zip(leaves, names):
        if leaf.dtype.kind != "c":
            raise TypeError(
                f"rune.grad: holomorphic=True needs complex inputs, but {name} "
                f"(argnums={argnums}) has dtype {leaf.dtype}"
            )


def _gradient_seed(out, holomorphic):
    """The cotangent 1 of a scalar output, after checking it is one."""
    if not isinstance(out, Tensor):
        raise TypeError(
            f"rune.grad: the function must return a scalar tensor, got "
            f"{type(out).__name__}; use rune.vjp for structured outputs"
        )
    if out.shape != ():
        raise TypeError(
            f"rune.grad: the function must return a scalar (shape ()), got shape "
            f"{out.shape}; use rune.vjp for non-scalar outputs, or sum the output"
        )
    kind = out.dtype.kind
    if kind == "c" and not holomorphic:
        raise TypeError(
            f"rune.grad: the function returns a complex scalar ({out.dtype}); pass "
            f"holomorphic=True for a holomorphic function, or take its real part or abs"
        )
    if kind not in "fc":
        raise TypeError(
            f"rune.grad: the function must return a float scalar, got dtype {out.dtype}"
        )
    return Tensor(np.ones((), out.dtype))


class _LinearFunction(Record):
    """The record of `rune.linear_transpose`: f itself runs on its Vars, so
    applying a non-linear operation to an input, or reading one, raises."""

    def not_linear_message(self, prim):
        return (
            f"rune.linear_transpose: f is not linear in its inputs: it applies {prim.name} "
            f"to them in a way that is not linear (only scaling by constants, adding and "
            f"rearranging are)"
        )

    def read_error(self, read):
        raise TypeError(
            f"rune.linear_transpose: {read}: f read the value of its input; the transpose "
            f"of a linear function depends only on the inputs' shapes and dtypes"
        )


def linear_transpose(f, *primals):
    """The transpose of a linear function f.

    `primals` give the shapes and dtypes of f's inputs (their values do not
    matter). The returned function maps a cotangent of f's output to a tuple
    of cotangents, one per input: for f(x) = A x it computes A^T c.

    f runs once on abstract inputs, to check that it is linear (an affine f,
    x + 1, is transposed as its linear part), and once at `primals`.

    Args:
      f: a function linear in its arguments (tensors or structures of them).
      *primals: example arguments of f, for their shapes and dtypes.

    Raises:
      TypeError: f applies a non-linear operation to its inputs (x * x,
        sin x) or reads their values, naming the operation; a primal leaf
        that is not a tensor, a numpy array or a number; calling the
        transpose, a cotangent of another dtype.
      ValueError: calling the transpose: a cotangent of another structure or
        shape, naming the leaf.

    >>> import rune
    >>> from rune import nx
    >>> f_t = rune.linear_transpose(lambda x: 2 * x[0] + x[1], nx.zeros(2))
    >>> print(f_t(nx.array(1.0))[0])
    float64 [2] [2, 1]
    """
    leaves, structure = flatten_tensors(primals, "primals", "rune.linear_transpose")
    # f runs once on abstract inputs under a record that accepts only linear
    # operations: a non-linear f raises here instead of being transposed at
    # `primals` as if it were linear.
    with new_trace(_LinearFunction, "rune.linear_transpose") as record:
        FlatFunction(f, structure, "rune.linear_transpose")(*[
            record.new_var(x.shape, x.dtype) if x.dtype.kind in "fc" else x for x in leaves])
    _, pullback = vjp(f, *ptree.unflatten(structure, leaves))
    return pullback
