"""scripts/bench_literate.py: its corpora and its verdicts on the issue's targets."""

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench_literate.py"
spec = importlib.util.spec_from_file_location("bench_literate", SCRIPT)
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def test_a_corpus_page_holds_its_blocks_and_their_outputs(tmp_path):
    from rune.literate import PageRunner, read_page

    bench.write_corpus(tmp_path, pages=3, blocks=4)
    pages = sorted(tmp_path.glob("*.md"))
    assert len(pages) == 3
    results = PageRunner(read_page(pages[2])).run_all()
    assert [result.output for result in results] == ["1\n", "3\n", "5\n", "7\n"]
    assert all(result.outcome.name == "PASSED" for result in results)


def results(check, pytest, sybil, one_wall, two_wall):
    measured = {}
    for corpus in ("200x10", "200x1"):
        for tool, cpu in (("rune check -j 1", check), ("rune pytest", pytest), ("Sybil", sybil)):
            measured[(corpus, tool)] = {"cpu": cpu, "wall": 1.0, "status": 0}
    measured[("200x10", "rune check -j 1")]["wall"] = one_wall
    measured[("200x10", "rune check -j 2")] = {"cpu": check, "wall": two_wall, "status": 0}
    measured[("200x1", "rune check -j 2")] = {"cpu": check, "wall": 1.0, "status": 0}
    return measured


def test_the_targets_pass_within_their_limits_and_miss_beyond():
    passing = bench.targets(results(1.0, 1.5, 1.0, 2.0, 1.5), ["200x10", "200x1"])
    assert sum("PASS" in line for line in passing) == 5, passing
    missing = bench.targets(results(1.1, 1.6, 1.0, 2.0, 2.5), ["200x10", "200x1"])
    assert sum("MISS" in line for line in missing) == 5, missing


def test_the_table_gives_ratios_to_sybil_and_marks_failing_runs():
    measured = results(0.5, 1.2, 2.0, 2.0, 1.5)
    measured[("200x1", "rune pytest")]["status"] = 1
    text = bench.table(measured, ["200x10", "200x1"], rounds=3)
    assert "| rune check -j 1 | 0.50 (0.25x) | 0.50 (0.25x) |" in text
    assert "1.20 (0.60x) (fails)" in text


def test_rune_and_the_peers_are_timed_from_compiled_bytecode(tmp_path):
    package = tmp_path / "package"
    package.mkdir()
    (package / "module.py").write_text("x = 1\n")
    (tmp_path / "plugin.py").write_text("y = 2\n")
    bench.precompile([package, tmp_path / "plugin.py"])
    assert list((package / "__pycache__").glob("module.*.pyc"))
    assert list((tmp_path / "__pycache__").glob("plugin.*.pyc"))
