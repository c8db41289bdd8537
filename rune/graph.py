"""Graphs: straight-line programs of primitives, recorded by tracing.

A `GraphTrace` runs a function on `Var`s (values with a shape and a dtype
but no data) and appends one equation per primitive applied:
`(primitive, args, params, out)`, where args are Vars of the graph or
constants. `rune.jit` records graphs to replay them; reverse mode's record
(`rune.reverse.Record`) is a graph that accepts linear primitives only. Both
print the same way:

    graph(a: float64[2], b: float64[2]):
      c: float64[2] = multiply a b
      d: float64[2] = sin a
      return (c, d)
"""

from __future__ import annotations

import numpy as np

from .core import Trace, Tracer


class Var(Tracer):
    """A variable of a graph: shape and dtype, no value."""

    __slots__ = ("shape", "dtype", "index")

    def _concrete(self, read, lossless=False):
        return self._trace.read_error(read)


_new_var = object.__new__


class GraphTrace(Trace):
    """Records every primitive applied to its Vars as an equation."""

    transform = "rune.make_graph"

    def __init__(self, level, transform=None):
        super().__init__(level)
        if transform is not None:
            self.transform = transform
        self.equations: list = []
        self.num_vars = 0

    def new_var(self, shape, dtype) -> Var:
        var = _new_var(Var)
        var._trace = self
        var.shape = tuple(shape)
        var.dtype = np.dtype(dtype)
        var.index = self.num_vars
        self.num_vars += 1
        return var

    def process(self, prim, args, params):
        if prim.abstract_eval is None:
            raise NotImplementedError(f"{prim.name} has no abstract rule: it cannot be traced")
        shape, dtype = prim.abstract_eval(*args, **params)
        out = self.new_var(shape, dtype)
        self.equations.append((prim, args, params, out))
        return out

    def read_error(self, read):
        from .nx.tensor import TracedValueError

        raise TracedValueError(f"{read}: the value is traced by {self.transform}")


class Graph:
    """A recorded program: input Vars, equations, output Vars or constants."""

    def __init__(self, inputs, equations, outputs):
        self.inputs = list(inputs)
        self.equations = list(equations)
        self.outputs = list(outputs)

    def evaluate(self, *values):
        """Run the program on values (or tracers of an enclosing transformation)."""
        env = {}
        for var, value in zip(self.inputs, values):
            env[id(var)] = value
        read = lambda a: env[id(a)] if type(a) is Var else a  # noqa: E731
        for prim, args, params, out in self.equations:
            env[id(out)] = prim.bind(*[read(a) for a in args], **params)
        return [read(o) for o in self.outputs]

    def __str__(self):
        return format_graph(self)

    __repr__ = __str__


# ------------------------------------------------------------------- printing


def _type_text(x) -> str:
    return f"{np.dtype(x.dtype)}{list(x.shape)}".replace(" ", "")


class _Names:
    """Short names a, b, ..., z, ba, bb... given to Vars in order of appearance."""

    def __init__(self):
        self.names = {}

    def __call__(self, var) -> str:
        key = id(var)
        if key not in self.names:
            self.names[key] = _letters(len(self.names))
        return self.names[key]


def _letters(n: int) -> str:
    text = ""
    while True:
        text = chr(ord("a") + n % 26) + text
        n //= 26
        if n == 0:
            return text


def _arg_text(arg, names) -> str:
    if type(arg) is Var:
        return names(arg)
    value = np.asarray(getattr(arg, "_value", arg))
    if value.ndim == 0:
        from .nx.printing import format_number

        return format_number(value[()])
    return f"<const {_type_text(value)}>"


def _params_text(params) -> str:
    if not params:
        return ""
    return "[" + " ".join(f"{k}={v}" for k, v in params.items()) + "]"


def format_graph(graph: Graph) -> str:
    names = _Names()
    ins = ", ".join(f"{names(v)}: {_type_text(v)}" for v in graph.inputs)
    lines = [f"graph({ins}):"]
    for prim, args, params, out in graph.equations:
        arg_text = " ".join(_arg_text(a, names) for a in args)
        lines.append(
            f"  {names(out)}: {_type_text(out)} = {prim.name}{_params_text(params)} {arg_text}"
        )
    outs = [_arg_text(o, names) for o in graph.outputs]
    lines.append("  return " + (outs[0] if len(outs) == 1 else "(" + ", ".join(outs) + ")"))
    return "\n".join(lines)
