"""The kernel printer of the fused path (rune/lower/fused.py's `write`) alone:
an expression tree of the operators it prints, written as one numexpr
kernel, must compute what numpy computes for the same tree.

Two checks make that exact without tolerating an accumulated rounding
error. Each operation of the tree is run on its own as a kernel of one
operation, on its arguments' values, and must equal numpy's function there
(to a few roundings): the templates mean what numpy means. The whole tree,
written as one kernel, must then equal those one-operation kernels composed
(to a rounding): the printer's parentheses keep the tree's structure.

The operators come from the printer's tables: an operator the printer
learns and this file does not know fails
`test_the_property_knows_every_operator_the_printer_writes`.
"""

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rune.lower import fused

pytest.importorskip("numexpr")
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

DTYPES = (np.dtype(np.float64), np.dtype(np.complex128))
NUMPY = {
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
    "reciprocal": lambda x: 1 / x, "negative": np.negative, "square": np.square,
    "power": np.power, "integer_pow": lambda x, n: x ** n,
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "arcsin": np.arcsin, "arccos": np.arccos,
    "arctan": np.arctan, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh,
    "arcsinh": np.arcsinh, "arccosh": np.arccosh, "arctanh": np.arctanh, "exp": np.exp,
    "expm1": np.expm1, "log": np.log, "log1p": np.log1p, "log10": np.log10, "sqrt": np.sqrt,
    "absolute": np.absolute, "arctan2": np.arctan2, "conj": np.conj,
}
# A reduction is only ever the root of a kernel (numexpr reduces last).
NUMPY_REDUCTIONS = {"sum": np.sum, "prod": np.prod}
# Constants as the graph passes them: ints, floats, negatives (written in parentheses).
CONSTANTS = (2, 3, -1, 0.5, -0.5, 1.5, -2.25, 1e-3, 7.0)
NUM_INPUTS = 3


def printed(dtype):
    """The elementwise operators the printer writes for values of dtype."""
    tables = {**fused.EXPRESSIONS, **fused.REAL_EXPRESSIONS, **fused.COMPLEX_EXPRESSIONS}
    return sorted(name for name in tables if fused._template(name, dtype) is not None)


def arity(name, dtype):
    return len(re.findall(r"\{\d+\}", fused._template(name, dtype)[0]))


def test_the_property_knows_every_operator_the_printer_writes():
    tables = {**fused.EXPRESSIONS, **fused.REAL_EXPRESSIONS, **fused.COMPLEX_EXPRESSIONS}
    assert set(NUMPY) == set(tables)
    assert set(NUMPY_REDUCTIONS) == set(fused.REDUCTIONS)
    assert set(printed(DTYPES[0])) | set(printed(DTYPES[1])) == set(tables)


# ------------------------------------------------------------------ trees


def node(name, dtype, children, n=2):
    """An operation: ("op", name, params, children)."""
    params = {"n": n} if "{n}" in fused._template(name, dtype)[0] else {}
    return ("op", name, params, tuple(children))


@st.composite
def trees(draw, dtype, depth, root=True):
    """A random tree of printed operators over inputs x0, x1, x2. Every
    operation has an input below it, as in a traced graph (an operation on
    constants alone is computed while tracing); a constant is the other
    argument of a two-argument operation."""
    if not root and (depth == 0 or draw(st.integers(0, 3)) == 0):
        return ("x", draw(st.integers(0, NUM_INPUTS - 1)))
    name = draw(st.sampled_from(printed(dtype)))
    children = [draw(trees(dtype, depth - 1, root=False)) for _ in range(arity(name, dtype))]
    if len(children) == 2 and draw(st.booleans()):
        children[draw(st.integers(0, 1))] = ("constant", draw(st.sampled_from(CONSTANTS)))
    return node(name, dtype, children, n=draw(st.integers(-3, 4)))


def written(tree, dtype, reads):
    """(text, precedence) of the tree as the printer writes it; reads gets
    the inputs it reads, in order (the kernel's x0, x1...)."""
    if tree[0] == "x":
        if tree[1] not in reads:
            reads.append(tree[1])
        return f"x{reads.index(tree[1])}", fused._ATOM
    if tree[0] == "constant":
        return fused._constant_text(tree[1]), fused._ATOM
    _, name, params, children = tree
    return fused.write(name, dtype, params, [written(c, dtype, reads) for c in children])


def run(text, arrays):
    """numexpr's value of a kernel over inputs x0, x1... (the fused path's compiler)."""
    kernel = fused._kernel(text, tuple(fused._PYTHON_TYPE[a.dtype] for a in arrays))
    return kernel(*arrays)


def one_at_a_time(tree, xs, dtype):
    """The tree's value, each operation a kernel of its own on its arguments'
    values; checks each against numpy's function on the same values."""
    if tree[0] == "x":
        return xs[tree[1]]
    if tree[0] == "constant":
        return tree[1]
    _, name, params, children = tree
    values = [one_at_a_time(c, xs, dtype) for c in children]
    arrays = [v for v in values if isinstance(v, np.ndarray)]
    names = iter(range(len(arrays)))
    arguments = [(f"x{next(names)}", fused._ATOM) if isinstance(v, np.ndarray)
                 else (fused._constant_text(v), fused._ATOM) for v in values]
    got = run(fused.write(name, dtype, params, arguments)[0], arrays)
    want = NUMPY[name](*values, **params)
    # Where numpy's answer and the arguments are finite and far from
    # overflowing: numexpr's complex division and powers square their
    # operands' size (1 / z overflows from |z| ~ 1e154 on), and its tan and
    # tanh of an infinite complex are nan. (Fused programs are compared with
    # numpy where they are finite, tests/test_fusion.py.)
    usual = np.isfinite(want) & np.all([np.abs(v) < 1e100 for v in arrays], axis=0)
    rtol = 1e-13 * condition(name, values, usual)
    close(got[usual], want[usual], f"{name}{tuple(params.values())} on {values}", rtol=rtol)
    return got


def condition(name, values, usual):
    """How many roundings apart two good implementations may be: one for
    most, |b log a| for a ** b (exp(b log a), rounded in b log a), which
    numpy and numexpr compute each their own way for complex numbers."""
    if name != "power":
        return 1.0
    with np.errstate(all="ignore"):
        spread = np.abs(np.multiply(values[1], np.log(values[0])))
    return max(1.0, float(np.max(np.broadcast_to(spread, usual.shape)[usual], initial=1.0)))


def close(got, want, what, rtol):
    """Equal to rtol, or both the same non-finite value (nan, inf, -inf)."""
    assert got.dtype == want.dtype, what
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * float(
        np.max(np.abs(want[np.isfinite(want)]), initial=1.0)), equal_nan=True, err_msg=what)


def inputs(dtype, seed):
    """Values in [-2.5, 2.5], including ones within reach of arcsin's [-1, 1]
    and arccosh's [1, inf) (complex: both parts)."""
    rng = np.random.default_rng(seed)
    xs = [rng.uniform(-2.5, 2.5, 12) for _ in range(NUM_INPUTS)]
    if dtype.kind == "c":
        xs = [x + 1j * rng.uniform(-2.5, 2.5, 12) for x in xs]
    return [x.astype(dtype) for x in xs]


def check(tree, dtype, seed, reduction=None):
    xs = inputs(dtype, seed)
    reads = []
    text = written(tree, dtype, reads)[0]
    want = one_at_a_time(tree, xs, dtype)
    xs = [xs[i] for i in reads]
    if reduction is not None:  # numexpr adds in sequence, numpy pairwise: a rounding per term
        text = fused.write(reduction, dtype, {}, [(text, fused._ATOM)])[0]
        reduced = NUMPY_REDUCTIONS[reduction](want)
        close(run(text, xs), reduced, text, rtol=1e-13 * want.size)
        return
    close(run(text, xs), want, text, rtol=1e-15)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_a_random_tree_as_one_kernel_equals_numpy(dtype, data, seed):
    tree = data.draw(trees(dtype, 5), label="tree")
    reduction = data.draw(st.sampled_from([None, *sorted(fused.REDUCTIONS)]), label="reduction")
    check(tree, dtype, seed, reduction)


@pytest.mark.parametrize(("dtype", "outer"), [(d, name) for d in DTYPES for name in printed(d)],
                         ids=str)
def test_every_operator_in_every_argument_of_every_operator(dtype, outer):
    # Parentheses are decided between an operation and each argument: every
    # pair, in every place, is every nesting the printer can get wrong.
    for position in range(arity(outer, dtype)):
        for inner in printed(dtype):
            for n in (-2, 3):
                args = [("x", k) for k in range(arity(inner, dtype))]
                inner_node = node(inner, dtype, args, n=n)
                children = [("x", 2)] * arity(outer, dtype)
                children[position] = inner_node
                check(node(outer, dtype, children, n=n), dtype, seed=position)
