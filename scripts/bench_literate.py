"""Time rune.literate against Sybil, pytest-markdown-docs and mktestdocs on the same pages.

    python scripts/bench_literate.py --markdown docs/assets/literate-bench-table.md

Each corpus is written to a temporary directory: N pages of M blocks, each
block ``v = p*b+1; print(v)`` followed by its out block (the peers ignore out
blocks: they only run the code), and rune's own ``docs/``. Every tool runs as
a command of its own (its CPU time is the process's and its children's, from
``getrusage``), in interleaved rounds; the tables give medians.

rune runs as ``check`` and under pytest, each with one worker (``-j 1``) and
two (``check -j 2``, ``pytest -n 2``). Sybil runs the pages' python blocks
through its markdown ``PythonCodeBlockParser``, pytest-markdown-docs through
``--markdown-docs``, mktestdocs through ``check_md_file`` in a parametrized test.
On rune's docs/ the peers do not know rune's directives (skip, raises,
setup...): they fail some blocks, which the table marks.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPORA = {"200x10": (200, 10), "20x100": (20, 100), "200x1": (200, 1)}
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]

SYBIL_PLUGIN = """\
import os
from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser

pytest_collect_file = Sybil(parsers=[PythonCodeBlockParser()], patterns=["*.md"],
                            path=os.environ["BENCH_PAGES"]).pytest()
"""
MKTESTDOCS_TEST = """\
import os, pathlib
import pytest
from mktestdocs import check_md_file

PAGES = sorted(pathlib.Path(os.environ["BENCH_PAGES"]).rglob("*.md"))


@pytest.mark.parametrize("path", PAGES, ids=str)
def test_page(path):
    check_md_file(path, memory=True)
"""


def write_corpus(directory: Path, pages: int, blocks: int) -> None:
    for p in range(pages):
        parts = []
        for b in range(blocks):
            parts.append(f"```python\nv = {p}*{b}+1\nprint(v)\n```\n\n```out\n{p * b + 1}\n```\n")
        (directory / f"page{p:04}.md").write_text(f"# Page {p}\n\n" + "\n".join(parts))


def commands(pages: Path, tools: Path) -> dict[str, tuple[list[str], Path]]:
    """Each tool's command line and the directory it runs in."""
    rune_ini = tools / "rune.ini"
    rune_ini.write_text(f"[pytest]\nliterate_paths = {pages.name}\n")
    root = pages.parent
    check = [sys.executable, "-m", "rune.literate", "check", "-q", str(pages)]
    rune_pytest = [*PYTEST, "-c", str(rune_ini), "--rootdir", str(root), str(pages)]
    peer_ini = ["-c", str(tools / "peers.ini"), "--rootdir", str(root)]
    return {
        "rune check -j 1": (check, root),
        "rune check -j 2": ([*check, "-j", "2"], root),
        "rune pytest": (rune_pytest, root),
        "rune pytest -n 2": ([*rune_pytest, "-n", "2"], root),
        "Sybil": ([*PYTEST, *peer_ini, "-p", "bench_sybil_plugin", str(pages)], root),
        "pytest-markdown-docs": ([*PYTEST, *peer_ini, "--markdown-docs", str(pages)], root),
        "mktestdocs": ([*PYTEST, *peer_ini, str(tools / "test_mktestdocs.py")], root),
    }


def precompile(paths: list[Path]) -> None:
    """Write the bytecode of rune and of every peer before timing, so that no
    tool's first run (or every run, under PYTHONDONTWRITEBYTECODE) pays for
    compiling its modules: installed packages usually come compiled, a
    checkout does not."""
    for package in ("sybil", "pytest_markdown_docs", "mktestdocs"):
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.submodule_search_locations:
            paths.extend(Path(location) for location in spec.submodule_search_locations)
    for path in paths:
        if path.is_dir():
            compileall.compile_dir(path, quiet=1)
        else:
            compileall.compile_file(path, quiet=1)


def run_once(command: list[str], cwd: Path, env: dict) -> tuple[float, float, int]:
    """(CPU seconds of the command and its children, wall seconds, exit status)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.returncode


def measure(corpora: dict[str, Path], tools: Path, rounds: int, env: dict) -> dict:
    """Median CPU and wall seconds of every tool on every corpus, rounds interleaved."""
    samples: dict = {}
    for round_ in range(rounds):
        for name, pages in corpora.items():
            for tool, (command, cwd) in commands(pages, tools).items():
                env = dict(env, BENCH_PAGES=str(pages))
                cpu, wall, status = run_once(command, cwd, env)
                entry = samples.setdefault((name, tool), {"cpu": [], "wall": [], "status": 0})
                entry["cpu"].append(cpu)
                entry["wall"].append(wall)
                entry["status"] = entry["status"] or status
                print(f"round {round_ + 1}/{rounds} {name:7} {tool:22} cpu {cpu:6.2f} s  "
                      f"wall {wall:6.2f} s{'' if status == 0 else f'  (exit {status})'}",
                      file=sys.stderr)
    return {key: {"cpu": statistics.median(value["cpu"]), "wall": statistics.median(value["wall"]),
                  "status": value["status"]} for key, value in samples.items()}


def table(results: dict, corpora: list[str], rounds: int) -> str:
    tools = list(dict.fromkeys(tool for _, tool in results))
    lines = [
        f"Command: `python scripts/bench_literate.py` ({rounds} interleaved rounds, medians); "
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}.",
        "",
        "CPU seconds (the tool's process and its children); in brackets, the ratio to Sybil's:",
        "",
        "| tool | " + " | ".join(corpora) + " |",
        "|---|" + "---:|" * len(corpora),
    ]
    for tool in tools:
        cells = []
        for corpus in corpora:
            entry = results[(corpus, tool)]
            ratio = entry["cpu"] / results[(corpus, "Sybil")]["cpu"]
            failed = "" if entry["status"] == 0 else " (fails)"
            cells.append(f"{entry['cpu']:.2f} ({ratio:.2f}x){failed}")
        lines.append(f"| {tool} | " + " | ".join(cells) + " |")
    lines += ["", "Wall seconds:", "", "| tool | " + " | ".join(corpora) + " |",
              "|---|" + "---:|" * len(corpora)]
    for tool in tools:
        cells = [f"{results[(corpus, tool)]['wall']:.2f}" for corpus in corpora]
        lines.append(f"| {tool} | " + " | ".join(cells) + " |")
    lines += ["", *targets(results, corpora)]
    return "\n".join(lines) + "\n"


def targets(results: dict, corpora: list[str]) -> list[str]:
    """The issue's targets, each with its measured value and PASS or MISS."""
    found = ["Targets:", ""]

    def verdict(ok: bool) -> str:
        return "PASS" if ok else "MISS"

    for corpus in ("200x10", "200x1"):
        if corpus not in corpora:
            continue
        sybil = results[(corpus, "Sybil")]["cpu"]
        for tool, limit in (("rune check -j 1", 1.0), ("rune pytest", 1.5)):
            ratio = results[(corpus, tool)]["cpu"] / sybil
            found.append(f"- {tool} CPU on {corpus}: {ratio:.2f}x Sybil's (at most {limit}x): "
                         f"{verdict(ratio <= limit)}")
    if "200x10" in corpora:
        one, two = (results[("200x10", f"rune check -j {n}")]["wall"] for n in (1, 2))
        found.append(f"- rune check -j 2 wall on 200x10: {two:.2f} s against {one:.2f} s with "
                     f"-j 1 (must be faster): {verdict(two < one)}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--only", help="corpora to run, e.g. 200x10,docs")
    parser.add_argument("--markdown", help="also write the tables to this markdown file")
    arguments = parser.parse_args()
    wanted = arguments.only.split(",") if arguments.only else [*CORPORA, "docs"]
    with tempfile.TemporaryDirectory(prefix="bench-literate-") as scratch:
        scratch = Path(scratch)
        tools = scratch / "tools"
        tools.mkdir()
        (tools / "bench_sybil_plugin.py").write_text(SYBIL_PLUGIN)
        (tools / "test_mktestdocs.py").write_text(MKTESTDOCS_TEST)
        (tools / "peers.ini").write_text("[pytest]\n")
        corpora = {}
        for name in wanted:
            directory = scratch / name / "pages"
            if name == "docs":
                shutil.copytree(REPO / "docs", directory)
            else:
                directory.mkdir(parents=True)
                write_corpus(directory, *CORPORA[name])
            corpora[name] = directory
        precompile([REPO / "rune", REPO / "rune_literate_pytest.py", tools])
        env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
        env["PYTHONPATH"] = os.pathsep.join([str(tools), str(REPO)])
        results = measure(corpora, tools, arguments.rounds, env)
    text = table(results, list(corpora), arguments.rounds)
    print(text)
    if arguments.markdown:
        Path(arguments.markdown).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
