"""`<!-- literate: out -->`: a fence of another language (a Mermaid diagram) as an out block."""

import pytest

from rune.literate.cli import main
from rune.literate.parser import LiterateSyntaxError, parse_page, read_page
from rune.literate.promote import promote_page, promote_text
from rune.literate.runner import Outcome, PageRunner

F = "```"
OUT = "<!-- literate: out -->"


def test_the_directive_makes_the_next_fence_the_out_block(fixtures_dir):
    first, second = read_page(fixtures_dir / "mermaid.md").python_blocks
    assert (first.out.language, first.out.line) == ("mermaid", 15)
    assert first.out.body == "flowchart LR\n  x --> sin\n  sin --> y"
    assert second.raises and second.out.marker == "~~~" and second.out.language == "mermaid"


def test_a_mermaid_fence_without_the_directive_is_not_an_out_block():
    (block,) = parse_page(f"{F}python\nx = 1\n{F}\n\n{F}mermaid\nflowchart LR\n{F}\n").python_blocks
    assert block.out is None


def test_a_page_with_matching_diagrams_passes_and_promote_keeps_it_byte_for_byte(
    fixtures_dir, fixture_text
):
    results = PageRunner(read_page(fixtures_dir / "mermaid.md")).run_all()
    assert [r.outcome for r in results] == [Outcome.PASSED, Outcome.PASSED]
    promoted = promote_page(fixtures_dir / "mermaid.md")
    assert promoted.error is None and not promoted.changed
    assert promoted.new_text == fixture_text("mermaid.md")


def test_a_stale_diagram_fails_with_a_diff_naming_the_mermaid_fence(fixtures_dir):
    page = read_page(fixtures_dir / "mermaid_stale.md")
    stale, emptied = PageRunner(page, display_path="docs/stale.md").run_all()
    assert stale.outcome is Outcome.MISMATCH
    report = stale.report()
    assert report.startswith("docs/stale.md:3: the python block printed output that differs")
    assert "--- expected (docs/stale.md:10)\n+++ actual\n" in report
    assert " flowchart LR\n   x --> y\n+  y --> z" in report
    assert emptied.outcome is Outcome.MISMATCH


def test_promote_rewrites_the_diagram_and_removes_one_with_its_directive(fixture_text):
    old = fixture_text("mermaid_stale.md")
    page = parse_page(old, "page.md")
    new = promote_text(page, PageRunner(page).run_all())
    assert new == old.replace("  x --> y\n```", "  x --> y\n  y --> z\n```").replace(
        f"\n\n{OUT}\n{F}mermaid\nflowchart LR\n  old --> diagram\n{F}", ""
    )
    assert all(not r.failed for r in PageRunner(parse_page(new, "page.md")).run_all())


def test_promote_check_fails_on_a_stale_diagram_and_promote_fixes_it(
    tmp_path, monkeypatch, fixtures_dir, capsys
):
    page = tmp_path / "diagram.md"
    page.write_bytes((fixtures_dir / "mermaid_stale.md").read_bytes())
    monkeypatch.chdir(tmp_path)
    assert main(["promote", "--check", "diagram.md"]) == 1
    assert "+  y --> z\n" in capsys.readouterr().out
    assert main(["promote", "diagram.md"]) == 0
    assert main(["promote", "--check", "diagram.md"]) == 0


def test_a_diagram_inside_a_container_with_crlf_is_rewritten_in_place():
    text = (
        f"!!! note\r\n\r\n    {F}python\r\n    print('flowchart LR')\r\n    {F}\r\n\r\n"
        f"    {OUT}\r\n    {F}mermaid\r\n    flowchart TD\r\n    {F}\r\n\r\nEnd.\r\n"
    )
    page = parse_page(text, "page.md")
    assert promote_text(page, PageRunner(page).run_all()) == text.replace("TD", "LR")


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (f"Prose.\n\n{OUT}\n{F}mermaid\nflowchart LR\n{F}\n", 3,
         "misplaced `out` directive: it marks a ```mermaid block at line 4 as the out block of a "
         "python block, but no python block comes before it"),
        (f"{F}python\nx = 1\n{F}\n\n{OUT}\nProse.\n", 5,
         "it marks the fence right after it as an out block, but next comes text at line 6"),
        (f"{F}python\nx = 1\n{F}\n\n{OUT}\n", 5, "but next comes the end of the page"),
        (f"{F}python\nx = 1\n{F}\n{OUT}\n<!-- literate: raises -->\n{F}mermaid\nx\n{F}\n", 4,
         "only blank lines may stand between the `out` directive and the fence it marks at line 6, "
         "but the `raises` directive at line 5 comes between"),
        (f"{F}python\nx = 1\n{F}\n<!-- literate: skip -->\n{OUT}\n{F}mermaid\nx\n{F}\n", 4,
         "`skip` cannot stand between the python block at line 1 and its out block at line 6; "
         "only nondeterministic, raises and out can"),
    ],
)
def test_a_misplaced_out_directive_is_an_error_naming_its_line(text, line, message):
    with pytest.raises(LiterateSyntaxError) as caught:
        parse_page(text, "bad.md")
    assert caught.value.line == line
    assert message in caught.value.message
