"""`rune.jit`: trace a function once per kind of argument, replay it as numpy code.

Tracing runs f on `Var`s (a shape and a dtype, no values) under a
`JitTrace`, which records each primitive applied as an equation of a
`Graph` (see rune/graph.py). Values f captures from its closure become
constants of the graph. The graph is then compiled (rune/lower/replay.py) to a
Python function of numpy arrays, one line per equation calling the
primitive's numpy `impl`:

    def f(a, b):
        c = multiply(a, b)
        d = sin(c); del c
        return (d,)

Calling the jitted function looks the graph up by the arguments' structure,
shapes, dtypes and static values, runs the compiled code on the arguments'
arrays and wraps only the outputs in tensors: no `bind`, no dispatch, no
tensors in between. Equations no output needs are dropped, and each
intermediate array is released after its last use.

Composition: called with tracers of an enclosing transformation (grad, jvp,
vmap, another jit's trace), the jitted function evaluates its graph on them
primitive by primitive (`Graph.evaluate`), so that transformation sees
ordinary primitives. `jit(grad(f))` traces the linearization and the
backward pass together: both are equations of one compiled graph.

Python numbers among the arguments are traced too (the graph is reused for
every value), and keep numpy's weak typing: `x32 * 2.0` stays float32, as
in eager code. Branching on one (`if lr > 0`) raises; make it static.
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections import OrderedDict

import numpy as np

from . import ptree
from .arguments import flatten_tensors
from .core import Tracer, new_trace
from .graph import Graph, GraphTrace, WeakVar
from . import lower
from .lower import fused
from .lower.replay import compile_graph
from .nx.tensor import Tensor

__all__ = ["jit", "make_graph", "compile_graph", "CACHE_SIZE"]

# How many traces one jitted function keeps (least recently used go first).
CACHE_SIZE = 64

_WEAK_TYPES = frozenset((bool, int, float, complex))
_new = object.__new__


class JitTrace(GraphTrace):
    """The trace of `rune.jit` and `rune.make_graph`: a GraphTrace whose
    inputs may be Python numbers, and whose reads say how to avoid them."""

    read_hint = (", which knows its shape and dtype but not its value (to branch on an "
                 "argument, make it static with static_argnums; to choose between values, "
                 "use nx.where)")

    def __init__(self, level, transform="rune.jit", read_hint=None, has_weak=False):
        super().__init__(level, transform, read_hint)
        self.has_weak = has_weak  # whether a WeakVar may be among the arguments

    def new_weak(self, python_type) -> WeakVar:
        var = _new(WeakVar)
        var._trace = self
        var.shape = ()
        var.dtype = np.dtype(python_type)
        var.index = self.num_vars
        var.python_type = python_type
        self.num_vars += 1
        self.has_weak = True
        return var

    def process(self, prim, args, params):
        if self.has_weak and any(type(a) is WeakVar for a in args):
            # The abstract rule sees a Python number where the compiled code
            # will get one, so it promotes the way numpy will.
            args = self.captured_values(args)
            samples = [a.python_type(1) if type(a) is WeakVar else a for a in args]
            try:
                out = super().process(prim, samples, params)
            except AttributeError:  # a shape rule (reshape...) reads .dtype: give it the Var
                out = super().process(prim, args, params)
            if out.shape == () and all(type(a) is WeakVar or type(a) in _WEAK_TYPES
                                       for a in args):
                out = _weakened(out)  # Python numbers alone make a Python number (JAX's rule)
            self.equations[-1] = (prim, args, params, out)
            return out
        return super().process(prim, args, params)


_PYTHON_TYPES = {"b": bool, "i": int, "u": int, "f": float, "c": complex}


def _weakened(var) -> WeakVar:
    """The 0-d Var `var` as a WeakVar: a Python number of its kind, which the
    compiled code and `Graph.evaluate` keep as one (so `lr * 0.5` does not
    make `w32 - lr * 0.5 * g` float64)."""
    weak = _new(WeakVar)
    weak._trace, weak.shape, weak.dtype, weak.index = var._trace, (), var.dtype, var.index
    weak.python_type = _PYTHON_TYPES.get(var.dtype.kind, float)
    return weak


class _Entry:
    """One trace of the function: its graph, and the compiled code once needed."""

    __slots__ = ("graph", "live", "out_structure", "cacheable", "run", "source")

    def __init__(self, graph, out_structure, cacheable):
        self.graph = graph
        self.live = graph.pruned()  # what runs: equations some output needs
        self.out_structure = out_structure
        self.cacheable = cacheable  # False if it captured values of an enclosing trace
        self.run = None
        self.source = None

    def compile(self, name, fuse=False):
        self.run, self.source = compile_graph(self.graph, name, fuse)
        return self.run


class Jitted:
    """A function compiled by `rune.jit`; call it as the function itself.

    `source(*args)` is the Python code it runs for such arguments, and
    `cache_clear()` forgets every trace.
    """

    array_types: tuple = ()  # arrays of a backend (rune/lower/) taken without conversion

    def __init__(self, f, static_argnums=(), transform="rune.jit", fuse=None):
        if not callable(f):
            raise TypeError(f"{transform}: expected a function, got {type(f).__name__}")
        functools.update_wrapper(self, f)
        self.f = f
        self.transform = transform
        self.fuse = fused.resolve(fuse, transform)
        self.static_argnums, self._num_params = _check_static_argnums(f, static_argnums,
                                                                      transform)
        self._cache: OrderedDict = OrderedDict()
        # Threads share the cache: a lookup and its move to the recent end, or
        # an insertion and an eviction, happen together. Tracing runs unlocked
        # (two threads may trace the same kind of arguments; both traces are right).
        self._lock = threading.Lock()

    def __call__(self, *args, **kwargs):
        entry, leaves, values = self._entry(args, kwargs)
        if values is None or not entry.cacheable:
            outs = [o if isinstance(o, Tensor) else Tensor(o)
                    for o in entry.live.evaluate(*leaves)]
        else:
            run = entry.run or entry.compile(function_name(self), self.fuse)
            outs = [result_tensor(v) for v in run(*values)]
        structure = entry.out_structure
        return outs[0] if structure.kind is None else ptree.unflatten(structure, outs)

    def __get__(self, obj, objtype=None):
        # As a method, like a function: the instance is the first argument
        # (static if it is to be passed as it is: static_argnums=0).
        return self if obj is None else functools.partial(self, obj)

    def source(self, *args, **kwargs) -> str:
        """The Python source of the code that runs for these arguments."""
        entry = self._entry(args, kwargs)[0]
        if entry.source is None:
            entry.compile(function_name(self), self.fuse)
        return entry.source

    def cache_clear(self):
        """Forget every trace (the next call traces again)."""
        with self._lock:
            self._cache.clear()

    def _entry(self, args, kwargs):
        """(entry, leaves, values): the trace for these arguments (made if
        needed), the argument leaves, and their numpy values (None if some
        leaf is a tracer of an enclosing transformation)."""
        statics = nums = ()
        if self.static_argnums:
            args, statics, nums = self._split_static(args)
        key = None
        if not kwargs:  # the common call, positional tensors: no need to flatten
            leaves, values, avals = [], [], []
            for a in args:
                if type(a) is Tensor:
                    value = a._value
                    leaves.append(a)
                    values.append(value)
                    avals.append((value.shape, value.dtype))
                elif a is None:  # a static argument's place
                    avals.append(None)
                elif isinstance(a, self.array_types):  # a backend's arrays (rune/lower/)
                    leaves.append(a)
                    values.append(a)
                    avals.append((a.shape, a.dtype))
                else:
                    break
            else:
                key = (None, tuple(avals), statics)  # apart from keys with a structure
        if key is None:
            leaves, structure, avals, values = self._leaves(args, kwargs)
            key = (structure, tuple(avals), statics)
        cache = self._cache
        with self._lock:
            try:
                entry = cache.get(key)
            except TypeError:
                raise _unhashable(statics, nums, self.transform) from None
            if entry is not None:
                cache.move_to_end(key)
        if entry is None:
            _, structure, avals, _ = self._leaves(args, kwargs)
            entry = self._trace(structure, avals, statics, nums)
            if entry.cacheable:
                with self._lock:
                    cache[key] = entry
                    if len(cache) > CACHE_SIZE:
                        cache.popitem(last=False)
        return entry, leaves, values

    def _leaves(self, args, kwargs):
        """(leaves, structure, abstract value of each leaf, numpy values or None).

        A leaf's abstract value is (shape, dtype), or the type of a Python
        number. The values are None if a leaf is a tracer."""
        leaves, structure = ptree.flatten((args, kwargs))
        avals = []
        values = []
        traced = False
        for i, leaf in enumerate(leaves):
            cls = type(leaf)
            if cls is Tensor:
                value = leaf._value
                avals.append((value.shape, value.dtype))
                values.append(value)
            elif cls in _WEAK_TYPES:
                avals.append(cls)
                values.append(leaf)
            elif isinstance(leaf, Tracer):
                avals.append((tuple(leaf.shape), np.dtype(leaf.dtype)))
                traced = True
            elif isinstance(leaf, self.array_types):  # a backend's own arrays, as they are
                avals.append((tuple(leaf.shape), np.dtype(leaf.dtype)))
                values.append(leaf)
            elif isinstance(leaf, (np.ndarray, np.generic)):
                leaves[i] = leaf = Tensor(np.array(leaf))  # a copy: the caller may change it
                avals.append((leaf.shape, leaf.dtype))
                values.append(leaf._value)
            else:
                raise _not_traceable(structure, i, leaf, self.transform)
        return leaves, structure, avals, None if traced else values

    def _split_static(self, args):
        """(args with None at static positions, static values, their positions)."""
        n = len(args)
        nums = []
        for num in self.static_argnums:
            if -n <= num < n:
                nums.append(num % n)
            elif self._num_params is None:
                raise ValueError(
                    f"{self.transform}: static_argnums={num} is out of range for a function "
                    f"called with {n} positional argument{'s' if n != 1 else ''}"
                )
            # else: the argument was not passed and keeps its default value
        # Types too: 1, 1.0 and True are equal as keys but may trace differently.
        statics = tuple([(type(args[i]), args[i]) for i in nums])
        dynamic = tuple(None if i in nums else a for i, a in enumerate(args))
        return dynamic, statics, tuple(nums)

    def _trace(self, structure, avals, statics, nums) -> _Entry:
        with new_trace(JitTrace, self.transform) as trace:
            in_vars = [trace.new_weak(a) if type(a) is type else trace.new_var(*a)
                       for a in avals]
            args, kwargs = ptree.unflatten(structure, in_vars)
            args = list(args)
            for i, (_, value) in zip(nums, statics):
                args[i] = value
            out = self.f(*args, **kwargs)
            out_leaves, out_structure = flatten_tensors(out, f"{self.transform}: the output")
        graph = Graph(in_vars, trace.equations, out_leaves)
        return _Entry(graph, out_structure, not _captures_tracers(graph, trace))


def result_tensor(value):
    """A result of a compiled program (a numpy array) as a Tensor, unchecked."""
    out = _new(Tensor)
    out._value = value
    return out


def _captures_tracers(graph, trace) -> bool:
    """Whether the graph holds values of an enclosing transformation: f
    captured them (a closure over a tracer), so the graph is only valid now."""
    for _, args, _, _ in graph.equations:
        for a in args:
            if isinstance(a, Tracer) and a._trace is not trace:
                return True
    return any(isinstance(o, Tracer) and o._trace is not trace for o in graph.outputs)


def function_name(jitted) -> str:
    """The name a compiled program of `jitted` takes: its function's, if an identifier."""
    name = getattr(jitted.f, "__name__", "")
    return name if name.isidentifier() else "traced"


def _num_positional(f):
    """How many positional parameters f has; None if unknown or unbounded (*args)."""
    try:
        parameters = inspect.signature(f).parameters.values()
    except (TypeError, ValueError):
        return None
    count = 0
    for p in parameters:
        if p.kind is p.VAR_POSITIONAL:
            return None
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            count += 1
    return count


def _check_static_argnums(f, static_argnums, transform):
    """static_argnums as a tuple of ints (non-negative when f's signature is known)."""
    many = isinstance(static_argnums, (tuple, list))
    nums = tuple(static_argnums) if many else (static_argnums,)
    for n in nums:
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(f"{transform}: static_argnums must be ints, got {n!r}")
    num_params = _num_positional(f)
    if num_params is not None:
        for n in nums:
            if not -num_params <= n < num_params:
                raise ValueError(
                    f"{transform}: static_argnums={n} is out of range: the function takes "
                    f"{num_params} positional argument{'s' if num_params != 1 else ''}"
                )
        nums = tuple(n % num_params for n in nums)
    return tuple(sorted(set(nums))), num_params


def _unhashable(statics, nums, transform):
    for i, (_, value) in zip(nums, statics):
        try:
            hash(value)
        except TypeError:
            return TypeError(
                f"{transform}: the static argument at position {i} has unhashable type "
                f"{type(value).__name__}; static arguments key the cache of traces, so they "
                f"must be hashable (pass a tuple instead)"
            )
    return TypeError(f"{transform}: the arguments' structure is not hashable")


def _not_traceable(structure, i, leaf, transform):
    path = ptree.paths(structure)[i]  # "[0][2]..." in the positional arguments, "[1]..." not
    if path[1] == "0":
        position = path[4:path.index("]", 4)]
        where, hint = "args" + path[3:], f"make it static with static_argnums=({position},)"
    else:
        where, hint = "kwargs" + path[3:], "pass it positionally and make it static"
    return TypeError(
        f"{transform}: {where} is a {type(leaf).__name__}, which cannot be traced (only "
        f"tensors, numpy arrays and Python numbers can); {hint}"
    )


# -------------------------------------------------------------------- public


def jit(f, static_argnums=(), fuse=None, backend="numpy", jax_arrays=None):
    """f compiled: traced once per kind of arguments, then replayed as numpy code
    (or, with backend="jax", lowered to JAX and compiled by XLA).

    The first call with arguments of a given structure, shapes and dtypes
    (and given values of the static arguments) runs f on abstract values
    and records the primitives it applies; later such calls run the
    recorded program without Python dispatch per operation. Results equal
    f's. Each jitted function keeps its 64 most recently used traces
    (`CACHE_SIZE` in rune/jit.py).

    Reading a traced value inside f (`item()`, `float()`, `bool()`,
    `numpy()`, or Python `if` on a tensor) raises `rune.TracedValueError`:
    make the argument static, or use `nx.where`. Values that f reads from
    its closure or globals are fixed when it is traced.

    Args:
      f: a function of tensors, numpy arrays and Python numbers, or of
        structures of them (tuples, lists, dicts...), positional or keyword.
        Python numbers are traced like 0-d tensors, one trace for every
        value, but keep numpy's weak promotion (`x32 * lr` stays float32).
        The outputs are tensors (a Python number returned becomes one).
      static_argnums: an int or a tuple of ints, the positional arguments
        that are not traced but passed as they are (any hashable value: a
        flag, a shape, a string). Each new value traces f again.
      fuse: whether runs of elementwise operations run as one numexpr
        kernel each (`make_graph(f, fuse=True)` shows them). None (the
        default) fuses when numexpr is installed (`pip install
        "rune-autodiff[fast]"`); True without numexpr warns in one line and
        replays numpy; False never fuses. Fused or not, the results are the
        same within rounding (docs/jit-and-graphs.md, Fusion, says which
        tests hold them to it).
      backend: "numpy" (the default: the graph replayed as numpy code) or
        "jax": the graph lowered to jax.numpy/jax.lax by rune/lower/jax.py
        and compiled by `jax.jit`, run in JAX's 64-bit mode (needs the
        extra: `pip install "rune-autodiff[jax]"`). Arguments may then be
        JAX arrays too, on any devices and with any sharding.
      jax_arrays: with backend="jax", what the results are. None (the
        default): JAX arrays if an argument is a JAX array (left on their
        devices, with the shardings XLA gave them), else tensors. True:
        always JAX arrays; False: always tensors (numpy arrays, a sharded
        result gathered to the host).

    Returns:
      The jitted function (it has `.source(*args)`, the code it runs).

    Raises:
      ValueError: a static_argnums out of range; an unknown backend;
        jax_arrays=True without backend="jax".
      ImportError: backend="jax" without JAX installed.
      TypeError: jax_arrays not None, True or False; a static argument
        that is not hashable (naming its position), an argument that
        cannot be traced (a string: make it static).

    >>> import rune
    >>> from rune import nx
    >>> f = rune.jit(lambda x: nx.sum(nx.sin(x) * 2.0))
    >>> print(f(nx.array([0.0, 0.5])))
    float64 [] 0.958851077208406
    """
    if jax_arrays is not None and not isinstance(jax_arrays, bool):
        raise TypeError(f"rune.jit: jax_arrays must be None, True or False, got {jax_arrays!r}")
    if backend in lower.BACKENDS:
        return lower.jitted_class(backend)(f, static_argnums, jax_arrays)
    if backend != "numpy":
        names = " or ".join(repr(name) for name in ("numpy", *lower.BACKENDS))
        raise ValueError(f"rune.jit: backend must be {names}, got {backend!r}")
    if jax_arrays:
        raise ValueError('rune.jit: jax_arrays=True needs backend="jax"')
    return Jitted(f, static_argnums, fuse=fuse)


def make_graph(f, static_argnums=(), fuse=False):
    """A function that traces f on its arguments and returns the `Graph`.

    Like `jax.make_jaxpr`: `print(rune.make_graph(f)(*args))` shows the
    program f applies, one equation per line with shapes and dtypes, and
    `.mermaid()` draws it. Only the arguments' structure, shapes and dtypes
    matter, and the static arguments' values.

    Args:
      f: a function of tensors, numpy arrays and Python numbers, or of
        structures of them (as for `rune.jit`).
      static_argnums: an int or a tuple of ints, the positional arguments
        that are not traced but passed as they are.
      fuse: if True, the graph `rune.jit` runs: repeated and unused
        equations dropped, and each group of elementwise equations worth
        fusing shown as one `fused[expr=...]` equation (needs numexpr).

    Raises:
      TypeError: static_argnums not ints. Calling the function: a static
        argument that is not hashable, or an argument that cannot be traced
        (a string: make it static).
      ValueError: calling the function: a static_argnums out of range.
      rune.TracedValueError: calling the function: f reads a traced value
        (`float(x)`, Python `if` on a tensor).

    >>> import rune
    >>> from rune import nx
    >>> print(rune.make_graph(lambda x: nx.sin(x) * 2.0)(nx.array([1.0, 2.0])))
    graph(a: float64[2]):
      b: float64[2] = sin a
      c: float64[2] = multiply b 2
      return c
    """
    tracer = Jitted(f, static_argnums, "rune.make_graph", fuse=fuse)

    def make(*args, **kwargs):
        tracer.cache_clear()
        graph = tracer._entry(args, kwargs)[0].graph
        return fused.fuse(graph.deduplicated().pruned()) if tracer.fuse else graph

    return make
