"""Configuration that never breaks pytest: ``[tool.rune-literate]`` in pyproject.toml.

pytest polices its own configuration: an ini key no installed plugin declares
is a warning, an error under ``filterwarnings = error`` (an INTERNALERROR) and
under ``strict = true``. So a shared configuration holding ``literate_paths``
breaks pytest wherever rune is not installed; the ``[tool.rune-literate]``
table is a place pytest never reads. Each test runs pytest in a fresh
interpreter on a throwaway project; ``-p no:rune_literate`` stands for "rune
is not installed".
"""

import doctest
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rune.literate.cli import main
from rune.literate.docstrings import configured_optionflags

from tests.literate.test_literate_opt_in import plugin_arguments

REPO = Path(__file__).resolve().parents[2]
F = "```"
PAGE = f"{F}python\nprint(1 + 1)\n{F}\n\n{F}out\n2\n{F}\n"
# pytest's strictest settings: a warning is an error, and so is an unknown ini key.
STRICT = 'filterwarnings = ["error"]\nstrict = true\n'
OLD_FORM = '[tool.pytest.ini_options]\n{strict}literate_paths = ["docs"]\n'
NEW_FORM = '[tool.pytest.ini_options]\n{strict}\n[tool.rune-literate]\npaths = ["docs"]\n'


def make_project(root, pyproject, files=()):
    files = {
        "pyproject.toml": textwrap.dedent(pyproject),
        "tests/test_plain.py": "def test_plain():\n    assert True\n",
        "docs/page.md": PAGE,
        **dict(files),
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def run_pytest(project, *arguments, rune=True):
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), str(project)])
    plugin = plugin_arguments() if rune else ["-p", "no:rune_literate"]
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly",
               *plugin, *arguments]
    result = subprocess.run(command, check=False, cwd=project, env=env, capture_output=True,
                            text=True, timeout=300)
    result.output = result.stdout + result.stderr
    return result


@pytest.mark.parametrize("strict", ['filterwarnings = ["error"]\n', "strict = true\n"])
def test_the_ini_keys_break_pytest_where_rune_is_not_installed(tmp_path, strict):
    # Why the table exists: this is what the older form does to a project's
    # contributors who run pytest without rune.
    result = run_pytest(make_project(tmp_path, OLD_FORM.format(strict=strict)), rune=False)
    assert result.returncode != 0, result.output
    assert "literate_paths" in result.output


def test_the_table_leaves_pytest_without_rune_alone_even_when_strict(tmp_path):
    result = run_pytest(make_project(tmp_path, NEW_FORM.format(strict=STRICT)), "-v", rune=False)
    assert result.returncode == 0, result.output
    assert "tests/test_plain.py::test_plain PASSED" in result.stdout
    assert ".md" not in result.stdout


def test_the_table_names_the_pages_pytest_collects(tmp_path):
    result = run_pytest(make_project(tmp_path, NEW_FORM.format(strict=STRICT)), "-v")
    assert result.returncode == 0, result.output
    assert "docs/page.md::line:1 PASSED" in result.stdout
    assert "2 passed" in result.stdout


def test_the_table_names_docstring_modules_and_their_doctest_flags(tmp_path):
    pyproject = NEW_FORM.format(strict=STRICT) + (
        'docstring_paths = ["pkg"]\ndoctest_optionflags = ["ELLIPSIS"]\n')
    module = '"""\n>>> print("a long line")\na ... line\n"""\n'
    project = make_project(tmp_path, pyproject, {"pkg/__init__.py": module})
    result = run_pytest(project, "-v")
    assert "pkg/__init__.py::line:2 PASSED" in result.stdout, result.output
    # check and promote read the same flags.
    assert configured_optionflags(str(project / "pkg" / "__init__.py")) == doctest.ELLIPSIS


def test_the_older_ini_keys_still_work(tmp_path):
    result = run_pytest(make_project(tmp_path, OLD_FORM.format(strict="")), "-v")
    assert "docs/page.md::line:1 PASSED" in result.stdout, result.output


def test_a_setting_in_both_places_is_a_usage_error_naming_both(tmp_path):
    pyproject = OLD_FORM.format(strict="") + '\n[tool.rune-literate]\npaths = ["docs"]\n'
    result = run_pytest(make_project(tmp_path, pyproject))
    assert result.returncode == pytest.ExitCode.USAGE_ERROR, result.output
    assert "[tool.rune-literate] paths" in result.stderr
    assert "literate_paths" in result.stderr


@pytest.mark.parametrize("table, message", [
    ('paths = "docs"\n', "[tool.rune-literate] paths: expected a list of strings, got 'docs'"),
    ('path = ["docs"]\n', "[tool.rune-literate] has no setting 'path'; the settings are paths, "
                          "docstring_paths, doctest_optionflags"),
    ('doctest_optionflags = ["ELIPSIS"]\n', "unknown doctest flag 'ELIPSIS'"),
])
def test_a_bad_table_is_a_usage_error_naming_the_setting(tmp_path, table, message):
    pyproject = f'[tool.pytest.ini_options]\n\n[tool.rune-literate]\ndocstring_paths = ["pkg"]\n{table}'
    result = run_pytest(make_project(tmp_path, pyproject))
    assert result.returncode == pytest.ExitCode.USAGE_ERROR, result.output
    assert message in result.stderr


def test_check_without_paths_takes_the_tables_pages(tmp_path, monkeypatch, capsys):
    project = make_project(tmp_path, '[tool.rune-literate]\npaths = ["guide"]\n',
                           {"guide/start.md": PAGE, "README.md": PAGE})
    monkeypatch.chdir(project)
    assert main(["check", "-q"]) == 0
    assert capsys.readouterr().out == "check: 1 block in 1 page: 1 passed, 0 failed, 0 skipped\n"


def test_check_without_a_table_takes_docs_and_the_readme(tmp_path, monkeypatch, capsys):
    project = make_project(tmp_path, "[project]\nname = 'x'\n", {"README.md": PAGE})
    monkeypatch.chdir(project)
    assert main(["check", "-q"]) == 0
    assert capsys.readouterr().out == "check: 2 blocks in 2 pages: 2 passed, 0 failed, 0 skipped\n"


def test_rune_itself_is_configured_in_the_table_only():
    import tomllib

    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert pyproject["tool"]["rune-literate"]["paths"] == ["docs", "README.md"]
    assert not any(key.startswith("literate_") for key in pyproject["tool"]["pytest"]["ini_options"])


# Pages collected twice: a Sybil conftest or --doctest-glob besides rune.literate.

SESSION_PAGE = f"{F}pycon\n>>> print(1 + 1)\n2\n{F}\n"
SYBIL_CONFTEST = """\
from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser
pytest_collect_file = Sybil(parsers=[PythonCodeBlockParser()], patterns=["*.md"]).pytest()
"""


def test_doctest_glob_collecting_the_same_pages_is_one_line_naming_both(tmp_path):
    project = make_project(tmp_path, '[tool.rune-literate]\npaths = ["docs"]\n',
                           {"docs/page.md": SESSION_PAGE})
    result = run_pytest(project, "--doctest-glob=*.md", "docs")
    # A remark, not an error (doctest fails the page: it reads the closing fence as output).
    assert result.returncode in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED), result.output
    [line] = [line for line in result.stdout.splitlines() if "collected twice" in line]
    assert line == ("rune.literate: 1 page is collected twice, by rune.literate and by "
                    "pytest's --doctest-glob (docs/page.md): 2 tests for 1 block; "
                    "leave each page to one of them")


def test_a_sybil_conftest_collecting_the_same_pages_is_one_line_naming_both(tmp_path):
    project = make_project(tmp_path, '[tool.rune-literate]\npaths = ["docs"]\n',
                           {"conftest.py": SYBIL_CONFTEST})
    result = run_pytest(project, "-q", "docs")
    [line] = [line for line in result.stdout.splitlines() if "collected twice" in line]
    assert line == ("rune.literate: 1 page is collected twice, by rune.literate and by "
                    "a Sybil conftest (docs/page.md): 2 tests for 1 block; "
                    "leave each page to one of them"), result.output


def test_pages_collected_once_get_no_such_line(tmp_path):
    result = run_pytest(make_project(tmp_path, '[tool.rune-literate]\npaths = ["docs"]\n'))
    assert "1 passed" in result.stdout or "2 passed" in result.stdout, result.output
    assert "collected twice" not in result.output
