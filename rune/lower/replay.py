"""rune.jit's default backend: a traced graph written as a Python function
on numpy arrays, one line per equation calling its primitive's numpy impl.

    def f(a, b):
        c = multiply(a, b)
        d = sin(c); del c
        return (d,)

Each intermediate array is released after its last use; a ufunc writes
into a dead temporary's buffer where that is safe (buffers.py), and with
`fuse` runs of elementwise equations are one numexpr kernel (fused.py).
"""

from __future__ import annotations

import keyword
import math

import numpy as np

from ..graph import Graph, WeakVar, results
from . import buffers, fused


def compile_graph(graph: Graph, name: str = "graph", fuse: bool = False):
    """(function, source): the graph as Python code on numpy values.

    The function takes one numpy array (or Python number) per input and
    returns a tuple of numpy values, one per output. Each live equation is
    one line calling its primitive's impl; constants and parameters that
    have no Python literal are bound by name in the function's globals.
    With `fuse`, runs of elementwise equations are one numexpr call each
    (rune/lower/fused.py).
    """
    graph_names = graph.names()  # before pruning, so that names match the printed graph
    graph = graph.deduplicated().pruned()
    if fuse:
        graph = fused.fuse(graph, graph_names)
    namespace: dict = {"asarray": np.asarray}
    placeholder = object()

    def bind(base, value):
        """A global name for `value`, `base` or a numbered variant of it."""
        base = base if base.isidentifier() and not keyword.iskeyword(base) else "f_" + "".join(
            c if c.isalnum() else "_" for c in base)
        text, n = base, 0
        while text in namespace and namespace[text] is not value:
            n += 1
            text = f"{base}_{n}"
        namespace[text] = value
        return text

    function_name = bind(name, placeholder)
    variables = {id(v) for v in graph.inputs} | {
        id(v) for eq in graph.equations for v in results(eq[3])}

    def constant(x) -> str:
        if type(x) in (bool, int) or (type(x) in (float, complex) and _finite(x)):
            return repr(x)
        value = getattr(x, "_value", x)
        return bind(graph_names.get(id(x), "s"), value)

    def param(key, value) -> str:
        text = _literal(value)
        if text is not None:
            return text
        return bind(str(value) if isinstance(value, np.dtype) else key, value)

    calls = []  # (out, function, [arg refs], params text)
    for prim, args, params, out in graph.equations:
        fn = bind(prim.name, prim.impl)
        refs = [a if id(a) in variables else constant(a) for a in args]
        ptext = "".join(f", {k}={param(k, v)}" for k, v in params.items())
        calls.append((out, fn, refs, ptext))

    # Constant outputs get their global names now, before local names avoid the globals.
    out_refs = [o if id(o) in variables else constant(o) for o in graph.outputs]
    local = {}
    for key, text in graph_names.items():
        if key in variables:
            while keyword.iskeyword(text) or text in namespace:
                text += "_"
            local[key] = text
    ref = lambda r: local[id(r)] if type(r) is not str else r  # noqa: E731

    # Release each intermediate after its last use (inputs belong to the caller).
    keep = {id(v) for v in graph.inputs} | {id(o) for o in graph.outputs}
    last_use = {}
    for n, (_, _, refs, _) in enumerate(calls):
        for r in refs:
            if type(r) is not str and id(r) not in keep:
                last_use[id(r)] = n
    for n, (out, _, _, _) in enumerate(calls):  # results of a call that nothing uses
        for var in results(out):
            if id(var) not in keep:
                last_use.setdefault(id(var), n)
    dying = [[] for _ in calls]
    for key, n in last_use.items():
        dying[n].append(local[key])
    # A ufunc writes into a dead temporary's buffer (rune/lower/buffers.py),
    # which is then released where it is reused.
    reuse = buffers.plan(graph.equations, keep, last_use)
    for n, var in reuse.items():
        dying[last_use[id(var)]].remove(local[id(var)])
        dying[n].append(local[id(var)])

    lines = [f"def {function_name}({', '.join(local[id(v)] for v in graph.inputs)}):"]
    for n, (out, fn, refs, ptext) in enumerate(calls):
        # A call with several results (rune/calls) unpacks the list its impl returns.
        targets = (local[id(out)] if type(out) is not tuple else
                   ", ".join(local[id(v)] for v in out) + ("," if len(out) == 1 else ""))
        into = f", out={local[id(reuse[n])]}" if n in reuse else ""
        line = f"{fn}({', '.join(ref(r) for r in refs)}{ptext}{into})"
        if type(out) is WeakVar:  # a Python number stays one (numpy would make it strong)
            line = f"{bind(out.python_type.__name__, out.python_type)}({line})"
        line = f"    {targets} = {line}"
        if dying[n]:
            line += "; del " + ", ".join(sorted(dying[n]))
        lines.append(line)
    outs = []
    for o, r in zip(graph.outputs, out_refs):
        outs.append(f"asarray({ref(r)})" if type(o) is WeakVar else ref(r))
    lines.append(f"    return ({', '.join(outs)}{',' if len(outs) == 1 else ''})")
    source = "\n".join(lines) + "\n"
    exec(compile(source, f"<rune.jit {name}>", "exec"), namespace)
    return namespace[function_name], source


def _finite(x) -> bool:
    return math.isfinite(x.real) and math.isfinite(x.imag)


def _literal(value):
    """Python source that evaluates to `value`, or None if there is none short."""
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return repr(value)
    if kind in (float, complex):
        return repr(value) if _finite(value) else None
    if kind is tuple:
        parts = [_literal(v) for v in value]
        if None in parts:
            return None
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    return None
