"""Transformations in several threads at once: each thread gets its own answer.

The stack of active transformations and all tracing state are per thread
(rune/core.py), and a jitted function's cache is shared under a lock. The
interleaving tests force the schedule that broke a shared stack, with
events rather than sleeps: thread A enters a transformation, thread B
enters one above it, A leaves while B is still inside, then B nests a
second transformation. The stress tests run many calls in several threads
(with a short switch interval, so that threads switch often) and compare
with the single-threaded results.
"""

import importlib
import sys
import threading

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rune
from rune import nx
from tests.programs import assert_close, programs

CACHE_SIZE = importlib.import_module("rune.jit").CACHE_SIZE  # rune.jit is the function

WAIT = 10  # seconds: a bound on each wait, so that a broken schedule fails instead of hanging


def _wait(event):
    assert event.wait(WAIT), "the other thread did not reach its step"


def run_threads(*targets):
    """Run each target in its own thread; return their results, raising the first error."""
    results = [None] * len(targets)
    errors = []

    def run(i, target):
        try:
            results[i] = target()
        except BaseException as error:  # noqa: BLE001  (reported in the main thread)
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i, t)) for i, t in enumerate(targets)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(2 * WAIT)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    if errors:
        raise errors[0]
    return results


@pytest.fixture
def often_switching():
    """Threads switch every few microseconds, so races show up in a short test."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


# -------------------------------------------------- nested programs, by transform
# Each takes a hook, called inside the outer transformation before the inner
# one starts, and returns a float. d/dx [x * d/dy sin(x y)] at y = 1 is
# sin x + x cos x: the value is that or a function of it.


def nested_grad(x, hook):
    def outer(x):
        hook()
        return x * rune.grad(lambda y: nx.sin(x * y))(1.0)
    return float(rune.grad(outer)(x))


def nested_jvp(x, hook):
    def outer(x):
        hook()
        return x * rune.jvp(lambda y: nx.sin(x * y), (1.0,), (1.0,))[1]
    return float(rune.jvp(outer, (x,), (1.0,))[1])


def nested_vmap(x, hook):
    def outer(x):
        hook()
        return x * nx.sum(rune.vmap(lambda y: nx.sin(x * y))(nx.array([1.0, 2.0])))
    return float(nx.sum(rune.vmap(outer)(nx.array([x, 2 * x]))))


def nested_jit(x, hook):
    def outer(x):
        hook()
        return x * rune.jit(lambda y: nx.sin(x * y))(1.0)
    return float(rune.jit(outer)(x))


def grad_of_jit(x, hook):
    def outer(x):
        hook()
        return x * rune.jit(rune.grad(lambda y: nx.sin(x * y)))(1.0)
    return float(rune.grad(outer)(x))


def jit_of_grad(x, hook):
    def outer(x):
        hook()
        return x * rune.grad(lambda y: nx.sin(x * y))(1.0)
    return float(rune.jit(rune.grad(outer))(x))


def vmap_of_jvp(x, hook):
    def outer(x):
        hook()
        return x * rune.jvp(lambda y: nx.sin(x * y), (1.0,), (1.0,))[1]
    return float(nx.sum(rune.vmap(outer)(nx.array([x, 2 * x]))))


def jvp_of_vmap_of_grad(x, hook):
    def outer(x):
        hook()
        per_y = rune.vmap(rune.grad(lambda y: nx.sin(x * y)))(nx.array([1.0, 2.0]))
        return x * nx.sum(per_y)
    return float(rune.jvp(outer, (x,), (1.0,))[1])


NESTED = [nested_grad, nested_jvp, nested_vmap, nested_jit, grad_of_jit, jit_of_grad,
          vmap_of_jvp, jvp_of_vmap_of_grad]


def no_hook():
    pass


@pytest.mark.parametrize("other", NESTED, ids=lambda f: f.__name__)
@pytest.mark.parametrize("program", NESTED, ids=lambda f: f.__name__)
def test_a_thread_leaving_its_transformation_does_not_disturb_another(program, other):
    expected = program(0.5, no_hook)
    a_inside, b_inside, a_done = threading.Event(), threading.Event(), threading.Event()

    def thread_a():
        def hook():  # A is inside its outer transformation; B enters its own
            a_inside.set()
            _wait(b_inside)
        try:
            return other(0.25, hook)
        finally:
            a_done.set()  # A has left every transformation

    def thread_b():
        def hook():  # B is inside its outer transformation, above A's; A leaves
            _wait(a_inside)
            b_inside.set()
            _wait(a_done)
        return program(0.5, hook)

    result_a, result_b = run_threads(thread_a, thread_b)
    assert result_b == pytest.approx(expected, rel=1e-12)
    assert result_a == pytest.approx(other(0.25, no_hook), rel=1e-12)


@pytest.mark.parametrize("program", NESTED, ids=lambda f: f.__name__)
def test_two_threads_inside_transformations_at_once_each_get_their_answer(program):
    # Both are inside their outer transformations before either nests the inner one.
    barrier = threading.Barrier(2, timeout=WAIT)
    x_a, x_b = 0.5, 1.5
    expected = [program(x_a, no_hook), program(x_b, no_hook)]
    results = run_threads(lambda: program(x_a, barrier.wait), lambda: program(x_b, barrier.wait))
    assert results == pytest.approx(expected, rel=1e-12)


def test_many_threads_many_nested_derivatives_match_the_single_threaded_results(
        often_switching):
    xs = np.linspace(-2.0, 2.0, 12)
    expected = {(f.__name__, x): f(x, no_hook) for f in NESTED for x in xs}

    def worker(k):
        def run():
            got = {}
            for _ in range(3):
                for i, f in enumerate(NESTED):
                    for x in xs[(k + i) % 3::3]:
                        got[f.__name__, x] = f(x, no_hook)
            return got
        return run

    for got in run_threads(*[worker(k) for k in range(4)]):
        for key, value in got.items():
            assert value == pytest.approx(expected[key], rel=1e-12), key


def test_a_jitted_function_shared_by_threads_over_more_shapes_than_its_cache_holds(
        often_switching):
    f = rune.jit(lambda x: x * 2.0)
    # A few more shapes than the cache keeps, drawn at random by each thread:
    # mostly hits, and the threads evict shapes that the others are looking up.
    inputs = [nx.ones(n) for n in range(1, CACHE_SIZE + 7)]
    draws = [np.random.default_rng(k).integers(0, len(inputs), size=1500) for k in range(6)]

    def worker(draw):
        return lambda: [f(inputs[i]) for i in draw]

    for draw, got in zip(draws, run_threads(*[worker(d) for d in draws])):
        for i, out in zip(draw, got):
            np.testing.assert_array_equal(out.numpy(), 2.0 * inputs[i].numpy())


class Static:
    """A static argument whose hashing can pause its thread (user code runs there)."""

    def __init__(self, n, pause=None):
        self.n, self.pause = n, pause

    def __hash__(self):
        if self.pause is not None:
            self.pause()
        return hash(self.n)

    def __eq__(self, other):
        return isinstance(other, Static) and other.n == self.n


def test_a_trace_found_in_the_cache_can_be_evicted_by_another_thread_meanwhile():
    f = rune.jit(lambda x, s: x * s.n, static_argnums=1)
    f(1.0, Static(1))
    hashes = 0
    found, evicted = threading.Event(), threading.Event()

    def pause():
        nonlocal hashes
        hashes += 1
        if hashes == 2:  # the trace was found; now it is marked as recently used
            found.set()
            # With the cache locked, the other thread waits for this one: go on after a while.
            evicted.wait(1.0)

    def evict():
        _wait(found)
        for n in range(2, CACHE_SIZE + 3):
            f(1.0, Static(n))
        evicted.set()

    found_first, _ = run_threads(lambda: f(2.0, Static(1, pause)), evict)
    assert float(found_first) == 2.0 and float(f(3.0, Static(1))) == 3.0


# ------------------------------------------ random programs in several threads


@given(programs(), st.integers(2, 4))
def test_random_programs_in_several_threads_match_one_thread(p, num_threads):
    xs = p.inputs()
    grad = rune.grad(p.loss, argnums=tuple(range(len(xs))))
    jitted_grad = rune.jit(grad)

    vs = tuple(p.directions(x.shape, np.float64) for x in xs)
    stacked = [nx.stack([x, 2.0 * x]) for x in xs]

    def run():  # each transformation alone, and nested (hvp, gradients per example)
        return [p(*xs), rune.jit(p)(*xs), rune.vmap(p)(*stacked), *grad(*xs),
                *jitted_grad(*xs), *rune.jvp(grad, xs, vs)[1], *rune.vmap(grad)(*stacked)]

    expected = run()
    barrier = threading.Barrier(num_threads, timeout=WAIT)

    def in_thread():
        barrier.wait()  # all start together
        return [run() for _ in range(3)]

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch often (a fixture would outlive examples)
    try:
        results = run_threads(*[in_thread] * num_threads)
    finally:
        sys.setswitchinterval(interval)
    for rounds in results:
        for got in rounds:
            for g, e in zip(got, expected):
                assert_close(g, e, rtol=1e-13)
