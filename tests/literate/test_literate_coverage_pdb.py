"""What runs in a worker still counts and can still be debugged (issue 26).

The lines a page runs in a worker count for coverage.py in the process that
started it (pytest-cov, ``coverage run``), and ``pytest --pdb``/``--trace``
stop in the block itself, with its variables.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.literate.test_literate_isolation import page

REPO = Path(__file__).resolve().parents[2]
LIBRARY = "def double(x):\n    return 2 * x\n\n\ndef unused():\n    return 0\n"


def environment():
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("PYTEST_", "COV", "COVERAGE"))}
    env["PYTHONPATH"] = str(REPO)
    return env


def run(project, *command, stdin=None):
    return subprocess.run([sys.executable, *command], cwd=project, env=environment(),
                          capture_output=True, text=True, timeout=300, input=stdin,
                          stdin=None if stdin is not None else subprocess.DEVNULL)


@pytest.fixture
def project(tmp_path):
    (tmp_path / "mylib").mkdir()
    (tmp_path / "mylib" / "__init__.py").write_text(LIBRARY)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text(page(("import mylib\nprint(mylib.double(2))",
                                                      "4")))
    (tmp_path / "pytest.ini").write_text("[pytest]\nliterate_paths = docs\npythonpath = .\n")
    return tmp_path


def mylib_percent(report):
    match = re.search(r"^mylib[/\\]__init__\.py\s+\d+\s+\d+\s+(\d+)%", report, re.MULTILINE)
    assert match, report
    return int(match.group(1))


# ------------------------------------------------------------------ coverage


@pytest.mark.parametrize("rcfile", ["", "[run]\npatch = subprocess\n"])
def test_pytest_cov_counts_the_lines_a_page_runs(project, rcfile):
    (project / ".coveragerc").write_text(rcfile)
    result = run(project, "-m", "pytest", "-p", "no:cacheprovider", "--cov=mylib",
                 "--cov-report=term-missing", "docs")
    assert "1 passed" in result.stdout, result.stdout + result.stderr
    # Four statements; the page runs all but `return 0` (import runs the defs).
    assert mylib_percent(result.stdout) == 75


def test_coverage_run_counts_the_lines_a_page_runs(project):
    result = run(project, "-m", "coverage", "run", "--source=mylib", "-m", "rune.literate",
                 "check", "docs")
    assert result.returncode == 0, result.stdout + result.stderr
    report = run(project, "-m", "coverage", "report")
    assert mylib_percent(report.stdout) == 75


def test_branch_coverage_counts_too(project):
    result = run(project, "-m", "coverage", "run", "--branch", "--source=mylib", "-m",
                 "rune.literate", "check", "docs")
    assert result.returncode == 0, result.stdout + result.stderr
    report = run(project, "-m", "coverage", "report")
    assert report.returncode == 0, report.stdout + report.stderr
    assert "mylib" in report.stdout and "0%" not in report.stdout, report.stdout


# ----------------------------------------------------------------------- pdb


def run_pdb(project, option, code, out, commands):
    (project / "docs" / "page.md").write_text(page((code, out)))
    return run(project, "-m", "pytest", "-p", "no:cacheprovider", option, "docs",
               stdin=commands)


def test_pdb_stops_in_the_block_that_raised_with_its_variables(project):
    result = run_pdb(project, "--pdb", "x = 41\nassert x == 42", None, "p x * 1000\nc\n")
    assert "41000" in result.stdout, result.stdout + result.stderr
    assert "1 failed" in result.stdout


def test_pdb_stops_on_a_mismatched_block_with_the_pages_variables(project):
    result = run_pdb(project, "--pdb", "y = 5\nprint(y)", "6", "p y * 1000\nc\n")
    assert "5000" in result.stdout, result.stdout + result.stderr
    assert "docs/page.md(1)" in result.stdout  # the frame is the block's line on the page


def test_trace_stops_at_the_blocks_first_line(project):
    result = run_pdb(project, "--trace", "z = 7\nprint(z)", "7", "n\np z * 1000\nc\n")
    assert "7000" in result.stdout, result.stdout + result.stderr
    assert "1 passed" in result.stdout
