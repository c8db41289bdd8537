"""The call primitive and the linear calls its rules record.

A `CallPrimitive` carries functions or graphs in its params (a custom rule's
fun, control flow's branches and bodies). Its rules are not per-argument
derivative lines but whole functions of the trace, kept in a table keyed by
the trace's kind, read the way the numeric families' rule tables read:

    rules[None](None, args, **params)       no transformation: run on values
    rules["jvp"](trace, args, **params)     forward mode
    rules["linearize"](trace, ...)          reverse mode's linearization
    rules["record"](trace, ...)             applied to tangents in the record
    rules["graph"](trace, ...)              traced by jit: one equation
    rules["batch"](trace, ...)              vmap

A new transformation gets a rule in each table rather than a branch in a
ladder of isinstance checks. `bind` returns a list: one result per output.

Under reverse mode a custom_vjp, a custom_transpose, a checkpoint and the
tangent maps of control flow are each one equation of the record with several
results, `linear_call`, whose params carry two Python functions: `forward`
(what linearize's tangent map runs) and `transpose` (what the backward pass
runs).
"""

from __future__ import annotations

import numpy as np

from .. import ptree
from ..arguments import as_tensor
from ..core import Primitive, Tracer, _leaked
from ..graph import WeakVar
from ..nx.tensor import Tensor
from ..primitives import shape as _shape
from ..reverse import LinearizeTracer

__all__ = [
    "CallPrimitive", "top_trace", "flat_arguments", "record_graph_call", "LinearRule",
    "linear_call", "record_linear", "record_call", "placed", "zeros", "differentiable",
    "check_not_closed_over",
]


def top_trace(leaves):
    """The innermost transformation among the leaves (None for values)."""
    top = None
    for x in leaves:
        if isinstance(x, Tracer) and (top is None or x._trace.level > top.level):
            top = x._trace
    if top is not None and not top.active:
        raise _leaked(top)
    return top


class CallPrimitive(Primitive):
    """A primitive whose params carry functions or graphs; `rules[kind]` is
    its rule under a trace of that kind (`None`: no transformation)."""

    __slots__ = ("rules",)

    def __init__(self, name, impl, abstract_eval, rules):
        super().__init__(name, impl, abstract_eval)
        self.rules = rules

    def bind(self, *args, **params):
        trace = top_trace(args)
        rule = self.rules.get(None if trace is None else trace.kind)
        if rule is None:
            raise NotImplementedError(f"{self.name} does not support {trace.transform}")
        return rule(trace, args, **params)


def record_graph_call(prim, trace, args, params):
    """Under jit: the call as one equation of the graph, with one Var per result."""
    avals = prim.abstract_eval(*args, **params)
    outs = tuple(trace.new_var(shape, dtype) for shape, dtype in avals)
    trace.equations.append((prim, tuple(args), params, outs))
    return list(outs)


# --------------------------------------------------------- the linear call


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


class LinearRule:
    """The params of a `linear_call`: its name (for printing) and two functions."""

    __slots__ = ("name", "forward", "transpose")

    def __init__(self, name, forward, transpose):
        self.name, self.forward, self.transpose = name, forward, transpose

    def __repr__(self):
        return self.name


linear_call = _LinearCall("linear_call", lambda *arrays, rule: [
    np.asarray(out._value) for out in rule.forward(*[Tensor(a) for a in arrays])])


def record_linear(record, args, out_avals, name, forward, transpose, rule_type=LinearRule):
    """Append `outs = linear_call(*args)` to a record; return the output Vars."""
    outs = tuple(record.new_var(a.shape, a.dtype) for a in out_avals)
    rule = rule_type(name, forward, transpose)
    record.equations.append((linear_call, tuple(args), {"rule": rule}, outs))
    return outs


def record_call(trace, name, outs, tangents, tangent_at, forward, transpose_all):
    """Record one linear_call from the tangents at `tangent_at` to the float outputs.

    `forward(*tangents at tangent_at)` gives every output's tangent (None =
    zero) and `transpose_all(cts of every output, None = zero)` every
    argument's cotangent; the equation keeps its arguments' and results'.
    Neither keeps the outputs' values alive (checkpoint is about memory).
    """
    out_at = [j for j, o in enumerate(outs) if differentiable(o)]
    num_outs = len(outs)

    def forward_at(*ts):
        out_tangents = forward(*ts)
        return [zeros(var) if out_tangents[j] is None else out_tangents[j]
                for j, var in zip(out_at, out_vars)]

    def transpose_at(out_cts):
        cts = transpose_all(placed(out_cts, out_at, [None] * num_outs))
        return [cts[i] for i in tangent_at]

    out_vars = record_linear(trace.record, [tangents[i] for i in tangent_at],
                             [outs[j] for j in out_at], name, forward_at, transpose_at)
    results = list(outs)
    for j, var in zip(out_at, out_vars):
        results[j] = LinearizeTracer(trace, outs[j], var)
    return results


# ----------------------------------------------------------------- values


def flat_arguments(args):
    """The arguments' leaves and structure: tensors and tracers, and Python
    numbers kept as they are (they have no derivative, and keep their weak
    typing: `x32 * 0.5` stays float32 as in eager code); arrays become tensors."""
    leaves, structure = ptree.flatten(args)
    if all(isinstance(x, (Tensor, bool, int, float, complex)) for x in leaves):
        return leaves, structure
    names = ptree.paths(structure, "args")
    return [x if isinstance(x, (Tensor, bool, int, float, complex)) else as_tensor(x, name)
            for x, name in zip(leaves, names)], structure


def placed(values, at, base):
    """A new list of `base`'s entries, with `values` placed at the indices `at`."""
    full = list(base)
    for i, v in zip(at, values):
        full[i] = v
    return full


def zeros(x):
    """A zero of x's shape and dtype (x a tensor, a Var or a Python number)."""
    return _shape.zeros_like(x) if isinstance(x, Tensor) else Tensor(np.zeros((), type(x)))


def differentiable(x):
    """Float and complex tensors have derivatives; integers and Python numbers
    (a WeakVar is one, traced by jit) do not."""
    return isinstance(x, Tensor) and x.dtype.kind in "fc" and type(x) is not WeakVar


def check_not_closed_over(name, trace, outs):
    """fun ran one level down: an output of this level came from a closure."""
    for out in outs:
        if isinstance(out, Tracer) and out._trace is trace:
            raise ValueError(
                f"{name}: the function uses a value differentiated by {trace.transform} "
                f"that is not one of its arguments (it closes over it); pass it as an argument"
            )
