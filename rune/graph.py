"""Graphs: straight-line programs of primitives, recorded by tracing.

A `GraphTrace` runs a function on `Var`s (values with a shape and a dtype
but no data) and appends one equation per primitive applied:
`(primitive, args, params, out)`, where args are Vars of the graph or
constants. `rune.jit` records graphs to replay them; reverse mode's record
(`rune.reverse.Record`) is a graph that accepts linear primitives only. Both
print the same way, one equation per line:

    graph(a: float64[2], b: float64[2]):
      c: float64[2] = multiply a b
      d: float64[2] = sin a
      return (c, d)

A call with several results (a custom rule or control flow, rune/calls) is one
equation whose `out` is a tuple of Vars, and whose `bind` and `impl` return
a list (`c: float64[2], d: float64[2] = custom_vjp_call[fun=f] a b`).

Variables are named a, b, c... in order of appearance. Parameters follow
the primitive's name in brackets (`sum[axis=(0,) keepdims=False] c`).
Scalar constants are written inline; array constants are listed once at the
top (`const k0: float64[3] = [1, 2, 3]`) and named by the equations that
use them. `Graph.mermaid()` draws the same program as a Mermaid flowchart.
"""

from __future__ import annotations

import numpy as np

from .core import Tensor, Trace, TracedValueError, Tracer
from .nx.printing import format_number


class Var(Tracer):
    """A variable of a graph: shape and dtype, no value."""

    __slots__ = ("shape", "dtype", "index")

    def _concrete(self, read, lossless=False):
        return self._trace.read_error(read)


_new_var = object.__new__


class WeakVar(Var):
    """A Python number given to a traced function: a 0-d Var that keeps the
    number's weak typing (numpy's promotion rules for Python scalars, so
    `x32 * 2.0` stays float32 under jit as in eager code)."""

    __slots__ = ("python_type",)


def results(out) -> tuple:
    """The Vars an equation makes: its `out`, or each Var of a tuple `out`."""
    return out if type(out) is tuple else (out,)


class GraphTrace(Trace):
    """Records every primitive applied to its Vars as an equation."""

    transform = "rune.make_graph"
    kind = "graph"
    # What a read of a Var says after "the value is traced by <transform>":
    # each tracing use words its advice for its users (jit, control flow).
    read_hint = ""

    def __init__(self, level, transform=None, read_hint=None):
        super().__init__(level)
        if transform is not None:
            self.transform = transform
        if read_hint is not None:
            self.read_hint = read_hint
        self.equations: list = []
        self.num_vars = 0
        self.captured: dict = {}  # id -> (numpy array f used, the copy the graph holds)

    def captured_values(self, args):
        """args with each numpy array replaced by the graph's copy of it, made
        at its first use: an array that f closes over is captured once, when
        f is traced (JAX's rule), so changing it later changes no replay."""
        if not any(type(a) is np.ndarray for a in args):
            return args
        return tuple(self._captured(a) if type(a) is np.ndarray else a for a in args)

    def _captured(self, array):
        held = self.captured.get(id(array))
        if held is None:
            copy = np.array(array)
            # Both are kept (ids stay theirs); a copy seen again is its own copy.
            held = self.captured[id(array)] = (array, copy)
            self.captured[id(copy)] = (copy, copy)
        return held[1]

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
        args = self.captured_values(args)
        shape, dtype = prim.abstract_eval(*args, **params)
        out = self.new_var(shape, dtype)
        self.equations.append((prim, args, params, out))
        return out

    def read_error(self, read):
        raise TracedValueError(f"{read}: the value is traced by {self.transform}{self.read_hint}")


def _constant_key(value):
    """A number as a key that equals another only bit for bit: 0.0 and -0.0
    are different constants (arctan2 tells them apart), and so are NaNs with
    different payloads. Tuples (of params) are keyed element by element."""
    if isinstance(value, (float, complex, np.generic)):
        return (type(value), np.asarray(value).tobytes())
    if type(value) is tuple:
        return tuple(map(_constant_key, value))
    return value


def _equation_key(prim, args, params):
    """What makes two equations compute the same value, or None if unsure."""
    def arg_key(a):
        if type(a) in (bool, int, float, complex):
            return (type(a), _constant_key(a))
        return id(a)  # a variable, or a constant array: the same object
    try:
        key = (prim, tuple(arg_key(a) for a in args),
               tuple(sorted((k, _constant_key(v)) for k, v in params.items())))
        hash(key)
    except TypeError:  # a parameter that cannot be compared (an array, say)
        return None
    return key


class Graph:
    """A recorded program: input Vars, equations, output Vars or constants.

    An equation is `(primitive, args, params, out)`; args are Vars of the
    graph or constants (tensors, numbers, and values of an enclosing
    transformation that the traced function captured).
    """

    def __init__(self, inputs, equations, outputs):
        self.inputs = list(inputs)
        self.equations = list(equations)
        self.outputs = list(outputs)

    def evaluate(self, *values):
        """Run the program on values (or tracers of an enclosing transformation).

        Each equation binds its primitive, so whatever transformation the
        values belong to sees ordinary primitives. Returns the list of outputs.
        """
        env = {id(var): value for var, value in zip(self.inputs, values)}
        # Anything not in env is a constant (a tensor, a number, a captured value).
        for prim, args, params, out in self.equations:
            result = prim.bind(*[env.get(id(a), a) for a in args], **params)
            if type(out) is WeakVar and type(result) is Tensor:  # Python numbers make one
                result = out.python_type(result._value)
            if type(out) is tuple:  # several results
                env.update(zip(map(id, out), result))
            else:
                env[id(out)] = result
        return [env.get(id(o), o) for o in self.outputs]

    def pruned(self) -> Graph:
        """The graph without the equations no output depends on (dead code)."""
        live = {id(o) for o in self.outputs}
        kept = []
        for eq in reversed(self.equations):
            if any(id(o) in live for o in results(eq[3])):
                kept.append(eq)
                live.update(id(a) for a in eq[1])
        kept.reverse()
        return Graph(self.inputs, kept, self.outputs)

    def deduplicated(self) -> Graph:
        """The graph with each repeated computation done once.

        Two equations that apply the same primitive, with the same params, to
        the same arguments compute the same value: the second is dropped and
        its uses read the first's result. (Differentiating sin x needs cos x,
        and differentiating that again needs sin x: nested derivatives repeat
        themselves, and jit replays only what is new.)
        """
        same = {}  # id of a dropped result -> the result that replaces it
        seen = {}
        kept = []
        for prim, args, params, out in self.equations:
            args = tuple(same.get(id(a), a) for a in args)
            key = _equation_key(prim, args, params)
            first = seen.get(key) if key is not None else None
            if first is None:
                if key is not None:
                    seen[key] = out
                kept.append((prim, args, params, out))
            else:
                for dropped, kept_result in zip(results(out), results(first)):
                    same[id(dropped)] = kept_result
        outputs = [same.get(id(o), o) for o in self.outputs]
        return Graph(self.inputs, kept, outputs)

    def names(self) -> dict:
        """The printed name of each Var and named constant, keyed by `id`."""
        return _Naming(self).names

    def __str__(self):
        return format_graph(self)

    __repr__ = __str__

    def mermaid(self) -> str:
        """The graph as a Mermaid flowchart, for a ```` ```mermaid ```` block.

        One node per input (a parallelogram), per named constant (a
        cylinder) and per equation (a box holding its line of the text
        form); edges carry values from where they are made to where they
        are used; the outputs flow into one `return` node.
        """
        return format_mermaid(self)


# ------------------------------------------------------------------- printing


def type_text(x) -> str:
    """`float64[2,3]`: a value's dtype and shape, as graphs print them."""
    if type(x) is WeakVar:
        return x.python_type.__name__
    return f"{np.dtype(x.dtype)}{list(x.shape)}".replace(" ", "")


def _letters(n: int) -> str:
    """a, b, ..., z, ba, bb, ...: the n-th variable name."""
    text = ""
    while True:
        text = chr(ord("a") + n % 26) + text
        n //= 26
        if n == 0:
            return text


def _is_inline(arg) -> bool:
    """Python numbers and concrete 0-d values print (and compile) inline."""
    if isinstance(arg, (int, float, complex, np.generic)):
        return True
    if isinstance(arg, Tracer):
        return False
    return np.ndim(getattr(arg, "_value", arg)) == 0


def _inline_text(arg) -> str:
    return format_number(np.asarray(getattr(arg, "_value", arg))[()])


class _Naming:
    """Names for one graph: Vars a, b, c... and array constants k0, k1...,
    each in order of first appearance (inputs first). An argument that is
    neither an input nor made by an earlier equation is a constant, even a
    Var: one of an enclosing trace, captured by the traced function."""

    def __init__(self, graph):
        self.names: dict = {}
        self.constants: list = []  # named constants, in order
        self.num_vars = 0
        for var in graph.inputs:
            self.variable(var)
        for _, args, _, out in graph.equations:
            for a in args:
                self.constant(a)
            for var in results(out):
                self.variable(var)
        for o in graph.outputs:
            self.constant(o)

    def variable(self, var):
        self.names[id(var)] = _letters(self.num_vars)
        self.num_vars += 1

    def constant(self, x):
        if id(x) not in self.names and not _is_inline(x):
            self.names[id(x)] = f"k{len(self.constants)}"
            self.constants.append(x)

    def arg(self, x) -> str:
        name = self.names.get(id(x))
        return name if name is not None else _inline_text(x)


def _constant_text(x) -> str:
    if isinstance(x, Tracer):  # a value of an enclosing transformation, captured
        return f"{type_text(x)} (traced by {x._trace.transform})"
    value = np.asarray(getattr(x, "_value", x))
    text = type_text(value)
    if value.ndim == 1 and value.size <= 8:
        text += " = [" + ", ".join(format_number(v) for v in value) + "]"
    return text


def _params_text(params) -> str:
    if not params:
        return ""
    items = [f"{k}={v}" for k, v in params.items()]
    inline = " ".join(item for item in items if "\n" not in item)
    blocks = [item for item in items if "\n" in item]
    if not blocks:
        return f"[{inline}]"
    # Parameters printing on several lines (the graphs of control flow) go
    # below the equation, one after the other, indented under it.
    return ("[" + inline + "".join("\n    " + b.replace("\n", "\n    ") for b in blocks)
            + "\n  ]")


def _input_text(var, names) -> str:
    return f"{names.arg(var)}: {type_text(var)}"


def _equation_text(eq, names) -> str:
    prim, args, params, out = eq
    arg_text = " ".join(names.arg(a) for a in args)
    out_text = ", ".join(f"{names.arg(o)}: {type_text(o)}" for o in results(out))
    return f"{out_text} = {prim.name}{_params_text(params)} {arg_text}"


def _outputs_text(graph, names) -> str:
    outs = [names.arg(o) for o in graph.outputs]
    return outs[0] if len(outs) == 1 else "(" + ", ".join(outs) + ")"


def format_graph(graph: Graph) -> str:
    names = _Naming(graph)
    ins = ", ".join(_input_text(v, names) for v in graph.inputs)
    lines = [f"graph({ins}):"]
    lines += [f"  const {names.arg(k)}: {_constant_text(k)}" for k in names.constants]
    lines += ["  " + _equation_text(eq, names) for eq in graph.equations]
    lines.append("  return " + _outputs_text(graph, names))
    return "\n".join(lines)


def format_mermaid(graph: Graph) -> str:
    names = _Naming(graph)
    # One node per equation, named by its first result (ids apart from Mermaid's keywords).
    first = {id(v): results(eq[3])[0] for eq in graph.equations for v in results(eq[3])}
    node = lambda x: "n_" + names.arg(first.get(id(x), x))
    label = lambda text: '"' + text.replace('"', "#quot;").replace("\n", "<br/>") + '"'
    lines = ["flowchart TD"]
    lines += [f"  {node(v)}[/{label(_input_text(v, names))}/]" for v in graph.inputs]
    lines += [f"  {node(k)}[({label(names.arg(k) + ': ' + _constant_text(k))})]"
              for k in names.constants]

    def edges(sources, target):
        seen = set()
        for s in sources:
            if id(s) in names.names and node(s) not in seen:
                seen.add(node(s))
                lines.append(f"  {node(s)} --> {target}")

    for eq in graph.equations:
        made = node(results(eq[3])[0])
        lines.append(f"  {made}[{label(_equation_text(eq, names))}]")
        edges(eq[1], made)
    lines.append(f"  outputs([{label('return ' + _outputs_text(graph, names))}])")
    edges(graph.outputs, "outputs")
    return "\n".join(lines)
