"""The command line: check, promote, --check, --diff, exit codes, progress."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rune.literate.cli import main
from rune.literate.paths import find_pages

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def project(tmp_path, monkeypatch, fixtures_dir):
    """A project directory with docs/ pages, as the current directory."""
    (tmp_path / "docs" / "guide").mkdir(parents=True)
    for name, target in [("passing.md", "docs/index.md"), ("stale.md", "docs/guide/stale.md")]:
        (tmp_path / target).write_bytes((fixtures_dir / name).read_bytes())
    (tmp_path / "README.md").write_text(
        "# Readme\n\n```python\nprint('hi')\n```\n\n```out\nhi\n```\n"
    )
    (tmp_path / "notes.md").write_text(
        "```python\nraise SystemExit('not a page by default')\n```\n"
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_find_pages_uses_the_default_patterns(project):
    assert [p.as_posix() for p in find_pages([], project)] == [
        f"{project}/README.md",
        f"{project}/docs/guide/stale.md",
        f"{project}/docs/index.md",
    ]
    assert find_pages(["docs/guide"]) == [Path("docs/guide/stale.md")]
    with pytest.raises(FileNotFoundError, match="no such file or directory: nope.md"):
        find_pages(["nope.md"])


def test_check_reports_failing_blocks_and_exits_1(project, capsys):
    assert main(["check"]) == 1
    out, err = capsys.readouterr()
    assert "docs/guide/stale.md:3: the python block printed output that differs" in out
    assert "-old output\n+new output" in out
    assert "docs/guide/stale.md:11: the python block printed output but has no out block" in out
    assert out.rstrip().endswith("check: 8 blocks in 3 pages: 5 passed, 3 failed, 0 skipped")
    assert "[3/3] docs/index.md" in err  # progress: pages done of total


def test_check_exits_0_when_all_pass(project, capsys):
    assert main(["check", "docs/index.md", "README.md", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert out == "check: 4 blocks in 2 pages: 4 passed, 0 failed, 0 skipped\n"
    assert err == ""


def test_check_reports_an_unparsable_page_with_its_line(project, capsys, fixtures_dir):
    (project / "docs" / "bad.md").write_bytes((fixtures_dir / "orphan_out.md").read_bytes())
    assert main(["check", "docs/bad.md"]) == 1
    out = capsys.readouterr().out
    assert "docs/bad.md:9: this out block does not follow a python block" in out
    assert "1 page could not be parsed" in out


def test_promote_check_exits_1_on_a_stale_page_and_changes_nothing(project, capsys):
    stale = project / "docs/guide/stale.md"
    before = stale.read_bytes()
    assert main(["promote", "--check", "docs"]) == 1
    out = capsys.readouterr().out
    assert "--- a/docs/guide/stale.md\n+++ b/docs/guide/stale.md\n" in out
    assert "promote: 1 of 2 pages would change" in out
    assert stale.read_bytes() == before


def test_promote_check_exits_0_on_a_fresh_page(project, capsys):
    assert main(["promote", "--check", "docs/index.md", "README.md"]) == 0
    assert capsys.readouterr().out == "promote: 0 of 2 pages would change\n"


def test_promote_diff_prints_without_writing(project, capsys):
    stale = project / "docs/guide/stale.md"
    before = stale.read_bytes()
    assert main(["promote", "--diff", "docs/guide/stale.md"]) == 0
    assert "+new output" in capsys.readouterr().out
    assert stale.read_bytes() == before


def test_promote_writes_then_the_page_passes(project, capsys):
    index_before = (project / "docs/index.md").read_bytes()
    assert main(["promote"]) == 0
    out = capsys.readouterr().out
    assert "-old output\n+new output" in out and "promote: 1 of 3 pages changed" in out
    assert (project / "docs/index.md").read_bytes() == index_before
    assert main(["promote", "--check"]) == 0
    assert main(["check"]) == 0


def test_promote_leaves_a_failing_page_untouched_and_exits_1(project, capsys, fixtures_dir):
    page = project / "docs" / "raising.md"
    page.write_bytes((fixtures_dir / "raises_unmarked.md").read_bytes())
    before = page.read_bytes()
    assert main(["promote", "docs/raising.md"]) == 1
    out = capsys.readouterr().out
    assert "docs/raising.md:10: the python block raised an exception" in out
    assert 'File "docs/raising.md", line 12' in out
    assert "docs/raising.md: not promoted, left unchanged" in out
    assert page.read_bytes() == before


def test_a_path_that_does_not_exist_is_a_usage_error(project, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["check", "missing.md"])
    assert exit_.value.code == 2
    assert "no such file or directory: missing.md" in capsys.readouterr().err


def _run(command, cwd):
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
        PYTHON=sys.executable,
    )
    return subprocess.run(
        command, check=False, cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_python_dash_m_and_the_scripts_promote_wrapper(project):
    checked = _run([sys.executable, "-m", "rune.literate", "check", "docs/index.md"], project)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "3 passed" in checked.stdout
    wrapper = _run([str(REPO / "scripts" / "promote"), "--check", "docs/guide/stale.md"], project)
    assert wrapper.returncode == 1
    assert "+new output" in wrapper.stdout
    written = _run([str(REPO / "scripts" / "promote"), "docs/guide/stale.md"], project)
    assert written.returncode == 0 and "new output" in (project / "docs/guide/stale.md").read_text()


def test_a_page_that_is_not_utf8_is_reported(project, capsys):
    (project / "docs" / "latin1.md").write_bytes("caf\xe9\n".encode("latin-1"))
    assert main(["check", "docs/latin1.md"]) == 1
    assert "docs/latin1.md: not UTF-8 text: 'utf-8' codec can't decode" in capsys.readouterr().out
    assert main(["promote", "docs/latin1.md"]) == 1
    assert "docs/latin1.md: not UTF-8 text" in capsys.readouterr().out
    assert (project / "docs" / "latin1.md").read_bytes() == "caf\xe9\n".encode("latin-1")


def test_output_holding_a_lone_surrogate_is_promoted_escaped_and_later_pages_too(project):
    # promote crashed with a traceback on such output, and later pages were not promoted.
    (project / "docs" / "a_surrogate.md").write_text(
        "```python\nprint('odd \\ud800 char')\n```\n\n"
        "```python\nraise ValueError('bad \\udcff')\n```\n", encoding="utf-8")
    promoted = _run([sys.executable, "-m", "rune.literate", "promote", "docs"], project)
    assert "Traceback" not in promoted.stderr, promoted.stderr
    assert "docs/a_surrogate.md:5: the python block raised an exception" in promoted.stdout
    assert "ValueError: bad \\udcff" in promoted.stdout  # the report, escaped too
    assert "odd \\ud800 char" in (project / "docs/a_surrogate.md").read_text(encoding="utf-8")
    assert "new output" in (project / "docs/guide/stale.md").read_text()  # a later page
    checked = _run([sys.executable, "-m", "rune.literate", "check", "docs/a_surrogate.md"],
                   project)
    assert "1 passed, 1 failed" in checked.stdout  # what promote wrote matches


def test_directories_of_installed_packages_are_not_searched_for_pages(project, capsys):
    # `check .` ran the markdown of a conda environment's packages.
    environments = {
        "env/conda-meta/history": "",  # a conda environment, by its marker
        "pixi_env/conda-meta/history": "",  # whatever its name
        "prefix/lib/python3.11/site-packages/pkg/README.md": None,  # pip --prefix
        "vendor/dist-packages/pkg/README.md": None,
        "__pypackages__/3.11/lib/pkg/README.md": None,  # PEP 582
        ".tox/py311/README.md": None,
        ".nox/tests/README.md": None,
    }
    for name, text in environments.items():
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("```python\nraise SystemExit('must not run')\n```\n" if text is None
                        else text)
    for root in ("env", "pixi_env"):
        (project / root / "lib" / "pkg").mkdir(parents=True)
        (project / root / "lib" / "pkg" / "README.md").write_text(
            "```python\nraise SystemExit('must not run')\n```\n")
    found = [path.as_posix() for path in find_pages(["."])]
    assert found == ["README.md", "docs/guide/stale.md", "docs/index.md", "notes.md"]
