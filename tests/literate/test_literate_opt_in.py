"""Installing rune changes no other project's pytest run until that project opts in.

Each test runs pytest in a fresh interpreter, in a throwaway project that has
rune importable (installed, or on PYTHONPATH) but names no pages.
"""

import importlib.metadata
import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

import rune_literate_pytest
from rune.literate.paths import DEFAULT_PATHS, matches_paths

REPO = Path(__file__).resolve().parents[2]
F = "```"
FAILING_PAGE = f"{F}python\nprint(1)\n{F}\n\n{F}out\n2\n{F}\n"

# Runs pytest in-process in the child, then reports which heavy modules it imported.
# `sys.modules[name] = None` makes `import name` fail, as if it were not installed.
PYTEST_IN_CHILD = """\
import json, sys
for name in {blocked}:
    sys.modules[name] = None
import pytest
status = pytest.main({arguments})
print("IMPORTED", json.dumps([m for m in ("numpy", "sybil", "rune") if sys.modules.get(m)]))
sys.exit(status)
"""


def plugin_arguments():
    """Load the plugin explicitly unless its pytest11 entry point is installed."""
    names = {entry.name for entry in importlib.metadata.entry_points(group="pytest11")}
    return [] if "rune_literate" in names else ["-p", "rune_literate_pytest"]


def make_project(root, ini=""):
    """A project with a passing test and two failing pages, which nothing names."""
    files = {
        "pytest.ini": "[pytest]\n" + textwrap.dedent(ini),
        "tests/test_plain.py": "def test_plain():\n    assert True\n",
        "docs/guide/page.md": FAILING_PAGE,
        "README.md": FAILING_PAGE,
        "pkg/__init__.py": '"""\n>>> 1 + 1\n3\n"""\n',
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def run_pytest(project, *arguments, blocked=()):
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), str(project)])
    arguments = ["-p", "no:cacheprovider", "-p", "no:randomly", *plugin_arguments(), *arguments]
    code = PYTEST_IN_CHILD.format(blocked=list(blocked), arguments=arguments)
    return subprocess.run(
        [sys.executable, "-c", code],
        check=False, cwd=project, env=env, capture_output=True, text=True, timeout=300,
    )


def imported(result):
    [line] = [line for line in result.stdout.splitlines() if line.startswith("IMPORTED ")]
    return line.removeprefix("IMPORTED ")


def test_loading_the_plugin_imports_neither_sybil_nor_numpy_nor_the_engine():
    code = (
        "import sys, rune_literate_pytest\n"
        "print(sorted(m for m in ('sybil', 'numpy', 'rune') if m in sys.modules))"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert result.stdout.strip() == "[]", result.stdout + result.stderr


def test_a_project_that_does_not_opt_in_collects_nothing_and_imports_nothing(tmp_path):
    result = run_pytest(make_project(tmp_path), "-v")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "tests/test_plain.py::test_plain PASSED" in result.stdout
    assert "1 passed" in result.stdout
    assert ".md" not in result.stdout and "pkg/" not in result.stdout
    assert imported(result) == "[]"


def test_testing_pages_imports_neither_numpy_nor_the_engine(tmp_path):
    # Importing rune's engine cost each run 0.15 s, and under pytest much more:
    # pytest rewrites the asserts of every module of a plugin's distribution.
    result = run_pytest(make_project(tmp_path, "literate_paths = docs\n"), "-v")
    assert "docs/guide/page.md::line:1 FAILED" in result.stdout, result.stdout + result.stderr
    assert imported(result) == '["sybil"]'


def test_a_project_without_sybil_runs_pytest_as_before(tmp_path):
    result = run_pytest(make_project(tmp_path), blocked=["sybil"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed" in result.stdout
    assert "Error" not in result.stdout + result.stderr


def test_opting_in_without_sybil_is_one_line_naming_what_to_install(tmp_path):
    project = make_project(tmp_path, "literate_paths = docs\n")
    result = run_pytest(project, blocked=["sybil"])
    assert result.returncode == pytest.ExitCode.USAGE_ERROR, result.stdout + result.stderr
    assert result.stderr.strip() == (
        "ERROR: rune.literate is turned on (its paths, docstring_paths or "
        '--literate) but Sybil is not installed: pip install "sybil>=9"'
    )


def test_literate_paths_name_files_directories_and_patterns(tmp_path):
    project = make_project(tmp_path, "literate_paths = docs\n")
    result = run_pytest(project, "-v")
    assert "docs/guide/page.md::line:1 FAILED" in result.stdout, result.stdout
    assert "README.md" not in result.stdout and "pkg/" not in result.stdout
    assert matches_paths("README.md", ["README.md"], ".md")
    assert matches_paths("docs/a/b.md", ["docs/**/*.md"], ".md")
    assert not matches_paths("docs/a/b.txt", ["docs"], ".md")
    assert not matches_paths("docsx/a.md", ["docs"], ".md")


def test_the_literate_flag_collects_the_default_pages_for_one_run(tmp_path):
    result = run_pytest(make_project(tmp_path), "-v", "--literate")
    assert "docs/guide/page.md::line:1 FAILED" in result.stdout, result.stdout
    assert "README.md::line:1 FAILED" in result.stdout
    assert "pkg/" not in result.stdout  # docstrings need literate_docstring_paths
    assert "2 failed, 1 passed" in result.stdout


def test_docstring_examples_are_collected_only_when_named(tmp_path):
    project = make_project(tmp_path, "literate_docstring_paths = pkg\n")
    result = run_pytest(project, "-v")
    assert "pkg/__init__.py::line:2 FAILED" in result.stdout, result.stdout
    assert ".md" not in result.stdout


def test_the_default_paths_are_the_same_for_pytest_and_the_command_line():
    # rune_literate_pytest cannot import rune.literate (it would import numpy).
    assert rune_literate_pytest.DEFAULT_PATHS == DEFAULT_PATHS


def test_rune_itself_opts_in_to_its_pages_and_docstrings(pytestconfig):
    settings = rune_literate_pytest.settings(pytestconfig)
    assert settings["paths"] == ["docs", "README.md"]
    assert settings["docstring_paths"] == ["rune"]
    assert pytestconfig.pluginmanager.get_plugin("rune_literate_collector") is not None


def test_the_distribution_has_a_unique_name_an_spdx_license_and_a_literate_extra():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert project["name"] == "rune-autodiff"  # "rune" on the package index is another project
    assert project["license"] == "MIT"  # the table form makes pip print deprecation warnings
    literate = project["optional-dependencies"]["literate"]
    assert sorted(requirement.split(">")[0] for requirement in literate) == ["pytest", "sybil"]
    assert project["entry-points"]["pytest11"] == {"rune_literate": "rune_literate_pytest"}
    for extras in project["optional-dependencies"].values():
        for requirement in extras:
            assert not requirement.startswith("rune["), requirement  # the old name
