"""Control flow primitives: `cond`, `while` and `scan`, whose params are graphs.

`rune.cond`, `rune.while_loop` and `rune.scan` (rune/calls/control.py) run plain
Python control flow on values and under differentiation. Under jit or vmap
(cond: when its predicate is traced) they trace their functions to graphs
and bind one of these primitives, whose params carry the graphs
(`SubGraph`s) and whose equations have several results:

    cond(pred, *consts, *operands)           true, false: the branches
    while(*cond_consts, *body_consts, *carry)  cond, body, num_cond_consts, num_body_consts
    scan(*consts, *carry, *xs)               body; num_consts, num_carry, length, reverse

The consts are the values of enclosing transformations that the functions
use without receiving them (closures): tracing makes them inputs.

Each primitive's rules are whole functions of the trace, side by side; they
transform the graphs with rune/calls/subgraphs.py:
  impl       the graphs compiled as jit compiles them, run on numpy values.
  jvp        the same primitive on graphs of (primals, tangents).
  linearize  reverse mode. cond and scan split each graph in two (`linearize_graph`):
             the primitive runs the forward part, which also returns the values
             the tangent map reads (residuals); the tangent map is recorded as one
             `linear_call` equation that binds the primitive on the linear part,
             and whose transpose binds it on the transposed part (a scan runs
             backward). while records its forward rule and refuses to transpose:
             its trip count is not known in advance.
  batch      cond with a batched predicate runs both branches and selects with
             `where`; while with one runs until every example is done and
             freezes the finished ones; otherwise the graphs are batched.

When the values are readable after all (grad of a jitted function, evaluated
on concrete values) cond and while take the Python path here too: only the
branch taken runs, and a loop is unrolled into the record, so reverse mode
works for while_loop whenever its trip count is known.
"""

from __future__ import annotations

import numpy as np

from ..core import split_by_trace
from ..forward import JVPTracer, jvp_flat
from ..graph import Graph
from ..nx.tensor import Tensor
from ..primitives import elementwise as _e
from ..primitives import reduce as _reduce
from ..primitives import shape as _shape
from ..reverse import LinearizeTracer
from ..vmap import BatchTracer
from .call import CallPrimitive, placed, record_graph_call, zeros
from .subgraphs import (SubGraph, batch_graph, is_float, jvp_graph, linearize_graph, permuted,
                        readable, record_control_linear, trace_graph, transpose_call,
                        transpose_graph, unused_var)

__all__ = ["cond_p", "while_p", "scan_p", "WHILE_REVERSE_MESSAGE"]

WHILE_REVERSE_MESSAGE = (
    "rune.while_loop: reverse-mode differentiation of while_loop needs a static trip count: "
    "use scan or fori_loop with Python int bounds"
)

# ---------------------------------------------------------- the primitive kind


def _groups(values, sizes):
    """values cut into consecutive groups of the given sizes."""
    out, start = [], 0
    for n in sizes:
        out.append(list(values[start:start + n]))
        start += n
    return out


def control_flow(name, impl, abstract_eval, jvp, linearize, batch):
    """A control-flow primitive: a CallPrimitive with its own jvp, linearize
    and batch rules, run on values by its impl and recorded as one equation
    by jit; on tangents (in a jvp rule) it is not linear."""
    def on_values(trace, args, **params):
        values = [a._value if isinstance(a, Tensor) else a for a in args]
        return [Tensor(v) for v in impl(*values, **params)]

    def on_tangents(trace, args, **params):
        raise TypeError(f"{name} was applied to a tangent: a jvp rule must only scale, "
                        f"add and rearrange its tangents")

    prim = CallPrimitive(name, impl, abstract_eval, {
        None: on_values, "jvp": jvp, "linearize": linearize, "batch": batch,
        "record": on_tangents,
        "graph": lambda trace, args, **params: record_graph_call(prim, trace, args, params),
    })
    return prim


def _with_tangents(trace, outs, tangents, tracer_type):
    """The outputs with their tangents: one tangent per float output, in order."""
    tangents = iter(tangents)
    return [tracer_type(trace, o, next(tangents)) if is_float(o) else o for o in outs]


def _front(values, dims, batched, size):
    """Each value with its batch axis first where `batched` says (broadcast if it has none)."""
    return [_shape.batched_front(v, d, size) if b else v for v, d, b in zip(values, dims, batched)]


def _carry_fixed_point(body, before, carry_b, after, num_ys, size, transform):
    """(carry batched, batched body, its outputs batched): a carry leaf is
    batched if it starts batched or if the body makes it so, in any step."""
    while True:
        graph, out_b = batch_graph(body, before + carry_b + after, size,
                                   carry_b + [False] * num_ys, transform)
        grown = [a or b for a, b in zip(carry_b, out_b)]
        if grown == carry_b:
            return carry_b, graph, out_b
        carry_b = grown


# ------------------------------------------------------------------- cond

_COND = "rune.cond"


def _cond_impl(pred, *args, true, false):
    return (true if pred else false).run(*args)


def _cond_abstract(pred, *args, true, false):
    return [(tuple(o.shape), np.dtype(o.dtype)) for o in true.graph.outputs]


def _cond_jvp(trace, args, true, false):
    primals, tangents = split_by_trace(trace, args)
    pred = primals[0]
    if readable(pred):
        return (true if pred else false).graph.evaluate(*args[1:])
    at = [i for i, t in enumerate(tangents[1:]) if t is not None]
    if not at:
        return cond_p.bind(*primals, true=true, false=false)
    jvps = [SubGraph(jvp_graph(b.graph, at, _COND), b.name) for b in (true, false)]
    values = cond_p.bind(*primals, *[tangents[1 + i] for i in at], true=jvps[0], false=jvps[1])
    n = len(true.graph.outputs)
    return _with_tangents(trace, values[:n], values[n:], JVPTracer)


def _cond_linearize(trace, args, true, false):
    primals, tangents = split_by_trace(trace, args)
    pred, ops = primals[0], primals[1:]
    if readable(pred):
        return (true if pred else false).graph.evaluate(*args[1:])
    at = [i for i, t in enumerate(tangents[1:]) if t is not None]
    if not at:
        return cond_p.bind(*primals, true=true, false=false)
    n_ops, n_out = len(ops), len(true.graph.outputs)
    (fwd_t, lin_t, n_t), (fwd_f, lin_f, n_f) = [
        linearize_graph(b.graph, at, range(n_ops), _COND) for b in (true, false)]
    # Both branches return every residual: their own, and zeros for the other's.
    res_t, res_f = fwd_t.outputs[n_out:], fwd_f.outputs[n_out:]
    fwd_true = Graph(fwd_t.inputs, fwd_t.equations, fwd_t.outputs + [zeros(r) for r in res_f])
    fwd_false = Graph(fwd_f.inputs, fwd_f.equations,
                      fwd_f.outputs[:n_out] + [zeros(r) for r in res_t] + res_f)
    values = cond_p.bind(*primals, true=SubGraph(fwd_true, true.name),
                         false=SubGraph(fwd_false, false.name))
    outs, res = values[:n_out], values[n_out:]
    # The tangent maps take (operands, residuals of both, tangents).
    lin_true = Graph(lin_t.inputs[:n_ops + n_t] + [unused_var(r) for r in res_f]
                     + lin_t.inputs[n_ops + n_t:], lin_t.equations, lin_t.outputs)
    lin_false = Graph(lin_f.inputs[:n_ops] + [unused_var(r) for r in res_t]
                      + lin_f.inputs[n_ops:], lin_f.equations, lin_f.outputs)
    lins = SubGraph(lin_true, true.name), SubGraph(lin_false, false.name)
    nonlinear = [pred, *ops, *res]
    transposed = []

    def forward(*xs):
        return cond_p.bind(*xs, true=lins[0], false=lins[1])

    def transpose(out_cts):
        if not transposed:
            transposed.extend(transpose_graph(g, len(nonlinear) - 1, _COND)
                              for g in (lin_true, lin_false))
        (t_graph, t_zero), (f_graph, f_zero) = transposed
        cts = [zeros(v) if ct is None else ct for ct, v in zip(out_cts, lin_true.outputs)]
        in_cts = cond_p.bind(*nonlinear, *cts, true=SubGraph(t_graph, true.name),
                             false=SubGraph(f_graph, false.name))
        return [None] * len(nonlinear) + [
            None if a and b else ct for ct, a, b in zip(in_cts, t_zero, f_zero)]

    out_vars = record_control_linear(trace.record, nonlinear + [tangents[1 + i] for i in at],
                                     [o for o in outs if is_float(o)], "cond", forward, transpose)
    return _with_tangents(trace, outs, out_vars, LinearizeTracer)


def _cond_batch(trace, args, true, false):
    values, dims = split_by_trace(trace, args, "value", "dim")
    pred = values[0]
    if dims[0] is not None:
        # A predicate per example: run both branches, select per example.
        t_outs, f_outs = true.graph.evaluate(*args[1:]), false.graph.evaluate(*args[1:])
        return [_e.where(args[0], a, b) for a, b in zip(t_outs, f_outs)]
    if readable(pred):
        return (true if pred else false).graph.evaluate(*args[1:])
    size, batched = trace.size, [d is not None for d in dims[1:]]
    # An output is batched if either branch makes it depend on a batched
    # operand; both branches then give it the batch axis, so that they agree.
    unforced = [False] * len(true.graph.outputs)
    out_batched = [any(flags) for flags in zip(
        *(batch_graph(b.graph, batched, size, unforced, _COND)[1] for b in (true, false)))]
    branches = [SubGraph(batch_graph(b.graph, batched, size, out_batched, _COND)[0], b.name)
                for b in (true, false)]
    ops = _front(values[1:], dims[1:], batched, size)
    outs = cond_p.bind(pred, *ops, true=branches[0], false=branches[1])
    return [BatchTracer(trace, o, 0) if b else o for o, b in zip(outs, out_batched)]


cond_p = control_flow("cond", _cond_impl, _cond_abstract,
                      jvp=_cond_jvp, linearize=_cond_linearize, batch=_cond_batch)


# ------------------------------------------------------------------ while

_WHILE = "rune.while_loop"


def _while_impl(*args, cond, body, num_cond_consts, num_body_consts):
    n_cond, n_body = num_cond_consts, num_body_consts
    cond_consts, body_consts = args[:n_cond], args[n_cond:n_cond + n_body]
    carry = args[n_cond + n_body:]
    test, step = cond.run, body.run
    while test(*cond_consts, *carry)[0]:
        carry = step(*body_consts, *carry)
    return list(carry)


def _while_abstract(*args, cond, body, num_cond_consts, num_body_consts):
    return [(tuple(a.shape), np.dtype(a.dtype))
            for a in args[num_cond_consts + num_body_consts:]]


def _while_python(args, cond, body, num_cond_consts, num_body_consts):
    """The loop in Python on values (or differentiation tracers over values):
    each step's operations are applied, and differentiated, one by one."""
    cond_consts, body_consts, carry = _groups(args, [num_cond_consts, num_body_consts,
                                                     len(args)])
    while cond.graph.evaluate(*cond_consts, *carry)[0]:
        carry = body.graph.evaluate(*body_consts, *carry)
    return carry


def _while_jvp(trace, args, cond, body, num_cond_consts, num_body_consts):
    if all(map(readable, args)):
        return _while_python(args, cond, body, num_cond_consts, num_body_consts)
    primals, tangents = split_by_trace(trace, args)
    n_cond, n_body = num_cond_consts, num_body_consts
    start = n_cond + n_body
    body_at = [i for i in range(n_body) if tangents[n_cond + i] is not None]
    carry = primals[start:]
    if not body_at and all(t is None for t in tangents[start:]):
        return while_p.bind(*primals, cond=cond, body=body, num_cond_consts=n_cond,
                            num_body_consts=n_body)
    carry_at = [i for i, c in enumerate(carry) if is_float(c)]
    n_carry, n_bt = len(carry), len(body_at)
    jbody = jvp_graph(body.graph, body_at + [n_body + i for i in carry_at], _WHILE)
    # Its inputs in the order of the while: body consts and their tangents, carry and its tangents.
    tangent_start = n_body + n_carry
    jbody = permuted(jbody, [*range(n_body), *range(tangent_start, tangent_start + n_bt),
                             *range(n_body, tangent_start),
                             *range(tangent_start + n_bt, len(jbody.inputs))])
    jcond = Graph(cond.graph.inputs + [unused_var(carry[i]) for i in carry_at],
                  cond.graph.equations, cond.graph.outputs)
    carry_tangents = [zeros(carry[i]) if tangents[start + i] is None else tangents[start + i]
                      for i in carry_at]
    outs = while_p.bind(*primals[:start], *[tangents[n_cond + i] for i in body_at],
                        *carry, *carry_tangents, cond=SubGraph(jcond, cond.name),
                        body=SubGraph(jbody, body.name), num_cond_consts=n_cond,
                        num_body_consts=n_body + n_bt)
    return _with_tangents(trace, outs[:n_carry], outs[n_carry:], JVPTracer)


def _while_linearize(trace, args, cond, body, num_cond_consts, num_body_consts):
    if all(map(readable, args)):
        return _while_python(args, cond, body, num_cond_consts, num_body_consts)
    primals, tangents = split_by_trace(trace, args)
    params = dict(cond=cond, body=body, num_cond_consts=num_cond_consts,
                  num_body_consts=num_body_consts)
    outs = while_p.bind(*primals, **params)
    at = [i for i in range(num_cond_consts, len(args)) if tangents[i] is not None]
    if not at:
        return outs
    n = len(primals)

    def forward(*xs):  # the jvp of the whole loop, from its first step
        along = placed(xs[n:], at, [None] * n)
        _, out_tangents = jvp_flat(lambda *ps: while_p.bind(*ps, **params), list(xs[:n]),
                                   along, _WHILE)
        return [zeros(o) if t is None else t
                for o, t in zip(outs, out_tangents) if is_float(o)]

    def transpose(out_cts):
        raise ValueError(WHILE_REVERSE_MESSAGE)

    out_vars = record_control_linear(trace.record, primals + [tangents[i] for i in at],
                                     [o for o in outs if is_float(o)], "while", forward, transpose)
    return _with_tangents(trace, outs, out_vars, LinearizeTracer)


def _frozen_step(cond, body, n_cond, n_body, xs):
    """One step of a loop whose examples stop at different times: an example
    whose condition is false keeps its carry."""
    cond_consts, body_consts, carry = _groups(xs, [n_cond, n_body, len(xs)])
    go = cond.evaluate(*cond_consts, *carry)[0]
    return [_e.where(go, new, old) for new, old in zip(body.evaluate(*body_consts, *carry), carry)]


def _while_batch(trace, args, cond, body, num_cond_consts, num_body_consts):
    values, dims = split_by_trace(trace, args, "value", "dim")
    size, batched = trace.size, [d is not None for d in dims]
    n_cond, n_body = num_cond_consts, num_body_consts
    cond_b, body_b, carry_b = _groups(batched, [n_cond, n_body, len(args)])
    carry_b, body_graph, _ = _carry_fixed_point(body.graph, body_b, carry_b, [], 0, size, _WHILE)
    cond_graph, (pred_b,) = batch_graph(cond.graph, cond_b + carry_b, size, [False], _WHILE)
    consts = _front(values[:n_cond + n_body], dims, batched, size)
    if not pred_b:  # every example takes the same number of steps
        carry = _front(values[n_cond + n_body:], dims[n_cond + n_body:], carry_b, size)
        outs = while_p.bind(*consts, *carry, cond=SubGraph(cond_graph, cond.name),
                            body=SubGraph(body_graph, body.name), num_cond_consts=n_cond,
                            num_body_consts=n_body)
        return [BatchTracer(trace, o, 0) if b else o for o, b in zip(outs, carry_b)]
    # A predicate per example: go on while some example does, freezing the others.
    every = [True] * len(carry_b)
    step = trace_graph(lambda *xs: _frozen_step(cond.graph, body.graph, n_cond, n_body, xs),
                       cond.graph.inputs[:n_cond] + body.graph.inputs, _WHILE)[0]
    step_graph = batch_graph(step, cond_b + body_b + every, size, every, _WHILE)[0]
    cond_graph = batch_graph(cond.graph, cond_b + every, size, [True], _WHILE)[0]
    any_graph = trace_graph(
        lambda *xs: [_reduce.any(cond_graph.evaluate(*xs)[0], axis=(0,), keepdims=False)],
        cond_graph.inputs, _WHILE)[0]
    carry = _front(values[n_cond + n_body:], dims[n_cond + n_body:], every, size)
    outs = while_p.bind(*consts[:n_cond], *consts, *carry, cond=SubGraph(any_graph, cond.name),
                        body=SubGraph(step_graph, body.name),
                        num_cond_consts=n_cond, num_body_consts=n_cond + n_body)
    return [BatchTracer(trace, o, 0) for o in outs]


while_p = control_flow("while", _while_impl, _while_abstract,
                       jvp=_while_jvp, linearize=_while_linearize, batch=_while_batch)


# ------------------------------------------------------------------- scan

_SCAN = "rune.scan"


def _scan_impl(*args, body, length, reverse, num_consts, num_carry):
    consts, carry, xs = _groups(args, [num_consts, num_carry, len(args)])
    step = body.run
    ys = [None] * length
    for i in range(length - 1, -1, -1) if reverse else range(length):
        out = step(*consts, *carry, *[x[i] for x in xs])
        carry, ys[i] = out[:num_carry], out[num_carry:]
    y_avals = body.graph.outputs[num_carry:]
    if length == 0:
        return list(carry) + [np.zeros((0,) + tuple(a.shape), a.dtype) for a in y_avals]
    return list(carry) + [np.stack([y[k] for y in ys]) for k in range(len(y_avals))]


def _scan_abstract(*args, body, length, reverse, num_consts, num_carry):
    outs = body.graph.outputs
    return ([(tuple(o.shape), np.dtype(o.dtype)) for o in outs[:num_carry]]
            + [((length,) + tuple(o.shape), np.dtype(o.dtype)) for o in outs[num_carry:]])


def _scan_tangents_at(primals, tangents, num_consts, num_carry):
    """Which consts and xs have tangents, and the float carry (all of it
    carries a tangent, zero or not, since the body may mix it with the others)."""
    n_in = len(primals)
    carry_end = num_consts + num_carry
    consts_at = [i for i in range(num_consts) if tangents[i] is not None]
    carry_at = [i for i in range(num_consts, carry_end) if is_float(primals[i])]
    xs_at = [i for i in range(carry_end, n_in) if tangents[i] is not None]
    return consts_at, carry_at, xs_at


def _scan_jvp(trace, args, body, length, reverse, num_consts, num_carry):
    primals, tangents = split_by_trace(trace, args)
    params = dict(length=length, reverse=reverse)
    if all(t is None for t in tangents):
        return scan_p.bind(*primals, body=body, num_consts=num_consts, num_carry=num_carry,
                           **params)
    consts_at, carry_at, xs_at = _scan_tangents_at(primals, tangents, num_consts, num_carry)
    jbody = jvp_graph(body.graph, consts_at + carry_at + xs_at, _SCAN)
    # Inputs: consts and their tangents, carry and its, xs and theirs; outputs: carry and its
    # tangents, ys and theirs.
    n_in, carry_end = len(args), num_consts + num_carry
    a, b = len(consts_at), len(carry_at)
    ny = len(body.graph.outputs) - num_carry
    jbody = permuted(
        jbody,
        [*range(num_consts), *range(n_in, n_in + a), *range(num_consts, carry_end),
         *range(n_in + a, n_in + a + b), *range(carry_end, n_in),
         *range(n_in + a + b, len(jbody.inputs))],
        [*range(num_carry), *range(num_carry + ny, num_carry + ny + b),
         *range(num_carry, num_carry + ny), *range(num_carry + ny + b, len(jbody.outputs))])

    def tangent(i):
        return zeros(primals[i]) if tangents[i] is None else tangents[i]

    values = scan_p.bind(*primals[:num_consts], *map(tangent, consts_at),
                         *primals[num_consts:carry_end], *map(tangent, carry_at),
                         *primals[carry_end:], *map(tangent, xs_at),
                         body=SubGraph(jbody, body.name), num_consts=num_consts + a,
                         num_carry=num_carry + b, **params)
    carry, carry_tangents, ys, y_tangents = _groups(values, [num_carry, b, ny, len(values)])
    return _with_tangents(trace, carry + ys, carry_tangents + y_tangents, JVPTracer)


def _scan_linearize(trace, args, body, length, reverse, num_consts, num_carry):
    primals, tangents = split_by_trace(trace, args)
    params = dict(length=length, reverse=reverse)
    if all(t is None for t in tangents):
        return scan_p.bind(*primals, body=body, num_consts=num_consts, num_carry=num_carry,
                           **params)
    consts_at, carry_at, xs_at = _scan_tangents_at(primals, tangents, num_consts, num_carry)
    carry_end, n_in = num_consts + num_carry, len(args)
    ny = len(body.graph.outputs) - num_carry
    kept_at = [*range(num_consts), *range(carry_end, n_in)]  # the tangent scan gets these too
    fwd, lin, n_res = linearize_graph(body.graph, consts_at + carry_at + xs_at, kept_at, _SCAN)
    # The forward scan also returns each step's residuals, stacked as extra ys.
    values = scan_p.bind(*primals, body=SubGraph(fwd, body.name), num_consts=num_consts,
                         num_carry=num_carry, **params)
    carry_out, ys, res = _groups(values, [num_carry, ny, n_res])
    consts, xs = primals[:num_consts], primals[carry_end:]
    a, b, c = len(consts_at), len(carry_at), len(xs_at)
    n_x, k = len(xs), num_consts + len(xs)
    # lin takes (consts, xs, residuals, tangents of consts, carry, xs); the tangent scan,
    # (consts, their tangents | carry tangents | xs, residuals, their tangents).
    t0 = k + n_res
    lin_body = SubGraph(permuted(lin, [*range(num_consts), *range(t0, t0 + a),
                                       *range(t0 + a, t0 + a + b), *range(num_consts, k),
                                       *range(k, t0), *range(t0 + a + b, t0 + a + b + c)]),
                        body.name)
    nonlinear = [*consts, *xs, *res]
    n_nl = len(nonlinear)
    transposed = []

    def forward(*zs):
        consts, xs, res, d_consts, d_carry, d_xs = _groups(zs, [num_consts, n_x, n_res, a, b, c])
        return scan_p.bind(*consts, *d_consts, *d_carry, *xs, *res, *d_xs, body=lin_body,
                           num_consts=num_consts + a, num_carry=b, **params)

    def transpose(out_cts):
        if not transposed:
            transposed.append(_scan_transpose_body(lin, num_consts, n_x, n_res, a, b, body.name))
        cts = [zeros(o) if ct is None else ct for ct, o in zip(out_cts, float_outs)]
        accumulated = [zeros(consts[i]) for i in consts_at]
        values = scan_p.bind(*consts, *cts[:b], *accumulated, *xs, *res, *cts[b:],
                             body=transposed[0], num_consts=num_consts, num_carry=b + a,
                             length=length, reverse=not reverse)
        ct_carry, ct_consts, ct_xs = _groups(values, [b, a, c])
        return [None] * n_nl + ct_consts + ct_carry + ct_xs

    def tangent(i):
        return zeros(primals[i]) if tangents[i] is None else tangents[i]

    outs = carry_out + ys
    float_outs = [o for o in outs if is_float(o)]
    linear_args = nonlinear + [tangent(i) for i in consts_at + carry_at + xs_at]
    out_vars = record_control_linear(trace.record, linear_args, float_outs, "scan", forward,
                                     transpose)
    return _with_tangents(trace, outs, out_vars, LinearizeTracer)


def _scan_transpose_body(lin, n_consts, n_x, n_res, a, b, name):
    """The body of the backward scan: (consts | carry cotangents, accumulated
    const cotangents | xs, residuals, y cotangents) -> (the carry cotangents
    one step back, accumulated + this step's | xs cotangents)."""
    k = n_consts + n_x
    linear = lin.inputs[k + n_res:]
    avals = (lin.inputs[:n_consts] + lin.outputs[:b] + linear[:a] + lin.inputs[n_consts:k + n_res]
             + lin.outputs[b:])

    def fn(*v):
        consts, ct_carry, accumulated, xs, res, ct_ys = _groups(
            v, [n_consts, b, a, n_x, n_res, len(v)])
        cts = transpose_call(lin, [*consts, *xs, *res], [*ct_carry, *ct_ys], _SCAN)
        cts = [zeros(var) if ct is None else ct for ct, var in zip(cts, linear)]
        ct_consts, ct_carry, ct_xs = _groups(cts, [a, b, len(cts)])
        return [*ct_carry, *[_e.add(s, ct) for s, ct in zip(accumulated, ct_consts)], *ct_xs]

    return SubGraph(trace_graph(fn, avals, _SCAN)[0], name + "_transposed")


def _scan_batch(trace, args, body, length, reverse, num_consts, num_carry):
    values, dims = split_by_trace(trace, args, "value", "dim")
    size, batched = trace.size, [d is not None for d in dims]
    carry_end = num_consts + num_carry
    consts_b, carry_b, xs_b = _groups(batched, [num_consts, num_carry, len(args)])
    ny = len(body.graph.outputs) - num_carry
    carry_b, graph, out_b = _carry_fixed_point(body.graph, consts_b, carry_b, xs_b, ny, size,
                                               _SCAN)
    consts = _front(values[:num_consts], dims, consts_b, size)
    carry = _front(values[num_consts:carry_end], dims[num_consts:carry_end], carry_b, size)
    # An example's xs scan along their first axis: the batch axis goes second.
    xs = [v if d is None or d == 1 else _shape.moveaxis(v, d, 1)
          for v, d in zip(values[carry_end:], dims[carry_end:])]
    outs = scan_p.bind(*consts, *carry, *xs, body=SubGraph(graph, body.name), length=length,
                       reverse=reverse, num_consts=num_consts, num_carry=num_carry)
    return ([BatchTracer(trace, o, 0) if b else o for o, b in zip(outs[:num_carry], carry_b)]
            + [BatchTracer(trace, o, 1) if b else o for o, b in zip(outs[num_carry:],
                                                                      out_b[num_carry:])])


scan_p = control_flow("scan", _scan_impl, _scan_abstract,
                      jvp=_scan_jvp, linearize=_scan_linearize, batch=_scan_batch)
