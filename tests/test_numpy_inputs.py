"""Tensors never change (docs/tensors.md), even when they come from a numpy
array that the caller changes afterwards: every public function given numpy
arrays returns tensors that do not share the arrays' memory.

The calls come from the tables that already call every public function (the
check_grads sweep of tests/sweep.py, issue 20's table in tests/test_nx_names.py),
run on numpy arrays instead of tensors, plus `CALLS` below for the rest; a
new public function must join one of them or `TAKES_NO_ARRAY`.
"""

from __future__ import annotations

import numpy as np
import pytest

import rune
from rune import nx
from rune.scipy import integrate, special, stats
from tests.sweep import SWEEP
from tests.test_census import public_functions
from tests.test_nx_names import CASES as ISSUE_20_CASES

RNG = np.random.default_rng(25)
A = RNG.uniform(-2, 2, (2, 3))
SQUARE = RNG.uniform(-1, 1, (3, 3)) + 3 * np.eye(3)
POSITIVE = RNG.uniform(0.5, 2, (2, 3))
UNIT = RNG.uniform(0.1, 0.9, (2, 3))
INTS = np.array([[0, 3, 1], [2, 2, 0]])

# name -> (function, numpy arguments), for the public functions the two tables miss
CALLS = {
    **{f"nx.{n}": (getattr(nx, n), (A,)) for n in (
        "asarray", "zeros_like", "ones_like", "floor", "ceil", "round", "sign", "isnan",
        "isfinite", "isinf", "all", "any", "iscomplex", "isreal", "argmax", "argmin",
        "logical_not")},
    **{f"nx.{n}": (getattr(nx, n), (A, A[::-1])) for n in (
        "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
        "logical_or", "logical_xor", "floor_divide", "allclose")},
    "nx.array": (nx.array, (A,)),
    "nx.ndim": (nx.ndim, (A,)),
    "nx.create": (lambda a: nx.create(nx.float64, (3, 2), a), (A.ravel(),)),
    "nx.empty_like": (lambda a: nx.empty_like(a), (A,)),
    "nx.full_like": (lambda a: nx.full_like(a, 2.0), (A,)),
    "nx.full": (lambda a: nx.full((2, 3), a), (A[0, 0:1],)),
    "nx.linalg.matrix_rank": (nx.linalg.matrix_rank, (SQUARE,)),
    "nx.fft.fftfreq": (lambda d: nx.fft.fftfreq(4, d), (np.array(0.5),)),
    "nx.fft.rfftfreq": (lambda d: nx.fft.rfftfreq(4, d), (np.array(0.5),)),
    **{f"scipy.stats.norm.{f}": (getattr(stats.norm, f), (A,)) for f in (
        "pdf", "cdf", "logcdf", "ppf")},
    "scipy.stats.norm.ppf": (stats.norm.ppf, (UNIT,)),
    **{f"scipy.stats.t.{f}": (lambda x, f=f: getattr(stats.t, f)(x, 3.5), (A,)) for f in (
        "pdf", "cdf")},
    **{f"scipy.stats.gamma.{f}": (lambda x, f=f: getattr(stats.gamma, f)(x, 2.5), (POSITIVE,))
       for f in ("pdf", "cdf")},
    **{f"scipy.stats.beta.{f}": (lambda x, f=f: getattr(stats.beta, f)(x, 2.0, 3.5), (UNIT,))
       for f in ("pdf", "cdf")},
    **{f"scipy.stats.poisson.{f}": (lambda k, f=f: getattr(stats.poisson, f)(k, 2.5), (INTS,))
       for f in ("pmf", "cdf")},
    "scipy.stats.dirichlet.pdf": (stats.dirichlet.pdf, (np.array([0.2, 0.8]), POSITIVE[0, :2])),
    "scipy.stats.multivariate_normal.pdf": (
        lambda x, c: stats.multivariate_normal.pdf(x, cov=c @ c.T), (A, SQUARE)),
    "scipy.special.erfcinv": (special.erfcinv, (UNIT,)),
    "scipy.special.gammasgn": (special.gammasgn, (A,)),
    **{f"scipy.stats.chi2.{f}": (lambda x, f=f: getattr(stats.chi2, f)(x, 3.0), (POSITIVE,))
       for f in ("pdf", "cdf")},
    # dy/dt = -y from y0: the solution at t's times must not move with y0 or t afterwards
    "scipy.integrate.odeint": (lambda y0, t: integrate.odeint(lambda y, t: -y, y0, t),
                               (A[0], np.array([0.0, 0.5, 1.0]))),
    # the Array API's additions (tests/test_array_api.py); from_dlpack shares memory
    # unless copy=True, by the standard's design, so here it copies
    **{f"nx.{n}": (getattr(nx, n), (INTS, INTS[::-1] % 3)) for n in (
        "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift")},
    "nx.bitwise_invert": (nx.bitwise_invert, (INTS,)),
    "nx.from_dlpack": (lambda a: nx.from_dlpack(a, copy=True), (A,)),
    "nx.finfo": (nx.finfo, (A,)), "nx.iinfo": (nx.iinfo, (INTS,)),
    "nx.isdtype": (lambda a: nx.isdtype(a.dtype, "real floating"), (A,)),
    "nx.can_cast": (lambda a: nx.can_cast(a, nx.float32), (A,)),
    "nx.result_type": (nx.result_type, (A, INTS)),
}

# the functions that skip the copy (their result is new memory), where a view is likeliest
EDGE_CALLS = [
    *[(f"nx.{n} axis ()", lambda a, n=n: getattr(nx, n)(a, axis=()), (A,)) for n in (
        "sum", "prod", "mean", "var", "std", "max", "min", "all", "any", "logsumexp",
        "softmax")],
    ("nx.sum keepdims", lambda a: nx.sum(a[:1], axis=0, keepdims=True), (A,)),
    ("nx.dot scalar", lambda a, s: nx.dot(a, s), (A, np.array(1.0))),
    ("nx.tensordot axes 0", lambda a, s: nx.tensordot(a, s, axes=0), (A, np.array(1.0))),
    ("nx.outer one", nx.outer, (A[0, :1], np.array([1.0]))),
    ("nx.matmul one", nx.matmul, (A, np.eye(3))),
    ("nx.argmax flat", lambda a: nx.argmax(a, keepdims=True), (A,)),
]

TAKES_NO_ARRAY = {f"nx.{n}" for n in (
    "zeros", "ones", "arange", "linspace", "eye", "tri", "tril_indices", "triu_indices",
    "indices", "identity", "empty", "logspace", "geomspace")} | {"nx.random.default_rng"}


def _sweep_arguments(case):
    rng = np.random.default_rng(7)
    return tuple(rng.uniform(low, high, shape) for shape, low, high in case.args)


def _calls():
    """(id, function, numpy arguments) for every call of the three tables."""
    calls = [(name, case.fn, _sweep_arguments(case)) for name, case in SWEEP.items()]
    calls += [(f"nx.{case.name}", case.f, tuple(np.asarray(a) for a in case.args))
              for case in ISSUE_20_CASES]
    calls += [(name, fn, args) for name, (fn, args) in CALLS.items()]
    return calls + EDGE_CALLS


def _changed(array):
    """Overwrite the array in place with different values (a caller's later change)."""
    if array.dtype.kind == "b":
        array[...] = ~array
    elif array.dtype.kind in "iu":
        array[...] = array + 7
    else:
        array[...] = array * -3.0 + 11.5


@pytest.mark.parametrize("name, fn, args", _calls(), ids=[call[0] for call in _calls()])
def test_changing_a_numpy_argument_afterwards_changes_no_result(name, fn, args):
    args = tuple(np.array(a) for a in args)  # the caller's own arrays, writeable
    out = fn(*args)
    leaves = [leaf for leaf in rune.ptree.leaves(out) if isinstance(leaf, nx.Tensor)]
    before = [leaf.numpy() for leaf in leaves]
    for a in args:
        _changed(a)
    after = [leaf.numpy() for leaf in leaves]
    for was, now in zip(before, after):
        np.testing.assert_array_equal(now, was, err_msg=f"{name} shares a numpy argument's memory")


def test_every_public_function_is_called_on_numpy_arrays():
    covered = {call[0].split()[0] for call in _calls()} | TAKES_NO_ARRAY
    missing = sorted(set(public_functions()) - covered)
    assert not missing, ("not called on numpy arrays here (add to CALLS or TAKES_NO_ARRAY):\n"
                         + "\n".join(missing))
