"""rune.literate stays light: no numpy, no engine, no pytest outside the plugin."""

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "rune" / "literate"
# Only the pytest integration may import pytest and Sybil (and pytest's debugger
# for --trace), the MkDocs plugin MkDocs, and the worker coverage.py, when the
# process that started it measures coverage.
THIRD_PARTY_ALLOWED = {
    "pytest_plugin.py": {"pytest", "sybil"},
    "worker.py": {"coverage"},
    "sybil_integration.py": {"sybil"},
    "mkdocs_plugin.py": {"mkdocs"},
}


def imported_top_level_names(path):
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add("." if node.level else node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda path: path.name)
def test_modules_import_only_the_standard_library_and_each_other(path):
    names = imported_top_level_names(path)
    assert names, "every module imports something; an empty set means the scan is broken"
    foreign = names - set(sys.stdlib_module_names) - {"__future__", "."}
    assert foreign <= THIRD_PARTY_ALLOWED.get(path.name, set()), foreign
    assert "rune" not in names  # relative imports only: nothing of the engine


def test_a_worker_imports_only_what_runs_its_pages():
    # Every module a worker imports is paid by every run (doctest alone: 17 ms):
    # not the package's __init__ and what it imports, nor doctest before a session.
    from rune.literate import IsolatedPageRunner, parse_page

    shown = ("import sys\nprint(sorted(name for name in sys.modules\n"
             "             if 'literate' in name or name in ('doctest', 'pdb')))")
    [result] = IsolatedPageRunner(parse_page(f"```python\n{shown}\n```\n")).run_all()
    modules = ("compare", "page", "parser", "processes", "runner", "scanner", "session", "worker")
    assert result.output == f"{['_rune_literate', *(f'_rune_literate.{m}' for m in modules)]}\n"
