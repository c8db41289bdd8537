"""Fusion: runs of elementwise equations become one numexpr kernel.

The numpy replay of `rune.jit` calls one ufunc per equation: on small arrays
the cost is the call itself, on large ones a pass over memory and a fresh
temporary per equation. numexpr (the `fast` extra) compiles an expression
such as `exp(tanh(sin(a) * 0.5 + b))` once, then evaluates it in cache-sized
blocks, with no temporaries: one call, one pass. This is what XLA's loop
fusion does for JAX.

`fuse(graph, names)` returns the same program with each chosen group of
equations replaced by one equation of a `Fused` kernel. A group is a tree:
an equation, and the elementwise equations whose result only it uses
(recursively). A value used twice stays an array, unless it is on a small
array and cheap (`_recomputable`): then each user's kernel computes it again,
which costs less than ending a kernel there. An output is always an array.
Only float64 and complex128 values are fused (numexpr has no complex64,
and promotes float32 with Python constants), only the primitives of
`EXPRESSIONS`, and only where it pays (`worth_fusing`): everything else
runs as numpy, as before. On arrays below LARGE elements, a sum or a product
over all axes may close a group (`sum(sin(a) * b)`): numexpr reduces only at
the end of an expression, so a reduction is always a group's root, never
inside another group.
"""

from __future__ import annotations

import functools
import keyword
import math
import threading
import warnings

import numpy as np

from ..graph import Graph, Var, results

try:
    from numexpr.necompiler import NumExpr
except ImportError:  # the `fast` extra is not installed: rune.jit replays numpy
    NumExpr = None

# How tightly each form of expression binds, loosest first (Python's rules,
# which numexpr parses by): an argument that binds less tightly than its
# place in an expression asks for is written in parentheses.
_SUM, _PRODUCT, _SIGN, _POWER, _ATOM = 1, 2, 3, 4, 5


def _infix(operator, precedence, right_to_left=False):
    """(template, precedence, what each argument needs) of `x operator y`.
    +, -, * and / group left to right, so at equal precedence their right
    operand needs parentheses (a - (b - c)); ** groups right to left."""
    needs = (precedence + 1, precedence) if right_to_left else (precedence, precedence + 1)
    return "{0} %s {1}" % operator, precedence, needs


def _call(function, arity=1):
    """(template, precedence, what each argument needs) of `function(x, ...)`:
    an argument of a call is never parenthesised again."""
    arguments = ", ".join("{%d}" % i for i in range(arity))
    return f"{function}({arguments})", _ATOM, (0,) * arity


# Primitive name -> (numexpr expression of its arguments {0}, {1}... and of
# its parameters {n}..., its precedence, the precedence each argument needs).
EXPRESSIONS = {
    "add": _infix("+", _SUM), "subtract": _infix("-", _SUM),
    "multiply": _infix("*", _PRODUCT), "divide": _infix("/", _PRODUCT),
    # 1 / x: x is a right operand of /.
    "reciprocal": ("1 / {0}", _PRODUCT, (_PRODUCT + 1,)),
    # -x**2 is -(x**2), --x is x: a sign takes a power or another sign as it is.
    "negative": ("-{0}", _SIGN, (_SIGN,)),
    "square": ("{0}**2", _POWER, (_POWER + 1,)),
    "power": ("{0}**{1}", *_infix("**", _POWER, right_to_left=True)[1:]),
    "integer_pow": ("{0}**{n}", _POWER, (_POWER + 1,)),
    **{name: _call(name) for name in ("sin", "cos", "sinh", "cosh", "exp", "log1p")},
}
# Reductions over all axes, the last step of a kernel: name -> numexpr's function.
REDUCTIONS = {"sum": _call("sum"), "prod": _call("prod")}
# Of one kind only: numexpr's abs of a complex is complex, its conj of a real
# too. Its other complex functions are not numpy's: arcsin, arccos, arcsinh
# lose digits for large |z| (relative error 4e-11 at |z| ~ 1e3, 2e-7 at 1e5,
# inf at 1e6, where numpy's is finite), arcsin, arcsinh, arctan, arctanh for
# small |z| (2e-11 at 2e-6), tan and tanh near their poles (1e-2 at 1e-6 from
# pi/2, i pi/2), log and log10 near 1 (2e-9 at 1e-6 from it); sqrt and arccosh
# ignore the sign of a zero imaginary part on their branch cut (sqrt(-0.5 - 0j)
# is +0.707j, numpy's -0.707j); expm1 misses the standard's values at complex
# infinities (rune's impl gives them). Their real versions agree with numpy's to a
# rounding (measured near every zero, pole and edge of their domains).
REAL_EXPRESSIONS = {"absolute": _call("abs"), "arctan2": _call("arctan2", 2),
                    **{name: _call(name) for name in (
                        "expm1", "tan", "tanh", "log", "log10", "sqrt", "arcsin", "arccos",
                        "arctan", "arcsinh", "arccosh", "arctanh")}}
COMPLEX_EXPRESSIONS = {"conj": _call("conj")}

FUSED_DTYPES = (np.dtype(np.float64), np.dtype(np.complex128))
_NUMEXPR_TYPES = {np.dtype(np.float64): "d", np.dtype(np.complex128): "c"}
# Names numexpr reads as functions or constants: a graph variable so named is renamed.
_RESERVED = {"sin", "cos", "tan", "exp", "log", "abs", "sum", "where", "real", "imag",
             "conj", "sqrt", "prod", "contains", "sinh", "cosh", "tanh", "True", "False",
             "None", "arcsin", "arccos", "arctan", "arctan2", "expm1", "log1p", "log10"}

# One numexpr call costs about as much as this many numpy calls on a small
# array (measured: ~3 on 8 floats); from LARGE elements on, one pass over
# memory instead of several pays for any group of two.
SMALL_GROUP = 4
LARGE = 4096
# On large arrays only these are fused: numpy's exp, tanh, log... run on SIMD
# units, 5 to 10 times faster than numexpr's (measured on 10⁶ floats, one
# thread: exp 7.5 ms vs 37, tanh 13 vs 137; sin and cos 66 vs 57).
FAST_ON_LARGE = {"add", "subtract", "multiply", "divide", "negative", "reciprocal",
                 "square", "integer_pow", "sin", "cos", "conj", "absolute"}
# Python's parser (which numexpr uses) refuses deeper nesting than ~200.
MAX_DEPTH = 32
# On small arrays a value used several times is recomputed inside each of its
# users' kernels if its expression has at most this many operations (XLA
# does the same for cheap producers): fewer calls, each doing a little more.
# A kernel call costs ~1.4 us on 8 floats, plus ~0.1 us per sin or exp in it.
# Measured on W1's gradient (scripts/bench.py, 40 steps, 8 floats), budget:
# kernels, us per call: 0: 82 + 39 numpy calls, 330-400; 6 or 8: 61, 230-310;
# 10: 49, 205-255; 12: 43, 200-246; 16: 53, 265-310 (where the chain is cut
# moves); W1 forward stays 7 kernels whatever the budget.
RECOMPUTE_BUDGET = 12
# numexpr compiles a kernel of up to 255 registers; recomputation could make
# expressions grow past that, so a kernel has at most this many operations.
MAX_KERNEL_OPERATIONS = 64
# numexpr takes at most 32 arrays per kernel, inputs and temporaries together.
MAX_INPUTS = 24

# numexpr's kernels share state: two threads running kernels at once corrupt
# memory (seen with numexpr 2.14), so they take turns.
_NUMEXPR_LOCK = threading.Lock()


def available() -> bool:
    return NumExpr is not None


def resolve(fuse, transform="rune.jit") -> bool:
    """Whether to fuse: `fuse=None` fuses when numexpr is installed; `True`
    asks for it, and without numexpr says so in one line and replays numpy."""
    if fuse is None or fuse is False:
        return fuse is None and available()
    if not available():
        warnings.warn(f"{transform}: fuse=True needs numexpr (pip install "
                      f"'rune-autodiff[fast]'); replaying numpy instead", stacklevel=3)
        return False
    return True


def worth_fusing(num_equations: int, size: int) -> bool:
    """Whether a group of this many equations, making arrays of `size`
    elements, runs faster as one numexpr call than as numpy calls."""
    return num_equations >= (2 if size >= LARGE else SMALL_GROUP)


class Fused:
    """The pseudo-primitive of a fused group: `impl(*arrays, expr=...)` runs
    the compiled numexpr kernel (expr is there to be read in the source)."""

    name = "fused"
    kernel = None

    def impl(self, *arrays, expr, out=None):
        with _NUMEXPR_LOCK:
            if out is None:
                return self.kernel(*arrays)
            # Into a dead temporary (rune/lower/buffers.py): numexpr needs every option then.
            return self.kernel(*arrays, out=out, order="K", casting="safe", ex_uses_vml=False)

    def compile(self, inputs, params, out, names):
        """Name the inputs in the expression, and compile it."""
        template = params["expr"]
        params["expr"] = template.format(*(_variable_name(v, names) for v in inputs))
        anonymous = template.format(*(f"x{i}" for i in range(len(inputs))))
        self.kernel = _kernel(anonymous, tuple(_PYTHON_TYPE[v.dtype] for v in inputs))
        if self.kernel.fullsig[:1] != _NUMEXPR_TYPES[out.dtype].encode():
            raise TypeError(f"numexpr makes {self.kernel.fullsig[:1]} of {params}")


@functools.lru_cache(maxsize=1024)
def _kernel(expr, types):
    """The numexpr kernel of expr, whose inputs are x0, x1... of these types,
    compiled once: the steps of a chain are the same expression on other
    inputs, and numexpr's compiler is slow on long ones (W1's gradient has
    43 kernels of 10 expressions: make_graph takes 125-160 ms compiling
    each kernel, 61-74 ms with this cache, 26-33 ms once it is warm)."""
    return NumExpr(expr, signature=[(f"x{i}", t) for i, t in enumerate(types)])


def fuse(graph: Graph, names: dict | None = None) -> Graph:
    """The graph with each group worth fusing replaced by one `fused` equation.

    `names` are the variables' names (id -> name) the kernels' expressions
    use; by default, those of the fused graph as it prints.
    """
    if not available():
        return graph
    made_by = {id(eq[3]): eq for eq in graph.equations if _fusable(eq)}
    inlined = _inlined(graph, made_by, _users(graph))
    groups = {}  # id of a root's result -> its fused equation
    computed = set()  # results computed inside a kernel
    for eq in graph.equations:
        if id(eq[3]) in made_by and id(eq[3]) not in inlined:
            group = _group(eq, made_by, inlined)
            if group is not None:
                groups[id(eq[3])] = group[0]
                computed.update(group[1])
    if not groups:
        return graph
    equations = _live([groups.get(id(eq[3]), eq) for eq in graph.equations],
                      graph.outputs, computed - set(groups))
    fused = Graph(graph.inputs, equations, graph.outputs)
    names = names or fused.names()
    try:
        for eq in groups.values():
            eq[0].compile(eq[1], eq[2], eq[3], names)
    except Exception:  # noqa: BLE001  (an expression numexpr refuses: numpy is always right)
        return graph
    return fused


def _inlined(graph, made_by, users) -> set:
    """Ids of the results written into their users' expressions instead of
    being arrays: a fusable result whose users are all fusable (a reduction
    is never inlined: numexpr reduces last), if it has one user, or if it is
    cheap to recompute (`_recomputable`). Each kernel stays within MAX_DEPTH
    nesting and MAX_KERNEL_OPERATIONS operations (counted as written, so
    recomputed ones count once per copy): past them, its arguments become
    the roots of their own groups."""
    inlined = set()
    depth, size, reads = {}, {}, {}  # of each result's expression as written
    for eq in graph.equations:
        if id(eq[3]) not in made_by:
            continue
        inner = [a for a in eq[1] if id(a) in made_by
                 and made_by[id(a)][0].name not in REDUCTIONS
                 and (len(users[id(a)]) == 1 or _recomputable(a, users[id(a)], size))]
        inner_ids = {id(a) for a in inner}
        inputs = {id(a) for a in eq[1] if type(a) is Var and id(a) not in inner_ids}
        key = id(eq[3])
        depth[key] = 1 + max((depth[id(a)] for a in inner), default=0)
        size[key] = 1 + sum(size[id(a)] for a in inner)
        reads[key] = inputs.union(*(reads[id(a)] for a in inner))
        if (depth[key] > MAX_DEPTH or size[key] > MAX_KERNEL_OPERATIONS
                or len(reads[key]) > MAX_INPUTS):
            inner, depth[key], size[key] = [], 1, 1
            reads[key] = {id(a) for a in eq[1] if type(a) is Var}
        inlined.update(id(a) for a in inner)
    return inlined


def _recomputable(x, users, size) -> bool:
    """Whether x, used several times, is better recomputed inside each user's
    kernel than stored: on small arrays, where a kernel's cost is its call
    and not its work, if x's expression is at most RECOMPUTE_BUDGET
    operations. On large arrays each copy is a pass over memory: x stays an
    array. A user may make several results (scan, cond, while_loop): each counts."""
    return (size[id(x)] <= RECOMPUTE_BUDGET and math.prod(x.shape) < LARGE
            and all(u is not None and all(math.prod(r.shape) < LARGE for r in results(u[3]))
                    for u in users))


def _users(graph) -> dict:
    """id of each value -> the equations using it, once per use; None for
    each time it is an output of the graph (an output is never inlined)."""
    users: dict = {}
    for eq in graph.equations:
        for a in eq[1]:
            users.setdefault(id(a), []).append(eq)
    for o in graph.outputs:
        users.setdefault(id(o), []).extend([None, None])
    return users


def _live(equations, outputs, computed) -> list:
    """The equations less those of values computed inside kernels, unless
    an equation left as numpy still reads the value: a recomputed value can
    be inside one kernel and read by a group not worth fusing."""
    needed = {id(o) for o in outputs}
    kept = []
    for eq in reversed(equations):
        if id(eq[3]) in needed or id(eq[3]) not in computed:
            kept.append(eq)
            needed.update(id(a) for a in eq[1])
    return kept[::-1]


def _fusable(eq) -> bool:
    prim, args, params, out = eq
    if type(out) is not Var or out.dtype not in FUSED_DTYPES:
        return False
    if prim.name in REDUCTIONS:
        return _reduces_all_axes(args[0], params, out)
    if prim.name not in FAST_ON_LARGE and math.prod(out.shape) >= LARGE:
        return False
    if _template(prim.name, out.dtype) is None or set(params) - {"n"}:
        return False
    if "n" in params and type(params["n"]) is not int:
        return False
    return all(type(a) is Var and a.dtype == out.dtype or _constant_text(a) is not None
               for a in args)


def _reduces_all_axes(x, params, out) -> bool:
    """Whether a sum or prod of x makes one number of x's dtype, from fewer
    than LARGE elements. numexpr's reductions along one axis are slower than
    numpy's; and numexpr adds in sequence where numpy adds pairwise, which on
    large arrays loses digits (measured relative error of a sum of 10⁶
    uniform floats: 2e-14, numpy's 1e-16 or less)."""
    return (type(x) is Var and x.dtype == out.dtype and len(x.shape) > 0
            and math.prod(x.shape) < LARGE
            and set(params) == {"axis", "keepdims"} and not params["keepdims"]
            and sorted(params["axis"]) == list(range(len(x.shape))))


def _template(name, dtype):
    """(numexpr template, its precedence, its arguments' precedences) of the
    primitive called name on values of dtype, or None."""
    if name in REDUCTIONS:
        return REDUCTIONS[name]
    kind_only = REAL_EXPRESSIONS if dtype.kind == "f" else COMPLEX_EXPRESSIONS
    return EXPRESSIONS.get(name) or kind_only.get(name)


def write(name, dtype, params, arguments):
    """(text, precedence) of the primitive called name applied to arguments,
    each (text, precedence): the kernel printer, one operation at a time."""
    template, precedence, needs = _template(name, dtype)
    texts = [text if written >= need else "(" + text + ")"
             for (text, written), need in zip(arguments, needs, strict=True)]
    return template.format(*texts, **{k: _constant_text(v) for k, v in params.items()}), precedence


def _constant_text(x):
    """A real Python number as numexpr source, or None (-0.0: numexpr reads 0)."""
    if type(x) not in (int, float) or not math.isfinite(x):
        return None
    if x == 0 and math.copysign(1, x) < 0:  # -0.0 (arctan2 tells it from 0.0)
        return None
    return f"({x!r})" if x < 0 else repr(x)


def _group(root, made_by, inlined):
    """(the fused equation, ids of the results it computes) for the tree at
    root, or None if it is not worth fusing. The expression is a template:
    {0}, {1}... stand for the kernel's inputs until `Fused.compile` names them."""
    inputs = []  # distinct Vars the kernel reads, in order of first use
    members = []

    def argument(x):
        """(text, precedence) of an argument: an inlined expression, a
        constant, or the kernel's input {i}."""
        if id(x) in inlined:
            return expression(made_by[id(x)])
        constant = _constant_text(x)
        if constant is not None:
            return constant, _ATOM
        for i, v in enumerate(inputs):
            if v is x:
                return "{%d}" % i, _ATOM
        inputs.append(x)
        return "{%d}" % (len(inputs) - 1), _ATOM

    def expression(eq):
        prim, args, params, out = eq
        members.append(id(out))
        return write(prim.name, out.dtype, params, [argument(a) for a in args])

    out = root[3]
    template = expression(root)[0]
    size = math.prod(root[1][0].shape if root[0].name in REDUCTIONS else out.shape)
    if not worth_fusing(len(members), size) or len(inputs) > MAX_INPUTS:
        return None
    return (Fused(), tuple(inputs), {"expr": template}, out), members


_PYTHON_TYPE = {np.dtype(np.float64): np.float64, np.dtype(np.complex128): complex}


def _variable_name(var, names) -> str:
    name = names[id(var)]
    return "v_" + name if name in _RESERVED or keyword.iskeyword(name) else name
