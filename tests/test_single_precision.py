"""Single precision stays single: a function given float32 (complex64) values
returns float32 (complex64) wherever numpy, scipy or JAX do.

The calls come from the tables that call every public function: issue 20's
table (tests/test_nx_names.py) with its numpy references, and the rows of the
check_grads sweep (tests/sweep.py) that call a public function directly, with
numpy's or scipy's function of the same name as reference, or JAX's rule
(single in, single out) where they have none. Where numpy widens but JAX keeps
single precision (cov, interp, polyfit, scipy.stats), rune may keep it too.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy
import scipy.signal
import scipy.special
import scipy.stats

import rune
from rune import nx
from tests.sweep import SWEEP
from tests.test_census import public_functions
from tests.test_nx_names import CASES as ISSUE_20_CASES

SINGLE = {np.dtype(np.float64): np.dtype(np.float32),
          np.dtype(np.complex128): np.dtype(np.complex64)}


def _single(a):
    a = np.asarray(a)
    return a.astype(SINGLE[a.dtype]) if a.dtype in SINGLE else a


def _reference(name):
    """numpy's or scipy's function of rune's name ('nx.linalg.inv' -> np.linalg.inv)."""
    head, *path = name.split(".")
    obj = np if head == "nx" else scipy
    for part in path:
        obj = getattr(obj, part, None)
    return obj


def _sweep_calls():
    api = public_functions()
    for name, case in SWEEP.items():
        if api.get(name) is not case.fn:  # a row that prepares its arguments
            continue
        rng = np.random.default_rng(11)
        real = tuple(rng.uniform(low, high, shape) for shape, low, high in case.args)
        yield name, case.fn, _reference(name), tuple(_single(a) for a in real)
        if case.complex:
            yield (f"{name} complex", case.fn, _reference(name),
                   tuple(_single(a + 0.5j * np.flip(a)) for a in real))


def _calls():
    calls = list(_sweep_calls())
    calls += [(f"nx.{case.name}", case.f, case.reference, tuple(_single(a) for a in case.args))
              for case in ISSUE_20_CASES
              if any(np.asarray(a).dtype in SINGLE for a in case.args)]
    return calls


def _dtypes(out):
    return [np.dtype(leaf.dtype) for leaf in rune.ptree.leaves(out) if hasattr(leaf, "dtype")]


@pytest.mark.parametrize("name, fn, reference, args", _calls(), ids=[c[0] for c in _calls()])
def test_single_precision_in_gives_single_precision_out(name, fn, reference, args):
    got = _dtypes(fn(*(nx.array(a) for a in args)))
    if reference is None:  # JAX's rule
        expected = [d if d.kind not in "fc" else SINGLE.get(d, d) for d in got]
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # nan inputs on purpose, numpy 2 deprecations
            expected = _dtypes(reference(*args))
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        if g in SINGLE.values() and e in SINGLE:  # rune keeps it where numpy widens, as JAX
            assert SINGLE[e] == g
        else:
            assert g == e, f"{name}: {g} where the reference gives {e}"
