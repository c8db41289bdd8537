"""The pytest plugin, run in a throwaway project in a child pytest process."""

import importlib.metadata
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
F = "```"

PAGE = f"""\
# A page

{F}python
value = 20
print(value + 1)
{F}

{F}out
21
{F}

{F}python
print("changed")
{F}

{F}out
expected
{F}

<!-- literate: skip -->
{F}python
raise RuntimeError("skipped")
{F}

{F}python
def fail():
    raise ValueError("from the page")
{F}

{F}python
fail()
{F}
"""

MODULE = '''\
"""A module with docstring examples.

>>> double(2)
4
"""


def double(x):
    """Twice ``x``.

    >>> double(21)
    42
    >>> double(1)
    3
    """
    return 2 * x
'''


def plugin_arguments():
    """Load the plugin explicitly unless its pytest11 entry point is installed."""
    names = {entry.name for entry in importlib.metadata.entry_points(group="pytest11")}
    return [] if "rune_literate" in names else ["-p", "rune_literate_pytest"]


def run_pytest(project, *arguments):
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), str(project)])
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:randomly",
        *plugin_arguments(),
        *arguments,
    ]
    return subprocess.run(
        command, check=False, cwd=project, env=env, capture_output=True, text=True, timeout=300
    )


# Projects opt in; without this, the plugin collects nothing (see test_literate_opt_in.py).
OPT_IN = "literate_paths = docs README.md\n"


def make_project(root, ini=OPT_IN, files=None):
    (root / "pytest.ini").write_text("[pytest]\n" + textwrap.dedent(ini))
    for name, text in (files or {}).items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_pages_become_one_test_per_python_block_with_clear_failures(tmp_path):
    project = make_project(
        tmp_path, files={"docs/page.md": PAGE, "README.md": "# Hi\n", "notes/other.md": PAGE}
    )
    result = run_pytest(project, "-v", "-rs")
    output = result.stdout
    assert result.returncode == 1, output + result.stderr
    for line, status in [
        (3, "PASSED"),
        (12, "FAILED"),
        (21, "SKIPPED"),
        (25, "PASSED"),
        (30, "FAILED"),
    ]:
        assert f"docs/page.md::line:{line} {status}" in output
    assert "notes/other.md" not in output  # not named by literate_paths
    assert "docs/page.md:12: the python block printed output that differs" in output
    assert "--- expected (docs/page.md:16)\n+++ actual\n@@ -1 +1 @@\n-expected\n+changed" in output
    assert 'File "docs/page.md", line 31, in <module>\n    fail()' in output
    assert 'File "docs/page.md", line 27, in fail\n    raise ValueError("from the page")' in output
    assert "docs/page.md:21: skipped by the literate directive at line 20" in output
    assert "2 failed, 2 passed, 1 skipped" in output


def test_a_malformed_page_is_a_collection_error_naming_its_line(tmp_path):
    bad = f"# Bad\n\n{F}python\nprint(1)\n"
    project = make_project(tmp_path, files={"docs/bad.md": bad, "docs/good.md": PAGE})
    result = run_pytest(project, "docs/bad.md")
    assert result.returncode != 0
    assert "ERROR collecting docs/bad.md" in result.stdout
    assert "docs/bad.md:3: the ```python fence opened here is never closed" in result.stdout
    assert "Traceback" not in result.stdout  # a clear message, not the parser's insides


def test_selecting_a_later_block_runs_the_earlier_ones_first(tmp_path):
    project = make_project(tmp_path, files={"docs/page.md": PAGE})
    result = run_pytest(project, "docs/page.md::line:25", "docs/page.md::line:3", "-q")
    assert "2 passed" in result.stdout, result.stdout


def test_configured_paths_and_docstring_examples(tmp_path):
    ini = """\
        testpaths = guide pkg
        literate_paths = guide/*.md
        literate_docstring_paths = pkg
    """
    files = {
        "guide/page.md": PAGE,
        "docs/page.md": PAGE,
        "pkg/__init__.py": "",
        "pkg/maths.py": MODULE,
        "pkg/plain.py": "def no_examples():\n    pass\n",
    }
    project = make_project(tmp_path, ini, files)
    collected = run_pytest(project, "--collect-only", "-q")
    ids = [line for line in collected.stdout.splitlines() if "::" in line]
    assert ids == [f"guide/page.md::line:{n}" for n in (3, 12, 21, 25, 30)] + [
        "pkg/maths.py::line:3",
        "pkg/maths.py::line:11",
        "pkg/maths.py::line:13",
    ]
    run = run_pytest(project, "pkg")
    assert "2 passed, 1 failed" in run.stdout or "1 failed, 2 passed" in run.stdout, run.stdout
    assert "double(1)" in run.stdout
    # With pytest's own --doctest-modules, the plugin leaves docstrings to it:
    # each example is collected once, not twice.
    doctest_ids = run_pytest(project, "--collect-only", "-q", "--doctest-modules", "pkg")
    assert "pkg/maths.py::line:" not in doctest_ids.stdout
    assert "pkg/maths.py::pkg.maths" in doctest_ids.stdout


def test_xdist_keeps_each_page_on_one_worker_by_default(tmp_path):
    chain = "".join(f"{F}python\nx{n} = x{n - 1} + 1\n{F}\n\n" for n in range(1, 30))
    page = f"{F}python\nx0 = 0\n{F}\n\n{chain}{F}python\nprint(x29)\n{F}\n\n{F}out\n29\n{F}\n"
    project = make_project(tmp_path, files={"docs/a.md": page, "docs/b.md": page})
    default = run_pytest(project, "-n", "2", "-v")
    assert "LoadFileScheduling" in default.stdout
    assert "62 passed" in default.stdout, default.stdout[-3000:]
    # An explicit --dist that keeps a file on one node is respected; load, which may
    # split one, becomes loadfile, and the run says so.
    scoped = run_pytest(project, "-n", "2", "--dist", "loadscope", "-v")
    assert "LoadScopeScheduling" in scoped.stdout
    explicit = run_pytest(project, "-n", "2", "--dist", "load", "-v")
    assert "LoadFileScheduling" in explicit.stdout
    assert "rune.literate: --dist load would run a page's blocks on two nodes" in explicit.stdout


def test_the_installed_plugin_can_be_turned_off_by_name(tmp_path):
    if plugin_arguments():
        pytest.skip("rune is not installed, so there is no rune_literate entry point to turn off")
    project = make_project(tmp_path, files={"docs/page.md": PAGE})
    assert "docs/page.md::line:3" in run_pytest(project, "--collect-only", "-q").stdout
    result = run_pytest(project, "-p", "no:rune_literate", "--collect-only", "-q")
    assert "docs/page.md" not in result.stdout


def test_the_collected_twice_check_looks_at_each_test_once():
    # It runs on every collection: comparing each test with every other one
    # made it quadratic (2,000 blocks: 2 million comparisons).
    from rune.literate.pytest_plugin import LiterateItem, collected_twice

    class Counted(LiterateItem):
        comparisons = 0

        def __eq__(self, other):
            Counted.comparisons += 1
            return self is other

        __hash__ = object.__hash__

    items = []
    for number in range(300):
        item = object.__new__(Counted)  # no session around it: only its path is read
        item.path = Path(f"/project/docs/page{number}.md")
        items.append(item)
    assert collected_twice(items, Path("/project")) is None
    assert Counted.comparisons == 0
