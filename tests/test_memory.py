"""Memory: repeated calls stay flat, records die with their pullbacks, caches are bounded.

tracemalloc counts the bytes Python allocates. Each loop runs a warm-up
first (caches, interned names, numpy's own buffers), then measures the
growth over 10,000 more calls: a leak of even one small object per call
(a Tensor is ~50 bytes, a record many times that) would pass the bound.
"""

import gc
import sys
import tracemalloc
import weakref

import numpy as np
import pytest

import rune
from rune import nx
from rune.reverse import Record

jit_module = sys.modules["rune.jit"]  # `rune.jit` is the function

CALLS = 10_000
BOUND = 100_000  # bytes of growth allowed over all the calls


def growth(step, calls=CALLS, warmup=200):
    """Bytes still allocated after `calls` more calls of step, after a warm-up."""
    for _ in range(warmup):
        step()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(calls):
            step()
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return after - before


X = nx.array([0.5, -1.0, 2.0])


def test_the_measure_sees_a_leak_of_one_small_tensor_per_call():
    kept = []
    assert growth(lambda: kept.append(nx.array(1.0))) > BOUND


def loss(x):
    return nx.sum(nx.tanh(x) * nx.sin(x) + x * x)


def test_ten_thousand_gradients_keep_memory_flat():
    grad = rune.grad(lambda x: nx.sum(nx.sin(x) * x))
    assert growth(lambda: grad(X)) < BOUND


def test_ten_thousand_hessian_vector_products_and_jacobians_keep_memory_flat():
    # forward mode's reuse of sin and cos (rune/forward.py) and the diagonal
    # basis of jacrev and jacfwd (rune/vmap.py) keep nothing between calls
    f = lambda x: nx.sum(x ** 3 * nx.sin(x))  # noqa: E731
    W = nx.array(np.arange(12.0).reshape(4, 3) / 10)
    layer = lambda x: nx.tanh(W @ x)  # noqa: E731
    assert growth(lambda: rune.hvp(f, (X,), (X,))) < BOUND
    assert growth(lambda: rune.jacrev(layer)(X), calls=CALLS // 2) < BOUND
    assert growth(lambda: rune.jacfwd(layer)(X), calls=CALLS // 2) < BOUND


def test_ten_thousand_fused_sums_into_dead_temporaries_keep_memory_flat():
    pytest.importorskip("numexpr")
    f = rune.jit(lambda x, y: (nx.exp(x) * y, nx.sin(nx.cos(x * 2.0) * x + x),
                               nx.sum(nx.sin(x) * x * 3.0 + x)), fuse=True)
    y = nx.ones((2, 3))
    assert "out=" in f.source(X, y) and "sum(" in f.source(X, y)  # both paths run
    assert growth(lambda: f(X, y)) < BOUND


def test_ten_thousand_jitted_calls_keep_memory_flat():
    f = rune.jit(lambda x, y: nx.sum(nx.exp(x) * y) + nx.max(x))
    assert growth(lambda: f(X, X)) < BOUND


def test_ten_thousand_jitted_gradients_keep_memory_flat():
    f = rune.jit(rune.grad(loss))
    assert growth(lambda: f(X)) < BOUND


def test_ten_thousand_fused_gradients_keep_memory_flat():
    pytest.importorskip("numexpr")
    f = rune.jit(rune.grad(lambda x: nx.sum(nx.exp(nx.tanh(nx.sin(x) * 0.5 + x)) * x)), fuse=True)
    assert "fused" in f.source(X)  # the kernels run, not the numpy replay
    assert growth(lambda: f(X)) < BOUND


def test_ten_thousand_jitted_loops_and_conds_keep_memory_flat():
    def loss(c, xs):
        return nx.sum(rune.scan(lambda c, x: (nx.sin(c) * x, c), c, xs)[0])

    grad = rune.jit(rune.grad(loss))
    branch = rune.jit(lambda x: rune.cond(nx.sum(x) > 0, nx.sin, nx.cos, x))
    c, xs = nx.array([0.5, 1.0]), nx.ones((3, 2))
    assert growth(lambda: (grad(c, xs), branch(c))) < BOUND


def records_alive():
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, Record))


def test_no_record_outlives_its_gradient_call():
    before = records_alive()
    for _ in range(20):
        rune.grad(loss)(X)
        rune.value_and_grad(loss)(X)
        rune.hessian(loss)(X)
    assert records_alive() == before


def test_a_pullback_keeps_its_record_and_residuals_until_it_is_dropped():
    out, pullback = rune.vjp(lambda x: nx.sin(x) * 3.0, X)
    record = weakref.ref(pullback.record)
    # sin's factor cos(x), computed in the forward pass and kept for the backward one.
    # (Indexing, not unpacking: a name bound to the equation's out Var would
    # keep the record alive through the Var's trace.)
    assert pullback.record.equations[0][0].name == "multiply"
    factor = pullback.record.equations[0][1][1]
    residual = weakref.ref(factor._value)
    gc.collect()
    assert record() is not None and residual() is not None
    np.testing.assert_allclose(pullback(nx.ones_like(out))[0].numpy(), 3 * np.cos(X.numpy()))
    del pullback, factor
    gc.collect()
    assert record() is None and residual() is None


def test_a_linearized_function_frees_its_record_when_dropped():
    _, f_jvp = rune.linearize(loss, X)
    record = weakref.ref(f_jvp.record)
    del f_jvp
    gc.collect()
    assert record() is None


@pytest.mark.parametrize("transform", [rune.jit, lambda f: rune.jit(rune.grad(f))])
def test_the_jit_cache_stays_at_its_bound_and_frees_what_it_evicts(transform):
    f = transform(lambda x: nx.sum(x * x))
    first = nx.zeros(1)
    f(first)
    (entry,) = f._cache.values()
    evicted = weakref.ref(entry.graph)
    del entry
    for n in range(2, 2 * jit_module.CACHE_SIZE + 2):
        f(nx.zeros(n))
    assert len(f._cache) == jit_module.CACHE_SIZE == 64
    gc.collect()
    assert evicted() is None  # the first shape's trace, least recently used, is gone
    assert str(f(first)) in ("float64 [] 0", "float64 [1] [0]")  # traced again on demand
