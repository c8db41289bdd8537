"""Helpers shared by the tests."""

from __future__ import annotations

import numpy as np

from rune import ptree
from rune.core import new_trace
from rune.graph import GraphTrace
from rune.nx import Tensor


def eager_and_abstract(fn, *args, **kwargs):
    """Run fn eagerly and traced on shapes only; return (eager out, traced Var out).

    Tests use it to check a primitive's abstract rule (shape and dtype)
    against what its numpy implementation returns.
    """
    eager = fn(*args, **kwargs)
    with new_trace(GraphTrace) as trace:
        traced_args = [trace.new_var(a.shape, a.dtype) if isinstance(a, Tensor) else a
                       for a in args]
        traced = fn(*traced_args, **kwargs)
    return eager, traced


def assert_abstract_matches(fn, *args, **kwargs):
    """The abstract rule of every primitive fn uses agrees with its output."""
    eager, traced = eager_and_abstract(fn, *args, **kwargs)
    for e, t in zip(ptree.leaves(eager), ptree.leaves(traced)):
        assert tuple(t.shape) == tuple(np.shape(e)), (t.shape, np.shape(e))
        assert np.dtype(t.dtype) == np.asarray(e).dtype, (t.dtype, np.asarray(e).dtype)


def assert_vmap_matches_loop(fn, *batched, in_axes=0):
    """vmap(fn) equals a Python loop over the examples (taken along in_axes;
    an in_axes entry of None passes that argument whole to every example)."""
    import rune

    out = rune.vmap(fn, in_axes=in_axes)(*batched)
    axes = tuple(in_axes) if isinstance(in_axes, (tuple, list)) else (in_axes,) * len(batched)
    n = next(b.shape[a] for b, a in zip(batched, axes) if a is not None)

    def example(b, a, i):
        return b if a is None else Tensor(np.take(np.asarray(b), i, axis=a))

    loop = [fn(*[example(b, a, i) for b, a in zip(batched, axes)]) for i in range(n)]
    for i in range(n):
        for o, one in zip(ptree.leaves(out), ptree.leaves(loop[i])):
            np.testing.assert_allclose(np.asarray(o)[i], np.asarray(one), rtol=1e-12, atol=1e-12)


def random_value(rng, shape, dtype=np.float64):
    """A standard-normal numpy array of `dtype` (both parts random for complex)."""
    value = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        value = value + 1j * rng.standard_normal(shape)
    return np.asarray(value, dtype)


def squared_size(f):
    """sum |f|^2, a real scalar of a (complex) function: for gradient checks."""
    from rune import nx

    def g(*args):
        out = f(*args)
        return nx.real(nx.sum(out * nx.conj(out)))

    return g
