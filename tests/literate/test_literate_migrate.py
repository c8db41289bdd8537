"""migrate --from TOOL: other tools' pages become rune pages, byte for byte elsewhere.

Each tool's fixture page (tests/literate/fixtures/migrate/TOOL/page.md) is
written from that tool's own documented conventions; expected.md is what
rune's page for it is.
"""

import difflib
import subprocess
import sys
import re

import pytest

from rune.literate.cli import main
from rune.literate.migrate import MigrationError, migrate_text

TOOLS = ["mktestdocs", "pytest-markdown-docs", "sybil", "phmdoctest", "pytest-examples"]

# The lines that hold a tool's conventions: only these may change.
CONVENTION = {
    "mktestdocs": r"(?!)",
    "pytest-markdown-docs": r"^```.*\b(notest|continuation)\b",
    "sybil": r"^%|<!-- (skip|clear-namespace|invisible-code-block)|^-->|^```(python|\{code-block\} python)$",
    "phmdoctest": r"^<!--phmdoctest-|^```(expected-output)?$",
    "pytest-examples": r"#>|test=\"|requires=\"|^\s*\"\"\"$|^line \d$",
}


def read(fixtures_dir, tool: str, name: str) -> str:
    return (fixtures_dir / "migrate" / tool / name).read_bytes().decode("utf-8")


@pytest.mark.parametrize("tool", TOOLS)
def test_the_converted_page_is_the_expected_page(fixtures_dir, tool):
    assert migrate_text(read(fixtures_dir, tool, "page.md"), tool) == read(
        fixtures_dir, tool, "expected.md")


@pytest.mark.parametrize("tool", TOOLS)
def test_only_lines_holding_a_convention_change(fixtures_dir, tool):
    before = read(fixtures_dir, tool, "page.md").splitlines()
    after = migrate_text(read(fixtures_dir, tool, "page.md"), tool).splitlines()
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    changed = [line for tag, start, end, _, _ in matcher.get_opcodes() if tag != "equal"
               for line in before[start:end]]
    assert all(re.search(CONVENTION[tool], line) for line in changed), changed


@pytest.mark.parametrize("tool", TOOLS)
def test_line_endings_are_kept_and_new_lines_take_their_neighbours(fixtures_dir, tool):
    page = read(fixtures_dir, tool, "page.md").replace("\n", "\r\n")
    expected = read(fixtures_dir, tool, "expected.md").replace("\n", "\r\n")
    assert migrate_text(page, tool) == expected


@pytest.mark.parametrize("tool", TOOLS)
def test_migrating_a_migrated_page_changes_nothing(fixtures_dir, tool):
    expected = read(fixtures_dir, tool, "expected.md")
    assert migrate_text(expected, tool) == expected


@pytest.mark.parametrize("tool", TOOLS)
def test_the_migrated_page_passes_check_and_promote_adds_nothing(
        fixtures_dir, tmp_path, monkeypatch, capsys, tool):
    page = tmp_path / "page.md"
    page.write_bytes((fixtures_dir / "migrate" / tool / "page.md").read_bytes())
    monkeypatch.chdir(tmp_path)
    assert main(["migrate", "--from", tool, "page.md"]) == 0
    assert page.read_bytes() == (fixtures_dir / "migrate" / tool / "expected.md").read_bytes()
    assert main(["check", "-q", "page.md"]) == 0
    # The outputs the page already showed are its out blocks: no second copy.
    assert main(["promote", "--check", "-q", "page.md"]) == 0, capsys.readouterr().out


def test_phmutest_directives_convert_as_phmdoctest_s(fixtures_dir):
    # phmutest spells phmdoctest's directives <!--phmutest-skip-->, <!--phmutest-label NAME-->...
    page = read(fixtures_dir, "phmdoctest", "page.md").replace("<!--phmdoctest-", "<!--phmutest-")
    assert "<!--phmutest-skip-->" in page
    assert migrate_text(page, "phmutest") == read(fixtures_dir, "phmdoctest", "expected.md")


@pytest.mark.parametrize("tool", ["sybil", "phmdoctest", "pytest-examples"])
def test_unmigrated_pages_do_not_pass_check(fixtures_dir, tmp_path, monkeypatch, tool):
    # Without migrate, rune runs the skipped blocks or misses the outputs.
    page = tmp_path / "page.md"
    page.write_bytes((fixtures_dir / "migrate" / tool / "page.md").read_bytes())
    monkeypatch.chdir(tmp_path)
    assert main(["check", "-q", "page.md"]) == 1


def test_check_and_diff_write_nothing(fixtures_dir, tmp_path, monkeypatch, capsys):
    original = (fixtures_dir / "migrate" / "phmdoctest" / "page.md").read_bytes()
    page = tmp_path / "page.md"
    page.write_bytes(original)
    monkeypatch.chdir(tmp_path)
    assert main(["migrate", "--from", "phmdoctest", "--check", "page.md"]) == 1
    assert main(["migrate", "--from", "phmdoctest", "--diff", "page.md"]) == 0
    out = capsys.readouterr().out
    assert "-<!--phmdoctest-skip-->\n+<!-- literate: skip -->\n" in out
    assert out.rstrip().endswith("migrate --from phmdoctest: 1 of 1 page would change")
    assert page.read_bytes() == original
    assert main(["migrate", "--from", "phmdoctest", "page.md"]) == 0
    assert main(["migrate", "--from", "phmdoctest", "--check", "page.md"]) == 0
    assert page.read_bytes() != original


def test_a_mktestdocs_block_that_prints_gets_its_out_block_from_promote(tmp_path, monkeypatch):
    text = "```python\nprint(2 + 2)\n```\n"
    page = tmp_path / "page.md"
    page.write_text(migrate_text(text, "mktestdocs"))
    monkeypatch.chdir(tmp_path)
    assert main(["promote", "-q", "page.md"]) == 0
    assert page.read_text() == text + "\n```out\n4\n```\n"


@pytest.mark.parametrize("tool, text, line, message", [
    ("pytest-markdown-docs", "text\n\n```python fixture:tmp_path\nprint(tmp_path)\n```\n", 3,
     "the fence option 'fixture:tmp_path' has no rune equivalent"),
    ("phmdoctest", "<!--phmdoctest-mark.slow-->\n```python\npass\n```\n", 1,
     "the directive <!--phmdoctest-mark.slow--> has no rune equivalent"),
    ("phmdoctest", "<!--phmdoctest-mark.skipif<3.8-->\n```python\npass\n```\n", 1,
     "the directive <!--phmdoctest-mark.skipif<3.8--> has no rune equivalent"),
    ("phmutest", "<!--phmutest-mark.skipif<3.8-->\n```python\npass\n```\n", 1,
     "the directive <!--phmutest-mark.skipif<3.8--> has no rune equivalent"),
    ("phmdoctest", "```python\nimport time\ntime.sleep(60)  # <-\n```\n", 3,
     "phmdoctest's inline annotations"),
    ("phmdoctest", "```python\n# phmdoctest:omit\nwhile True:\n    pass\n```\n", 2,
     "phmdoctest's inline annotations"),
    ("sybil", "<!-- skip: later -->\n```python\npass\n```\n", 1,
     "skip: 'later' is not a skip rune knows"),
    ("sybil", "<!-- skip: start \"why\" -->\n```python\npass\n```\n", 1,
     "skip: 'start \"why\"' is not a skip rune knows"),
    ("sybil", "```{code-block} python\n:caption: a caption\npass\n```\n", 2,
     "the {code-block} options cannot stay on a ```python fence"),
    ("sybil", "<!-- skip: next if(sys.platform ==) -->\n```python\npass\n```\n", 1,
     "cannot read the skip arguments"),
    ("sybil", "<!-- invisible-code-block: python\nx = 1\n", 1,
     "invisible-code-block is never closed with -->"),
    ("pytest-examples", '```py requires="three"\npass\n```\n', 1,
     'requires="three" is not a Python version'),
    ("mktestdocs", "\n```python\npass\n", 2, "the fence ``` opened here is never closed"),
])
def test_a_convention_rune_cannot_convert_is_an_error_naming_its_line(tool, text, line, message):
    with pytest.raises(MigrationError) as error:
        migrate_text(text, tool)
    assert error.value.line == line
    assert message in error.value.message


def test_a_page_with_an_error_is_left_unchanged(tmp_path, monkeypatch, capsys):
    text = "```python notest\npass\n```\n\n```python fixture:capsys\npass\n```\n"
    page = tmp_path / "page.md"
    page.write_text(text)
    monkeypatch.chdir(tmp_path)
    assert main(["migrate", "--from", "pytest-markdown-docs", "page.md"]) == 1
    assert page.read_text() == text
    out = capsys.readouterr().out
    assert "page.md: line 5: the fence option 'fixture:capsys'" in out
    assert "1 not converted because of errors" in out


def test_an_unknown_tool_is_refused(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["migrate", "--from", "doctestplus", "docs"])
    assert exit_.value.code == 2
    assert "invalid choice: 'doctestplus'" in capsys.readouterr().err
    with pytest.raises(ValueError, match="tool must be one of .*got 'doctestplus'"):
        migrate_text("", "doctestplus")


SYBIL_CONFTEST = """\
from sybil import Sybil
from sybil.parsers.markdown import ClearNamespaceParser
from sybil.parsers.myst import PythonCodeBlockParser, SkipParser

pytest_collect_file = Sybil(
    parsers=[PythonCodeBlockParser(), SkipParser(), ClearNamespaceParser()], patterns=["*.md"]
).pytest()
"""
MKTESTDOCS_TEST = """\
import pathlib

from mktestdocs import check_md_file


def test_page():
    check_md_file(pathlib.Path(__file__).parent / "page.md", memory=True)
"""


@pytest.mark.parametrize("tool, module, files, arguments", [
    ("sybil", "sybil", {"conftest.py": SYBIL_CONFTEST}, ["page.md"]),
    ("pytest-markdown-docs", "pytest_markdown_docs", {}, ["--markdown-docs", "page.md"]),
    ("mktestdocs", "mktestdocs", {"test_page.py": MKTESTDOCS_TEST}, ["test_page.py"]),
])
def test_the_fixture_page_passes_under_its_own_tool(
        fixtures_dir, tmp_path, tool, module, files, arguments):
    # So the fixtures are pages that tool's users really have, not guesses.
    pytest.importorskip(module, reason=f"{tool} is not installed (the bench extra brings it)")
    (tmp_path / "page.md").write_bytes((fixtures_dir / "migrate" / tool / "page.md").read_bytes())
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *arguments],
        cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert " passed" in completed.stdout
