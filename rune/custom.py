"""Custom derivative rules (`custom_jvp`, `custom_vjp`, `custom_transpose`) and `checkpoint`.

A custom function is written `fun(*args) -> (out, rule)`: beside its output
it gives the rule one differentiation uses for it. The decorated function
returns `out`. What happens at a call depends on the innermost transformation
among the arguments, as for a primitive:

  none                 fun runs on the values; the rule is not used.
  a differentiation    fun runs on the primals, one level down (on values when
  (jvp, grad, vjp...)  that is the bottom, so `.item()` works) and the rule
                       gives the derivative. Differentiations around it see fun
                       and the rule as written: Python code on their tracers.
  anything else        fun and its rule are traced to graphs under their own
  (jit, vmap...)       GraphTrace ("rune.custom_vjp"...), so a read of a value
                       names it, and the call is bound as one primitive
                       (`custom_vjp_call`...) that carries the graphs: jit
                       records and replays it, vmap batches the graphs, and a
                       differentiation of the replay still uses the rule.

Under reverse mode a custom_vjp, a custom_transpose and a checkpoint are each
one equation of the record with several results, `linear_call`, whose params
carry two Python functions: `forward` (what linearize's tangent map runs) and
`transpose` (what the backward pass runs: the user's rule).
"""

from __future__ import annotations

import functools

import numpy as np

from . import ptree
from .arguments import FlatFunction, as_tensor, check_structure, flatten_tensors
from .core import Primitive, Tracer, _leaked, new_trace
from .forward import JVPTrace, JVPTracer, jvp_flat
from .graph import Graph, GraphTrace, Var, WeakVar
from .jit import JitTrace, compile_graph
from .nx.random import recording_states, replaying
from .nx.tensor import Tensor
from .primitives import reduce as _reduce
from .primitives import shape as _shape
from .reverse import LinearizeTrace, LinearizeTracer, Record, evaluate_backward, linearize_flat
from .vmap import BatchTrace, BatchTracer, vmap

__all__ = ["custom_jvp", "custom_vjp", "custom_transpose", "checkpoint"]


# --------------------------------------------------------------- the record


class _LinearCall(Primitive):
    """A linear map recorded as one equation with several results.

    `bind` computes it with `rule.forward`; the backward pass transposes it
    with `rule.transpose(out_cts)`, which gives one cotangent per argument.
    """

    __slots__ = ()

    def bind(self, *args, rule):
        return rule.forward(*args)

    def transpose(self, out_cts, *args, rule):
        return rule.transpose(out_cts)


class _LinearRule:
    """The params of a `linear_call`: its name (for printing) and two functions."""

    __slots__ = ("name", "forward", "transpose")

    def __init__(self, name, forward, transpose):
        self.name, self.forward, self.transpose = name, forward, transpose

    def __repr__(self):
        return self.name


linear_call = _LinearCall("linear_call", lambda *arrays, rule: [
    np.asarray(out._value) for out in rule.forward(*[Tensor(a) for a in arrays])])


def _record_linear(record, args, out_avals, name, forward, transpose):
    """Append `outs = linear_call(*args)` to a record; return the output Vars."""
    outs = tuple(record.new_var(a.shape, a.dtype) for a in out_avals)
    rule = _LinearRule(name, forward, transpose)
    record.equations.append((linear_call, tuple(args), {"rule": rule}, outs))
    return outs


# ------------------------------------------------------------- the three kinds


class _Kind:
    """One of custom_jvp, custom_vjp, custom_transpose: what its rule maps."""

    def __init__(self, name, rule_maps):
        self.name = name  # "rune.custom_vjp", for messages and as the tracing transform
        self.rule_maps = rule_maps  # "tangents": rule(*in_tangents) -> out tangent;
        # "cotangents": rule(out_ct) -> in cotangents (bare for one argument, else a tuple)
        self.primitive = _CustomCall(name[len("rune."):] + "_call", self)


class _CustomCall(Primitive):
    """`custom_vjp_call` and its siblings: a traced custom function as one primitive.

    Its only param `fun` is a `_GraphCall` (the graphs of fun and of its rule).
    `bind` returns a list: one result per output leaf.
    """

    __slots__ = ("kind",)

    def __init__(self, name, kind):
        super().__init__(
            name,
            lambda *arrays, fun: fun.run_arrays(*arrays),
            lambda *args, fun: [(o.shape, o.dtype) for o in fun.fwd.outputs[: fun.num_out]],
        )
        self.kind = kind

    def bind(self, *args, fun):
        return _apply(self.kind, fun, list(args))


# -------------------------------------------- a custom function, two forms


class _PythonCall:
    """The user's fun on flat leaves: `call(*leaves) -> (out leaves, rule on leaves)`.

    The rule it returns takes and gives flat leaves (None for a zero input),
    and checks what the user's rule returns.
    """

    def __init__(self, kind, fun, in_structure):
        self.kind = kind
        self.fun = fun
        self.name = getattr(fun, "__name__", "fun")
        self.in_structure = in_structure
        self.out_structure = None

    def __call__(self, *leaves):
        out, rule = _split_pair(self.fun(*ptree.unflatten(self.in_structure, leaves)),
                                self.kind, self.name)
        out_leaves, self.out_structure = flatten_tensors(out, f"{self.kind.name}: the output")
        if self.kind.rule_maps == "tangents":
            flat_rule = lambda *ts: _tangent_rule(self, rule, ts, leaves, out_leaves)  # noqa: E731
        else:
            flat_rule = lambda *cts: _cotangent_rule(self, rule, cts, leaves, out_leaves)  # noqa: E731
        return out_leaves, flat_rule


class _GraphCall:
    """fun traced: `fwd` maps the argument leaves to the output leaves followed
    by the residuals (the values computed by fun that its rule reads); `rule`
    maps the argument leaves, the residuals and the rule's inputs to its outputs."""

    def __init__(self, kind, name, fwd, rule, num_out, out_structure):
        self.kind, self.name = kind, name
        self.fwd, self.rule = fwd, rule
        self.num_out, self.out_structure = num_out, out_structure
        self.compiled = None

    def run_arrays(self, *arrays):
        """The outputs on numpy values, by fun's graph compiled as jit compiles
        (what jit's compiled code calls: the `impl` of custom_vjp_call...)."""
        if self.compiled is None:
            outputs = Graph(self.fwd.inputs, self.fwd.equations, self.fwd.outputs[: self.num_out])
            self.compiled = compile_graph(outputs, self.name)[0]
        return list(self.compiled(*arrays))

    def __call__(self, *leaves):
        results = self.fwd.evaluate(*leaves)
        residuals = results[self.num_out:]
        return results[: self.num_out], lambda *xs: self.apply_rule(leaves, residuals, xs)

    def apply_rule(self, args, residuals, xs):
        inputs = self.rule.inputs[len(args) + len(residuals):]
        xs = [_zeros(v) if x is None else x for x, v in zip(xs, inputs)]
        return self.rule.evaluate(*args, *residuals, *xs)

    def __repr__(self):
        return self.name


def _split_pair(result, kind, name):
    if not (isinstance(result, tuple) and len(result) == 2 and callable(result[1])):
        got = type(result).__name__ + (f" of length {len(result)}"
                                       if isinstance(result, tuple) else "")
        raise TypeError(
            f"{kind.name}: {name} must return a pair (output, rule) with a callable "
            f"rule, got a {got}"
        )
    return result


def _tangent_rule(call, rule, tangents, in_leaves, out_leaves):
    """custom_jvp's rule on flat leaves: in tangents (None = zero) -> out tangents."""
    tangents = [_zeros(x) if t is None else t for t, x in zip(tangents, in_leaves)]
    result = rule(*ptree.unflatten(call.in_structure, tangents))
    names = ptree.paths(call.out_structure, "output")
    return _checked(call.kind, result, out_leaves, call.out_structure, "tangent", names, "")


def _cotangent_rule(call, rule, cts, in_leaves, out_leaves):
    """custom_vjp's (or custom_transpose's) rule on flat leaves: out cotangents
    (None = zero) -> one cotangent per argument leaf."""
    cts = [_zeros(o) if c is None else c for c, o in zip(cts, out_leaves)]
    result = rule(ptree.unflatten(call.out_structure, cts))
    arg_structures = call.in_structure.children
    if len(arg_structures) == 1:
        result = (result,)
    elif not (isinstance(result, (tuple, list)) and len(result) == len(arg_structures)):
        got = type(result).__name__ + (f" of length {len(result)}"
                                       if isinstance(result, (tuple, list)) else "")
        raise TypeError(
            f"{call.kind.name}: the rule of {call.name} must return a tuple of "
            f"{len(arg_structures)} cotangents, one per argument, got a {got}"
        )
    out, start = [], 0
    for i, (ct, structure) in enumerate(zip(result, arg_structures)):
        like = in_leaves[start: start + structure.num_leaves]
        start += structure.num_leaves
        if ct is None:  # the user's way of saying zero
            out += [_zeros(x) for x in like]
            continue
        names = [f"argument {i}{path}" for path in ptree.paths(structure)]
        out += _checked(call.kind, ct, like, structure, "cotangent", names, f" for argument {i}")
    return out


def _checked(kind, value, like, structure, what, names, where):
    """The rule's result as leaves, after checking its structure, shapes and dtypes."""
    leaves, got = flatten_tensors(value, f"{kind.name}: the rule's {what}{where}")
    check_structure(got, structure, f"{kind.name}: the rule's {what}{where}")
    out = []
    for leaf, x, name in zip(leaves, like, names):
        if not _differentiable(x):  # no derivative: whatever the rule says is zero
            out.append(_zeros(x))
            continue
        if tuple(leaf.shape) != tuple(x.shape):
            raise ValueError(
                f"{kind.name}: the rule returned a {what} of shape {tuple(leaf.shape)} for "
                f"{name}, expected {tuple(x.shape)}"
            )
        if leaf.dtype != x.dtype:
            raise TypeError(
                f"{kind.name}: the rule returned a {what} of dtype {leaf.dtype} for {name}, "
                f"expected {x.dtype}"
            )
        out.append(leaf)
    return out


# ----------------------------------------------------------------- dispatch


def _top_trace(leaves):
    """The innermost transformation among the leaves (None for values)."""
    top = None
    for x in leaves:
        if isinstance(x, Tracer) and (top is None or x._trace.level > top.level):
            top = x._trace
    if top is not None and not top.active:
        raise _leaked(top)
    return top


def _apply(kind, call, leaves):
    """A custom function (a _PythonCall or a _GraphCall) applied to leaves."""
    trace = _top_trace(leaves)
    if trace is None:
        return call(*leaves)[0]
    if isinstance(trace, LinearizeTrace):
        return _linearize(kind, call, trace, leaves)
    if isinstance(trace, JVPTrace):
        return _jvp(kind, call, trace, leaves)
    if isinstance(call, _PythonCall):  # traced: fun and its rule become graphs
        call = _trace_call(kind, call, leaves)
    if isinstance(trace, Record):
        return _on_tangents(kind, call, trace, leaves)
    if isinstance(trace, GraphTrace):
        outs = tuple(trace.new_var(o.shape, o.dtype) for o in call.fwd.outputs[: call.num_out])
        trace.equations.append((kind.primitive, tuple(leaves), {"fun": call}, outs))
        return list(outs)
    if isinstance(trace, BatchTrace):
        return _batch(kind, call, trace, leaves)
    raise NotImplementedError(f"{kind.name} does not support {trace.transform}")


def _split_level(trace, leaves, tracer_type):
    """(primals, tangents) of the leaves at one differentiation level."""
    primals, tangents = [], []
    for x in leaves:
        if type(x) is tracer_type and x._trace is trace:
            primals.append(x.primal)
            tangents.append(x.tangent)
        else:
            primals.append(x)
            tangents.append(None)
    return primals, tangents


def _check_not_closed_over(name, trace, outs):
    """fun ran one level down: an output of this level came from a closure."""
    for out in outs:
        if isinstance(out, Tracer) and out._trace is trace:
            raise ValueError(
                f"{name}: the function uses a value differentiated by {trace.transform} "
                f"that is not one of its arguments (it closes over it); pass it as an argument"
            )


def _differentiable(x):
    """Float and complex tensors have derivatives; integers and Python numbers
    (a WeakVar is one, traced by jit) do not."""
    return isinstance(x, Tensor) and x.dtype.kind in "fc" and type(x) is not WeakVar


def _zeros(x):
    """A zero of x's shape and dtype (x a tensor, a Var or a Python number)."""
    return _shape.zeros_like(x) if isinstance(x, Tensor) else Tensor(np.zeros((), type(x)))


def _linearize(kind, call, trace, leaves):
    """Under reverse mode: fun on the primals, the rule for the record."""
    primals, tangents = _split_level(trace, leaves, LinearizeTracer)
    outs, rule = call(*primals)
    _check_not_closed_over(kind.name, trace, outs)
    if all(t is None for t in tangents):
        return outs
    if kind is _TRANSPOSE and isinstance(call, _PythonCall):
        # The rule, a closure made on these primals, would transpose with their
        # values if it read them: trace it once, which raises if it does.
        _trace_call(kind, call, primals)
    if kind.rule_maps == "tangents":  # custom_jvp: the rule records its own linear operations
        out_tangents = rule(*tangents)
        record = trace.record
        return [_linearize_tracer(trace, o, t) if type(t) is Var and t._trace is record else o
                for o, t in zip(outs, out_tangents)]
    tangent_at = [i for i, t in enumerate(tangents) if t is not None]

    def forward(*ts):  # what linearize's tangent map runs
        if kind is _VJP:
            raise TypeError(_forward_mode_message(call.name, "the tangent map of rune.linearize"))
        return call(*_placed(ts, tangent_at, map(_zeros, primals)))[0]  # custom_transpose

    name = f"{kind.name[len('rune.'):]}({call.name})"
    return _record_call(trace, name, outs, tangents, tangent_at, forward, lambda cts: rule(*cts))


def _record_call(trace, name, outs, tangents, tangent_at, forward, transpose_all):
    """Record one linear_call from the tangents at `tangent_at` to the float outputs.

    `forward(*tangents at tangent_at)` gives every output's tangent (None =
    zero) and `transpose_all(cts of every output, None = zero)` every
    argument's cotangent; the equation keeps its arguments' and results'.
    Neither keeps the outputs' values alive (checkpoint is about memory).
    """
    out_at = [j for j, o in enumerate(outs) if _differentiable(o)]
    num_outs = len(outs)

    def forward_at(*ts):
        out_tangents = forward(*ts)
        return [_zeros(var) if out_tangents[j] is None else out_tangents[j]
                for j, var in zip(out_at, out_vars)]

    def transpose_at(out_cts):
        cts = transpose_all(_placed(out_cts, out_at, [None] * num_outs))
        return [cts[i] for i in tangent_at]

    out_vars = _record_linear(trace.record, [tangents[i] for i in tangent_at],
                              [outs[j] for j in out_at], name, forward_at, transpose_at)
    results = list(outs)
    for j, var in zip(out_at, out_vars):
        results[j] = _linearize_tracer(trace, outs[j], var)
    return results


def _placed(values, at, base):
    """A new list of `base`'s entries, with `values` placed at the indices `at`."""
    full = list(base)
    for i, v in zip(at, values):
        full[i] = v
    return full


def _linearize_tracer(trace, primal, tangent):
    out = object.__new__(LinearizeTracer)
    out._trace, out.primal, out.tangent = trace, primal, tangent
    return out


def _forward_mode_message(name, where):
    return (
        f"rune.custom_vjp: {where} differentiates {name} in forward mode, but custom_vjp "
        f"defines only reverse mode; give a custom_jvp for forward mode"
    )


def _jvp(kind, call, trace, leaves):
    """Under forward mode: custom_jvp's rule; a linear function applied to the tangents."""
    if kind is _VJP:
        raise TypeError(_forward_mode_message(call.name, trace.transform))
    primals, tangents = _split_level(trace, leaves, JVPTracer)
    outs, rule = call(*primals)
    _check_not_closed_over(kind.name, trace, outs)
    if all(t is None for t in tangents):
        return outs
    if kind.rule_maps == "tangents":
        out_tangents = rule(*tangents)
    else:  # custom_transpose: fun is linear, its tangent map is itself
        out_tangents = _apply(kind, call, [_zeros(p) if t is None else t
                                           for p, t in zip(primals, tangents)])
    return [JVPTracer(trace, o, t) if _differentiable(o) else o for o, t in zip(outs, out_tangents)]


def _on_tangents(kind, call, record, leaves):
    """A custom function applied to tangents in the record (from a jvp rule)."""
    if kind is not _TRANSPOSE:
        raise TypeError(
            f"{kind.name} ({call.name}) was applied to a tangent, but it is not linear: "
            f"a jvp rule must only scale, add and rearrange its tangents"
        )
    outs = call.fwd.outputs[: call.num_out]
    name = f"custom_transpose({call.name})"
    out_vars = _record_linear(record, leaves, outs, name, lambda *xs: call(*xs)[0],
                              lambda cts: call.apply_rule(leaves, [], cts))
    return list(out_vars)


# ------------------------------------------------------------------ tracing


class _CustomTrace(JitTrace):
    """What fun and its rule are traced under: jit's trace (Python numbers
    among the arguments keep their weak typing, as they do eagerly), whose
    reads name the custom rule plainly (`... is traced by rune.custom_vjp`)."""

    read_error = GraphTrace.read_error


def _input_var(trace, x):
    """A Var standing for an argument: weak for a Python number (or jit's weak Var)."""
    if type(x) is WeakVar:
        return trace.new_weak(x.python_type)
    if not isinstance(x, Tensor):
        return trace.new_weak(type(x))
    return trace.new_var(x.shape, x.dtype)


def _graph_of(fn, avals, transform):
    """The graph of `fn` traced on Vars like the avals (tensors or Python numbers)."""
    with new_trace(_CustomTrace, transform) as trace:
        inputs = [_input_var(trace, a) for a in avals]
        outputs = fn(*inputs)
    return Graph(inputs, trace.equations, outputs)


def _trace_call(kind, call, leaves):
    """Trace fun and its rule (on Vars of this kind's own GraphTrace) to a _GraphCall."""
    with new_trace(_CustomTrace, kind.name) as trace:
        in_vars = [_input_var(trace, x) for x in leaves]
        outs, rule = call(*in_vars)
        num_eqs, num_fwd_vars = len(trace.equations), trace.num_vars
        rule_avals = in_vars if kind.rule_maps == "tangents" else outs
        rule_in = [trace.new_var(x.shape, x.dtype) for x in rule_avals]
        rule_out = rule(*rule_in)
    _check_closed(kind, call, trace, outs + rule_out)
    read = {}  # the Vars of fun (weak ones too) its rule reads, in order of use
    for a in [a for _, args, _, _ in trace.equations[num_eqs:] for a in args] + rule_out:
        if isinstance(a, Var) and a._trace is trace and a.index < num_fwd_vars:
            read[id(a)] = a
    if kind is _TRANSPOSE and read:
        raise ValueError(
            f"rune.custom_transpose: the rule of {call.name} uses its arguments or values "
            f"computed from them; the transpose of a linear function does not depend on them"
        )
    arguments = {id(v) for v in in_vars}
    residuals = [v for v in read.values() if id(v) not in arguments]
    fwd = Graph(in_vars, trace.equations[:num_eqs], outs + residuals)
    rule_graph = Graph(in_vars + residuals + rule_in, trace.equations[num_eqs:], rule_out)
    return _GraphCall(kind, call.name, fwd, rule_graph, len(outs), call.out_structure)


def _check_closed(kind, call, trace, outs):
    """A traced fun must take every traced value it uses as an argument."""
    used = [a for _, args, _, _ in trace.equations for a in args] + list(outs)
    for a in used:
        if isinstance(a, Tracer) and a._trace is not trace:
            raise ValueError(
                f"{kind.name}: {call.name} uses a value traced by {a._trace.transform} that "
                f"is not one of its arguments (it closes over it); pass it as an argument"
            )


def _batch(kind, call, trace, leaves):
    """Under vmap: bind the call again on the batched values, with batched graphs."""
    values, batched = [], []
    for x in leaves:
        if type(x) is BatchTracer and x._trace is trace:
            values.append(x.value if x.dim == 0 else _shape.moveaxis(x.value, x.dim, 0))
            batched.append(True)
        else:
            values.append(x)
            batched.append(False)
    in_axes = tuple(0 if b else None for b in batched)
    fwd = _graph_of(vmap(call.fwd.evaluate, in_axes=in_axes), values, kind.name)
    outs, residuals = fwd.outputs[: call.num_out], fwd.outputs[call.num_out:]
    rule_axes = in_axes + (0,) * len(residuals)
    if kind.rule_maps == "tangents":  # rule(args, residuals, in tangents) -> out tangents
        rule_avals = values + residuals + values
        batched_rule = vmap(call.rule.evaluate, in_axes=rule_axes + in_axes)
    else:  # rule(args, residuals, out cotangents) -> in cotangents, summed where unbatched
        rule_avals = values + residuals + outs

        def batched_rule(*xs):
            cts = vmap(call.rule.evaluate, in_axes=rule_axes + (0,) * len(outs))(*xs)
            return [ct if b else _reduce.sum(ct, axis=(0,), keepdims=False)
                    for ct, b in zip(cts, batched)]
    rule = _graph_of(batched_rule, rule_avals, kind.name)
    batched_call = _GraphCall(kind, call.name, fwd, rule, call.num_out, call.out_structure)
    return [BatchTracer(trace, o, 0) for o in kind.primitive.bind(*values, fun=batched_call)]


# --------------------------------------------------------------- public API


def _leaves(args):
    """The arguments' leaves and structure: tensors and tracers, and Python
    numbers kept as they are (they have no derivative, and keep their weak
    typing: `x32 * 0.5` stays float32 as in eager code); arrays become tensors."""
    leaves, structure = ptree.flatten(args)
    if all(isinstance(x, (Tensor, bool, int, float, complex)) for x in leaves):
        return leaves, structure
    names = ptree.paths(structure, "args")
    return [x if isinstance(x, (Tensor, bool, int, float, complex)) else as_tensor(x, name)
            for x, name in zip(leaves, names)], structure


_JVP = _Kind("rune.custom_jvp", "tangents")
_VJP = _Kind("rune.custom_vjp", "cotangents")
_TRANSPOSE = _Kind("rune.custom_transpose", "cotangents")


def _decorate(kind, fun):
    @functools.wraps(fun)
    def custom(*args):
        if not any(isinstance(x, Tracer) for x in ptree.leaves(args)):
            return _split_pair(fun(*args), kind, getattr(fun, "__name__", "fun"))[0]
        leaves, structure = _leaves(args)
        call = _PythonCall(kind, fun, structure)
        outs = _apply(kind, call, leaves)
        return ptree.unflatten(call.out_structure, outs)

    return custom


def custom_jvp(fun):
    """Give a function its own tangent map.

    `fun(*args)` returns `(out, rule)`; the decorated function returns `out`.
    `rule(*tangents)` takes one tangent per argument (of its structure) and
    returns the output's tangent; it must be linear in them, which reverse
    mode also uses (grad through a custom_jvp transposes the rule).

    Under the innermost differentiation fun runs on the arguments' values and
    the rule gives the derivative; differentiations around it differentiate fun
    and the rule as written (a Hessian differentiates the rule).

    Args:
      fun: a function of tensors (or structures of them) returning the pair
        (output, rule).

    Raises:
      TypeError: calling the result: fun does not return a pair (output,
        rule); the rule returns a tangent of another dtype, or applies a
        non-linear operation to a tangent under reverse mode.
      ValueError: calling the result: the rule returns a tangent of another
        structure or shape, naming the output leaf.

    >>> import rune
    >>> from rune import nx
    >>> @rune.custom_jvp
    ... def tanh(x):
    ...     y = nx.tanh(x)
    ...     return y, lambda t: t * (1 - y * y)
    >>> print(rune.grad(lambda x: nx.sum(tanh(x)))(nx.array([0.0, 100.0])))
    float64 [2] [1, 0]
    """
    return _decorate(_JVP, fun)


def custom_vjp(fun):
    """Give a function its own pullback (reverse mode only).

    `fun(*args)` returns `(out, rule)`; the decorated function returns `out`.
    `rule(ct)` takes a cotangent of the output's structure and returns the
    arguments' cotangents: a bare value for a one-argument function, else a
    tuple with one per argument (None for a zero).

    Outside every transformation and under differentiation, fun runs on
    values, so it may read them (`.item()`, Python control flow). Under jit
    and vmap it is traced: a read raises TracedValueError naming
    rune.custom_vjp. Differentiations around the innermost one see fun and
    the rule as written.

    Args:
      fun: a function of tensors (or structures of them) returning the pair
        (output, rule).

    Raises:
      TypeError: calling the result: under forward mode (jvp, the tangent
        map of linearize): give a custom_jvp; fun does not return a pair; the
        rule returns cotangents of another dtype or not one per argument.
      ValueError: calling the result: the rule returns a cotangent of another
        structure or shape, naming the argument.

    >>> import rune
    >>> from rune import nx
    >>> @rune.custom_vjp
    ... def half_gradient(x):
    ...     return x, lambda g: g / 2
    >>> print(rune.grad(lambda x: nx.sum(3 * half_gradient(x)))(nx.array([1.0, 2.0])))
    float64 [2] [1.5, 1.5]
    """
    return _decorate(_VJP, fun)


def custom_transpose(fun):
    """Give a linear function its own transpose.

    `fun(*args)` must be linear in its arguments and returns `(out, rule)`;
    `rule(ct)` is its transpose, returning the arguments' cotangents as for
    custom_vjp. Differentiation applies fun to the tangents (it is its own
    derivative); transposing (`rune.linear_transpose`, the backward pass of
    grad) calls the rule. The rule must not depend on fun's arguments.

    Args:
      fun: a function linear in its tensor arguments, returning the pair
        (output, rule).

    Raises:
      TypeError: calling the result: fun does not return a pair (output,
        rule); the rule returns cotangents of another dtype or not one per
        argument.
      ValueError: calling the result: the rule returns a cotangent of another
        structure or shape, naming the argument.

    >>> import rune
    >>> from rune import nx
    >>> @rune.custom_transpose
    ... def double(x):
    ...     return 2 * x, lambda ct: 2 * ct
    >>> print(rune.linear_transpose(double, nx.array([0.0, 0.0]))(nx.array([1.0, 3.0]))[0])
    float64 [2] [2, 6]
    """
    return _decorate(_TRANSPOSE, fun)


def checkpoint(f):
    """f, recomputed during the backward pass instead of kept in the record.

    Under reverse mode the record keeps, for each operation, the values its
    derivative needs (cos x for sin x...). A checkpointed f keeps only its
    arguments: its operations are recorded as one equation, and the backward
    pass runs f again (under a fresh linearization) to pull the cotangent
    back. Same derivatives; less memory held between the passes, for f's
    cost once more. Outside reverse mode it is f.

    Random numbers f draws from `nx.random` generators (dropout) are drawn
    again the same when f is recomputed: each generator's state before f's
    first draw is saved and restored for the recomputation (as PyTorch's
    checkpoint does), so the gradient belongs to the value; afterwards the
    generators go on as if f had run once.

    Args:
      f: a function of tensors (or structures of them) that takes every
        differentiated value it uses as an argument.

    Raises:
      ValueError: calling the result under reverse mode: f uses a
        differentiated value that is not one of its arguments (a closure;
        pass it as an argument).
      TypeError: calling the result under reverse mode: f returns something
        other than tensors, numpy arrays or numbers.

    >>> import rune
    >>> from rune import nx
    >>> block = rune.checkpoint(lambda x: nx.sin(nx.sin(x)))
    >>> print(rune.grad(lambda x: nx.sum(block(x)))(nx.array([0.0])))
    float64 [1] [1]
    """

    @functools.wraps(f)
    def checkpointed(*args):
        trace = _top_trace(ptree.leaves(args))
        if not isinstance(trace, LinearizeTrace):
            return f(*args)
        leaves, structure = _leaves(args)
        primals, tangents = _split_level(trace, leaves, LinearizeTracer)
        flat_f = FlatFunction(f, structure, "rune.checkpoint")
        with recording_states() as draws:  # recomputations replay f's random numbers
            outs = flat_f(*primals)  # one level down: f's operations are not recorded
        _check_not_closed_over("rune.checkpoint", trace, outs)
        tangent_at = [i for i, t in enumerate(tangents) if t is not None]
        # The recomputations differentiate f along its tensors; Python numbers stay put.
        tensor_at = [i for i, x in enumerate(primals) if isinstance(x, Tensor)]
        tensors = [primals[i] for i in tensor_at]

        def f_of_tensors(*ts):
            with replaying(draws):
                return flat_f(*_placed(ts, tensor_at, primals))

        def forward(*ts):
            along = _placed(ts, tangent_at, [None] * len(primals))
            return jvp_flat(f_of_tensors, tensors, [along[i] for i in tensor_at],
                            "rune.checkpoint")[1]

        def transpose_all(out_cts):
            _, in_vars, out_vars, record = linearize_flat(f_of_tensors, tensors, "rune.checkpoint")
            cts = evaluate_backward(record, out_vars, out_cts, in_vars)
            return _placed(cts, tensor_at, [None] * len(primals))

        if tangent_at:
            name = f"checkpoint({getattr(f, '__name__', 'f')})"
            outs = _record_call(trace, name, outs, tangents, tangent_at, forward, transpose_all)
        return ptree.unflatten(flat_f.out_structure, outs)

    return checkpointed
