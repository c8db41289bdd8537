"""Promote: out blocks rewritten in place, every other byte kept."""

import os
import stat

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rune.literate.parser import parse_page
from rune.literate.promote import PromoteError, promote_page, promote_text, write_atomically
from rune.literate.runner import Outcome, PageRunner

F = "```"
PASSING = [
    "passing.md",
    "containers.md",
    "tildes.md",
    "nested_fence.md",
    "attributes.md",
    "crlf.md",
    "no_final_newline.md",
    "ellipsis.md",
    "raises.md",
    "directives.md",
    "skip.md",
    "mermaid.md",
]


def promoted(text):
    page = parse_page(text, "page.md")
    return promote_text(page, PageRunner(page).run_all())


def passes(text):
    return all(not r.failed for r in PageRunner(parse_page(text, "page.md")).run_all())


@pytest.mark.parametrize("name", PASSING)
def test_promote_leaves_a_passing_page_byte_identical(fixtures_dir, fixture_text, name):
    result = promote_page(fixtures_dir / name)
    assert result.error is None and result.failures == []
    assert not result.changed
    assert result.new_text == fixture_text(name)


def test_promote_fixes_a_stale_page_which_then_passes(fixture_text):
    old = fixture_text("stale.md")
    new = promoted(old)
    assert not passes(old) and passes(new)
    assert 'print("new output")\n```\n\n```out\nnew output\n```\n' in new
    assert 'print("no out block yet")\n```\n\n```out\nno out block yet\n```\n\nProse.' in new
    assert "this block used to print" not in new
    assert 'x = 1  # prints nothing any more\n```\n\n```python\nprint("fine")' in new
    assert promoted(new) == new


def test_promote_diff_shows_every_change(fixtures_dir):
    diff = promote_page(fixtures_dir / "stale.md", "docs/stale.md").diff()
    assert diff.startswith("--- a/docs/stale.md\n+++ b/docs/stale.md\n")
    assert "-old output\n+new output\n" in diff
    assert "+```out\n+no out block yet\n+```\n" in diff
    assert "-this block used to print\n" in diff


def test_inserted_out_blocks_follow_the_python_block_container_and_fence():
    text = (
        f"1. Item:\n\n    ~~~~python\n    print('a')\n    print()\n    print('b')\n    ~~~~\n\n"
        f"> {F}python\n> print('q')\n> {F}\n\nEnd.\n"
    )
    new = promoted(text)
    assert new == (
        f"1. Item:\n\n    ~~~~python\n    print('a')\n    print()\n    print('b')\n    ~~~~\n"
        f"\n    ~~~~out\n    a\n\n    b\n    ~~~~\n\n"
        f"> {F}python\n> print('q')\n> {F}\n>\n> {F}out\n> q\n> {F}\n\nEnd.\n"
    )
    assert passes(new)


def test_crlf_pages_get_crlf_in_new_and_rewritten_out_blocks():
    text = f"{F}python\r\nprint(1)\r\n{F}\r\n\r\n{F}python\r\nprint(2)\r\n{F}\r\n\r\n{F}out\r\nold\r\n{F}\r\n"
    new = promoted(text)
    assert new == (
        f"{F}python\r\nprint(1)\r\n{F}\r\n\r\n{F}out\r\n1\r\n{F}\r\n\r\n"
        f"{F}python\r\nprint(2)\r\n{F}\r\n\r\n{F}out\r\n2\r\n{F}\r\n"
    )


def test_a_missing_final_newline_stays_missing():
    assert promoted(f"{F}python\nprint(1)\n{F}") == f"{F}python\nprint(1)\n{F}\n\n{F}out\n1\n{F}"
    assert promoted(f"{F}python\nx = 1\n{F}\n\n{F}out\n1\n{F}") == f"{F}python\nx = 1\n{F}"
    assert (
        promoted(f"{F}python\nprint(2)\n{F}\n\n{F}out\n1\n{F}")
        == f"{F}python\nprint(2)\n{F}\n\n{F}out\n2\n{F}"
    )


def test_matching_out_blocks_keep_their_ellipsis_and_trailing_spaces():
    kept = f"{F}out\nstart   \n...\nend\n{F}\n"
    text = (
        f"{F}python\nprint('start')\nfor i in range(9):\n    print(i)\nprint('end')\n{F}\n\n{kept}"
    )
    assert promoted(text) == text
    # A changed out block keeps the wildcard lines that still match (issue 11).
    stale = text.replace("print('end')", "print('stop')")
    assert promoted(stale).endswith(f"{F}out\nstart\n...\nstop\n{F}\n")


def test_skipped_and_nondeterministic_out_blocks_are_left_alone():
    text = (
        f"<!-- literate: skip -->\n{F}python\nprint(1)\n{F}\n\n{F}out\nstale\n{F}\n\n"
        f"<!-- literate: nondeterministic -->\n{F}python\nprint(2)\n{F}\n\n{F}out\nstale\n{F}\n"
    )
    assert promoted(text) == text


def test_a_raises_block_gets_the_exception_line():
    text = f"<!-- literate: raises -->\n{F}python\nprint('x')\nraise KeyError('k')\n{F}\n"
    assert promoted(text).endswith(f"{F}out\nx\nKeyError: 'k'\n{F}\n")


def test_output_that_contains_a_fence_gets_a_longer_fence():
    new = promoted(f"{F}python\nprint('```')\n{F}\n")
    assert new.endswith("````out\n```\n````\n")
    assert passes(new)


def test_output_that_would_close_an_existing_out_block_is_refused():
    page = parse_page(f"{F}python\nprint('```')\n{F}\n\n{F}out\nold\n{F}\n", "page.md")
    with pytest.raises(PromoteError, match="page.md:5: the new output has a line of `"):
        promote_text(page, PageRunner(page).run_all())


def test_a_page_whose_code_fails_is_left_untouched_and_reported(copy_fixture):
    path = copy_fixture("raises_unmarked.md")
    before = path.read_bytes()
    result = promote_page(path)
    assert not result.changed and result.new_text == result.old_text
    assert [r.outcome for r in result.failures] == [Outcome.RAISED]
    assert path.read_bytes() == before


def test_an_unparsable_page_is_reported_not_promoted(fixtures_dir):
    result = promote_page(fixtures_dir / "unterminated.md", "docs/u.md")
    assert not result.changed
    assert result.error.startswith("docs/u.md:5: the ```python fence opened here is never closed")


def test_write_atomically_replaces_the_file_and_keeps_its_mode(tmp_path):
    path = tmp_path / "page.md"
    path.write_bytes(b"old\r\n")
    os.chmod(path, 0o640)
    write_atomically(path, "new\r\nlines")
    assert path.read_bytes() == b"new\r\nlines"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert os.listdir(tmp_path) == ["page.md"]  # no temporary file left behind


# Property: whatever the page looks like, promote changes nothing outside out
# blocks, the result passes, and promoting again changes nothing.

CONTAINERS = ["", "    ", "> ", "  "]
LINES = st.sampled_from(["alpha", "b b", "", "x  ", "42", "...", "~~~", "<!-- x -->"])


@st.composite
def pages(draw):
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        prefix = draw(st.sampled_from(CONTAINERS))
        marker = draw(st.sampled_from(["```", "~~~", "````"]))
        printed = draw(st.lists(LINES, max_size=3))
        code = [f"print({line!r})" for line in printed] or ["pass"]
        # Indented four columns, a fence is one only in a container such as a
        # list item; after prose markdown shows it as an indented code block.
        lines = [
            "- A list item:" if prefix == "    " else draw(st.sampled_from(
                ["Some prose.", "# Heading", ""])),
            "",
            prefix + marker + draw(st.sampled_from(["python", 'python title="t.py"', "py"])),
        ]
        lines += [prefix + line for line in code] + [prefix + marker]
        out = draw(st.sampled_from(["right", "stale", "none", "empty"]))
        body = {"right": printed, "stale": ["stale", "lines"], "empty": []}.get(out)
        if body is not None:
            out_marker = (
                marker if not any(line.startswith(marker[0] * 3) for line in body) else "`" * 5
            )
            # An out block may also be a fence of another language marked by `out`.
            if draw(st.booleans()):
                lines += [prefix.rstrip(), prefix + "<!-- literate: out -->", prefix + out_marker + "mermaid"]
            else:
                lines += [prefix.rstrip(), prefix + out_marker + "out"]
            lines += [(prefix + line if line else prefix.rstrip()) for line in body]
            lines += [prefix + out_marker]
        lines.append("")
        parts.append(eol.join(lines))
    text = eol.join(parts)
    if draw(st.booleans()):
        text = text.rstrip("\r\n")
    return text


def without_out_blocks(text):
    """The page with each out block (and the blank lines before it) cut out."""
    for block in reversed(parse_page(text, "page.md").python_blocks):
        if block.out is not None:
            text = text[: block.gap_start] + text[block.out.end :]
    return text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pages())
def test_promote_preserves_every_byte_outside_out_blocks(text):
    page = parse_page(text, "page.md")
    results = PageRunner(page).run_all()
    try:
        new = promote_text(page, results)
    except PromoteError:
        # Only refused when new output would close an existing out block's fence.
        assert any(r.block.out and r.block.out.marker[0] * 3 in r.output for r in results)
        return
    assert without_out_blocks(new) == without_out_blocks(text)
    assert passes(new)
    assert promoted(new) == new
    if "\r\n" in text:
        assert new.count("\n") == new.count("\r\n")
    assert new.endswith("\n") == text.endswith("\n")
    # Out blocks that already matched are kept byte for byte.
    for result, old_block in zip(results, page.python_blocks):
        if result.outcome is Outcome.PASSED and old_block.out is not None:
            assert text[old_block.out.start : old_block.out.end] in new


# Pages of many changed blocks, each shape a way promote edits: out blocks
# inserted, removed, rewritten in a page without blank lines between blocks.
CHANGED_PAGES = {
    "inserted": lambda n: f"{F}python\nprint({n})\n{F}\n\n",
    "removed": lambda n: f"{F}python\nx = {n}\n{F}\n\n{F}out\nstale\n{F}\n\n",
    "rewritten, no blank lines": lambda n: f"{F}python\nprint({n})\n{F}\n{F}out\nstale\n{F}\n",
}


@pytest.mark.parametrize("shape", CHANGED_PAGES)
def test_the_diff_of_many_changed_blocks_compares_lines_in_linear_work(shape, monkeypatch):
    # 4,000 changed blocks took over 8 minutes: edits a few lines apart merged,
    # with their context, into one region that difflib compared whole.
    from rune.literate import promote

    text = "".join(map(CHANGED_PAGES[shape], range(4000)))
    page = parse_page(text, "page.md")
    edits = promote._edits(page, PageRunner(page).run_all())
    budget = 20 * text.count("\n")  # lines of old times lines of new, all comparisons
    compared = []
    real = promote.difflib.SequenceMatcher.get_opcodes

    def counted(matcher):
        compared.append(len(matcher.a) * len(matcher.b))
        assert sum(compared) <= budget, f"{len(compared)} comparisons of {compared[-1]} pairs"
        return real(matcher)

    monkeypatch.setattr(promote.difflib.SequenceMatcher, "get_opcodes", counted)
    diff = promote.PromotedPage("page.md", text, promote._apply(text, edits), edits=edits).diff()
    changed_lines = [line for line in diff.splitlines()[2:] if line[:1] in "+-"]
    assert len(changed_lines) >= len(edits) == 4000  # every change is in it


def test_a_page_with_cr_only_line_endings_runs_and_is_promoted_in_them(tmp_path):
    # Lines ended at \n only, so such a page was one line: no blocks, silently.
    text = f"# Old Mac\r\r{F}python\rprint(1)\r{F}\r\r{F}python\rprint(2)\r{F}\r\r{F}out\r3\r{F}\r"
    page = parse_page(text, "page.md")
    assert [block.line for block in page.python_blocks] == [3, 7]
    assert [r.outcome for r in PageRunner(page).run_all()] == [Outcome.MISSING_OUT,
                                                                Outcome.MISMATCH]
    path = tmp_path / "page.md"
    path.write_bytes(text.encode())
    promoted = promote_page(path)
    assert promoted.new_text == text.replace(f"print(1)\r{F}\r", f"print(1)\r{F}\r\r{F}out\r1\r{F}\r"
                                             ).replace("3\r", "2\r")
    assert "\n" not in promoted.new_text
    assert "\n-3\n+2\n" in promoted.diff()  # a diff of lines, not one "No newline" each
