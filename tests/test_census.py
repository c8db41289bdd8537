"""The census: every public function of rune.nx (nx.linalg, nx.fft, nx.random)
and rune.scipy has a docstring example and is in the check_grads sweep or
marked as having no derivative; then the sweep itself, at order 2 in both
modes, for float64 and (where the row says so) complex128."""

from __future__ import annotations

import importlib
import importlib.util
import inspect

import numpy as np
import pytest

import rune
from rune import nx
from rune.scipy import stats
from tests.sweep import ISSUE_20_BUILDERS, NAMESPACES, NO_DERIVATIVE, SWEEP


def public_functions() -> dict[str, object]:
    """'nx.sin' -> nx.sin for each public function (aliases under each name),
    and 'scipy.stats.norm.logpdf' for each function of a distribution."""
    found = {}
    for prefix, module in NAMESPACES.items():
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                found[f"{prefix}.{name}"] = obj
    for name in stats.__all__:
        for method, obj in vars(getattr(stats, name)).items():
            if isinstance(obj, staticmethod):
                found[f"scipy.stats.{name}.{method}"] = obj.__func__
    return found


def issue_20_table() -> set[str]:
    """The names issue 20's table (tests/test_nx_names.py, when present) covers.

    Its `CASES` run check_grads themselves ("check", "once", "ties") or
    check that the derivative is zero ("none"): either way the census counts
    them, so that table and this sweep need not repeat each other. A case's
    name is the nx name, maybe followed by a note ("sort axis 0").
    """
    if importlib.util.find_spec("tests.test_nx_names") is None:
        return set()
    cases = importlib.import_module("tests.test_nx_names").CASES
    return {f"nx.{case.name.split()[0]}" for case in cases if not case.name.startswith("Tensor.")}


def test_every_public_function_is_swept_or_says_why_not():
    api = public_functions()
    # a density is swept through its log density: pdf = exp(logpdf)
    covered = set(SWEEP) | set(NO_DERIVATIVE) | issue_20_table() | set(ISSUE_20_BUILDERS) | {
        name for name in api if name.startswith("scipy.stats.")
        and (name.replace(".pdf", ".logpdf").replace(".pmf", ".logpmf") in SWEEP
             or name.endswith((".cdf", ".ppf")))}
    missing = sorted(set(api) - covered)
    assert not missing, "not in tests/sweep.py (SWEEP or NO_DERIVATIVE):\n" + "\n".join(missing)
    stale = sorted((set(SWEEP) | set(NO_DERIVATIVE)) - set(api))
    assert not stale, "rows for functions that are not public:\n" + "\n".join(stale)


def test_every_public_function_has_a_docstring_example():
    lacking = sorted(name for name, obj in public_functions().items()
                     if ">>>" not in (obj.__doc__ or ""))
    assert not lacking, "no >>> example:\n" + "\n".join(lacking)


def _inputs(case, dtype, seed):
    rng = np.random.default_rng(seed)
    out = []
    for shape, low, high in case.args:
        value = rng.uniform(low, high, shape)
        if np.dtype(dtype).kind == "c":
            value = value + 1j * rng.uniform(-1, 1, shape) * (high - low) / 6
        out.append(nx.array(value.astype(dtype)))
    return tuple(out)


@pytest.mark.parametrize("name, dtype", [
    pytest.param(name, dtype, id=f"{name}-{np.dtype(dtype)}")
    for name, case in SWEEP.items() for dtype in (np.float64, np.complex128)
    if case.complex or dtype is np.float64])
def test_sweep(name, dtype):
    case = SWEEP[name]
    rune.check_grads(case.fn, _inputs(case, dtype, seed=len(name)), order=2,
                     modes=("fwd", "rev"))
