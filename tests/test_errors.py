"""The catalogue of mistakes: every bad input a user can give gets a clear message.

One table, one test. Each case is a short lambda making one mistake, the
exception it must raise, and the fragments its message must hold in order:
the function, the argument (or the page and line), and what was expected and
what was given. A case fails if the message loses any of them, so a message
made vaguer by a later change is caught here.
"""

import re

import numpy as np
import pytest

import rune
from rune import nx, ptree
from rune.core import Primitive, binder
from rune.literate import LiterateSyntaxError, parse_page

X = nx.array([1.0, 2.0])
M = nx.ones((2, 3))
INTS = nx.array([1, 2])
S = nx.array(1.0)
Z = nx.array([1j, 2j])
F = "```"


# Every primitive of rune has a derivative rule: a test one has none.
without_rule = binder(Primitive("without_rule", np.sin), 1)
# A linear primitive whose jvp rule is given but not its transpose rule.
without_transpose_p = Primitive("without_transpose", lambda x: np.cumsum(x, axis=-1))
without_transpose = binder(without_transpose_p)
without_transpose_p.jvp_rules = (lambda t, ans, x: without_transpose(t),)


def square_sum(x):
    return nx.sum(x * x)


def page(text):
    return lambda: parse_page(text, "docs/p.md")


@rune.custom_vjp
def wrong_cotangent_shape(a):
    return nx.sum(a), lambda g: g  # the cotangent should have a's shape (2,)


@rune.custom_vjp
def one_cotangent_for_two(a, b):
    return nx.sum(a * b), lambda g: g * a


@rune.custom_jvp
def wrong_tangent_dtype(x):
    return x, lambda t: t.astype(nx.float32)


@rune.custom_transpose
def transpose_reads_its_argument(a):
    return 2 * a, lambda ct: a * ct


@rune.custom_vjp
def identity_vjp(x):
    return x, lambda g: g


def _escape_with_saved(saved):
    rune.grad(lambda a: (saved.append(a), nx.sum(a))[1])(X)
    return saved[0] + 1.0


# (id, mistake, exception type, fragments the message holds in this order)
CASES = [
    # ---------------------------------------------------------------- nx
    ("sum axis out of range", lambda: nx.sum(M, axis=2), ValueError,
     ["nx.sum", "axis 2", "2 axes", "expected -2 <= axis < 2"]),
    ("sum axis not an int", lambda: nx.sum(M, axis=1.5), TypeError,
     ["nx.sum", "axis must be an int", "got float"]),
    ("mean repeats an axis", lambda: nx.mean(M, axis=(0, -2)), ValueError,
     ["nx.mean", "axis (0, -2)", "repeats an axis"]),
    ("softmax axis", lambda: nx.softmax(X, axis=3), ValueError,
     ["nx.softmax", "axis 3", "expected -1 <= axis < 1"]),
    ("add shapes", lambda: nx.add(nx.ones(2), nx.ones(3)), ValueError,
     ["nx.add", "shapes (2,) and (3,)", "do not broadcast", "equal, or one of them 1"]),
    ("operator shapes", lambda: nx.ones(2) * nx.ones(3), ValueError,
     ["the * operator (nx.multiply)", "shapes (2,) and (3,)", "do not broadcast"]),
    ("where shapes", lambda: nx.where(nx.array([True, False, True]), X, X), ValueError,
     ["nx.where", "shapes (3,), (2,) and (2,)", "do not broadcast"]),
    ("None as an argument", lambda: nx.exp(None), TypeError,
     ["exp", "argument 0 is a NoneType", "expected a tensor, a numpy array or a number"]),
    ("a string operand", lambda: X + "a", TypeError,
     ["add", "argument 1 is a str", "expected a tensor, a numpy array or a number"]),
    ("integer to a negative power", lambda: INTS ** -1, ValueError,
     ["the ** operator (nx.power)", "integer base x", "negative integer power y",
      "expected a float base"]),
    ("allclose shapes", lambda: nx.allclose(X, nx.ones(3)), ValueError,
     ["nx.allclose", "shapes (2,) and (3,)", "do not broadcast"]),
    ("reshape size", lambda: nx.reshape(M, (4, 2)), ValueError,
     ["nx.reshape", "shape (2, 3) (6 elements)", "into shape (4, 2)"]),
    ("reshape two -1", lambda: nx.reshape(M, (-1, -1)), ValueError,
     ["nx.reshape", "shape (-1, -1)", "more than one -1", "only one size can be inferred"]),
    ("transpose axes", lambda: nx.transpose(M, (0, 0)), ValueError,
     ["nx.transpose", "axes (0, 0)", "not a permutation of the 2 axes"]),
    ("matmul contracted axes", lambda: nx.matmul(M, M), ValueError,
     ["nx.matmul", "shapes (2, 3) and (2, 3)", "last axis of x1 has size 3",
      "second-to-last axis of x2 has size 2"]),
    ("matmul 0-d", lambda: nx.matmul(S, M), ValueError,
     ["nx.matmul", "x1 is 0-d", "needs at least one axis"]),
    ("concatenate shapes", lambda: nx.concatenate([M, nx.ones((3, 2))]), ValueError,
     ["nx.concatenate", "same shape except along axis 0", "tensor 1 has shape (3, 2)",
      "tensor 0 has shape (2, 3)"]),
    ("stack shapes", lambda: nx.stack([nx.ones(2), nx.ones(3)]), ValueError,
     ["nx.stack", "tensor 1 has shape (3,)", "tensor 0 has shape (2,)"]),
    ("squeeze a long axis", lambda: nx.squeeze(M, axis=0), ValueError,
     ["nx.squeeze", "axis 0 has size 2", "only axes of size 1"]),
    ("broadcast_to", lambda: nx.broadcast_to(M, (3, 3)), ValueError,
     ["nx.broadcast_to", "shape (2, 3)", "to shape (3, 3)"]),
    ("index out of range", lambda: M[5], IndexError,
     ["nx.getitem", "index 5", "axis 0 with size 2"]),
    ("too many indices", lambda: M[0, 0, 0], IndexError,
     ["nx.getitem", "too many indices", "2 axes", "3 were indexed"]),
    ("float index", lambda: M[1.5], IndexError,
     ["nx.getitem", "only integers, slices", "got float"]),
    ("unknown dtype", lambda: nx.zeros(2, dtype="float17"), TypeError,
     ["nx.zeros", "unknown dtype 'float17'", "expected one of", "float64"]),
    ("ragged array", lambda: nx.array([[1.0], [1.0, 2.0]]), ValueError,
     ["nx.array", "ragged", "[1] has length 2", "[0] has length 1"]),
    ("strings are not numbers", lambda: nx.array("abc"), TypeError,
     ["nx.array", "expected numbers", "got str"]),
    ("negative size", lambda: nx.zeros((-1, 2)), ValueError,
     ["nx.zeros", "shape [-1, 2]", "negative size"]),
    ("item of many", lambda: X.item(), ValueError,
     ["Tensor.item()", "expected a tensor with one element", "got shape (2,)"]),
    ("inverse of a non-square", lambda: nx.linalg.inv(M), ValueError,
     ["nx.linalg.inv", "a must be a square matrix", "got shape (2, 3)"]),
    ("solve shapes", lambda: nx.linalg.solve(nx.eye(2), nx.ones(3)), ValueError,
     ["nx.linalg.solve", "b of shape (3,)", "a of shape (2, 2)", "vector of size 2"]),
    ("vector norm ord", lambda: nx.linalg.norm(X, ord="fro"), ValueError,
     ["nx.linalg.norm", "invalid ord 'fro'", "vector norm", "expected None, 2, 1"]),
    ("max of nothing", lambda: nx.max(nx.zeros((0,))), ValueError,
     ["nx.max", "axis 0, which has size 0", "no identity"]),
    ("random dtype", lambda: nx.random.default_rng(0).normal(size=2, dtype=nx.int32),
     TypeError, ["Generator.normal", "dtype must be a float dtype", "got int32"]),
    # ----------------------------------------------------- transformations
    ("grad of a vector output", lambda: rune.grad(lambda x: x * x)(X), TypeError,
     ["rune.grad", "must return a scalar (shape ())", "got shape (2,)", "use rune.vjp"]),
    ("grad of an integer input", lambda: rune.grad(square_sum)(INTS), TypeError,
     ["rune.grad", "argument 0 (argnums=0)", "dtype int64", "need float or complex inputs"]),
    ("grad of a complex output", lambda: rune.grad(square_sum)(Z), TypeError,
     ["rune.grad", "complex scalar (complex128)", "pass holomorphic=True"]),
    ("holomorphic of a real input", lambda: rune.grad(square_sum, holomorphic=True)(X),
     TypeError, ["rune.grad", "holomorphic=True needs complex inputs", "args[0]",
                 "dtype float64"]),
    ("argnums out of range", lambda: rune.grad(square_sum, argnums=2)(X), ValueError,
     ["rune.grad", "argnums=2", "out of range", "called with 1 positional argument"]),
    ("argnums not an int", lambda: rune.grad(square_sum, argnums=1.0)(X), TypeError,
     ["rune.grad", "argnums must be ints", "got 1.0"]),
    ("has_aux without a pair", lambda: rune.grad(square_sum, has_aux=True)(X), TypeError,
     ["rune.grad", "has_aux=True", "a pair (output, aux)", "got a tensor of shape ()"]),
    ("grad of a string", lambda: rune.grad(square_sum, argnums=1)(X, "w"), TypeError,
     ["rune.grad", "argument 1", "expected a tensor, a numpy array or a number", "got str"]),
    ("jvp primals not a tuple", lambda: rune.jvp(square_sum, X, X), TypeError,
     ["rune.jvp", "primals must be a tuple", "got Tensor", "(primal,)"]),
    ("jvp tangent shape", lambda: rune.jvp(square_sum, (X,), (nx.ones(3),)), ValueError,
     ["rune.jvp", "tangents[0]", "shape (3,)", "expected (2,)"]),
    ("jvp tangent dtype", lambda: rune.jvp(square_sum, (X,), (INTS,)), TypeError,
     ["rune.jvp", "tangents[0]", "dtype int64", "expected float64"]),
    ("jvp tangent structure", lambda: rune.jvp(square_sum, (X,), (X, X)), ValueError,
     ["rune.jvp", "tangents has structure (*, *)", "expected (*,)"]),
    ("pullback cotangent shape", lambda: rune.vjp(lambda x: 2 * x, X)[1](nx.ones(3)),
     ValueError, ["pullback", "cotangent", "shape (3,)", "expected (2,)"]),
    ("pullback cotangent dtype", lambda: rune.vjp(lambda x: 2 * x, X)[1](Z), TypeError,
     ["pullback", "cotangent", "dtype complex128", "expected float64"]),
    ("linearize tangent count", lambda: rune.linearize(lambda x: 2 * x, X)[1](X, X),
     ValueError, ["f_jvp", "tangents has structure (*, *)", "expected (*,)"]),
    ("linear_transpose of a non-linear f",
     lambda: rune.linear_transpose(lambda x: x * x, X)(X), TypeError,
     ["rune.linear_transpose", "not linear in its inputs", "applies multiply"]),
    ("linear_transpose reading a value",
     lambda: rune.linear_transpose(lambda x: x * float(x[0]), X), TypeError,
     ["rune.linear_transpose", "float(Tensor)", "read the value of its input",
      "depends only on the inputs' shapes and dtypes"]),
    ("hvp primals not a tuple", lambda: rune.hvp(square_sum, X, X), TypeError,
     ["rune.hvp", "primals must be a tuple", "got Tensor", "(x,)"]),
    ("jacrev of a complex input", lambda: rune.jacrev(lambda a: 2 * a)(Z), TypeError,
     ["rune.jacrev", "args[0] is complex", "pass holomorphic=True"]),
    ("check_grads mode", lambda: rune.check_grads(square_sum, (X,), modes=("fw",)),
     ValueError, ["check_grads", "unknown mode 'fw'", "expected 'fwd' or 'rev'"]),
    ("check_grads finds a wrong rule",
     lambda: rune.check_grads(rune.custom_jvp(lambda x: (nx.sin(x), lambda t: t)), (X,)),
     rune.GradientCheckError, ["check_grads", "fwd mode, order 1, argument 0", "the jvp gives",
                               "central differences give"]),
    ("float() under grad", lambda: rune.grad(lambda a: float(a) * a)(S), rune.TracedValueError,
     ["float(Tensor)", "traced by rune.grad", "would drop its derivative", "rune.detach"]),
    ("a tracer escaping", lambda: _escape_with_saved([]), RuntimeError,
     ["traced by rune.grad escaped it", "used after the transformation returned"]),
    ("no derivative rule", lambda: rune.grad(lambda a: nx.sum(without_rule(a)))(X),
     NotImplementedError, ["no derivative rule for without_rule", "rune.detach"]),
    ("no transpose rule", lambda: rune.grad(lambda a: nx.sum(without_transpose(a)))(X),
     TypeError, ["without_transpose was applied to a tangent", "has no transpose rule",
                 "if it is linear, give it transpose_rules"]),
    ("detach of a string", lambda: rune.detach({"w": "x"}), TypeError,
     ["rune.detach", "x['w']", "expected a tensor, a numpy array or a number", "got str"]),
    # --------------------------------------------------------------- vmap
    ("vmap sizes disagree", lambda: rune.vmap(lambda a, b: a + b)(nx.ones(2), nx.ones(3)),
     ValueError, ["rune.vmap", "argument 0 has size 2 along axis 0",
                  "argument 1 has size 3"]),
    ("vmap in_axes out of range", lambda: rune.vmap(square_sum, in_axes=1)(X), ValueError,
     ["rune.vmap", "in_axes=1", "argument 0 of shape (2,)", "1 axes"]),
    ("vmap in_axes entries", lambda: rune.vmap(lambda a, b: a, in_axes=(0,))(X, X),
     ValueError, ["rune.vmap", "in_axes has 1 entries", "called with 2 positional arguments"]),
    ("vmap in_axes not an int", lambda: rune.vmap(square_sum, in_axes=0.5), TypeError,
     ["rune.vmap", "in_axes must be an int, None, or a structure", "got 0.5"]),
    ("vmap maps nothing", lambda: rune.vmap(square_sum, in_axes=None)(X), ValueError,
     ["rune.vmap", "in_axes maps no argument"]),
    ("vmap out_axes out of range", lambda: rune.vmap(lambda a: a, out_axes=3)(X), ValueError,
     ["rune.vmap", "out_axes=3", "the output", "1 axis", "expected -1 <= out_axes < 1"]),
    ("vmap out_axes None of a batched output",
     lambda: rune.vmap(lambda a: (a, a), out_axes=(0, None))(X), ValueError,
     ["rune.vmap", "out_axes=None", "the output[1]", "depends on the mapped arguments"]),
    ("vmap in_axes structure", lambda: rune.vmap(lambda d: d["a"], in_axes=({"b": 0},))(
        {"a": X}), ValueError, ["rune.vmap", "in_axes has structure {'b': *}",
                                "value's structure {'a': *}"]),
    ("item under vmap", lambda: rune.vmap(lambda a: a.item())(X), rune.TracedValueError,
     ["Tensor.item()", "traced by rune.vmap", "one per example"]),
    # ---------------------------------------------------------------- jit
    ("jit of a non-function", lambda: rune.jit(3), TypeError,
     ["rune.jit", "expected a function", "got int"]),
    ("static_argnums out of range", lambda: rune.jit(lambda a: a, static_argnums=2),
     ValueError, ["rune.jit", "static_argnums=2", "takes 1 positional argument"]),
    ("unhashable static argument",
     lambda: rune.jit(lambda a, n: a, static_argnums=1)(X, [1]), TypeError,
     ["rune.jit", "static argument at position 1", "unhashable type list", "pass a tuple"]),
    ("a string to jit", lambda: rune.jit(lambda a, n: a)(X, "s"), TypeError,
     ["rune.jit", "args[1] is a str", "cannot be traced", "static_argnums=(1,)"]),
    ("branching under jit", lambda: rune.jit(lambda a: a if a.sum() > 0 else -a)(X),
     rune.TracedValueError, ["bool(Tensor)", "traced by rune.jit", "static_argnums",
                             "nx.where"]),
    ("jit returning a string", lambda: rune.jit(lambda a: "s")(S), TypeError,
     ["rune.jit", "the output", "expected a tensor, a numpy array or a number", "got str"]),
    ("make_graph of a keyword string", lambda: rune.make_graph(lambda a, name=None: a)(
        S, name="x"), TypeError, ["rune.make_graph", "kwargs['name'] is a str",
                                  "pass it positionally and make it static"]),
    # -------------------------------------------------------------- ptree
    ("map of different structures", lambda: ptree.map(lambda a, b: a + b, (1, 2), (1, [2])),
     ValueError, ["map", "argument 1 has structure (*, [*])", "expected (*, *)"]),
    ("unflatten leaf count", lambda: ptree.unflatten(ptree.structure((1, 2)), [1]),
     ValueError, ["unflatten", "(*, *) has 2 leaves", "got 1"]),
    ("register twice", lambda: ptree.register(tuple, None, None), TypeError,
     ["register", "tuple is registered already"]),
    # -------------------------------------------------------- custom rules
    ("custom function without a rule",
     lambda: rune.grad(rune.custom_jvp(lambda x: nx.sin(x)))(S), TypeError,
     ["rune.custom_jvp", "must return a pair (output, rule)", "got a Tensor"]),
    ("custom_vjp cotangent shape", lambda: rune.grad(wrong_cotangent_shape)(X), ValueError,
     ["rune.custom_vjp", "cotangent of shape ()", "argument 0", "expected (2,)"]),
    ("custom_vjp cotangent count",
     lambda: rune.grad(one_cotangent_for_two)(X, X), TypeError,
     ["rune.custom_vjp", "one_cotangent_for_two", "tuple of 2 cotangents", "got a Tensor"]),
    ("custom_jvp tangent dtype",
     lambda: rune.jvp(wrong_tangent_dtype, (X,), (X,)), TypeError,
     ["rune.custom_jvp", "tangent of dtype float32", "output", "expected float64"]),
    ("custom_vjp in forward mode", lambda: rune.jvp(identity_vjp, (X,), (X,)), TypeError,
     ["rune.custom_vjp", "rune.jvp", "identity_vjp", "forward mode", "give a custom_jvp"]),
    ("custom_transpose rule reads its argument",
     lambda: rune.linear_transpose(transpose_reads_its_argument, X)(X), ValueError,
     ["rune.custom_transpose", "transpose_reads_its_argument", "uses its arguments"]),
    ("custom_transpose rule reading its argument, under grad",
     lambda: rune.grad(lambda a: nx.sum(transpose_reads_its_argument(a)))(X), ValueError,
     ["rune.custom_transpose", "transpose_reads_its_argument", "uses its arguments",
      "does not depend on them"]),
    ("custom_transpose rule reading its argument, under jacrev",
     lambda: rune.jacrev(transpose_reads_its_argument)(X), ValueError,
     ["rune.custom_transpose", "transpose_reads_its_argument", "uses its arguments"]),
    ("checkpoint closing over a differentiated value",
     lambda: rune.grad(lambda a: nx.sum(rune.checkpoint(lambda b: a * b)(a)))(X), ValueError,
     ["rune.checkpoint", "differentiated by rune.grad", "not one of its arguments",
      "pass it as an argument"]),
    # -------------------------------------------------------- control flow
    ("cond predicate of floats", lambda: rune.cond(S, nx.sin, nx.cos, X), TypeError,
     ["rune.cond", "pred must be a boolean scalar", "got dtype float64", "x > 0"]),
    ("cond predicate of many", lambda: rune.cond(X > 0, nx.sin, nx.cos, X), ValueError,
     ["rune.cond", "pred must be a boolean scalar", "got shape (2,)", "nx.any or nx.all"]),
    ("cond branch not a function", lambda: rune.cond(True, 3, nx.cos, X), TypeError,
     ["rune.cond", "true_fun must be a function", "got int"]),
    ("traced cond branches of other shapes",
     lambda: rune.jit(lambda p, x: rune.cond(p, lambda x: x, nx.sum, x))(True, X), ValueError,
     ["rune.cond", "must return the same shapes and dtypes", "float64[2] from true_fun",
      "float64[] from false_fun"]),
    ("traced cond branches of other structures",
     lambda: rune.jit(lambda p, x: rune.cond(p, lambda x: (x, x), lambda x: x, x))(True, X),
     ValueError, ["rune.cond", "same structure", "(*, *) from true_fun", "* from false_fun"]),
    ("while_loop condition of floats", lambda: rune.while_loop(lambda c: c, lambda c: c - 1, S),
     TypeError, ["rune.while_loop", "cond_fun returns must be a boolean scalar",
                 "got dtype float64"]),
    ("while_loop body changing a dtype",
     lambda: rune.while_loop(lambda c: c < 3, lambda c: (c + 1).astype(nx.float32), S),
     TypeError, ["rune.while_loop", "body_fun changed the dtype of carry", "from float64",
                 "to float32", "init_val"]),
    ("while_loop body changing the structure",
     lambda: rune.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1,), (S, S)), ValueError,
     ["rune.while_loop", "structure (*,)", "expected (*, *)", "init_val"]),
    ("reverse mode through a traced while_loop",
     lambda: rune.jit(rune.grad(lambda x: rune.while_loop(lambda c: c < 10, lambda c: 2 * c,
                                                          x)))(S), ValueError,
     ["rune.while_loop", "reverse-mode differentiation", "needs a static trip count",
      "use scan or fori_loop"]),
    ("fori_loop float bound", lambda: rune.fori_loop(0.0, 3, lambda i, c: c + i, S), TypeError,
     ["rune.fori_loop", "lower must be an integer", "got float"]),
    ("scan body without a pair", lambda: rune.scan(lambda c, x: c + x, S, X), TypeError,
     ["rune.scan", "f must return a pair (carry, y)", "got a Tensor"]),
    ("scan xs of different lengths",
     lambda: rune.scan(lambda c, x: (c, None), S, (nx.ones(2), nx.ones(3))), ValueError,
     ["rune.scan", "same length along axis 0", "xs[0] has length 2", "xs[1] has length 3"]),
    ("scan length disagreeing", lambda: rune.scan(lambda c, x: (c, None), S, X, length=3),
     ValueError, ["rune.scan", "length=3", "xs, whose leaves have length 2"]),
    ("scan carry changing shape", lambda: rune.scan(lambda c, x: (c * x * nx.ones(2), None),
                                                    S, X), ValueError,
     ["rune.scan", "changed the shape of carry", "from ()", "to (2,)"]),
    ("scan over a 0-d xs", lambda: rune.scan(lambda c, x: (c, None), S, S), ValueError,
     ["rune.scan", "xs has shape ()", "needs a leading axis"]),
    ("scan of a string carry", lambda: rune.scan(lambda c, x: (c, None), "a", X), TypeError,
     ["rune.scan", "init", "expected a tensor, a numpy array or a number", "got str"]),
    # ---------------------------------------------------- literate toolkit
    ("unterminated fence", page(f"text\n\n{F}python\nprint(1)\n"), LiterateSyntaxError,
     ["docs/p.md:3:", "```python fence", "never closed", "expected a closing ```"]),
    ("out block after prose", page(f"{F}python\nprint(1)\n{F}\n\nprose\n\n{F}out\n1\n{F}\n"),
     LiterateSyntaxError, ["docs/p.md:7:", "does not follow a python block",
                           "after text at line 5"]),
    ("unknown directive", page(f"<!-- literate: skp -->\n{F}python\nx = 1\n{F}\n"),
     LiterateSyntaxError, ["docs/p.md:1:", "unknown directive 'skp'", "expected one of: skip"]),
    ("directive before prose", page("<!-- literate: skip -->\n\nprose\n"),
     LiterateSyntaxError, ["docs/p.md:1:", "`skip` directive must be followed by a python block",
                           "text at line 3"]),
    ("skip end alone", page("<!-- literate: skip end -->\n"), LiterateSyntaxError,
     ["docs/p.md:1:", "`skip end` without a `skip start`"]),
    ("skip start unclosed", page(f"<!-- literate: skip start -->\n{F}python\nx = 1\n{F}\n"),
     LiterateSyntaxError, ["docs/p.md:1:", "`skip start` has no matching `skip end`"]),
    ("setup without python", page("<!-- literate: setup\nprose\n-->\n"), LiterateSyntaxError,
     ["docs/p.md:2:", "expected a ```python block", "setup comment opened at line 1",
      "found 'prose'"]),
    ("unclosed comment", page(f"<!-- hello\n\n{F}python\nx = 1\n{F}\n"), LiterateSyntaxError,
     ["docs/p.md:1:", "never closed with -->"]),
    ("code that leaves its list item",
     page(f"1. item\n\n    {F}python\n    x = 1\ny = 2\n    {F}\n"), LiterateSyntaxError,
     ["docs/p.md:5:", "does not start with '    '", "block opened at line 3"]),
    ("clear between a block and its out",
     page(f"{F}python\nprint(1)\n{F}\n<!-- literate: clear -->\n{F}out\n1\n{F}\n"),
     LiterateSyntaxError, ["docs/p.md:4:", "`clear` cannot stand between",
                           "python block at line 1", "out block at line 5"]),
]


def pinned(fragments):
    """A regex matching a message holding each fragment, literally, in order."""
    return ".*".join(re.escape(fragment) for fragment in fragments)


@pytest.mark.parametrize("mistake,error,fragments", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_a_mistake_gets_a_message_naming_what_and_where(mistake, error, fragments):
    with pytest.raises(error) as raised:
        mistake()
    assert type(raised.value) is error  # not a subclass of it (numpy's own, say)
    assert re.search(pinned(fragments), str(raised.value), re.DOTALL), str(raised.value)


def test_the_catalogue_is_large_and_has_no_duplicate_names():
    names = [c[0] for c in CASES]
    assert len(names) >= 40 and len(set(names)) == len(names)


def test_out_axes_none_returns_an_output_that_is_the_same_for_every_example_once():
    # out_axes=None is allowed for an output that does not depend on the mapped
    # arguments: it is returned once, not stacked.
    out, same = rune.vmap(lambda a: (2 * a, nx.ones(3)), out_axes=(0, None))(X)
    assert str(out) == "float64 [2] [2, 4]" and str(same) == "float64 [3] [1, 1, 1]"


def test_linear_transpose_of_an_affine_function_transposes_its_linear_part():
    (ct,) = rune.linear_transpose(lambda x: 3.0 * x + 1.0, X)(nx.array([1.0, 2.0]))
    assert str(ct) == "float64 [2] [3, 6]"
    np.testing.assert_array_equal(
        rune.linear_transpose(lambda x: x[::-1], X)(nx.array([1.0, 2.0]))[0].numpy(), [2.0, 1.0])


# ------------------------- mistakes that used to give a wrong number quietly


def test_changing_a_numpy_input_after_vjp_does_not_change_the_pullback():
    array = np.array([1.0, 2.0])
    _, pullback = rune.vjp(lambda x: nx.sin(x) * x, array)
    before = pullback(nx.ones(2))[0].numpy()
    array[:] = [5.0, 6.0]  # the pullback kept a copy, not the caller's array
    np.testing.assert_array_equal(pullback(nx.ones(2))[0].numpy(), before)
    _, f_jvp = rune.linearize(lambda x: x * x, array)
    array[0] = 7.0
    assert str(f_jvp(nx.ones(2))) == "float64 [2] [10, 12]"


def test_a_jitted_function_does_not_return_the_callers_array():
    array = np.array([1.0])
    out = rune.jit(lambda x: x)(array)
    array[0] = 3.0
    assert str(out) == "float64 [1] [1]"
