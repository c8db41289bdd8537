"""One random use of each primitive, for the batching sweep (test_batching.py).

`CASES` maps every primitive to a hypothesis strategy of `Case`s: a function
of tensors reaching that primitive, the shapes of one example's arguments,
how to sample each argument, and which arguments are differentiated. The
sweep stacks several examples along random axes and checks vmap against a
loop. `registry()` finds the primitives by walking rune's modules, and a test
fails if one has no case, so a new primitive is swept as soon as it exists.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable

import numpy as np
from hypothesis import strategies as st

import rune
from rune import nx
from rune.core import Primitive
from rune.primitives import convolution as V
from rune.primitives import decompositions as D
from rune.primitives import elementwise as E
from rune.primitives import fft as F
from rune.primitives import indexing as I
from rune.primitives import linalg as L
from rune.primitives import pseudoinverse as P
from rune.primitives import reduce as R
from rune.primitives import shape as S
from rune.primitives import sorting as O
from rune.primitives import updates as U
from rune.primitives import special as Z
from rune.primitives import incomplete as G
from rune.primitives import bessel as B
from rune.primitives import matrix_functions as M
from tests.programs import checkpointed, custom_tanh

# ------------------------------------------------------------ the registry


def registry():
    """Every primitive defined in rune's modules, each once (two may share a name)."""
    for info in pkgutil.walk_packages(rune.__path__, "rune."):
        if not info.name.startswith("rune.lower."):  # backends: no primitives, optional extras
            importlib.import_module(info.name)
    found = {}
    for name, module in list(importlib.sys.modules.items()):
        if name != "rune" and not name.startswith("rune."):
            continue
        for value in vars(module).values():
            prim = value if isinstance(value, Primitive) else getattr(value, "primitive", None)
            if isinstance(prim, Primitive):
                found[id(prim)] = prim
    return list(found.values())


# ------------------------------------------------------------ samplers


def normal(rng, shape):
    return rng.standard_normal(shape)


def uniform(low, high):
    return lambda rng, shape: rng.uniform(low, high, shape)


def complex_normal(rng, shape):
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


def small_ints(rng, shape):
    """Whole floats in -2..2: comparisons see ties."""
    return rng.integers(-2, 3, shape).astype(np.float64)


def bools(rng, shape):
    return rng.random(shape) < 0.5


def int64s(rng, shape):
    """Integers in 0..7: bitwise operands, and shift counts below any width."""
    return rng.integers(0, 8, shape)


def indices_below(n):
    return lambda rng, shape: rng.integers(0, n, shape)


def well_conditioned(rng, shape):
    """Square matrices comfortably far from singular: A + 3 I."""
    return rng.standard_normal(shape) + 3 * np.eye(shape[-1])


def rank_deficient(rng, shape):
    """Square matrices of rank n - 1 (rank 0 for n = 1): singular."""
    n = shape[-1]
    return rng.standard_normal(shape[:-1] + (n - 1,)) @ rng.standard_normal(
        shape[:-2] + (n - 1, n))


def positive_definite(rng, shape):
    a = rng.standard_normal(shape)
    return a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])


# how far the Bessel cases sample: within the series, Miller's and Hankel's ranges
_BESSEL_REACH = st.sampled_from([1.5, 10.0, 40.0])


def _near_twice_identity(rng, shape):
    """2 I + small noise: eigenvalues in the right half-plane, so a real principal square root."""
    return 0.3 * rng.standard_normal(shape) + 2 * np.eye(shape[-1])


def singular_values_apart(rng, shape):
    """Matrices whose singular values are well apart (1, 2, 3... scaled): the
    singular vectors are smooth functions of them."""
    m, n = shape[-2:]
    k = min(m, n)
    u = np.linalg.qr(rng.standard_normal(shape[:-2] + (m, k)))[0]
    v = np.linalg.qr(rng.standard_normal(shape[:-2] + (n, k)))[0]
    s = np.arange(1, k + 1) * (1 + 0.2 * rng.random(shape[:-2] + (k,)))
    return (u * s[..., None, :]) @ np.swapaxes(v, -1, -2)


def eigenvalues_apart(rng, shape):
    """Symmetric matrices with eigenvalues well apart (1, 2, 3... scaled): their
    eigenvectors are smooth functions of them (eigh reads one triangle)."""
    n = shape[-1]
    q = np.linalg.qr(rng.standard_normal(shape))[0]
    w = np.arange(1, n + 1) * (1 + 0.2 * rng.random(shape[:-2] + (n,)))
    return (q * w[..., None, :]) @ np.swapaxes(q, -1, -2)


def similar_to_diagonal(rng, shape):
    """V diag(w) V^-1 with V well-conditioned and w apart: eig's vectors are smooth."""
    n = shape[-1]
    v = well_conditioned(rng, shape)
    w = np.arange(1, n + 1) * (1 + 0.2 * rng.random(shape[:-2] + (n,)))
    return (v * w[..., None, :]) @ np.linalg.inv(v)


# ------------------------------------------------------------ cases


@dataclass
class Case:
    """fn(*args) on one example; shapes and samplers per argument; the
    positions of the arguments to differentiate (float ones where fn is smooth)."""

    name: str
    fn: Callable
    shapes: list
    samplers: list
    differentiable: tuple = ()
    forward: bool = True  # False: reverse mode only (a custom_vjp)
    reverse: bool = True  # False: forward mode only (a traced while_loop)

    def sample(self, rng):
        return [np.asarray(s(rng, shape)) for s, shape in zip(self.samplers, self.shapes)]


sizes = st.integers(1, 3)


def shapes(min_rank=0, max_rank=3):
    return st.lists(sizes, min_size=min_rank, max_size=max_rank).map(tuple)


@st.composite
def broadcasting_shapes(draw, count):
    """`count` shapes that broadcast: suffixes of one shape with some sizes 1."""
    full = draw(shapes())
    out = []
    for _ in range(count):
        suffix = full[len(full) - draw(st.integers(0, len(full))):]
        out.append(tuple(1 if draw(st.booleans()) and draw(st.booleans()) else n
                         for n in suffix))
    return out


def unary(fn, sampler=normal, differentiable=True, min_rank=0):
    return shapes(min_rank).map(lambda s: Case(
        getattr(fn, "__name__", "f"), fn, [s], [sampler], (0,) if differentiable else ()))


def binary(fn, samplers=(normal, normal), differentiable=(0, 1)):
    """Two broadcasting tensors; or one in float32 (so dtypes mix); or a tensor
    and a Python number (weakly typed, never mapped)."""
    name = getattr(fn, "__name__", "f")
    tensors = broadcasting_shapes(2).map(lambda ss: Case(
        name, fn, ss, list(samplers), differentiable))
    mixed = st.tuples(broadcasting_shapes(2), st.integers(0, 1)).map(lambda arg: Case(
        name, fn, arg[0], [_float32(s) if i == arg[1] else s for i, s in enumerate(samplers)],
        differentiable))
    number = st.tuples(shapes(), st.integers(0, 1)).map(lambda arg: Case(
        name, _with_number(fn, arg[1], samplers[arg[1]]), [arg[0]], [samplers[1 - arg[1]]],
        (0,) if differentiable else ()))
    return st.one_of(tensors, mixed, number)


def _float32(sampler):
    return lambda rng, shape: sampler(rng, shape).astype(np.float32)


def _with_number(fn, position, sampler):
    """fn with argument `position` a fixed Python number of `sampler`'s kind."""
    number = sampler(np.random.default_rng(position), ()).item()
    return lambda x: fn(number, x) if position == 0 else fn(x, number)


@st.composite
def axes_of(draw, rank, min_size=0):
    return tuple(sorted(draw(st.lists(st.integers(0, max(rank - 1, 0)), unique=True,
                                      min_size=min_size, max_size=rank))))


def reduction(prim_fn, differentiable=True, sampler=normal, one_axis=False):
    @st.composite
    def case(draw):
        shape = draw(shapes(1 if one_axis else 0))
        axis = ((draw(st.integers(0, len(shape) - 1)),) if one_axis
                else draw(axes_of(len(shape))))
        keepdims = draw(st.booleans())
        return Case(prim_fn.__name__,
                    lambda x: prim_fn(x, axis=axis, keepdims=keepdims),
                    [shape], [sampler], (0,) if differentiable else ())
    return case()


@st.composite
def cumsum_case(draw):
    shape = draw(shapes(1))
    axis, reverse = draw(st.integers(0, len(shape) - 1)), draw(st.booleans())
    return Case("cumsum", lambda x: R.cumsum(x, axis=axis, reverse=reverse), [shape],
                [normal], (0,))


@st.composite
def cumprod_case(draw):
    shape = draw(shapes(1))
    axis = draw(st.integers(0, len(shape) - 1))
    return Case("cumprod", lambda x: R.cumprod(x, axis=axis), [shape], [normal], (0,))


@st.composite
def reshape_case(draw):
    shape = draw(shapes())
    flat = int(np.prod(shape))
    target = draw(st.sampled_from([(flat,), shape + (1,), (1,) + shape,
                                   tuple(n for n in shape if n != 1), tuple(reversed(shape))]))
    if int(np.prod(target)) != flat:
        target = (flat,)
    return Case("reshape", lambda x: S.reshape(x, shape=target), [shape], [normal], (0,))


@st.composite
def transpose_case(draw):
    shape = draw(shapes())
    axes = tuple(draw(st.permutations(range(len(shape)))))
    return Case("transpose", lambda x: S.transpose(x, axes=axes), [shape], [normal], (0,))


@st.composite
def broadcast_to_case(draw):
    shape = draw(shapes())
    lead = tuple(draw(st.lists(sizes, max_size=2)))
    target = lead + tuple(draw(sizes) if n == 1 else n for n in shape)
    return Case("broadcast_to", lambda x: S.broadcast_to(x, shape=target), [shape], [normal],
                (0,))


@st.composite
def concatenate_case(draw):
    shape = draw(shapes(1))
    axis = draw(st.integers(0, len(shape) - 1))
    count = draw(st.integers(1, 3))
    pieces = [shape[:axis] + (draw(sizes),) + shape[axis + 1:] for _ in range(count)]
    return Case("concatenate", lambda *xs: S.concatenate(*xs, axis=axis), pieces,
                [normal] * count, tuple(range(count)))


@st.composite
def basic_index(draw, shape):
    """A basic index of ints, slices and None over a prefix of `shape`."""
    index, axis = [], 0
    while axis < len(shape) and draw(st.booleans()):
        n = shape[axis]
        kind = draw(st.sampled_from(["int", "slice", "new"]))
        if kind == "new":
            index.append(None)
            continue
        if kind == "int":
            index.append(draw(st.integers(-n, n - 1)))
        else:
            start, stop = draw(st.integers(-n, n)), draw(st.integers(-n, n))
            index.append(slice(start, stop, draw(st.sampled_from([1, 2, -1, -2]))))
        axis += 1
    return tuple(index)


@st.composite
def slice_case(draw):
    shape = draw(shapes())
    index = draw(basic_index(shape))
    return Case("slice", lambda x: x[index], [shape], [normal], (0,))


@st.composite
def pad_case(draw):
    shape = draw(shapes())
    placement = []
    for n in shape:
        start, step = draw(st.integers(0, 2)), draw(st.integers(1, 2))
        placement.append((start, start + step * (n - 1) + 1, step))
    target = tuple(stop + draw(st.integers(0, 1)) for _, stop, _ in placement)
    value = draw(st.sampled_from([0.0, 1.5]))
    return Case("pad", lambda x: I.pad(x, shape=target, index=tuple(placement), value=value),
                [shape], [normal], (0,))


@st.composite
def gather_case(draw, scatter=False):
    shape = draw(shapes(1))
    k = draw(st.integers(1, len(shape)))
    index_shapes = draw(broadcasting_shapes(k))
    samplers = [indices_below(n) for n in shape[:k]]
    if not scatter:
        return Case("gather", lambda x, *ix: I.gather(x, *ix), [shape] + index_shapes,
                    [normal] + samplers, (0,))
    c_shape = np.broadcast_shapes(*index_shapes) + shape[k:]
    return Case("scatter_add", lambda c, *ix: I.scatter_add(c, *ix, shape=shape),
                [c_shape] + index_shapes, [normal] + samplers, (0,))


@st.composite
def matmul_case(draw):
    k = draw(sizes)
    x_rank, y_rank = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    lead = draw(broadcasting_shapes(2))
    x = (lead[0][:max(x_rank - 2, 0)] if x_rank > 2 else ()) + \
        ((draw(sizes),) if x_rank > 1 else ()) + (k,)
    y = (lead[1][:max(y_rank - 2, 0)] if y_rank > 2 else ()) + (k,) + \
        ((draw(sizes),) if y_rank > 1 else ())
    if x_rank > 2 and y_rank > 2:  # leading axes broadcast: take both from one set of shapes
        x, y = lead[0][-1:] + x[-2:], lead[1][-1:] + y[-2:]
    fn = draw(st.sampled_from([L.matmul, lambda a, b: a @ b]))
    return Case("matmul", fn, [x, y], [normal, normal], (0, 1))


EINSUMS = ["ij,jk->ik", "i,i->", "ij->ji", "ii->i", "ij,j->i", "bij,bjk->bik", "i,j->ij",
           "ijk->k", "ij,ij->j", "i,ij,j->"]


@st.composite
def einsum_case(draw):
    subscripts = draw(st.sampled_from(EINSUMS))
    terms = subscripts.split("->")[0].split(",")
    size = {c: draw(sizes) for c in set("".join(terms))}
    operand_shapes = [tuple(size[c] for c in term) for term in terms]
    return Case("einsum", lambda *xs: L.einsum(*xs, subscripts=subscripts), operand_shapes,
                [normal] * len(terms), tuple(range(len(terms))))


@st.composite
def square(draw, fn, sampler=well_conditioned, name=None, differentiable=True):
    n = draw(sizes)
    lead = tuple(draw(st.lists(sizes, max_size=1)))
    return Case(name or fn.__name__, fn, [lead + (n, n)], [sampler],
                (0,) if differentiable else ())


@st.composite
def solve_case(draw):
    n, k = draw(sizes), draw(sizes)
    lead = draw(broadcasting_shapes(2))
    return Case("solve", L.solve, [lead[0][-1:] + (n, n), lead[1][-1:] + (n, k)],
                [well_conditioned, normal], (0, 1))


@st.composite
def lstsq_case(draw):
    """a tall, square or wide (full rank, singular values apart); b a vector or a matrix."""
    m, n = draw(sizes), draw(sizes)
    b_shape = (m,) + tuple(draw(st.lists(sizes, max_size=1)))
    return Case("lstsq", lambda a, b: P.lstsq(a, b, rcond=1e-12), [(m, n), b_shape],
                [singular_values_apart, normal], (0, 1))


@st.composite
def rectangular(draw, fn, name):
    m, n = draw(sizes), draw(sizes)
    lead = tuple(draw(st.lists(sizes, max_size=1)))
    return Case(name, fn, [lead + (m, n)], [singular_values_apart], (0,))


@st.composite
def complete_qr_case(draw):
    """Q of mode='complete': m x m, differentiable unless a is tall (then its last
    m - n columns are any basis of a complement, and the rule raises)."""
    m, n = draw(sizes), draw(sizes)
    lead = tuple(draw(st.lists(sizes, max_size=1)))
    complete = draw(st.booleans())
    return Case("qr_q", lambda a: D.qr_q(a, complete=complete), [lead + (m, n)],
                [singular_values_apart], () if complete and m > n else (0,))


@st.composite
def fft_case(draw, name):
    """fft or ifft over some axes of a complex tensor; rfft along one axis of a
    real one; irfft of a complex half-spectrum back to a length n."""
    shape = draw(shapes(1))
    if name in ("fft", "ifft"):
        axes = draw(axes_of(len(shape), min_size=1))
        fn = getattr(F, name)
        return Case(name, lambda x: fn(x, axes=axes), [shape], [complex_normal], (0,))
    axis = draw(st.integers(0, len(shape) - 1))
    if name == "rfft":
        return Case(name, lambda x: F.rfft(x, axis=axis), [shape], [normal], (0,))
    n = draw(st.integers(1, 5))
    half = shape[:axis] + (n // 2 + 1,) + shape[axis + 1:]
    return Case(name, lambda c: F.irfft(c, axis=axis, n=n), [half], [complex_normal], (0,))


@st.composite
def convolve_case(draw):
    lead = draw(broadcasting_shapes(2))
    a, v = (leading[-1:] + (draw(sizes),) for leading in lead)
    return Case("convolve", V.convolve, [a, v], [normal, normal], (0, 1))


def sorted_rows(rng, shape):
    return np.sort(rng.standard_normal(shape), axis=-1)


@st.composite
def along_axis(draw, name):
    """sort, argsort and argpartition along one axis."""
    shape = draw(shapes(1))
    axis = draw(st.integers(0, len(shape) - 1))
    if name == "sort":
        return Case(name, lambda x: O.sort(x, axis=axis), [shape], [small_ints], (0,))
    if name == "argsort":
        descending = draw(st.booleans())
        return Case(name, lambda x: O.argsort(x, axis=axis, descending=descending), [shape],
                    [small_ints])
    kth = draw(st.integers(0, shape[axis] - 1))
    return Case(name, lambda x: O.argpartition(x, kth=kth, axis=axis), [shape], [normal])


@st.composite
def searchsorted_case(draw, rows):
    n, side = draw(sizes), draw(st.sampled_from(["left", "right"]))
    lead = (draw(sizes),) if rows else ()
    v = lead + tuple(draw(st.lists(sizes, max_size=1 if rows else 2)))
    fn = O.searchsorted_rows if rows else O.searchsorted
    return Case(fn.__name__, lambda a, v: fn(a, v, side=side), [lead + (n,), v],
                [sorted_rows, small_ints])


@st.composite
def update_case(draw, kinds):
    """x.at[index].<kind>(v): a basic index (set_slice) or an integer array."""
    kind = draw(st.sampled_from(kinds))
    shape = draw(shapes(1))
    if kind == "slice":
        index = draw(basic_index(shape))
        target = np.empty(shape)[index].shape
        return Case("set_slice", lambda x, v: x.at[index].set(v), [shape, target],
                    [normal, normal], (0, 1))
    index_shape = draw(shapes(0, 2))
    v_shape = index_shape + shape[1:]
    return Case(f"at.{kind}", lambda x, v, i: getattr(x.at[i], kind)(v),
                [shape, v_shape, index_shape], [normal, normal, indices_below(shape[0])],
                (0, 1))


# The call primitives (control flow, custom rules) through their public functions.

def _cond(p, x):
    return rune.cond(nx.sum(p) > 0, lambda x: nx.sin(x) * 2.0, lambda x: nx.cos(x) - x, x)


def _while(x):
    # The number of steps depends on the example (a batched predicate): 1 to 3.
    return rune.while_loop(lambda c: c[0] < 1.0 + 2.0 * nx.sigmoid(nx.sum(c[1])),
                           lambda c: (c[0] + 1.0, nx.sin(c[1]) * 0.9 + 0.1),
                           (nx.zeros(()), x))[1]


def _fori(x):
    return rune.fori_loop(0, 3, lambda i, c: nx.sin(c) + c * 0.5, x)


def _scan(c, xs):
    return rune.scan(lambda c, x: (c * 0.9 + nx.sin(x), c * x), c, xs)


@rune.custom_vjp
def _custom_vjp_fn(x):
    y = nx.sin(x)
    return y, lambda ct: ct * nx.cos(x)


@rune.custom_transpose
def _custom_transpose_fn(x):
    return 2.0 * x, lambda ct: 2.0 * ct


@st.composite
def scan_case(draw):
    carry = draw(shapes(0, 2))
    length = draw(sizes)
    return Case("scan", _scan, [carry, (length,) + carry], [normal, normal], (0, 1))


def call_case(name, fn, count=1, differentiable=True, sampler=normal):
    return broadcasting_shapes(count).map(lambda ss: Case(
        name, fn, ss, [sampler] * count, tuple(range(count)) if differentiable else ()))


def _forward_only(case):
    case.reverse = False
    return case


def _reverse_only(case):
    case.forward = False
    return case


def _positive(rng, shape):
    return rng.uniform(0.5, 2.0, shape)


UNIT = uniform(-0.9, 0.9)

CASES = {
    # elementwise, one argument
    **{getattr(E, name).primitive: unary(getattr(E, name)) for name in [
        "sin", "cos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "exp", "expm1", "square",
        "sigmoid", "negative", "absolute", "sign", "stop_gradient"]},
    **{getattr(E, name).primitive: unary(getattr(E, name), UNIT) for name in [
        "tan", "arcsin", "arccos", "arctanh"]},
    **{getattr(E, name).primitive: unary(getattr(E, name), _positive) for name in [
        "log", "log1p", "log2", "log10", "sqrt", "reciprocal"]},
    E.arccosh.primitive: unary(E.arccosh, uniform(1.2, 3.0)),
    **{getattr(E, name).primitive: unary(getattr(E, name), complex_normal) for name in [
        "real", "imag", "conj"]},
    E.astype.primitive: unary(lambda x: E.astype(x, dtype=np.dtype(np.complex128))),
    E.integer_pow.primitive: unary(lambda x: E.integer_pow(x, n=3)),
    **{getattr(E, name).primitive: unary(getattr(E, name), differentiable=False)
       for name in ["trunc", "signbit"]},
    E.fmod.primitive: binary(E.fmod, (normal, _positive)),
    E.round_.primitive: unary(lambda x: E.round_(x, decimals=1), differentiable=False),
    **{getattr(E, name).primitive: unary(getattr(E, name), differentiable=False) for name in [
        "floor", "ceil", "isnan", "isfinite", "isinf"]},
    E.logical_not.primitive: unary(E.logical_not, bools, differentiable=False),
    **{getattr(E, name).primitive: unary(getattr(E, name)) for name in ["exp2", "cbrt"]},
    # special functions
    **{getattr(Z, name).primitive: unary(getattr(Z, name)) for name in [
        "erf", "erfc", "i0", "i1", "i0e", "i1e"]},
    **{getattr(Z, name).primitive: unary(getattr(Z, name), uniform(0.5, 3.0)) for name in [
        "gammaln", "gamma", "digamma"]},
    Z.erfinv.primitive: unary(Z.erfinv, UNIT),
    Z.erfcinv.primitive: unary(Z.erfcinv, uniform(0.1, 1.9)),
    # incomplete gamma and beta: d/da of P once only (as JAX), none in betainc's a, b
    **{getattr(G, name).primitive: broadcasting_shapes(2).map(lambda ss, name=name: Case(
        name, getattr(G, name), ss, [uniform(0.5, 3.0), uniform(0.1, 4.0)], (0, 1)))
       for name in ["gammainc", "gammaincc"]},
    G.gammainc_grad_a.primitive: broadcasting_shapes(2).map(lambda ss: Case(
        "gammainc_grad_a", G.gammainc_grad_a, ss, [uniform(0.5, 3.0), uniform(0.1, 4.0)], (1,))),
    G.betainc.primitive: broadcasting_shapes(3).map(lambda ss: Case(
        "betainc", G.betainc, ss, [uniform(0.5, 3.0), uniform(0.5, 3.0), uniform(0.05, 0.95)],
        (2,))),
    Z.polygamma.primitive: st.integers(0, 2).flatmap(lambda n: unary(
        lambda x: Z.polygamma(x, n=n), uniform(0.5, 3.0))),
    Z.sinc_derivative.primitive: st.integers(0, 2).flatmap(lambda k: unary(
        lambda x: Z.sinc_derivative(x, k=k))),
    # Bessel functions of integer order (each branch: series, recurrence, asymptotic)
    B.bessel_jn.primitive: st.tuples(st.integers(-3, 4), _BESSEL_REACH).flatmap(
        lambda nr: unary(lambda x, n=nr[0]: B.bessel_jn(x, n=n), uniform(-nr[1], nr[1]))),
    **{getattr(B, name).primitive: broadcasting_shapes(2).map(lambda ss, name=name: Case(
        name, getattr(B, name), ss, [uniform(-2.5, 3.0), uniform(0.1, 50.0)], (1,)))
       for name in ["iv", "ive"]},  # no derivative in the order (it raises)
    B.bessel_yn.primitive: st.tuples(st.integers(-3, 4), _BESSEL_REACH).flatmap(
        lambda nr: unary(lambda x, n=nr[0]: B.bessel_yn(x, n=n), uniform(0.3, nr[1]))),
    # elementwise, two or three arguments
    **{getattr(E, name).primitive: binary(getattr(E, name)) for name in [
        "hypot", "logaddexp", "logaddexp2", "nextafter"]},
    **{getattr(E, name).primitive: binary(getattr(E, name)) for name in [
        "add", "subtract", "multiply", "arctan2", "maximum", "minimum"]},
    E.divide.primitive: binary(E.divide, (normal, _positive)),
    E.general_power.primitive: binary(E.power, (_positive, normal)),
    E.mod.primitive: binary(E.mod, (normal, _positive)),
    E.floor_divide.primitive: binary(E.floor_divide, (normal, _positive), ()),
    **{getattr(E, name).primitive: binary(getattr(E, name), (small_ints, small_ints), ())
       for name in ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]},
    **{getattr(E, name).primitive: binary(getattr(E, name), (bools, bools), ())
       for name in ["logical_and", "logical_or", "logical_xor"]},
    # bitwise: integers (numpy has no bitwise float); `binary` would mix in float32
    **{getattr(E, name).primitive: broadcasting_shapes(2).map(
        lambda ss, name=name: Case(name, getattr(E, name), ss, [int64s, int64s], ()))
       for name in ["bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"]},
    E.invert.primitive: unary(E.invert, int64s, differentiable=False),
    E.where.primitive: broadcasting_shapes(3).map(lambda ss: Case(
        "where", E.where, ss, [bools, normal, normal], (1, 2))),
    # reductions
    R.sum_p: reduction(R.sum),
    R.max_p: reduction(R.max),
    R.min_p: reduction(R.min),
    R.prod_p: reduction(R.prod),
    R.argmax.primitive: reduction(R.argmax, False, one_axis=True),
    R.argmin.primitive: reduction(R.argmin, False, one_axis=True),
    R.all.primitive: reduction(R.all, False, bools),
    R.any.primitive: reduction(R.any, False, bools),
    R.cumsum_p: cumsum_case(),
    R.cumprod_p: cumprod_case(),
    # sorting and updates
    **{getattr(O, name).primitive: along_axis(name) for name in [
        "sort", "argsort", "argpartition"]},
    O.searchsorted_p: searchsorted_case(False),
    O.searchsorted_rows_p: searchsorted_case(True),
    U.set_slice_p: update_case(["slice"]),
    U.set_at_p: update_case(["set"]),
    U.add_at_p: update_case(["add"]),
    U.scatter_mul.primitive: update_case(["multiply"]),
    U.scatter_min.primitive: update_case(["min"]),
    U.scatter_max.primitive: update_case(["max"]),
    # shapes and indexing
    S.reshape.primitive: reshape_case(),
    S.transpose.primitive: transpose_case(),
    S.broadcast_to.primitive: broadcast_to_case(),
    S.concatenate_p: concatenate_case(),
    I.slice_p: slice_case(),
    I.pad_p: pad_case(),
    I.gather_p: gather_case(),
    I.scatter_add_p: gather_case(scatter=True),
    # transforms and products
    **{getattr(F, name).primitive: fft_case(name) for name in ["fft", "ifft", "rfft", "irfft"]},
    V.convolve_p: convolve_case(),
    # linear algebra
    L.matmul_p: matmul_case(),
    L.einsum_p: einsum_case(),
    L.inv.primitive: square(L.inv),
    L.solve_p: solve_case(),
    L.det.primitive: st.sampled_from([well_conditioned, rank_deficient]).flatmap(
        lambda sampler: square(L.det, sampler)),
    L.adjugate.primitive: st.sampled_from([normal, well_conditioned, rank_deficient]).flatmap(
        lambda sampler: square(L.adjugate, sampler)),
    L.logabsdet.primitive: square(L.logabsdet),
    L.sign_of_det.primitive: square(L.sign_of_det, normal, differentiable=False),
    L.cholesky.primitive: square(L.cholesky, positive_definite),
    M.sqrtm.primitive: st.sampled_from([positive_definite, _near_twice_identity]).flatmap(
        lambda sampler: square(M.sqrtm, sampler)),
    L.svd_vectors.primitive: st.sampled_from(["u", "vh"]).flatmap(lambda which: rectangular(
        lambda a: L.svd_vectors(a, which=which), "svd_vectors")),
    L.singular_values.primitive: rectangular(L.singular_values, "singular_values"),
    P.pinv_p: st.one_of(
        rectangular(lambda a: P.pinv(a, rcond=1e-15, hermitian=False), "pinv"),
        square(lambda a: P.pinv(a, rcond=1e-15, hermitian=True), positive_definite, "pinv")),
    P.lstsq_p: lstsq_case(),
    D.svd_full_vectors.primitive: st.sampled_from(["u", "vh"]).flatmap(lambda which: rectangular(
        lambda a: D.svd_full_vectors(a, which=which), "svd_full_vectors")).map(
        lambda case: Case(case.name, case.fn, case.shapes, case.samplers)),  # rule raises
    **{getattr(D, name).primitive: st.booleans().flatmap(lambda lower, name=name: square(
        lambda a: getattr(D, name)(a, lower=lower), eigenvalues_apart, name))
       for name in ["eigh_values", "eigh_vectors"]},
    D.qr_q.primitive: complete_qr_case(),
    D.qr_r.primitive: rectangular(D.qr_r, "qr_r"),
    D.eig_values.primitive: square(D.eig_values, similar_to_diagonal),
    D.eig_vectors.primitive: square(D.eig_vectors, similar_to_diagonal),
    # control flow and custom rules
    rune.calls.control_rules.cond_p: call_case("cond", _cond, 2),
    rune.calls.control_rules.while_p: call_case("while", _while, 1).map(_forward_only),
    rune.calls.control_rules.scan_p: st.one_of(scan_case(), call_case("fori_loop", _fori)),
    rune.calls.custom._JVP.primitive: call_case("custom_jvp", custom_tanh),
    rune.calls.custom._VJP.primitive: call_case("custom_vjp", _custom_vjp_fn).map(_reverse_only),
    rune.calls.custom._TRANSPOSE.primitive: call_case("custom_transpose", _custom_transpose_fn),
    # checkpoint's backward pass runs a linear_call (vmap(grad) reaches it)
    rune.calls.call.linear_call: call_case("checkpoint", checkpointed),
}
