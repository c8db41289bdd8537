"""Custom derivative rules: `custom_jvp`, `custom_vjp`, `custom_transpose`.

A custom function is written `fun(*args) -> (out, rule)`: beside its output
it gives the rule one differentiation uses for it. The decorated function
returns `out`. What happens at a call depends on the innermost transformation
among the arguments, as for a primitive: each kind of custom function is a
`CallPrimitive` (`custom_vjp_call`...) whose rules table says, per kind of
trace (rune/calls/call.py):

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

Under reverse mode a custom_vjp and a custom_transpose are each one
`linear_call` equation of the record (rune/calls/call.py), whose transpose is
the user's rule.
"""

from __future__ import annotations

import functools

from .. import ptree
from ..arguments import check_structure, flatten_tensors
from ..core import Tracer, new_trace, split_by_trace
from ..forward import JVPTracer
from ..graph import Graph, Var
from ..jit import JitTrace, compile_graph
from ..primitives import reduce as _reduce
from ..primitives import shape as _shape
from ..reverse import LinearizeTracer
from ..vmap import BatchTracer, vmap
from .call import (CallPrimitive, check_not_closed_over, differentiable, placed,
                   record_call, flat_arguments, record_graph_call, record_linear, zeros)
from .subgraphs import var_like

__all__ = ["custom_jvp", "custom_vjp", "custom_transpose"]


# ------------------------------------------------------------- the three kinds


class _Kind:
    """One of custom_jvp, custom_vjp, custom_transpose: what its rule maps."""

    def __init__(self, name, rule_maps):
        self.name = name  # "rune.custom_vjp", for messages and as the tracing transform
        self.rule_maps = rule_maps  # "tangents": rule(*in_tangents) -> out tangent;
        # "cotangents": rule(out_ct) -> in cotangents (bare for one argument, else a tuple)
        # `custom_vjp_call` and its siblings: a custom function as one primitive,
        # whose only param `fun` is a _PythonCall or, once traced, a _GraphCall.
        self.primitive = CallPrimitive(
            name[len("rune."):] + "_call",
            lambda *arrays, fun: fun.run_arrays(*arrays),
            lambda *args, fun: [(o.shape, o.dtype) for o in fun.fwd.outputs[: fun.num_out]],
            _RULES,
        )


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
        xs = [zeros(v) if x is None else x for x, v in zip(xs, inputs)]
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
    tangents = [zeros(x) if t is None else t for t, x in zip(tangents, in_leaves)]
    result = rule(*ptree.unflatten(call.in_structure, tangents))
    names = ptree.paths(call.out_structure, "output")
    return _checked(call.kind, result, out_leaves, call.out_structure, "tangent", names, "")


def _cotangent_rule(call, rule, cts, in_leaves, out_leaves):
    """custom_vjp's (or custom_transpose's) rule on flat leaves: out cotangents
    (None = zero) -> one cotangent per argument leaf."""
    cts = [zeros(o) if c is None else c for c, o in zip(cts, out_leaves)]
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
            out += [zeros(x) for x in like]
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
        if not differentiable(x):  # no derivative: whatever the rule says is zero
            out.append(zeros(x))
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


def _apply(kind, call, leaves):
    """A custom function (a _PythonCall or a _GraphCall) applied to leaves."""
    return kind.primitive.bind(*leaves, fun=call)


def _traced(call, leaves):
    """The call as graphs (jit, vmap and the record keep or transform graphs)."""
    return _trace_call(call.kind, call, leaves) if isinstance(call, _PythonCall) else call


def _linearize(trace, leaves, fun):
    """Under reverse mode: fun on the primals, the rule for the record."""
    kind, call = fun.kind, fun
    primals, tangents = split_by_trace(trace, leaves)
    outs, rule = call(*primals)
    check_not_closed_over(kind.name, trace, outs)
    if all(t is None for t in tangents):
        return outs
    if kind is _TRANSPOSE and isinstance(call, _PythonCall):
        # The rule, a closure made on these primals, would transpose with their
        # values if it read them: trace it once, which raises if it does.
        _trace_call(kind, call, primals)
    if kind.rule_maps == "tangents":  # custom_jvp: the rule records its own linear operations
        out_tangents = rule(*tangents)
        record = trace.record
        return [LinearizeTracer(trace, o, t) if type(t) is Var and t._trace is record else o
                for o, t in zip(outs, out_tangents)]
    tangent_at = [i for i, t in enumerate(tangents) if t is not None]

    def forward(*ts):  # what linearize's tangent map runs
        if kind is _VJP:
            raise TypeError(_forward_mode_message(call.name, "the tangent map of rune.linearize"))
        return call(*placed(ts, tangent_at, map(zeros, primals)))[0]  # custom_transpose

    name = f"{kind.name[len('rune.'):]}({call.name})"
    return record_call(trace, name, outs, tangents, tangent_at, forward, lambda cts: rule(*cts))


def _forward_mode_message(name, where):
    return (
        f"rune.custom_vjp: {where} differentiates {name} in forward mode, but custom_vjp "
        f"defines only reverse mode; give a custom_jvp for forward mode"
    )


def _jvp(trace, leaves, fun):
    """Under forward mode: custom_jvp's rule; a linear function applied to the tangents."""
    kind, call = fun.kind, fun
    if kind is _VJP:
        raise TypeError(_forward_mode_message(call.name, trace.transform))
    primals, tangents = split_by_trace(trace, leaves)
    outs, rule = call(*primals)
    check_not_closed_over(kind.name, trace, outs)
    if all(t is None for t in tangents):
        return outs
    if kind.rule_maps == "tangents":
        out_tangents = rule(*tangents)
    else:  # custom_transpose: fun is linear, its tangent map is itself
        out_tangents = _apply(kind, call, [zeros(p) if t is None else t
                                           for p, t in zip(primals, tangents)])
    return [JVPTracer(trace, o, t) if differentiable(o) else o for o, t in zip(outs, out_tangents)]


def _on_tangents(record, leaves, fun):
    """A custom function applied to tangents in the record (from a jvp rule)."""
    kind, call = fun.kind, _traced(fun, leaves)
    if kind is not _TRANSPOSE:
        raise TypeError(
            f"{kind.name} ({call.name}) was applied to a tangent, but it is not linear: "
            f"a jvp rule must only scale, add and rearrange its tangents"
        )
    outs = call.fwd.outputs[: call.num_out]
    name = f"custom_transpose({call.name})"
    out_vars = record_linear(record, leaves, outs, name, lambda *xs: call(*xs)[0],
                              lambda cts: call.apply_rule(leaves, [], cts))
    return list(out_vars)


# ------------------------------------------------------------------ tracing


def _custom_trace(level, transform):
    """What fun and its rule are traced under: jit's trace (Python numbers
    among the arguments keep their weak typing, as they do eagerly), whose
    reads name the custom rule plainly (`... is traced by rune.custom_vjp`)."""
    return JitTrace(level, transform, read_hint="")


def _graph_of(fn, avals, transform):
    """The graph of `fn` traced on Vars like the avals (tensors or Python numbers)."""
    with new_trace(_custom_trace, transform) as trace:
        inputs = [var_like(trace, a) for a in avals]
        outputs = fn(*inputs)
    return Graph(inputs, trace.equations, outputs)


def _trace_call(kind, call, leaves):
    """Trace fun and its rule (on Vars of this kind's own GraphTrace) to a _GraphCall."""
    with new_trace(_custom_trace, kind.name) as trace:
        in_vars = [var_like(trace, x) for x in leaves]
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


def _batch(trace, leaves, fun):
    """Under vmap: bind the call again on the batched values, with batched graphs."""
    kind, call = fun.kind, _traced(fun, leaves)
    values, dims = split_by_trace(trace, leaves, "value", "dim")
    values = [v if d is None or d == 0 else _shape.moveaxis(v, d, 0) for v, d in zip(values, dims)]
    batched = [d is not None for d in dims]
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


def _graph(trace, leaves, fun):
    """Under jit: one equation, carrying fun and its rule as graphs."""
    fun = _traced(fun, leaves)
    return record_graph_call(fun.kind.primitive, trace, leaves, {"fun": fun})


_RULES = {
    None: lambda trace, leaves, fun: fun(*leaves)[0],
    "jvp": _jvp,
    "linearize": _linearize,
    "record": _on_tangents,
    "graph": _graph,
    "batch": _batch,
}

_JVP = _Kind("rune.custom_jvp", "tangents")
_VJP = _Kind("rune.custom_vjp", "cotangents")
_TRANSPOSE = _Kind("rune.custom_transpose", "cotangents")


def _decorate(kind, fun):
    @functools.wraps(fun)
    def custom(*args):
        if not any(isinstance(x, Tracer) for x in ptree.leaves(args)):
            return _split_pair(fun(*args), kind, getattr(fun, "__name__", "fun"))[0]
        leaves, structure = flat_arguments(args)
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
