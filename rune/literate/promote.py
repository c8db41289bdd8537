"""Write the actual output of a page's blocks back into its out blocks.

Promote edits the page text through the parser's exact offsets and never
re-serializes it: only out-block bodies change, out blocks are inserted right
after a python block that prints but has none, and removed after a block that
now prints nothing. Everything else (line endings, indentation in lists and
block quotes, fence characters, a missing final newline) stays byte for byte.

Only blocks that fail ``check`` are touched: an out block that still matches,
``...`` lines and trailing spaces included, is left exactly as it is. A page
with a block that raises (or any other failure promote cannot fix) is not
changed at all.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .compare import normalize_output, output_matches, require_text
from .parser import (
    Fence,
    LiterateSyntaxError,
    Page,
    PythonBlock,
    check_path,
    parse_page,
    split_lines,
)
from .runner import PROMOTABLE, BlockResult, PageRunner

_FENCE_LIKE = re.compile(r"[ \t>]*(?P<marker>`{3,}|~{3,})[ \t]*")


class PromoteError(Exception):
    """The actual output cannot be written into the page safely.

    For example, output containing a line that would close the out block's
    fence: promote reports it instead of writing a page that parses another way.

    >>> from rune.literate import PromoteError
    >>> issubclass(PromoteError, Exception)
    True
    """


@dataclass
class PromotedPage:
    r"""The outcome of promoting one page.

    ``new_text`` equals ``old_text`` when nothing changes or when the page
    cannot be promoted; then ``error`` (an unparsable page) or ``failures``
    (blocks that raise, and so on) say why.

    Attributes:
      path: the page's path, as messages show it.
      old_text: the page as it is.
      new_text: the page as promote writes it.
      results: the results of running its blocks.
      error: why the page cannot be promoted (it does not parse, or promote
        would break it), else None.

    >>> import pathlib, tempfile
    >>> from rune.literate import promote_page
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "page.md"
    >>> _ = path.write_text("```python\nprint(2 + 2)\n```\n")
    >>> promoted = promote_page(path)
    >>> promoted.changed, promoted.failures
    (True, [])
    >>> promoted.new_text.splitlines()
    ['```python', 'print(2 + 2)', '```', '', '```out', '4', '```']
    """

    path: str
    old_text: str
    new_text: str
    results: list[BlockResult] = field(default_factory=list)
    error: str | None = None

    @property
    def failures(self) -> list[BlockResult]:
        """Failed blocks that promote cannot fix by rewriting out blocks."""
        return [r for r in self.results if r.failed and r.outcome not in PROMOTABLE]

    @property
    def changed(self) -> bool:
        """Whether promote would rewrite the page."""
        return self.new_text != self.old_text

    def diff(self) -> str:
        """A unified diff from the page as it is to the page as promote writes it."""
        return unified_diff(self.old_text, self.new_text, self.path)


def unified_diff(old: str, new: str, path: str) -> str:
    r"""A ``git diff``-style unified diff of two versions of the page at ``path``.

    >>> print(unified_diff("a\nb\n", "a\nc\n", "p.md"), end="")
    --- a/p.md
    +++ b/p.md
    @@ -1,2 +1,2 @@
     a
    -b
    +c
    """
    old_lines = [line.text + line.eol for line in split_lines(old)]
    new_lines = [line.text + line.eol for line in split_lines(new)]
    lines = []
    for line in difflib.unified_diff(old_lines, new_lines, f"a/{path}", f"b/{path}"):
        if not line.endswith("\n"):
            line += "\n\\ No newline at end of file\n"
        lines.append(line)
    return "".join(lines)


def promote_text(page: Page, results: list[BlockResult]) -> str:
    r"""The text of ``page`` with out blocks rewritten to match ``results``.

    Only results whose outcome is in ``PROMOTABLE`` cause edits.

    Args:
      page: the parsed page.
      results: the results of running it ([`PageRunner.run_all`][rune.literate.PageRunner.run_all]).

    Raises:
      PromoteError: an output line would close its out block's fence, or the
        promoted page would not expect what was printed.
      LiterateSyntaxError: the promoted page does not parse.
      TypeError: page is not a Page, or results are not BlockResults.

    >>> from rune.literate.parser import parse_page
    >>> page = parse_page("```python\nprint('hi')\n```\n")
    >>> print(promote_text(page, PageRunner(page).run_all()), end="")
    ```python
    print('hi')
    ```
    <BLANKLINE>
    ```out
    hi
    ```
    """
    if not isinstance(page, Page):
        raise TypeError(f"promote_text: page must be a Page, got {type(page).__name__}")
    results = list(results)
    for result in results:
        if not isinstance(result, BlockResult):
            raise TypeError(f"promote_text: results must be BlockResults (from "
                            f"PageRunner.run_all), got {type(result).__name__}")
    edits = []
    for result in results:
        if result.outcome not in PROMOTABLE:
            continue
        block, output = result.block, normalize_output(result.output)
        if block.out is None:
            edits.append(_insertion(block, output))
        elif output:
            edits.append(_replacement(page, block.out, output))
        else:
            edits.append((block.gap_start, block.out.end, ""))
    text = page.text
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    if edits:
        _verify(page, text, results)
    return text


def _insertion(block: PythonBlock, output: str) -> tuple[int, int, str]:
    """A new out block right after the python block, in its container and style."""
    fence = block.fence
    marker = fence.marker
    longest = _longest_fence_line(output, marker[0])
    if longest >= len(marker):
        marker = marker[0] * (longest + 1)  # so that no output line can close it
    lines = [
        fence.prefix.rstrip(" \t"),  # the blank line between, still inside a block quote
        fence.prefix + marker + "out",
        *(_body_line(fence.prefix, line) for line in output.split("\n")),
        fence.prefix + marker,
    ]
    # Inserted before the python block's own line ending, so a page without a
    # final newline still ends without one.
    return fence.end, fence.end, "".join(fence.eol + line for line in lines)


def _replacement(page: Page, out: Fence, output: str) -> tuple[int, int, str]:
    if _longest_fence_line(output, out.marker[0]) >= len(out.marker):
        raise PromoteError(
            f"{page.path}:{out.line}: the new output has a line of {out.marker[0]} that would "
            f"close this out block; make its fence longer than that line and promote again"
        )
    body = "".join(_body_line(out.prefix, line) + out.eol for line in output.split("\n"))
    return out.body_start, out.body_end, body


def _body_line(prefix: str, line: str) -> str:
    # An empty line gets no trailing indentation (but keeps its ">" markers).
    return prefix + line if line else prefix.rstrip(" \t")


def _longest_fence_line(output: str, fence_char: str) -> int:
    longest = 0
    for line in output.split("\n"):
        match = _FENCE_LIKE.fullmatch(line)
        if match and match["marker"][0] == fence_char:
            longest = max(longest, len(match["marker"]))
    return longest


def _verify(page: Page, text: str, results: list[BlockResult]) -> None:
    """Check that the promoted page parses and now expects exactly what was printed."""
    new_blocks = parse_page(text, page.path).python_blocks
    if len(new_blocks) != len(results):
        raise PromoteError(
            f"{page.path}: promote would change the number of python blocks "
            f"(a bug in rune.literate; the page was left as it was)"
        )
    for result, block in zip(results, new_blocks):
        if result.outcome not in PROMOTABLE:
            continue
        expected = block.out.body if block.out else ""
        if not output_matches(expected, result.output):
            raise PromoteError(
                f"{page.path}:{block.line}: the promoted out block does not match "
                f"the output (a bug in rune.literate; the page was left as it was)"
            )


def promote_page(path: str | Path, display_path: str | None = None) -> PromotedPage:
    r"""Run the page at ``path`` and compute its promoted text, without writing it.

    Never raises for a bad page: parse errors and failing blocks are recorded
    in the returned [`PromotedPage`][rune.literate.PromotedPage], whose text is then unchanged.

    Args:
      path: the page's file, a str or a pathlib.Path.
      display_path: names the page in messages and diffs (default: ``path``).

    Raises:
      OSError: the file cannot be read.
      TypeError: path is not a str or a path.

    >>> import pathlib, tempfile
    >>> from rune.literate import promote_page
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "page.md"
    >>> _ = path.write_text("```python\nprint(1)\n```\n\n```out\n1\n```\n")
    >>> promote_page(path).changed
    False
    """
    check_path("promote_page", path)
    name = display_path or str(path)
    try:
        with open(path, encoding="utf-8", newline="") as file:
            text = file.read()
    except UnicodeDecodeError as error:
        return PromotedPage(name, "", "", error=f"{name}: not UTF-8 text: {error}")
    try:
        page = parse_page(text, name)
    except LiterateSyntaxError as error:
        return PromotedPage(name, text, text, error=str(error))
    results = PageRunner(page).run_all()
    promoted = PromotedPage(name, text, text, results)
    if promoted.failures:
        return promoted
    try:
        promoted.new_text = promote_text(page, results)
    except (PromoteError, LiterateSyntaxError) as error:
        promoted.error = str(error)
    return promoted


def write_atomically(path: str | Path, text: str) -> None:
    r"""Replace the file at ``path`` with ``text`` (UTF-8, line endings as given).

    The text goes to a temporary file in the same directory which then
    replaces the original in one step, so a crash never leaves half a page.
    The file's permission bits are kept.

    Args:
      path: an existing file, a str or a pathlib.Path.
      text: its new text.

    Raises:
      OSError: the file does not exist, or its directory cannot be written
        (the original is then unchanged).
      TypeError: path is not a str or a path, or text is not a str.

    >>> import pathlib, tempfile
    >>> from rune.literate import write_atomically
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "page.md"
    >>> _ = path.write_text("old")
    >>> write_atomically(path, "new\r\n")
    >>> path.read_bytes()
    b'new\r\n'
    """
    check_path("write_atomically", path)
    require_text("write_atomically", text=text)
    path = Path(path)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
            file.write(text)
        shutil.copymode(path, temporary)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
