"""Promote never loses a byte of a page: random pages, stale on purpose, interrupted writes.

test_literate_promote.py checks promote on hand-written pages and on random
pages of fences in block quotes and indents. This file draws fuller pages
(lists, admonitions, content tabs, block quotes, quotes in lists, fences of
backticks and tildes of several lengths, shown-not-run markdown examples,
skip and nondeterministic directives, unicode prose and output, CRLF, no
final newline) in the exact form promote writes, then checks:

- a passing page is left byte-identical (by promote_text and by the CLI);
- a page made stale on purpose (out bodies changed or emptied, out blocks
  dropped, out blocks added to blocks that print nothing) is promoted back to
  the original page, byte for byte, and with out-block bodies masked the
  stale and promoted pages are identical; the diff promote prints (built
  from its edits, linear in the page) is difflib's;
- a write that fails midway (the rename, or the write itself, raising) leaves
  the original file intact and no temporary file behind.

tests/conftest.py sets how many pages are drawn (RUNE_PROPERTY_EXAMPLES).
"""

import os
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from rune.literate import cli
from rune.literate.compare import normalize_output
from rune.literate.parser import parse_page, split_lines
from rune.literate.promote import (
    _edits,
    _edits_diff,
    promote_text,
    unified_diff,
    write_atomically,
)
from rune.literate.runner import PageRunner

# Lines a block may print: unicode, indentation, tabs, blank lines, quote and
# list markers, HTML, a wildcard, fence-like lines of the other fence character.
PRINTED = st.sampled_from([
    "alpha", "ünïcödé ✓ — 日本語 🐍", "  indented", "tab\there", "", "x = 1  ", "> quoted",
    "- item", "1. step", "<b>html</b>", "<!-- not a directive -->", "...", "42",
    "```", "~~~", "````python",
])
PROSE = st.sampled_from([
    "Some prose.", "# A heading", "Ünïcödé prose — ✓ 日本語 🐍", "Text with `inline code`.",
    "Trailing spaces   ", "Tabs\tinside", "<!-- an ordinary comment -->", "A [link](x.md).",
    "| a | b |", "***", "Text ending in a backslash\\",
])


@dataclass(frozen=True)
class Block:
    """A python block, drawn: where it sits, its fence, what it prints."""

    container: str  # "", "list", "numbered", "admonition", "tab", "quote", "quote in list"
    marker: str
    info: str
    printed: tuple
    directive: str | None  # None, "skip" or "nondeterministic"
    stale: str | None = None  # how the page is made stale: "body", "empty", "drop", "extra"

    @property
    def prefix(self):
        return {"": "", "quote": "> ", "quote in list": "    > "}.get(self.container, "    ")

    @property
    def header(self):
        return {"list": ["- A step:"], "numbered": ["1. A step:"],
                "admonition": ['!!! note "A note ✓"'], "tab": ['=== "A tab"'],
                "quote": ["> A quote:"], "quote in list": ["- A step:", "", "    > A quote:"],
                }.get(self.container, [])

    @property
    def output(self):
        """The out block's body as promote writes it: the normalized output."""
        return normalize_output("".join(line + "\n" for line in self.printed))


def fence_for(marker, lines):
    """`marker`, or a longer one if a line of the body could close it."""
    longest = max([len(line) - len(line.lstrip(marker[0])) for line in lines
                   if line.startswith(marker[0] * 3)] or [0])
    return marker if longest < len(marker) else marker[0] * (longest + 1)


@st.composite
def blocks(draw):
    printed = tuple(draw(st.lists(PRINTED, max_size=4)))
    marker = draw(st.sampled_from(["```", "````", "~~~", "~~~~~"]))
    printed = tuple(line for line in printed if not line.startswith(marker[0] * 3))
    return Block(
        container=draw(st.sampled_from(["", "", "list", "numbered", "admonition", "tab", "quote",
                                        "quote in list"])),
        marker=marker,
        info=draw(st.sampled_from(["python", "py", 'python title="a.py"', "{ .python }"])),
        printed=printed,
        directive=draw(st.sampled_from([None, None, None, "skip", "nondeterministic"])),
    )


def render_block(block):
    p = block.prefix
    blank = p.rstrip(" \t")
    lines = list(block.header) + ([blank] if block.header else [])
    if block.directive:
        lines.append(f"{p}<!-- literate: {block.directive} -->")
    code = [f"print({line!r})" for line in block.printed] or ["value = 'prints nothing'"]
    lines += [p + block.marker + block.info] + [p + line for line in code] + [p + block.marker]
    body = None
    if block.stale == "extra":
        body = ["stale ✗"]
    elif block.output and block.stale != "drop":
        body = {"body": ["stale ✗", "lines"], "empty": []}.get(block.stale, block.output.split("\n"))
    if body is not None:
        out_marker = fence_for(block.marker, body)
        lines += [blank, p + out_marker + "out"]
        lines += [p + line if line else blank for line in body] + [p + out_marker]
    return lines


@st.composite
def pages(draw):
    """(parts, eol, final newline): prose, shown-not-run examples and python blocks."""
    parts = []
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["block", "block", "block", "prose", "shown"]))
        if kind == "block":
            parts.append(draw(blocks()))
        elif kind == "prose":
            parts.append(draw(st.lists(PROSE, min_size=1, max_size=3)))
        else:  # markdown source shown on the site, not run: a longer fence holds a shorter one
            parts.append(["````markdown", "```python", "print('shown, not run')", "```", "````"])
    return parts, draw(st.sampled_from(["\n", "\r\n"])), draw(st.booleans())


def render(page, stale=None):
    """The page's text; `stale` maps part indices to how that block is made stale."""
    parts, eol, final_newline = page
    lines = []
    for i, part in enumerate(parts):
        if lines:
            lines.append("")
        if isinstance(part, Block):
            lines += render_block(replace(part, stale=(stale or {}).get(i)))
        else:
            lines += part
    return eol.join(lines) + (eol if final_newline else "")


@st.composite
def stale_pages(draw):
    """(page, stale): a page and a choice of blocks to make stale, each in a possible way."""
    page = draw(pages())
    stale = {}
    for i, part in enumerate(page[0]):
        if not isinstance(part, Block) or part.directive or not draw(st.booleans()):
            continue
        ways = ["body", "empty", "drop"] if part.output else ["extra"]
        stale[i] = draw(st.sampled_from(ways))
    return page, stale


def promoted(text):
    page = parse_page(text, "page.md")
    results = PageRunner(page).run_all()
    assert not [r for r in results if r.failed and r.outcome.name not in (
        "MISMATCH", "MISSING_OUT")], [r.report() for r in results]
    return promote_text(page, results)


def masked(text):
    """The page with each out block's body replaced by a marker."""
    for block in reversed(parse_page(text, "page.md").python_blocks):
        if block.out is not None:
            text = text[: block.out.body_start] + "\0body\0" + text[block.out.body_end:]
    return text


def apply_diff(old, diff):
    """Apply a unified diff of one file (as promote prints it) to ``old``."""
    old_lines = [line.text + line.eol for line in split_lines(old)]
    new_lines, position = [], 0
    lines = diff.splitlines(keepends=True)[2:]
    for index, line in enumerate(lines):
        if line.startswith("@@"):
            start = int(line.split()[1][1:].split(",")[0])
            length = line.split()[1].split(",")[1:] or ["1"]
            start -= 1 if int(length[0]) else 0
            new_lines += old_lines[position:start]
            position = start
            continue
        if line.startswith("\\"):
            continue
        text = line[1:]
        if index + 1 < len(lines) and lines[index + 1].startswith("\\"):
            text = text[:-1]  # "\ No newline at end of file"
        if line[0] in " -":
            assert old_lines[position] == text, (position, text)
            position += 1
        if line[0] in " +":
            new_lines.append(text)
    return "".join(new_lines + old_lines[position:])


# ----------------------------------------------------------------- properties


@given(pages())
def test_promote_leaves_a_passing_page_byte_identical(page):
    text = render(page)
    note(repr(text))
    results = PageRunner(parse_page(text, "page.md")).run_all()
    assert not [r for r in results if r.failed], [r.report() for r in results]
    assert promoted(text) == text


@given(pages())
def test_the_promote_command_leaves_a_passing_page_file_untouched(page):
    data = render(page).encode("utf-8")
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "page.md"
        path.write_bytes(data)
        assert cli.run_promote([path], quiet=True) == 0
        assert path.read_bytes() == data
        assert os.listdir(directory) == ["page.md"]


@given(stale_pages())
def test_promote_restores_a_page_made_stale_and_touches_nothing_else(case):
    page, stale = case
    original, text = render(page), render(page, stale)
    note(repr(text))
    new = promoted(text)
    assert new == original
    # The diff promote prints, built from its edits in linear time, turns the
    # stale page into the promoted one, as difflib's diff does.
    parsed = parse_page(text, "page.md")
    edits = _edits(parsed, PageRunner(parsed).run_all())
    assert apply_diff(text, _edits_diff(text, edits, "page.md")) == new
    assert apply_diff(text, unified_diff(text, new, "page.md")) == new
    if all(way in ("body", "empty") for way in stale.values()):
        assert masked(new) == masked(text)  # only out-block bodies changed


@given(stale_pages(), st.sampled_from(["rename", "write", "interrupt"]))
def test_an_interrupted_write_leaves_the_page_intact_and_no_temporary_file(case, failure):
    page, stale = case
    data = render(page, stale).encode("utf-8")
    real_fdopen = os.fdopen

    def half_written(handle, *args, **kwargs):
        file = real_fdopen(handle, *args, **kwargs)
        real_write = file.write

        def write(text):
            real_write(text[: len(text) // 2])
            file.flush()
            raise OSError(28, "No space left on device")

        file.write = write
        return file

    patches = {
        "rename": mock.patch("os.replace", side_effect=OSError(18, "Invalid cross-device link")),
        "write": mock.patch("os.fdopen", side_effect=half_written),
        "interrupt": mock.patch("os.replace", side_effect=KeyboardInterrupt),
    }
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "page.md"
        path.write_bytes(data)
        changed = promoted(data.decode("utf-8")) != data.decode("utf-8")
        with patches[failure]:
            if changed and failure == "interrupt":
                with pytest.raises(KeyboardInterrupt):
                    cli.run_promote([path], quiet=True)
            else:  # a failed write is reported: exit status 1
                assert cli.run_promote([path], quiet=True) == int(changed)
        assert path.read_bytes() == data
        assert os.listdir(directory) == ["page.md"]


def test_write_atomically_cleans_up_when_the_rename_fails(tmp_path):
    path = tmp_path / "page.md"
    path.write_bytes("original ✓\r\n".encode())
    with mock.patch("os.replace", side_effect=PermissionError(13, "Permission denied")):
        with pytest.raises(PermissionError):
            write_atomically(path, "new text")
    assert path.read_bytes() == "original ✓\r\n".encode()
    assert os.listdir(tmp_path) == ["page.md"]
