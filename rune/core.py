"""The engine's core: primitives, `bind`, the stack of active transformations.

Every operation in `rune.nx` ends in `Primitive.bind`. With no transformation
active, `bind` calls the primitive's numpy `impl` and wraps the result (the
eager fast path). Otherwise it hands the primitive to the innermost
transformation among its arguments, which applies the matching rule: a jvp
rule for forward mode and the record, an abstract rule for jit, a batching
rule for vmap.

Each transformation instance is a `Trace` with its own level (its depth in
the stack of the thread that made it: each thread has its own stack). A
`Tracer` belongs to exactly one trace; arguments of lower levels are
constants to it. That is what keeps nested derivatives apart: in
d/dx [x * d/dy (x + y)], the inner derivative sees `x` as a constant.
"""

from __future__ import annotations

import threading

import numpy as np

# A cycle, on purpose: the rune.nx package imports the primitives, which import
# this module; rune/nx/tensor.py, imported here, imports nothing of rune.
from .nx.tensor import Tensor, TracedValueError

__all__ = [
    "Primitive", "binder", "Scaled", "Trace", "Tracer", "TracedValueError", "new_trace", "Tensor",
    "active_traces", "split_by_trace",
]


class Primitive:
    """An operation with rules: the only thing the transformations know.

    A family of primitives (in rune/primitives/) makes each one from its
    numpy implementation, then sets the rules below;
    [`binder`][rune.core.binder] makes the function users call.

    Args:
      name: the name that graphs and error messages show.
      impl: the numpy computation, `impl(*values, **params)`. Its arguments
        are numpy arrays, numpy scalars or Python numbers (a constant stays
        as given). It returns an array, or a numpy scalar where numpy gives
        one for a 0-d result (ufuncs do): eager `bind` stores the result
        unconverted, to stay short, so a Tensor's value may be either.
      abstract_eval: `abstract_eval(*avals, **params) -> (shape, dtype)`, the
        result's shape and dtype from the arguments', for jit and the record.

    Attributes:
      jvp_rules: one rule per argument, `rule(t, ans, *args, **params)`,
        giving that argument's contribution to the output tangent (JVPs are
        linear in the tangents, so contributions add). `None` means no rule:
        raise. A `Scaled(factor)` rule says the contribution is
        `t * factor(ans, *args)`.
      jvp: a whole rule, `jvp(primals, tangents, **params) -> (out, tangent)`,
        for the primitives whose derivative is not a sum of per-argument parts.
      transpose_rules: for linear primitives, one rule per argument,
        `rule(ct, *args, **params)`, with the linear arguments given as record
        variables (which carry shape and dtype but no value).
      batch: the vmap rule, `batch(values, dims, **params) -> (out, out_dim)`.
      zero_derivative: the output does not move with the inputs (floor,
        sign...).
      multilinear: linear in each argument only while the others stay fixed
        (multiply, matmul): the record accepts one tangent argument at a time.

    A running sum, with its value, shape rule and jvp rule (the page "Adding
    a primitive" gives it its transpose and batching rules too):

    >>> import numpy as np
    >>> import rune
    >>> from rune import nx
    >>> from rune.core import Primitive, binder
    >>> running_sum_p = Primitive("running_sum", lambda x: np.cumsum(x, axis=-1),
    ...                           lambda x: (tuple(x.shape), x.dtype))
    >>> running_sum = binder(running_sum_p)
    >>> running_sum_p.jvp_rules = (lambda t, ans, x: running_sum(t),)
    >>> x = nx.array([1.0, 2.0, 3.0])
    >>> print(running_sum(x))
    float64 [3] [1, 3, 6]
    >>> print(rune.jvp(running_sum, (x,), (nx.ones(3),))[1])
    float64 [3] [1, 2, 3]
    """

    __slots__ = (
        "name", "impl", "abstract_eval", "jvp_rules", "jvp", "transpose_rules",
        "batch", "zero_derivative", "multilinear", "call", "__weakref__",
    )

    def __init__(self, name, impl, abstract_eval=None):
        self.name = name
        self.impl = impl
        self.abstract_eval = abstract_eval
        self.jvp_rules = None
        self.jvp = None
        self.transpose_rules = None
        self.batch = None
        self.zero_derivative = False
        self.multilinear = False
        self.call = self.bind  # replaced by the faster function that `binder` makes

    def __repr__(self):
        return self.name

    def bind(self, *args, **params):
        """Apply the primitive to values or tracers (see the module docstring)."""
        trace = None
        for arg in args:
            if isinstance(arg, Tracer):
                arg_trace = arg._trace
                if trace is None or arg_trace.level > trace.level:
                    trace = arg_trace
        if trace is None:
            out = _new_tensor(Tensor)
            try:
                out._value = self.impl(*[a._value if type(a) is Tensor else a for a in args],
                                       **params)
            except TypeError as error:  # numpy's message names no argument
                _name_the_argument(self, args, error)
                raise
            return out
        if not trace.active:
            raise _leaked(trace)
        return trace.process(self, args, params)


_new_tensor = object.__new__


def _name_the_argument(prim, args, error):
    """Raise a TypeError naming the argument that is not a tensor or a number
    (None, a string...), if there is one, from numpy's `error`."""
    for i, arg in enumerate(args):
        if isinstance(arg, Tensor):
            continue
        try:
            kind = np.asarray(arg).dtype.kind
        except Exception:  # noqa: BLE001  (anything numpy cannot read is not a number)
            kind = "O"
        if kind not in "biufc":
            raise TypeError(
                f"{prim.name}: argument {i} is a {type(arg).__name__}; expected a tensor, "
                f"a numpy array or a number"
            ) from error
_SCALARS = (int, float, complex, bool)
_NO_PARAMS: dict = {}  # shared, never mutated


def binder(prim, arity=None):
    """The function users and rules call to apply `prim`: `sin(x)`.

    `arity` 1 or 2 says that `prim` takes exactly that many arguments and no
    parameters: the function then has the eager case written out, because
    that case is most of the calls (values go straight to numpy). Any other
    primitive (None, the default) gets a function that calls `prim.bind`. It
    carries its primitive as `.primitive` and becomes `prim.call`.
    """
    impl, bind = prim.impl, prim.bind
    if arity == 1:
        def call(x):
            if type(x) is Tensor:
                out = _new_tensor(Tensor)
                out._value = impl(x._value)
                return out
            if isinstance(x, Tracer) and x._trace.active:  # one argument: its trace is the top
                return x._trace.process(prim, (x,), _NO_PARAMS)
            return bind(x)
    elif arity == 2:
        def call(x, y):
            tx, ty = type(x), type(y)
            if (tx is Tensor or tx in _SCALARS) and (ty is Tensor or ty in _SCALARS):
                out = _new_tensor(Tensor)
                out._value = impl(x._value if tx is Tensor else x, y._value if ty is Tensor else y)
                return out
            return bind(x, y)
    else:
        def call(*args, **params):
            return bind(*args, **params)
    call.primitive = prim
    call.__name__ = call.__qualname__ = prim.name
    prim.call = call
    return call


class Scaled:
    """A jvp rule of the form `t * factor(ans, *args)`: the elementwise common case.

    Stated as data rather than as a function of t so that reverse mode can
    record it as one multiplication without running a rule on a tangent.

    `same_as`: where the factor is another unary primitive of the argument
    (sin's is cos x; cos's is -sin x), the pair (that primitive, whether the
    factor is its negation), so that forward mode can reuse the values it
    has just computed (rune/forward.py); None otherwise.
    """

    __slots__ = ("factor", "same_as")

    def __init__(self, factor, same_as=None):
        self.factor = factor
        self.same_as = same_as

    def __call__(self, t, ans, *args, **params):
        return t * self.factor(ans, *args, **params)


def _leaked(trace):
    return RuntimeError(
        f"a value traced by {trace.transform} escaped it: it was used after the "
        f"transformation returned (return it from the function instead of storing it)"
    )


class Trace:
    """One active transformation; its tracers know it, and it knows its level."""

    transform = "rune"  # the public name, for messages: "rune.jit"
    # What kind of transformation it is, the key of a call primitive's rule
    # table (rune/calls): "jvp", "linearize", "batch", "graph" or "record".
    kind = "trace"

    def __init__(self, level):
        self.level = level
        self.active = True

    def process(self, prim, args, params):
        raise NotImplementedError


def split_by_trace(trace, args, first="primal", second="tangent"):
    """The arguments cut in two lists at `trace`'s level: a tracer of `trace`
    gives its `first` and `second` fields (primal and tangent; value and batch
    axis), anything else (a constant at this level) gives itself and None."""
    firsts, seconds = [], []
    for a in args:
        if isinstance(a, Tracer) and a._trace is trace:
            firsts.append(getattr(a, first))
            seconds.append(getattr(a, second))
        else:
            firsts.append(a)
            seconds.append(None)
    return firsts, seconds


class Tracer(Tensor):
    """A value seen by a transformation: shape and dtype, and maybe no data.

    Tracers subclass Tensor so that user code (operators, methods, `nx`
    functions) works on them unchanged. Reading the data of a tracer
    (`item`, `float`, `numpy()`...) goes through `_concrete`, which each kind
    of tracer answers: forward/reverse tracers hold a real primal underneath,
    jit and vmap tracers do not and raise TracedValueError.
    """

    __slots__ = ("_trace",)

    def _concrete(self, read, lossless=False):
        raise TracedValueError(f"{read}: the value is traced by {self._trace.transform}")


class _ThreadState(threading.local):
    """What transformations are active, per thread: two threads differentiating
    at once each see their own stack (as in JAX). The eager fast path never
    reads it; only entering and leaving a transformation does."""

    def __init__(self):
        self.stack: list[Trace] = []


_state = _ThreadState()


def active_traces() -> list[Trace]:
    """The transformations active in this thread, outermost first (do not mutate)."""
    return _state.stack


class new_trace:
    """`with new_trace(JVPTrace) as trace:` pushes a transformation for the block."""

    __slots__ = ("trace", "stack")

    def __init__(self, trace_type, *args):
        self.stack = _state.stack
        self.trace = trace_type(len(self.stack), *args)

    def __enter__(self):
        self.stack.append(self.trace)
        return self.trace

    def __exit__(self, *exc):
        self.trace.active = False
        self.stack.pop()  # this thread's stack: the top is this trace
