"""`rune.jit(f, backend="jax")`: a traced rune graph lowered to JAX, compiled by XLA.

rune traces f to a graph as for the numpy backend (differentiation has
already happened: `jit(grad(f), backend="jax")` lowers the graph of the
gradient, so custom rules keep rune's meaning). `lower(graph)` turns that
graph into a function of JAX arrays: each equation calls the entry of
`LOWERINGS` for its primitive, a `jax.numpy`/`jax.lax` counterpart of the
primitive's numpy impl, and its result is cast to the dtype the graph
recorded (so numpy's promotion, not JAX's, decides every dtype). `jax.jit`
then compiles that function once per trace. Called with JAX arrays alone,
the jitted function is one `jax.jit` whose own dispatch finds the compiled
program (rune traces when JAX traces): rune adds no work per call.

Control flow lowers to `lax.cond`, `lax.while_loop` and `lax.scan`, their
branches and bodies lowered the same way. Primitives in `UNSUPPORTED` raise
a NotImplementedError naming them when a graph uses them. Where the numpy
backend raises (an index out of bounds, a singular matrix), the lowering
checks and the call raises the same error (jax_checks.py), never XLA's
clamped index or inf.

rune computes in float64; the call runs under `jax.enable_x64(True)` so
results equal the numpy backend's. Random draws of `nx.random` are made on
the host while tracing, as for the numpy backend: they are constants of the
graph (the same numbers on every call of one trace).
"""

from __future__ import annotations

import math
import sys

import jax
import jax.numpy as jnp
import jax.scipy.special as jsp
import numpy as np
from jax import lax

from .. import ptree
from ..core import active_traces
from ..graph import WeakVar
from ..jit import Jitted, function_name, result_tensor
from ..nx.tensor import Tensor
from ..primitives.elementwise import expm1_impl, floor_divide_impl
from ..primitives.indexing import numpy_index
from ..primitives.linalg import _LU_CONDITION
from ..primitives.special import _sinc_derivative_impl
from ..primitives.updates import _start
from . import jax_checks as checks
from .jax_special import erfcinv, erfinv

__all__ = ["LOWERINGS", "UNSUPPORTED", "lower", "JaxJitted"]


# ------------------------------------------------------------- numeric rules


def _astype(x, dtype):
    if jnp.iscomplexobj(x) and np.dtype(dtype).kind != "c":
        x = jnp.real(x)  # numpy drops the imaginary part (with a warning)
    return jnp.asarray(x).astype(dtype)


def _integer_pow(x, n):
    return lax.integer_pow(jnp.asarray(x), n)


def _cumsum(x, axis, reverse):
    return jnp.flip(jnp.cumsum(jnp.flip(x, axis), axis), axis) if reverse else jnp.cumsum(x, axis)


def _argsort(x, axis, descending):
    if descending:  # stable among equals, as rune's impl
        n = jnp.shape(x)[axis]
        return jnp.flip(n - 1 - jnp.argsort(jnp.flip(x, axis), axis=axis, stable=True), axis)
    return jnp.argsort(x, axis=axis, stable=True)


def _argpartition(x, kth, axis):
    """numpy's argpartition by `lax.top_k`, not a sort: the k smallest come in
    ascending order, which puts every kth (k - 1 the largest) in its sorted
    place; the other indices follow in index order."""
    if jnp.iscomplexobj(x):  # top_k orders real keys; a sort orders complex as numpy does
        return jnp.argsort(x, axis=axis, stable=True)
    x = jnp.moveaxis(x, axis, -1)
    n = x.shape[-1]
    k = max(int(i) % n for i in np.atleast_1d(kth)) + 1  # an int or a sequence, as numpy
    _, smallest = lax.top_k(~_ordered_integers(x), k)  # ~ reverses the order, never overflows
    if k < n:
        mark = lambda indices: jnp.zeros(n, jnp.int8).at[indices].set(1)  # noqa: E731
        for _ in range(x.ndim - 1):  # one row at a time, over the leading axes
            mark = jax.vmap(mark)
        _, rest = lax.top_k(1 - mark(smallest), n - k)  # the others, in index order
        smallest = jnp.concatenate([smallest, rest], axis=-1)
    return jnp.moveaxis(smallest, -1, axis).astype(np.intp)


def _ordered_integers(x):
    """Integers in the order numpy sorts x (NaNs last, whatever their sign):
    a float's bits as an integer, with the negatives' order turned round."""
    if x.dtype.kind == "b":
        return x.astype(jnp.int8)
    if x.dtype.kind in "iu":
        return x
    bits = lax.bitcast_convert_type(x, jnp.dtype(f"int{8 * x.dtype.itemsize}"))
    largest = jnp.iinfo(bits.dtype).max
    return jnp.where(jnp.isnan(x), largest, jnp.where(bits < 0, bits ^ largest, bits))


def _sigmoid(x):
    return jax.nn.sigmoid(x) if not jnp.iscomplexobj(x) else 1 / (1 + jnp.exp(-x))


def _igamma_grad_a(a, x):
    """lax.igamma_grad_a takes arguments of one shape and dtype: broadcast and
    promote them first, as the primitive (elementwise, numpy's rules) does."""
    dtype = jnp.result_type(a, x, float)
    return lax.igamma_grad_a(*(jnp.asarray(v, dtype) for v in jnp.broadcast_arrays(a, x)))


def _sinc_derivative(x, k):
    """rune's own series and Leibniz sums in jax.numpy: jax.grad of jnp.sinc
    k times loses digits near 0 (3e-9 relative in the 3rd derivative at 0.0128)."""
    return _sinc_derivative_impl(x, k, xp=jnp)


def _convolve(a, v):
    if jnp.ndim(a) == 1 and jnp.ndim(v) == 1:
        return jnp.convolve(a, v)
    n, m = a.shape[-1], v.shape[-1]
    lead = jnp.broadcast_shapes(a.shape[:-1], v.shape[:-1])
    out = jnp.zeros(lead + (n + m - 1,), jnp.result_type(a, v))
    for k in range(m):  # the impl's loop: one shifted, scaled copy of a per entry of v
        out = out.at[..., k:k + n].add(a * v[..., k:k + 1])
    return out


def _pad(x, shape, index, value):
    return jnp.full(shape, value, dtype=jnp.asarray(x).dtype).at[numpy_index(index)].set(x)


def _set_at(x, v, *indices):
    """x[indices] = v with numpy's rule for repeated places (the last value wins):
    XLA leaves the winner unspecified, so the places are cleared and only each
    place's last update is added. x may be a constant of the graph (a numpy array)."""
    x = jnp.asarray(x)
    if not checks.check_indices(x.shape, indices):
        return x
    index_shape = jnp.broadcast_shapes(*[jnp.shape(i) for i in indices])
    order = jnp.arange(math.prod(index_shape)).reshape(index_shape)
    last = jnp.full(x.shape[:len(indices)], -1).at[indices].max(order)[indices]
    updates = jnp.broadcast_to(v, index_shape + x.shape[len(indices):])
    winners = (last == order).reshape(index_shape + (1,) * (x.ndim - len(indices)))
    kept = jnp.where(winners, updates, jnp.zeros((), x.dtype))
    return x.at[indices].set(0).at[indices].add(kept)


def _scatter(method, kind):
    def lowering(v, *indices, shape):
        v = jnp.asarray(v)
        start = jnp.full(shape, _start(np.dtype(v.dtype), kind), dtype=v.dtype)
        if not checks.check_indices(shape, indices):
            return start
        return getattr(start.at[indices], method)(v)
    return lowering


def _gather(x, *indices):
    x = jnp.asarray(x)
    if not checks.check_indices(x.shape, indices):
        index_shape = jnp.broadcast_shapes(*[jnp.shape(i) for i in indices])
        return jnp.zeros(index_shape + x.shape[len(indices):], x.dtype)
    return x[indices]


def _scatter_add(ct, *indices, shape):
    zeros = jnp.zeros(shape, jnp.asarray(ct).dtype)
    return zeros.at[indices].add(ct) if checks.check_indices(shape, indices) else zeros


def _add_at(x, v, *indices):
    x = jnp.asarray(x)
    return x.at[indices].add(v) if checks.check_indices(x.shape, indices) else x


def _products_of_others(s):
    """out[..., i] = prod over j != i of s[..., j], without dividing (rune's rule)."""
    ones = jnp.ones(s.shape[:-1] + (1,), s.dtype)
    before = jnp.concatenate([ones, jnp.cumprod(s[..., :-1], axis=-1)], axis=-1)
    after = jnp.concatenate([ones, jnp.cumprod(jnp.flip(s, -1)[..., :-1], axis=-1)], axis=-1)
    return before * jnp.flip(after, axis=-1)


def _adjugate(a):
    """rune's adjugate (primitives/linalg.py): det(A) inv(A) where the stack is
    well-conditioned, else from the SVD; both are computed and one is selected."""
    if a.shape[-1] == 0:
        return jnp.zeros(a.shape, jnp.result_type(a, 1.0))
    u, s, vh = jnp.linalg.svd(a)
    phase = jnp.linalg.det(u) * jnp.linalg.det(vh)
    v_c = jnp.conj(jnp.swapaxes(vh, -1, -2)) * _products_of_others(s).astype(u.dtype)[..., None, :]
    by_svd = phase[..., None, None] * (v_c @ jnp.conj(jnp.swapaxes(u, -1, -2)))
    inverse = jnp.linalg.inv(a)
    condition = (jnp.linalg.norm(a, 1, axis=(-2, -1))
                 * jnp.linalg.norm(inverse, 1, axis=(-2, -1)))
    by_lu = jnp.linalg.det(a)[..., None, None] * inverse
    out = jnp.where(jnp.all(condition < _LU_CONDITION), by_lu, by_svd)
    return jnp.where(jnp.all(jnp.isfinite(a)), out, jnp.nan)


def _slogdet(part):
    return lambda a: jnp.linalg.slogdet(a)[part]


def _complex_from(real_part, imag_part, dtype):
    """real + imag j from its parts, as elementwise._complex on numpy arrays."""
    return lax.complex(real_part, imag_part).astype(dtype)


def _same(name):
    """jnp's function of the same name, for the primitives that are numpy ufuncs."""
    return getattr(jnp, name)


_UFUNCS = (
    "absolute add arccos arccosh arcsin arcsinh arctan arctan2 arctanh cbrt ceil cos cosh "
    "divide equal exp exp2 floor fmod greater greater_equal hypot isfinite "
    "isinf isnan less less_equal log log10 log1p log2 logaddexp logaddexp2 logical_and nextafter "
    "logical_not logical_or logical_xor matmul maximum minimum multiply negative not_equal "
    "power real imag reciprocal sign signbit sin sinh sqrt square subtract tan tanh trunc"
).split()
_UFUNCS += "bitwise_and bitwise_or bitwise_xor invert left_shift right_shift".split()

# primitive name -> lowering(*jax values, **params), as the primitive's impl on numpy values.
LOWERINGS = {name: _same(name) for name in _UFUNCS}
LOWERINGS.update({
    # elementwise
    # the standard's values at infinities, as the primitives' impls (one method, two backends)
    "expm1": lambda x: expm1_impl(x, jnp, _complex_from),
    "floor_divide": lambda x, y: floor_divide_impl(x, y, jnp),
    "conj": jnp.conjugate,
    "mod": jnp.remainder,
    "where": jnp.where,
    "astype": _astype,
    "integer_pow": _integer_pow,
    "round": lambda x, decimals=0: jnp.round(x, decimals),
    "sigmoid": _sigmoid,
    "stop_gradient": lambda x: x,  # differentiation happened in rune: the value passes
    # special functions
    "erf": jsp.erf, "erfc": jsp.erfc, "erfinv": erfinv, "erfcinv": erfcinv,
    "gamma": jsp.gamma, "gammaln": jsp.gammaln, "digamma": jsp.digamma,
    "polygamma": lambda x, n: jsp.polygamma(n, x),
    "i0": jsp.i0, "i0e": jsp.i0e, "i1": jsp.i1, "i1e": jsp.i1e,
    "gammainc": jsp.gammainc, "gammaincc": jsp.gammaincc, "betainc": jsp.betainc,
    "gammainc_grad_a": _igamma_grad_a,
    "sinc_derivative": _sinc_derivative,
    # reductions and scans
    "sum": lambda x, axis, keepdims: jnp.sum(x, axis=axis, keepdims=keepdims),
    "prod": lambda x, axis, keepdims: jnp.prod(x, axis=axis, keepdims=keepdims),
    "max": lambda x, axis, keepdims: jnp.max(x, axis=axis, keepdims=keepdims),
    "min": lambda x, axis, keepdims: jnp.min(x, axis=axis, keepdims=keepdims),
    "all": lambda x, axis, keepdims: jnp.all(x, axis=axis, keepdims=keepdims),
    "any": lambda x, axis, keepdims: jnp.any(x, axis=axis, keepdims=keepdims),
    "argmax": lambda x, axis, keepdims: jnp.argmax(x, axis=axis[0], keepdims=keepdims),
    "argmin": lambda x, axis, keepdims: jnp.argmin(x, axis=axis[0], keepdims=keepdims),
    "cumsum": _cumsum,
    "cumprod": lambda x, axis: jnp.cumprod(x, axis=axis),
    # shapes
    "reshape": lambda x, shape: jnp.reshape(x, shape),
    "transpose": lambda x, axes: jnp.transpose(x, axes),
    "broadcast_to": lambda x, shape: jnp.broadcast_to(x, shape),
    "concatenate": lambda *xs, axis: jnp.concatenate(xs, axis=axis),
    # indexing and updates
    "slice": lambda x, index: jnp.asarray(x)[numpy_index(index)],
    "pad": _pad,
    "gather": _gather,
    "scatter_add": _scatter_add,
    "set_slice": lambda x, v, index: jnp.asarray(x).at[numpy_index(index)].set(v),
    "set_at": _set_at,
    "add_at": _add_at,
    "scatter_mul": _scatter("multiply", "mul"),
    "scatter_min": _scatter("min", "min"),
    "scatter_max": _scatter("max", "max"),
    # sorting
    "sort": lambda x, axis: jnp.sort(x, axis=axis, stable=True),
    "argsort": _argsort,
    "argpartition": _argpartition,
    "searchsorted": lambda a, v, side: jnp.searchsorted(a, v, side=side),
    "searchsorted_rows": lambda a, v, side: jax.vmap(
        lambda r, w: jnp.searchsorted(r, w, side=side))(a, v),
    # linear algebra
    "einsum": lambda *operands, subscripts: jnp.einsum(subscripts, *operands),
    "inv": checks.LINALG["inv"],  # these three raise numpy's LinAlgError (jax_checks.py)
    "solve": checks.LINALG["solve"],
    "det": jnp.linalg.det,
    "adjugate": _adjugate,
    "logabsdet": _slogdet(1),
    "sign_of_det": _slogdet(0),
    "cholesky": checks.LINALG["cholesky"],
    "singular_values": lambda a: jnp.linalg.svd(a, compute_uv=False),
    "svd_vectors": lambda a, which: jnp.linalg.svd(a, full_matrices=False)[
        0 if which == "u" else 2],
    "pinv": lambda a, rcond, hermitian: jnp.linalg.pinv(a, rtol=rcond, hermitian=hermitian),
    "lstsq": lambda a, b, rcond: jnp.linalg.lstsq(a, b, rcond=rcond)[0],
    "svd_full_vectors": lambda a, which: jnp.linalg.svd(a, full_matrices=True)[
        0 if which == "u" else 2],
    # numpy reads one triangle: no symmetrizing of the input (jnp's default)
    "eigh_values": lambda a, lower: jnp.linalg.eigh(a, UPLO="L" if lower else "U",
                                                    symmetrize_input=False)[0],
    "eigh_vectors": lambda a, lower: jnp.linalg.eigh(a, UPLO="L" if lower else "U",
                                                     symmetrize_input=False)[1],
    "qr_q": lambda a, complete: jnp.linalg.qr(a, mode="complete" if complete else "reduced")[0],
    "qr_r": lambda a: jnp.linalg.qr(a, mode="r"),
    "eig_values": jnp.linalg.eigvals,
    "eig_vectors": lambda a: jnp.linalg.eig(a)[1],
    "convolve": _convolve,
    # fft
    "fft": lambda x, axes: jnp.fft.fftn(x, axes=axes),
    "ifft": lambda x, axes: jnp.fft.ifftn(x, axes=axes),
    "rfft": lambda x, axis: jnp.fft.rfft(x, axis=axis),
    "irfft": lambda c, axis, n: jnp.fft.irfft(c, n=n, axis=axis),
})

# primitive name -> why it has no lowering (a graph using it raises, saying so).
UNSUPPORTED = {
    "linear_call": "never an equation of a jit graph: its bind calls its forward function, "
                   "so jit records the primitives that applies (linear_call lives only in "
                   "the records of rune.linearize)",
}


# ------------------------------------------------- graphs, calls, control flow


def lower(graph):
    """The graph as a function of JAX values (arrays or Python numbers) that
    returns the list of its outputs, one call of `LOWERINGS` per equation."""
    graph = graph.deduplicated().pruned()

    def run(*values):
        env = {id(var): value for var, value in zip(graph.inputs, values)}
        for prim, args, params, out in graph.equations:
            rule = _lowering(prim)
            values = [_read(env, a) for a in args]
            if prim.name in checks.RAISES_WHEN_EMPTY:
                checks.raise_if_numpy_would(prim, values, params, out)
            result = rule(*values, **params)
            if type(out) is tuple:  # several results
                env.update(zip(map(id, out), map(_recorded, result, out)))
            else:
                env[id(out)] = _recorded(result, out)
        return [_as_dtype(_read(env, o), o.dtype) for o in graph.outputs]

    return run


def _program(graph, structure):
    """The graph as the function jax.jit compiles: `_Outputs`, with the failure
    code of its checks (jax_checks.py) if it has some; one output alone, and
    no checks, as JAX returns it."""
    run = lower(graph)

    def program(*values):
        with checks.program_checks() as found:
            outs = run(*values)
        if found.code is None and structure.kind is None:
            return outs[0]
        return _Outputs(structure, outs, found.code, tuple(found.errors))

    return program


def _lowering(prim):
    rule = LOWERINGS.get(prim.name)
    if rule is None:
        reason = UNSUPPORTED.get(prim.name, "it has no entry in LOWERINGS (rune/lower/jax.py)")
        raise NotImplementedError(f"rune.jit(backend='jax'): {prim.name} cannot be lowered to "
                                  f"JAX: {reason}; use the numpy backend")
    return rule


def _read(env, arg):
    """An argument's JAX value: a variable's, or a constant of the graph."""
    value = env.get(id(arg), arg)
    return value._value if type(value) is Tensor else value


def _recorded(value, var):
    """value with the dtype rune recorded for var (numpy's promotion, not JAX's);
    a Python number's result stays weak, as it is in the numpy backend."""
    return value if type(var) is WeakVar else _as_dtype(value, var.dtype)


def _as_dtype(value, dtype):
    value = jnp.asarray(value)
    return value if value.dtype == dtype else value.astype(dtype)


def _call(*args, fun):
    """custom_jvp_call and siblings: fun's own graph (its rule served rune's
    differentiation, which has already happened)."""
    return lower(fun.fwd)(*args)[: fun.num_out]


def _cond(pred, *args, true, false):
    checked = checks.may_fail(true.graph) or checks.may_fail(false.graph)

    def branch(graph):
        def run(ops):
            if not checked:
                return tuple(lower(graph)(*ops))
            with checks.nested() as found:  # each branch returns its failure code
                outs = tuple(lower(graph)(*ops))
            return outs + (found.code_or_no_failure(),)
        return run

    outs = list(lax.cond(jnp.asarray(pred).astype(bool), branch(true.graph), branch(false.graph),
                         tuple(args)))
    if checked:
        checks.include(outs.pop())
    return outs


def _while(*args, cond, body, num_cond_consts, num_body_consts):
    cond_consts = args[:num_cond_consts]
    body_consts = args[num_cond_consts:num_cond_consts + num_body_consts]
    carry = args[num_cond_consts + num_body_consts:]
    test, step = lower(cond.graph), lower(body.graph)
    # The loop's carry keeps one type: the types the body's graph recorded.
    init = tuple(_as_dtype(c, v.dtype) for c, v in zip(carry, body.graph.outputs))

    def holds(c):
        return jnp.asarray(test(*cond_consts, *c)[0]).astype(bool)

    if not (checks.may_fail(cond.graph) or checks.may_fail(body.graph)):
        return list(lax.while_loop(holds, lambda c: tuple(step(*body_consts, *c)), init))
    return checks.checked_while(holds, lambda c: tuple(step(*body_consts, *c)), init)


def _scan(*args, body, length, reverse, num_consts, num_carry):
    consts, carry = args[:num_consts], args[num_consts:num_consts + num_carry]
    xs = args[num_consts + num_carry:]
    step = lower(body.graph)
    checked = checks.may_fail(body.graph)  # then the carry's last entry is the failure code

    def f(c, x):
        if not checked:
            out = step(*consts, *c, *x)
            return tuple(out[:num_carry]), tuple(out[num_carry:])
        with checks.nested() as found:
            out = step(*consts, *c[:-1], *x)
        code = checks.first_failure(c[-1], found.code_or_no_failure())
        return tuple(out[:num_carry]) + (code,), tuple(out[num_carry:])

    init = tuple(_as_dtype(c, v.dtype) for c, v in zip(carry, body.graph.outputs))
    if checked:
        init += (jnp.array(checks.NO_FAILURE, np.int64),)
    final, ys = lax.scan(f, init, tuple(jnp.asarray(x) for x in xs), length=length,
                         reverse=reverse)
    if checked:
        checks.include(final[-1])
        final = final[:-1]
    return list(final) + list(ys)


LOWERINGS.update({
    "custom_jvp_call": _call, "custom_vjp_call": _call, "custom_transpose_call": _call,
    "cond": _cond, "while": _while, "scan": _scan,
})


# ------------------------------------------------------------------ the jit


class JaxJitted(Jitted):
    """A function compiled by `rune.jit(f, backend="jax")`.

    Each trace of f (as for the numpy backend: one per structure, shapes,
    dtypes and static values) is lowered and compiled by `jax.jit` once.
    `source(*args)` is the lowered program as JAX prints it (a jaxpr), and
    `lowered(*args)` is `jax.jit(...).lower(...)`, whose `.as_text()` is StableHLO.
    """

    # Arguments may be JAX arrays, taken as they are (on their devices, with their shardings).
    array_types = (jax.Array,)

    def __init__(self, f, static_argnums=(), jax_arrays=None):
        super().__init__(f, static_argnums, 'rune.jit(backend="jax")')
        # True: results are JAX arrays; False: tensors; None: JAX arrays when
        # an argument is one (a sharded result is not gathered unasked).
        self.jax_arrays = jax_arrays
        # The common call, JAX arrays as positional arguments, goes through
        # one jax.jit of the whole function: JAX's dispatch (in C++) finds the
        # program by shapes and dtypes, so rune adds nothing per call. rune
        # traces, lowers and compiles only when JAX traces.
        self._by_shape = jax.jit(self._lower_traced)
        self._programs = 0  # how many programs _by_shape's cache holds

    def __call__(self, *args, **kwargs):
        if (not kwargs and not self.static_argnums and not active_traces()
                and _JAX_ARRAY_TYPES.issuperset(map(type, args))):
            try:
                if jax.config.jax_enable_x64:  # read here: _x64()'s context costs ~1 us
                    outs = self._by_shape(*args)
                else:
                    with jax.enable_x64(True):
                        outs = self._by_shape(*args)
            except _CapturedTracer:
                pass  # f closes over a tracer: the general path below says how
            else:
                keep = self.jax_arrays is not False  # the arguments are JAX arrays
                if type(outs) is _Outputs:
                    return self._results(outs, keep)
                return outs if keep else result_tensor(np.asarray(outs))
        entry, leaves, values = self._entry(args, kwargs)
        if values is None or not entry.cacheable:  # under an enclosing transformation
            return super().__call__(*args, **kwargs)
        run = entry.run or self._compile(entry)
        with _x64():
            outs = run(*values)
        keep = self.jax_arrays
        if keep is None:
            keep = any(isinstance(leaf, jax.Array) for leaf in leaves)
        if type(outs) is _Outputs:
            return self._results(outs, keep)
        return outs if keep else result_tensor(np.asarray(outs))

    @staticmethod
    def _results(program_outputs, keep):
        """The call's results, once the program's checks raised if one failed:
        JAX arrays if keep, else tensors (gathered to the host)."""
        structure, outs = program_outputs.structure, program_outputs.leaves
        if program_outputs.code is not None:
            checks.raise_if_failed(program_outputs.code, program_outputs.errors)
        if not keep:
            outs = [result_tensor(np.asarray(o)) for o in outs]
        return outs[0] if structure.kind is None else ptree.unflatten(structure, outs)

    def _lower_traced(self, *args):
        """What `_by_shape` traces: rune's graph for args' shapes and dtypes
        (JAX tracers), lowered and applied to them."""
        self._count_program()
        entry = self._entry(args, {})[0]
        if not entry.cacheable:
            raise _CapturedTracer
        return _program(entry.graph, entry.out_structure)(*args)

    def _count_program(self):
        """Count the program JAX is about to compile for `_by_shape` (one per
        shapes and dtypes of the arguments). JAX keeps each (about 1.5 MB)
        until told: past CACHE_SIZE, its cache is emptied, so memory stays
        bounded as rune's cache of traces is (a shape seen again compiles again)."""
        with self._lock:
            self._programs += 1
            full = self._programs > _jit_module.CACHE_SIZE
            if full:
                self._programs = 1  # the one being compiled
        if full:
            self._by_shape.clear_cache()

    def _compile(self, entry):
        lowered = _program(entry.graph, entry.out_structure)
        lowered.__name__ = function_name(self)  # names the StableHLO module
        entry.run = jax.jit(lowered)
        return entry.run

    def cache_clear(self):
        super().cache_clear()
        with self._lock:
            self._programs = 0
        self._by_shape.clear_cache()

    def source(self, *args, **kwargs) -> str:
        """The lowered program for these arguments, as a jaxpr."""
        entry, _, values = self._entry(args, kwargs)
        with _x64():
            return str(jax.make_jaxpr(_program(entry.graph, entry.out_structure))(*values))

    def lowered(self, *args, **kwargs):
        """`jax.jit(...).lower(...)` for these arguments: `.as_text()` is StableHLO."""
        entry, _, values = self._entry(args, kwargs)
        run = entry.run or self._compile(entry)
        with _x64():
            return run.lower(*values)


_jit_module = sys.modules[Jitted.__module__]  # CACHE_SIZE, read at each count

# JAX's concrete array class: an exact type test is cheaper than isinstance
# with jax.Array, and tracers of JAX's own transformations are not taken.
_JAX_ARRAY_TYPES = frozenset({type(jnp.zeros(()))})


class _CapturedTracer(Exception):
    """f's graph holds a value of a rune transformation (see Jitted._entry)."""


class _Outputs:
    """What a compiled program returns (beside one output alone, unchecked): its
    flat outputs, rune's structure for them, and the failure code of its checks
    with their errors (jax_checks.py). A JAX pytree whose structure and errors
    ride as static data, so jax.jit returns it."""

    __slots__ = ("structure", "leaves", "code", "errors")

    def __init__(self, structure, leaves, code=None, errors=()):
        self.structure, self.leaves, self.code, self.errors = structure, leaves, code, errors


def _flatten_outputs(o):
    leaves = o.leaves if o.code is None else [*o.leaves, o.code]
    return leaves, (o.structure, o.errors, o.code is not None)


def _unflatten_outputs(static, leaves):
    structure, errors, checked = static
    leaves = list(leaves)
    return _Outputs(structure, leaves[:-1], leaves[-1], errors) if checked else \
        _Outputs(structure, leaves)


jax.tree_util.register_pytree_node(_Outputs, _flatten_outputs, _unflatten_outputs)


def _x64():
    """JAX's 64-bit mode for the call, unless it is on already (no cost then)."""
    return _NO_CHANGE if jax.config.jax_enable_x64 else jax.enable_x64(True)


class _NoChange:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


_NO_CHANGE = _NoChange()


# ------------------------------------- issue 25's new primitives (kept apart)
# jax.scipy.special has no y0, y1 or yn, and its bessel_jn runs a fixed 50-step
# recurrence that loses digits for large x (and gives J only): both Bessel
# primitives lower to rune's own algorithm, written once for numpy and
# jax.numpy alike (rune/primitives/bessel.py), so the backends agree.

from ..primitives import bessel as _bessel  # noqa: E402


def _bessel_lowering(values):
    def lowering(x, n):
        return values(jnp.asarray(x, dtype=jnp.result_type(x, float)).astype(jnp.float64),
                      n, jnp)
    return lowering


LOWERINGS.update({
    "bessel_jn": _bessel_lowering(_bessel.jn_values),
    "bessel_yn": _bessel_lowering(_bessel.yn_values),
})
UNSUPPORTED.update({
    name: "jax.scipy.special has no modified Bessel function of real order, and rune's "
          "series runs per element until its terms fall below eps (up to thousands of "
          "terms for large x), a loop XLA cannot bound in advance"
    for name in ("iv", "ive")})
UNSUPPORTED["sqrtm"] = (
    "the numpy backend raises for a real matrix whose principal root is complex (a negative "
    "real eigenvalue) and keeps the input's dtype, where jax.scipy.linalg.sqrtm always returns "
    "complex and a compiled program cannot raise on the values")
