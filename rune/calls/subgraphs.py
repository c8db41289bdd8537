"""Functions traced to graphs, and graphs transformed: what control flow carries.

rune.cond, rune.while_loop and rune.scan (rune/calls/control.py) trace their
functions to graphs and bind primitives (rune/calls/control_rules.py) whose
params are those graphs, `SubGraph`s. The primitives' rules then work on the
graphs themselves, with the functions here:

  trace_graph       a function traced to a graph; values of enclosing
                    transformations it uses from its closure become inputs
                    (closure conversion), returned as the graph's consts.
  jvp_graph         (inputs, tangents) -> (outputs, tangents).
  linearize_graph   the graph split for reverse mode: a forward graph that
                    also returns the values its derivative reads (residuals),
                    and a linear graph from residuals and tangents to tangents.
  transpose_graph   a linear graph run backward, from output cotangents to
                    input cotangents.
  batch_graph       the graph on a batch of some of its inputs (vmap).

Each traces a function that evaluates the graph under the transformation
(`jvp_flat`, `linearize_flat` + `evaluate_backward`, a BatchTrace), so a
graph transforms exactly as the function it came from would.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core import TracedValueError, Tracer, active_traces, new_trace
from ..forward import jvp_flat
from ..graph import Graph, Var, WeakVar
from ..jit import JitTrace, compile_graph
from ..primitives import shape as _shape
from ..reverse import evaluate_backward, linearize_flat
from ..vmap import BatchTrace, BatchTracer
from .call import LinearRule, placed, record_linear, zeros

__all__ = [
    "Aval", "SubGraph", "control_trace", "readable", "tracing", "is_float", "var_like",
    "unused_var", "trace_graph", "join_consts", "permuted", "jvp_graph", "ControlRule",
    "record_control_linear", "linearize_graph", "transpose_call", "transpose_graph", "batch_graph",
]

# ------------------------------------------------------------ graphs as params


class Aval(NamedTuple):
    """A shape and a dtype: what a graph input stands for."""
    shape: tuple
    dtype: np.dtype


class SubGraph:
    """A graph carried as a param (a branch, a loop's condition or body).

    It prints as its graph; `run` is the graph compiled as jit compiles it,
    a function of numpy values returning a tuple (what the impls call).
    """

    __slots__ = ("graph", "name", "_run")

    def __init__(self, graph, name):
        self.graph, self.name, self._run = graph, name, None

    @property
    def run(self):
        if self._run is None:
            self._run = compile_graph(self.graph, self.name)[0]
        return self._run

    def __str__(self):
        return str(self.graph)

    __repr__ = __str__


# Branches and loop bodies are traced under jit's trace (Python numbers keep
# their weak typing), whose reads name the construct. has_weak: a weak Var of
# an enclosing jit may be captured by a closure (x32 * lr stays float32).
CONTROL_READ_HINT = (", which knows its shape and dtype but not its value (under jit and "
                     "vmap, branches and loop bodies are traced: choose between values with "
                     "nx.where, or branch with rune.cond)")


def control_trace(level, transform):
    """The trace branches and loop bodies run under (see CONTROL_READ_HINT)."""
    return JitTrace(level, transform, CONTROL_READ_HINT, has_weak=True)


def readable(x) -> bool:
    """Whether x's value can be read now: a value, or a differentiation
    tracer over one (under jit and vmap it cannot)."""
    if not isinstance(x, Tracer):
        return True
    try:
        x._concrete("bool(Tensor)", lossless=True)
    except TracedValueError:
        return False
    return True


def tracing() -> bool:
    """Whether a transformation that traces (jit, vmap, a traced branch or
    body) is active: then values made now may be traced even if the
    arguments are not (a function may close over traced values)."""
    return any(t.kind in ("graph", "record", "batch") for t in active_traces())


def is_float(x) -> bool:
    """Float and complex values carry tangents (weak Python floats too: a
    graph output that is one becomes a float64 result)."""
    return np.dtype(x.dtype).kind in "fc"


def var_like(trace, x):
    """A new Var of `trace` standing for x: weak for a Python number or a weak Var."""
    if type(x) is WeakVar:
        return trace.new_weak(x.python_type)
    if not hasattr(x, "dtype"):
        return trace.new_weak(type(x))
    return trace.new_var(x.shape, x.dtype)


def unused_var(x):
    """A graph input that the graph does not read (graphs bound together take the same inputs)."""
    # A trace of its own, never entered: a shared one would number Vars for every thread.
    return var_like(control_trace(-1, "rune control flow"), x)


def trace_graph(fn, avals, transform):
    """(graph, consts): fn (a function of leaves returning a list of leaves)
    traced on Vars like `avals`, without dead equations.

    Values of enclosing transformations that fn uses without receiving them
    (a closure over a tracer) become extra inputs, first; `consts` lists
    them, to be passed wherever the graph is bound.
    """
    with new_trace(control_trace, transform) as trace:
        inputs = [var_like(trace, a) for a in avals]
        outputs = list(fn(*inputs))
    graph = Graph(inputs, trace.equations, outputs).pruned()
    captured = {}
    for _, args, _, _ in graph.equations:
        for a in args:
            if isinstance(a, Tracer) and a._trace is not trace:
                captured.setdefault(id(a), a)
    for o in graph.outputs:
        if isinstance(o, Tracer) and o._trace is not trace:
            captured.setdefault(id(o), o)
    if not captured:
        return graph, []
    as_input = {key: var_like(trace, c) for key, c in captured.items()}

    def swap(a):
        return as_input.get(id(a), a)

    equations = [(p, tuple(map(swap, args)), params, out)
                 for p, args, params, out in graph.equations]
    graph = Graph(list(as_input.values()) + inputs, equations, list(map(swap, graph.outputs)))
    return graph, list(captured.values())


def join_consts(traced):
    """(consts, graphs): graphs traced with their own consts (pairs from
    `trace_graph` on the same inputs) made to take the same consts, the
    union, each ignoring the others'."""
    consts = {}
    for _, cs in traced:
        for c in cs:
            consts.setdefault(id(c), c)
    graphs = []
    for graph, cs in traced:
        own = {id(c): var for c, var in zip(cs, graph.inputs)}
        inputs = [own[key] if key in own else unused_var(c) for key, c in consts.items()]
        graphs.append(Graph(inputs + graph.inputs[len(cs):], graph.equations, graph.outputs))
    return list(consts.values()), graphs


def permuted(graph, order=None, out_order=None):
    """The graph with its inputs (and outputs) listed in another order."""
    inputs = graph.inputs if order is None else [graph.inputs[i] for i in order]
    outputs = graph.outputs if out_order is None else [graph.outputs[i] for i in out_order]
    return Graph(inputs, graph.equations, outputs)


# ------------------------------------------------------ transforming graphs


def jvp_graph(graph, tangent_at, transform):
    """The graph of (inputs, tangents of the inputs at tangent_at) ->
    (outputs, tangents of the float outputs, zeros where they have none)."""
    n = len(graph.inputs)

    def fn(*xs):
        tangents = placed(xs[n:], tangent_at, [None] * n)
        outs, out_tangents = jvp_flat(graph.evaluate, list(xs[:n]), tangents, transform)
        return outs + [zeros(o) if t is None else t
                       for o, t in zip(outs, out_tangents) if is_float(o)]

    return trace_graph(fn, graph.inputs + [graph.inputs[i] for i in tangent_at], transform)[0]


class ControlRule(LinearRule):
    """The rule of a linear_call recorded by control flow. Its `forward` reads
    every value it needs from its arguments (the residuals come first), so the
    equation stays valid in a graph whose values are substituted."""

    __slots__ = ()


def record_control_linear(record, args, out_avals, name, forward, transpose):
    """Append `outs = linear_call(*args)` (a ControlRule) to a record; return the output Vars."""
    return record_linear(record, args, out_avals, name, forward, transpose, ControlRule)


def linearize_graph(graph, tangent_at, kept_at, transform):
    """(fwd, lin, num_res): the graph split for reverse mode.

    fwd maps the inputs to the outputs followed by the residuals: the values
    the tangent map reads, except the inputs at kept_at (which the caller
    passes to lin itself). lin maps (the inputs at kept_at, the residuals,
    the tangents of the inputs at tangent_at) to the tangents of the float
    outputs.
    """
    with new_trace(control_trace, transform) as trace:
        ins = [var_like(trace, v) for v in graph.inputs]
        outs, in_vars, out_vars, record = linearize_flat(
            lambda *xs: graph.evaluate(*placed(xs, tangent_at, ins)),
            [ins[i] for i in tangent_at], transform)
    kept = [ins[i] for i in kept_at]
    kept_ids = {id(v) for v in kept}
    residuals = {}
    for _, args, params, _ in record.equations:
        rule = params.get("rule")
        if rule is not None and not isinstance(rule, ControlRule):
            raise NotImplementedError(
                f"{transform}: reverse mode through {rule.name} inside a traced branch or "
                f"loop body is not supported (its rule keeps values of the trace); move it "
                f"out of the control flow, or make the predicate concrete"
            )
        for a in args:
            if isinstance(a, Var) and a._trace is trace and id(a) not in kept_ids:
                residuals.setdefault(id(a), a)
    res = list(residuals.values())
    fwd = Graph(ins, trace.equations, outs + res).pruned()
    tangents_out = [zeros(o) if v is None else v for o, v in zip(outs, out_vars) if is_float(o)]
    lin = Graph(kept + res + in_vars, record.equations, tangents_out).pruned()
    return fwd, lin, len(res)


def transpose_call(lin, nonlinear, cts, transform):
    """The cotangents (None for zero) of the linear inputs of `lin` (the
    inputs after the non-linear ones), given its outputs' cotangents: lin
    runs once more under a linearization, whose record runs backward."""
    at_zero = [zeros(v) for v in lin.inputs[len(nonlinear):]]
    _, in_vars, out_vars, record = linearize_flat(
        lambda *ts: lin.evaluate(*nonlinear, *ts), at_zero, transform)
    return evaluate_backward(record, out_vars, list(cts), in_vars)


def transpose_graph(lin, num_nonlinear, transform):
    """(graph, zero): the transpose of a linear graph, mapping (its non-linear
    inputs, its outputs' cotangents) to its linear inputs' cotangents; zero[i]
    says the i-th is always zero."""
    zero = []
    linear = lin.inputs[num_nonlinear:]

    def fn(*xs):
        cts = transpose_call(lin, xs[:num_nonlinear], xs[num_nonlinear:], transform)
        zero[:] = [ct is None for ct in cts]
        return [zeros(v) if ct is None else ct for ct, v in zip(cts, linear)]

    graph = trace_graph(fn, lin.inputs[:num_nonlinear] + lin.outputs, transform)[0]
    return graph, zero


def batch_graph(graph, in_batched, size, force, transform):
    """(graph, out_batched): the graph on a batch (a new first axis of `size`
    examples) of the inputs in_batched; an output is batched (first axis) if
    it depends on a batched input, or if `force` says so (broadcast)."""
    avals = [Aval((size,) + tuple(v.shape), v.dtype) if b else v
             for v, b in zip(graph.inputs, in_batched)]
    out_batched = []

    def fn(*xs):
        out_batched.clear()
        with new_trace(BatchTrace, size) as trace:
            tracers = [BatchTracer(trace, x, 0) if b else x for x, b in zip(xs, in_batched)]
            results = []
            for o, f in zip(graph.evaluate(*tracers), force):
                batched = type(o) is BatchTracer and o._trace is trace
                if batched:
                    o = _shape.batched_front(o.value, o.dim, size)
                elif f:
                    o = _shape.batched_front(o, None, size)
                results.append(o)
                out_batched.append(batched or f)
        return results

    return trace_graph(fn, avals, transform)[0], out_batched
