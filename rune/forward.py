"""Forward mode: carry a tangent beside each value (`rune.jvp`).

A JVPTracer pairs a primal (a value of the level below) with a tangent of the
same shape and dtype. Applying a primitive to JVPTracers applies it to the
primals and its jvp rules to the tangents. A tangent of `None` is a symbolic
zero: the value does not depend on this level's inputs, and no rule runs for it.
"""

from __future__ import annotations

from . import ptree
from .arguments import FlatFunction, check_like, check_structure, flatten_tensors
from .core import Scaled, Trace, TracedValueError, Tracer, new_trace, split_by_trace
from .primitives.elementwise import add, multiply, negative
from .primitives.shape import broadcast_like, zeros_like


def apply_jvp(prim, primals, tangents, params, ops):
    """The primitive's output and output tangent (None if zero).

    `ops` does the tangent arithmetic the rules leave to the interpreter:
    `ops.scale(t, factor, ans)` for a Scaled rule and `ops.add(a, b)` to sum
    the arguments' parts. Forward mode computes them (`VALUE_OPS`); reverse
    mode records each as one equation (`reverse.Record`).
    """
    if prim.jvp is not None:
        return prim.jvp(primals, tangents, **params)
    ans = prim.call(*primals, **params)
    if prim.zero_derivative:
        return ans, None
    rules = prim.jvp_rules
    if rules is None:
        raise NotImplementedError(_no_rule_message(prim))
    out = None
    for i, t in enumerate(tangents):
        if t is None:
            continue
        rule = rules[i]
        if type(rule) is Scaled:
            part = ops.scale(t, rule.factor(ans, *primals, **params), ans)
        elif rule is None:
            raise NotImplementedError(_no_rule_message(prim))
        else:
            part = rule(t, ans, *primals, **params)
            if part is None:  # the rule says this argument does not move the output
                continue
        out = part if out is None else ops.add(out, part)
    # With several arguments, one argument's part may still have its own
    # shape where the others broadcast it: give the tangent the output's shape.
    if len(primals) > 1 and out is not None and out.shape != ans.shape:
        out = broadcast_like(out, ans)
    return ans, out


def _no_rule_message(prim):
    return (
        f"rune has no derivative rule for {prim.name}: it cannot be differentiated. "
        f"If the derivative through it should be zero, wrap its input in rune.detach(...)"
    )


class DifferentiationTracer(Tracer):
    """A value under a differentiation: a primal of the level below, and its tangent.

    Forward mode's tangent is a value (JVPTracer); reverse mode's is a Var of
    the record (reverse.LinearizeTracer). Both answer shape, dtype and reads
    from the primal.
    """

    __slots__ = ("primal", "tangent")

    def __init__(self, trace, primal, tangent):
        self._trace = trace
        self.primal = primal
        self.tangent = tangent

    @property
    def shape(self):
        return self.primal.shape

    @property
    def dtype(self):
        return self.primal.dtype

    def _concrete(self, read, lossless=False):
        return concrete_primal(self, read, lossless)


class JVPTracer(DifferentiationTracer):
    __slots__ = ()


def concrete_primal(tracer, read, lossless):
    """Differentiation tracers hold a real value underneath: reads that keep
    the derivative exact (bool, int: piecewise constant) may see it; reads that
    would drop it (float, item, numpy) raise, pointing to rune.detach."""
    if lossless:
        return tracer.primal._concrete(read, lossless)
    raise TracedValueError(
        f"{read}: the value is traced by {tracer._trace.transform}, and reading it as "
        f"a number would drop its derivative; read rune.detach(x) to mean that"
    )


# How many values of the level below a JVPTrace keeps for reuse (`recall`):
# few, so that memory stays flat; the reuse it serves comes right after.
_RECENT = 4


class JVPTrace(Trace):
    kind = "jvp"

    def __init__(self, level, transform="rune.jvp"):
        super().__init__(level)
        self.transform = transform
        self.recent: dict = {}  # (primitive, id(value)) -> (value, result): see `recall`

    def process(self, prim, args, params):
        if len(args) == 1:  # then it is our tracer: this trace is the top one
            x = args[0]
            rule = prim.jvp_rules[0] if prim.jvp_rules else None
            if type(rule) is Scaled and rule.same_as is not None:
                return self.pair(prim, rule.same_as, x)
            ans, tangent = apply_jvp(prim, (x.primal,), (x.tangent,), params, VALUE_OPS)
            return ans if tangent is None else JVPTracer(self, ans, tangent)
        # split_by_trace, inlined: this is every binary operation under jvp and
        # a Hessian's hot path (the call costs ~0.3 us of a ~12 us multiply).
        primals = []
        tangents = []
        for a in args:
            if type(a) is JVPTracer and a._trace is self:
                primals.append(a.primal)
                tangents.append(a.tangent)
            else:
                primals.append(a)
                tangents.append(None)
        ans, tangent = apply_jvp(prim, primals, tangents, params, VALUE_OPS)
        if tangent is None:
            return ans
        return JVPTracer(self, ans, tangent)

    def pair(self, prim, same_as, x):
        """sin x with tangent t * cos x (cos, sinh, cosh alike), reusing sin x
        and cos x if this trace has just computed them. Under grad, the record
        asks for sin x, then for its factor cos x, whose tangent needs sin x:
        without reuse, forward over reverse computes sin and cos twice each."""
        other, negated = same_as
        ans = self.recall(prim, x.primal)
        factor = self.recall(other, x.primal)
        return JVPTracer(self, ans, multiply(x.tangent, negative(factor) if negated else factor))

    def recall(self, prim, value):
        """prim(value) for a unary primitive, computed or remembered (the last
        few are: the entry holds the value, so its id names no other)."""
        key = (prim, id(value))
        known = self.recent.get(key)
        if known is not None and known[0] is value:
            return known[1]
        result = prim.call(value)
        if len(self.recent) >= _RECENT:
            del self.recent[next(iter(self.recent))]
        self.recent[key] = (value, result)
        return result


class _ValueOps:
    """Tangent arithmetic on values: what forward mode does with the rules."""

    @staticmethod
    def scale(t, factor, ans):
        return multiply(t, factor)

    add = staticmethod(add)


VALUE_OPS = _ValueOps()


def jvp_flat(f, primals, tangents, transform="rune.jvp"):
    """f(*primals) and its tangent along `tangents` (lists of leaves; None = zero)."""
    with new_trace(JVPTrace, transform) as trace:
        tracers = [p if t is None else JVPTracer(trace, p, t) for p, t in zip(primals, tangents)]
        return split_by_trace(trace, f(*tracers))


def jvp(f, primals, tangents, has_aux=False):
    """Forward mode: f's value at `primals` and its derivative along `tangents`.

    Args:
      f: a function of tensors (or structures of tensors).
      primals: a tuple (or list) of f's positional arguments.
      tangents: a tuple of the same structure, each leaf of its primal's shape
        and dtype: the direction to differentiate along.
      has_aux: f returns a pair (output, aux); aux is returned undifferentiated.

    Returns:
      `(out, out_tangent)`, or `(out, out_tangent, aux)` with has_aux.

    Raises:
      TypeError: primals or tangents not a tuple, a leaf not a tensor, a
        tangent of another dtype.
      ValueError: tangents of another structure or a leaf of another shape
        (the message names the leaf).

    >>> import rune
    >>> from rune import nx
    >>> out, tangent = rune.jvp(nx.sin, (nx.array(0.0),), (nx.array(1.0),))
    >>> print(out); print(tangent)
    float64 [] 0
    float64 [] 1
    """
    primal_leaves, structure, tangent_leaves = _primals_and_tangents(primals, tangents, "rune.jvp")
    flat_f = FlatFunction(f, structure, "rune.jvp", has_aux)
    out_primals, out_tangents = jvp_flat(flat_f, primal_leaves, tangent_leaves)
    num_out = flat_f.num_out  # the output's leaves; aux's follow, anything, no tangent
    out_tangents = [zeros_like(p) if t is None else t
                    for p, t in zip(out_primals[:num_out], out_tangents)]
    out, aux = flat_f.split(out_primals)
    tangent_out = ptree.unflatten(flat_f.out_structure, out_tangents)
    return (out, tangent_out, aux) if has_aux else (out, tangent_out)


def _primals_and_tangents(primals, tangents, transform):
    """Flatten and check jvp-style arguments; integer primals get no tangent."""
    for name, value in (("primals", primals), ("tangents", tangents)):
        if not isinstance(value, (tuple, list)):
            raise TypeError(
                f"{transform}: {name} must be a tuple of f's positional arguments, "
                f"got {type(value).__name__} (write ({name[:-1]},) for one argument)"
            )
    primal_leaves, structure = flatten_tensors(tuple(primals), "primals", transform)
    tangent_leaves, tangent_structure = flatten_tensors(tuple(tangents), "tangents", transform)
    check_structure(tangent_structure, structure, f"{transform}: tangents")
    names = ptree.paths(structure, "tangents")
    checked = []
    for p, t, name in zip(primal_leaves, tangent_leaves, names):
        t = check_like(t, p, f"{transform}: {name}", "tangent")
        checked.append(t if p.dtype.kind in "fc" else None)
    return primal_leaves, structure, checked
