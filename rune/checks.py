"""`rune.check_grads`: compare derivatives with central differences."""

from __future__ import annotations

import numpy as np

from . import ptree
from .arguments import flatten_tensors
from .forward import jvp
from .nx.tensor import Tensor
from .reverse import vjp


class GradientCheckError(AssertionError):
    """A derivative disagrees with central differences (see `rune.check_grads`).

    An AssertionError, so a failed check fails a test like an assert does.

    >>> import rune
    >>> from rune import nx
    >>> wrong = lambda x: nx.sum(rune.detach(x) * x)  # x * x with half its derivative
    >>> try:
    ...     rune.check_grads(wrong, (nx.array([1.0, 2.0]),), modes=("rev",))
    ... except rune.GradientCheckError as error:
    ...     print(str(error).split(":")[1])
     rev mode, order 1, argument 0
    """


GradientCheckError.__module__ = "rune"  # rune.GradientCheckError, as users import it

# Step and tolerance by the precision of the inputs: a central difference
# errs by O(eps^2) from truncation and by O(precision / eps) from rounding.
# float32's tolerance is JAX's (2e-3): tight enough to catch a rule a few
# percent wrong, with rounding (about 1e-7 / eps = 1e-4) well inside it.
_DEFAULTS = {  # itemsize of a real component -> (eps, atol, rtol)
    4: (1e-3, 2e-3, 2e-3),  # float32 / complex64
    8: (1e-4, 1e-5, 1e-5),  # float64 / complex128
}


def check_grads(f, args, order=1, modes=("fwd", "rev"), eps=None, atol=None, rtol=None):
    """Check f's derivatives against central differences; None if they agree.

    For each argument in turn, and each mode, the derivative along a fixed
    pseudo-random direction (forward mode, `rune.jvp`) or the inner product
    of a pullback with it (reverse mode, `rune.vjp`) is compared with
    (f(x + eps v) - f(x - eps v)) / (2 eps). With order=2 the derivative
    functions are checked the same way, and so on.

    Args:
      f: a function of tensors.
      args: a tuple of f's positional arguments (float or complex leaves are
        perturbed; integer leaves are left alone).
      order: how many times to differentiate (1 or more).
      modes: any of "fwd" and "rev".
      eps, atol, rtol: step and tolerances; defaults by dtype (float64:
        1e-4, 1e-5, 1e-5; float32: 1e-3, 2e-3, 2e-3).

    Raises:
      GradientCheckError: (an AssertionError) naming the argument, the mode
        and the order that disagree, with both numbers.
      ValueError: an unknown mode or an order below 1.
      TypeError: args not a tuple, or no float or complex leaf in it (nothing
        to check).

    >>> import rune
    >>> from rune import nx
    >>> rune.check_grads(lambda x: nx.sum(nx.exp(x)), (nx.array([1.0, 2.0]),), order=2)
    """
    if not isinstance(args, (tuple, list)):
        raise TypeError(f"check_grads: args must be a tuple of f's arguments, got "
                        f"{type(args).__name__} (write (x,) for one argument)")
    for mode in modes:
        if mode not in ("fwd", "rev"):
            raise ValueError(f"check_grads: unknown mode {mode!r}; expected 'fwd' or 'rev'")
    if order < 1:
        raise ValueError(f"check_grads: order must be 1 or more, got {order}")
    leaves, structure = flatten_tensors(tuple(args), "args", "check_grads")
    args = ptree.unflatten(structure, leaves)
    if not any(_inexact(leaf) for leaf in leaves):
        got = ", ".join(sorted({str(leaf.dtype) for leaf in leaves})) or "no leaves"
        raise TypeError(f"check_grads: no argument has a float or complex leaf, so there is "
                        f"nothing to check (got {got}); pass float inputs")
    itemsize = min(leaf.dtype.itemsize // (2 if leaf.dtype.kind == "c" else 1)
                   for leaf in leaves if _inexact(leaf))
    d_eps, d_atol, d_rtol = _DEFAULTS[8 if itemsize >= 8 else 4]
    tol = (eps or d_eps, d_atol if atol is None else atol, d_rtol if rtol is None else rtol)
    rng = np.random.default_rng(0)
    _check(f, args, order, tuple(modes), tol, rng, 1)


def _check(f, args, order, modes, tol, rng, level):
    for position in range(len(args)):
        direction = _direction(args, position, rng)
        if direction is None:
            continue  # nothing to perturb in this argument
        if "fwd" in modes:
            _check_fwd(f, args, direction, position, tol, level)
        if "rev" in modes:
            _check_rev(f, args, direction, position, tol, rng, level)
    if order > 1:
        for mode in modes:
            derivative = _derivative_function(f, args, mode, rng)
            _check(derivative, args, order - 1, (mode,), tol, rng, level + 1)


def _random_like(x, rng):
    shape, dtype = x.shape, x.dtype
    value = rng.standard_normal(shape)
    if dtype.kind == "c":
        value = value + 1j * rng.standard_normal(shape)
    return Tensor(np.asarray(value, dtype))


def _zero_like(x):
    return Tensor(np.zeros(x.shape, x.dtype))


def _direction(args, position, rng):
    """A random direction in argument `position` (zero elsewhere), or None."""
    if not any(_inexact(leaf) for leaf in ptree.leaves(args[position])):
        return None
    def pick(leaf, moves):
        return _random_like(leaf, rng) if moves and _inexact(leaf) else _zero_like(leaf)

    return tuple(ptree.map(lambda leaf, i=i: pick(leaf, i == position), arg)
                 for i, arg in enumerate(args))


def _shift(args, direction, step):
    return ptree.map(lambda a, d: a + step * d if d.dtype.kind in "fc" else a, args, direction)


def _central_difference(f, args, direction, eps):
    plus = f(*_shift(args, direction, eps))
    minus = f(*_shift(args, direction, -eps))
    return ptree.map(lambda p, m: (p - m) / (2 * eps), plus, minus)


def _inner(xs, ys) -> float:
    """Re sum(x * y) over all leaves: the pairing under which vjp transposes jvp."""
    total = 0.0
    for x, y in zip(ptree.leaves(xs), ptree.leaves(ys)):
        total += float(np.real(np.sum(np.asarray(x) * np.asarray(y))))
    return total


def _check_fwd(f, args, direction, position, tol, level):
    eps, atol, rtol = tol
    _, tangent = jvp(f, args, direction)
    numeric = _central_difference(f, args, direction, eps)
    for t, n in zip(ptree.leaves(tangent), ptree.leaves(numeric)):
        t, n = np.asarray(t), np.asarray(n)
        if not np.allclose(t, n, atol=atol, rtol=rtol, equal_nan=True):
            # Python ints, so the message reads (0,) and not (np.int64(0),).
            worst = tuple(int(i) for i in np.unravel_index(np.argmax(np.abs(t - n)), t.shape))
            _fail("fwd", level, position,
                  f"the jvp gives {t[worst].item()!r}, central differences give "
                  f"{n[worst].item()!r}"
                  + (f" (at output index {worst})" if worst else ""), tol)


def _check_rev(f, args, direction, position, tol, rng, level):
    eps, atol, rtol = tol
    out, pullback = vjp(f, *args)
    cotangent = ptree.map(lambda o: _random_like(o, rng), out)
    by_pullback = _inner(pullback(cotangent), direction)
    by_differences = _inner(cotangent, _central_difference(f, args, direction, eps))
    if not np.isclose(by_pullback, by_differences, atol=atol, rtol=rtol):
        _fail("rev", level, position,
              f"<pullback(u), v> = {by_pullback!r}, central differences give "
              f"<u, dv f> = {by_differences!r}", tol)


def _fail(mode, level, position, detail, tol):
    raise GradientCheckError(
        f"check_grads: {mode} mode, order {level}, argument {position}: {detail} "
        f"(eps={tol[0]}, atol={tol[1]}, rtol={tol[2]})"
    )


def _derivative_function(f, args, mode, rng):
    """f's derivative along fixed random directions, as a function of args."""
    direction = ptree.map(lambda a: _random_like(a, rng) if _inexact(a) else _zero_like(a),
                          args)
    if mode == "fwd":
        return lambda *xs: jvp(f, xs, direction)[1]
    out = f(*args)
    cotangent = ptree.map(lambda o: _random_like(o, rng), out)
    return lambda *xs: vjp(f, *xs)[1](cotangent)


def _inexact(a):
    return a.dtype.kind in "fc"
