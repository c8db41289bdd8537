"""The JAX backend raises what the numpy backend raises, not XLA's quiet answers.

numpy raises IndexError for an index out of bounds and LinAlgError for a
singular matrix; XLA clamps the index and returns inf or NaN. rune's
lowerings (rune/lower/jax.py) check what numpy would have raised on:

- while tracing, where the shapes or the graph's constants decide (an
  index array that is a constant, an fft of an empty axis): the call raises
  at once, before XLA compiles;
- inside the program, where only values decide (an index the program
  computes or takes as an argument, a zero pivot of LU, a failed Cholesky
  factorization). Each check adds to the program's failure code, an int64
  pair (which check failed first, the index it found; -1 if none) that the
  compiled program returns beside its outputs. The call reads it and raises
  the numpy backend's error. A program without such checks returns no code
  and pays nothing; one with checks waits for its result (one scalar read).

Control flow threads the code out of its bodies (rune/lower/jax.py): a
branch returns it, a loop carries it, and a while loop stops at the first
failure. Under an enclosing JAX transformation (`jax.jit` of a jitted
function) the code is a tracer: the failure becomes a `checkify.check`, which
JAX raises once the caller wraps its function in `checkify.checkify`.
"""

from __future__ import annotations

import contextlib
import math
import threading

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import checkify

from ..graph import Graph
from ..primitives import linalg as rune_linalg

__all__ = ["program_checks", "nested", "ignored", "include", "first_failure", "NO_FAILURE",
           "check_indices", "LINALG", "CHECKED", "RAISES_WHEN_EMPTY", "raise_if_numpy_would",
           "may_fail", "checked_while", "raise_if_failed"]

NO_FAILURE = (-1, 0)


class _Checks:
    """The checks of one level of a program being lowered (the program, or a
    body of its control flow): `errors` is shared by every level of one
    program, `code` is this level's failure code (a JAX value, or None)."""

    def __init__(self, errors):
        self.errors = errors
        self.code = None

    def fail_if(self, failed, error, payload=0):
        """Record a check: `failed` (a JAX bool scalar) raises `error(payload)`."""
        self.errors.append(error)
        code = jnp.stack([jnp.asarray(len(self.errors) - 1, np.int64),
                          jnp.asarray(payload).astype(np.int64)])
        self.include(jnp.where(failed, code, jnp.array(NO_FAILURE, np.int64)))

    def include(self, code):
        """Add a failure code found in a body: the first failure wins."""
        self.code = code if self.code is None else first_failure(self.code, code)

    def code_or_no_failure(self):
        return jnp.array(NO_FAILURE, np.int64) if self.code is None else self.code


def first_failure(code, later):
    return jnp.where(code[0] >= 0, code, later)


_levels = threading.local()  # the stack of _Checks of the program lowering on this thread


def _current():
    stack = getattr(_levels, "stack", None)
    if not stack:
        raise RuntimeError("rune/lower/jax.py: a lowering with checks ran outside "
                           "program_checks()")
    return stack[-1]


@contextlib.contextmanager
def _level(checks):
    stack = _levels.__dict__.setdefault("stack", [])
    stack.append(checks)
    try:
        yield checks
    finally:
        stack.pop()


def program_checks():
    """The checks of a whole program: the context its lowering runs in."""
    return _level(_Checks([]))


def nested():
    """The checks of a body (a branch, a loop's step): its own failure code,
    which the control flow's lowering returns to the enclosing level."""
    return _level(_Checks(_current().errors))


def ignored():
    """Checks whose code cannot leave their body (a while loop's condition,
    which the loop's step evaluates again to keep them)."""
    return _level(_Checks([]))


def fail_if(failed, error, payload=0):
    _current().fail_if(failed, error, payload)


def include(code):
    _current().include(code)


# ------------------------------------------------------------------ indices


class _OutOfBounds:
    """numpy's IndexError for an index array on one axis."""

    def __init__(self, axis, size):
        self.axis, self.size = axis, size

    def __call__(self, index):
        return IndexError(f"index {index} is out of bounds for axis {self.axis} "
                          f"with size {self.size}")


def check_indices(shape, indices):
    """numpy's bounds (-size <= i < size) for integer index arrays on shape's
    leading axes: raised now for constants, by the program for traced ones.
    False if an indexed axis is empty (every index fails, and XLA's gather
    refuses to trace): the lowering then returns any value of the right shape."""
    can_index = True
    for axis, (size, index) in enumerate(zip(shape, indices)):
        if isinstance(index, jax.core.Tracer):
            if index.size:
                flat = jnp.ravel(index)
                bad = _outside(flat, size)
                fail_if(jnp.any(bad), _OutOfBounds(axis, size), flat[jnp.argmax(bad)])
                can_index &= size > 0
        else:  # a constant of the graph
            flat = np.ravel(index)
            bad = _outside(flat, size)
            if bad.any():
                raise _OutOfBounds(axis, size)(flat[bad.argmax()])
    return can_index


def _outside(index, size):
    """Where an index is outside -size..size-1 (for unsigned integers, -size
    would wrap round to a large number)."""
    if index.dtype.kind == "u":
        return index >= size
    return (index < -size) | (index >= size)


# ------------------------------------------------------------ linear algebra


class _NumpyError:
    """The error the numpy backend raises for `example`, a failing matrix:
    rune's own message (primitives/linalg.py), not a copy of it."""

    def __init__(self, primitive, *example):
        self.primitive, self.example = primitive, example

    def __call__(self, payload):
        try:
            self.primitive(*self.example)
        except np.linalg.LinAlgError as error:
            return error
        raise AssertionError(f"{self.primitive}: the example did not fail")


_SINGULAR_INV = _NumpyError(rune_linalg.inv, np.zeros((1, 1)))
_SINGULAR_SOLVE = _NumpyError(rune_linalg.solve, np.zeros((1, 1)), np.ones((1, 1)))
_NOT_POSITIVE = _NumpyError(rune_linalg.cholesky, np.zeros((1, 1)))


def _lu_solve(a, b, error):
    """solve(a, b) by LU, numpy's LinAlgError where a pivot is exactly 0 (LAPACK's
    test in numpy's gesv; XLA divides by it). b is a stack of matrices."""
    lu, pivots, _ = lax.linalg.lu(a)
    fail_if(jnp.any(jnp.diagonal(lu, axis1=-2, axis2=-1) == 0), error)
    batch = jnp.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    b = jnp.broadcast_to(b, batch + b.shape[-2:])  # never read as a stack of vectors
    return jax.scipy.linalg.lu_solve((lu, pivots), b)


def _inv(a):
    a = jnp.asarray(a)
    return _lu_solve(a, jnp.broadcast_to(jnp.eye(a.shape[-1], dtype=a.dtype), a.shape),
                     _SINGULAR_INV)


def _solve(a, b):
    return _lu_solve(jnp.asarray(a), jnp.asarray(b), _SINGULAR_SOLVE)


def _cholesky(a):
    """numpy's factor, from a's lower triangle alone (jnp symmetrizes by
    default). XLA fills a failed factor with NaN: a NaN that a's lower
    triangle does not hold is numpy's LinAlgError."""
    a = jnp.asarray(a)
    factor = jnp.linalg.cholesky(a, symmetrize_input=False)
    given_nan = jnp.any(jnp.isnan(jnp.tril(a)), axis=(-2, -1))
    fail_if(jnp.any(jnp.any(jnp.isnan(factor), axis=(-2, -1)) & ~given_nan), _NOT_POSITIVE)
    return factor


LINALG = {"inv": _inv, "solve": _solve, "cholesky": _cholesky}

# Primitives whose lowering may add a check to the program.
CHECKED = frozenset({"gather", "scatter_add", "set_at", "add_at", "scatter_mul", "scatter_min",
                     "scatter_max"} | set(LINALG))


# ------------------------------------------------- shapes, and control flow


# numpy raises on an empty transform where jnp returns []: its impl decides.
RAISES_WHEN_EMPTY = frozenset({"fft", "ifft", "rfft", "irfft"})


def raise_if_numpy_would(prim, values, params, out):
    """Run prim's numpy impl on zeros where an input or the output is empty
    (shapes known while tracing, cheap): it raises the numpy backend's error."""
    if any(math.prod(jnp.shape(v)) == 0 for v in values) or math.prod(out.shape) == 0:
        prim.impl(*[np.zeros(jnp.shape(v), v.dtype) for v in values], **params)


def may_fail(graph):
    """Whether lowering graph may add a check: a CHECKED primitive in it or in
    a graph of its params (branches, bodies, custom rules' functions)."""
    for prim, _, params, _ in graph.equations:
        if prim.name in CHECKED:
            return True
        for value in params.values():
            inner = getattr(value, "graph", None) or getattr(value, "fwd", None)
            if isinstance(inner, Graph) and may_fail(inner):
                return True
    return False


def checked_while(holds, step, init):
    """lax.while_loop carrying the failure code, stopped at the first failure
    (numpy's loop would have raised there). The condition cannot return its
    checks: they are made on the first carry, then in the step on each next one."""
    def condition_checks(c):
        with nested() as found:
            holds(c)
        return found.code_or_no_failure()

    def keep_going(state):
        with ignored():
            return (state[-1][0] < 0) & holds(state[:-1])

    def checked_step(state):
        with nested() as found:
            new = step(state[:-1])
        code = first_failure(state[-1], found.code_or_no_failure())
        return new + (first_failure(code, condition_checks(new)),)

    final = lax.while_loop(keep_going, checked_step, init + (condition_checks(init),))
    include(final[-1])
    return list(final[:-1])


# ------------------------------------------------------------- on the host


def raise_if_failed(code, errors):
    """Raise the first failed check's error (code from the program's run)."""
    if isinstance(code, jax.core.Tracer):  # inside the caller's jax.jit, vmap...
        for which, error in enumerate(errors):
            checkify.check(code[0] != which, str(error("{}")), code[1])
        return
    which, payload = np.asarray(code).tolist()
    if which >= 0:
        raise errors[which](payload)
