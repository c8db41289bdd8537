"""The benchmark's correctness checks, at tiny sizes and without timing.

Every engine that scripts/bench.py times is first checked against the
hand-written numpy floor; these tests run those checks for every workload and
every engine installed here, so that each figure the benchmark reports would
come from a right result. rune and numpy always run; peers that are not
installed are skipped.
"""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

_spec = importlib.util.spec_from_file_location(
    "bench", Path(__file__).resolve().parent.parent / "scripts" / "bench.py")
bench = sys.modules["bench"] = importlib.util.module_from_spec(_spec)  # dataclasses look it up
_spec.loader.exec_module(bench)

WORKLOADS = {w.name: w for w in bench.WORKLOADS}
# torch.func warns about its own use of torch.jit.script when it loads.
pytestmark = pytest.mark.filterwarnings("ignore:`torch.jit.script` is deprecated")


def engine_or_skip(name):
    try:
        return bench.make_engine(name)
    except bench.Unavailable as e:
        if name in ("numpy", "rune", "rune.jit"):
            raise
        pytest.skip(str(e))  # an optional engine not installed; the message names its extra


@pytest.mark.parametrize("engine_name", bench.ENGINE_NAMES)
@pytest.mark.parametrize("workload_name", WORKLOADS)
def test_engine_matches_the_numpy_floor(workload_name, engine_name):
    engine = engine_or_skip(engine_name)
    # Raises CheckError on a wrong result, and Unavailable if rune lacks a
    # function a workload needs: both are failures, not skips.
    run = bench.prepare(WORKLOADS[workload_name], engine, size="tiny")
    assert callable(run)


@pytest.fixture
def w1_grad():
    workload = WORKLOADS["W1 grad"]
    args, consts = workload.inputs(bench.SIZES["tiny"], np.random.default_rng(0))
    return workload, workload.floor(*args, **consts)


def test_check_rejects_a_wrong_gradient(w1_grad):
    workload, want = w1_grad
    with pytest.raises(bench.CheckError, match=r"W1 grad on numpy: result 0 is wrong: "
                                               r"max abs error .* \(tolerance .*\)"):
        bench.check(workload, bench.make_engine("numpy"), want * (1 + 1e-6), want)


def test_check_rejects_another_dtype_or_count(w1_grad):
    workload, want = w1_grad
    numpy = bench.make_engine("numpy")
    with pytest.raises(bench.CheckError, match="result 0 is float32 .* floor's is float64"):
        bench.check(workload, numpy, want.astype(np.float32), want)
    with pytest.raises(bench.CheckError, match="2 results, the numpy floor has 1"):
        bench.check(workload, numpy, (want, want), want)
    with pytest.raises(bench.CheckError, match="max abs error nan"):
        bench.check(workload, numpy, want * np.nan, want)


def test_report_gives_ratios_and_verdicts():
    results = {(row, engine): {"unit": "ms", "median": t, "min": t, "max": t}
               for row, engine, t in [("W1 grad", "numpy", 1.0), ("W1 grad", "rune", 4.0),
                                      ("W1 grad", "autograd", 10.0)]}
    text = bench.report(results, ["W1 grad"], ["numpy", "rune", "autograd"],
                        ["torch: not installed"], ["header"])
    # One table per workload, engines as rows: median, spread, ratios to numpy and autograd.
    assert "| engine | ms | min–max | × numpy | × autograd |" in text
    assert "| rune | 4 | 4–4 | 4 | 0.4 |" in text
    assert "| autograd | 10.0 | 10.0–10.0 | 10.0 | 1 |" in text
    assert "| W1 grad: rune ≤ 0.5 × autograd | 0.4 | PASS |" in text
    assert "| W1 grad: rune.jit ≤ 1.5 × numpy | – | – |" in text
    assert "- skipped torch: not installed" in text


def test_plot_draws_a_light_and_a_dark_svg_with_text_as_text(tmp_path):
    pytest.importorskip("matplotlib")  # the bench extra; the site uses the committed SVGs
    results = {(row, engine): {"unit": "ms", "median": t, "min": t, "max": t}
               for row, engine, t in [("W1 grad", "numpy", 1.0), ("W1 grad", "rune", 4.0),
                                      ("W1 grad", "autograd", 10.0)]}
    bench.plot(results, ["W1 grad"], ["numpy", "rune", "autograd"], tmp_path / "ratios.svg")
    light, dark = (tmp_path / "ratios.svg").read_text(), (tmp_path / "ratios-dark.svg").read_text()
    for svg, text_colour in ((light, "#1f2328"), (dark, "#e6edf3")):
        assert "<text" in svg and "4×" in svg  # labels are text, not paths
        assert text_colour in svg
        assert f"font-size: {bench.PLOT_FONT_SIZE}px" in svg
