"""Write the actual output of a page's blocks back into its out blocks.

Promote edits the page text through the parser's exact offsets and never
re-serializes it: only out-block bodies change, out blocks are inserted right
after a python block that prints but has none, and removed after a block that
now prints nothing. Everything else (line endings, indentation in lists and
block quotes, fence characters, a missing final newline) stays byte for byte.

Only blocks that fail ``check`` are touched: an out block that still matches,
``...`` lines and trailing spaces included, is left exactly as it is, and a
changed out block keeps the ``...`` lines that still match. A block that
raises (or fails in another way promote cannot fix) keeps its out block; the
other blocks of its page are still promoted.

Writing is the parent process's job alone (blocks run in a worker process):
`write_promoted` writes through symlinks, refuses a link leading out of
the paths given, a read-only page, and a page that changed on disk while its
blocks ran; [`write_atomically`][rune.literate.write_atomically] never leaves half a page.
"""

from __future__ import annotations

import bisect
import difflib
import os
import re
import shutil
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .compare import ELLIPSIS, normalize_output, output_matches, require_text
from .isolation import DEFAULT_TIMEOUT, IsolatedPageRunner, WorkerPool
from .parser import (
    Fence,
    LiterateSyntaxError,
    Page,
    PythonBlock,
    check_path,
    split_lines,
)
from .runner import PROMOTABLE, BlockResult, PageRunner  # noqa: F401 -- PageRunner: doctests
from .docstrings import configured_optionflags, parse_source
from .prelude import with_preludes
from .session import parse_session, want_span

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
      edits: the (start, end, new text) edits that turn old_text into
        new_text, in page order.

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
    edits: list[tuple[int, int, str]] = field(default_factory=list)  # (start, end, new text)

    @property
    def failures(self) -> list[BlockResult]:
        """Failed blocks that promote cannot fix by rewriting out blocks."""
        return [r for r in self.results if r.failed and r.outcome not in PROMOTABLE]

    @property
    def changed(self) -> bool:
        """Whether promote would rewrite the page."""
        return self.new_text != self.old_text

    def diff(self) -> str:
        r"""A unified diff from the page as it is to the page as promote writes it.

        difflib's, as ``git diff`` would show it; for a page so large and so
        changed that difflib would take time growing with the page times the
        number of changed blocks, one built from promote's edits (linear).

        >>> import pathlib, tempfile
        >>> from rune.literate import promote_page
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "page.md"
        >>> _ = path.write_text("```python\nprint(2 + 2)\n```\n\n```out\n5\n```\n")
        >>> print(promote_page(path, display_path="page.md").diff(), end="")
        --- a/page.md
        +++ b/page.md
        @@ -3,5 +3,5 @@
         ```
        <BLANKLINE>
         ```out
        -5
        +4
         ```
        """
        if len(self.edits) * self.old_text.count("\n") <= _DIFFLIB_BUDGET:
            return unified_diff(self.old_text, self.new_text, self.path)
        return _edits_diff(self.old_text, self.edits, self.path)


def _edits_diff(old: str, edits: list[tuple[int, int, str]], path: str) -> str:
    """The unified diff of applying ``edits`` to ``old``, as `unified_diff` prints it.

    Only the lines each edit touches are compared (difflib on each), the rest
    is known to be equal: linear in the page for any number of edits, however
    close together.
    """
    lines = split_lines(old)
    starts = [line.start for line in lines]
    old_lines = [_diff_line(line) for line in lines]
    opcodes, new_lines, done = [], [], 0  # done: old lines already accounted for
    for first, last, new_region in _line_regions(old, lines, starts, edits):
        if first > done:
            opcodes.append(("equal", done, first, len(new_lines), len(new_lines) + first - done))
            new_lines += old_lines[done:first]
        region = [_diff_line(line) for line in split_lines(new_region)]
        matcher = difflib.SequenceMatcher(None, old_lines[first:last], region, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            base = len(new_lines)
            opcodes.append((tag, first + i1, first + i2, base + j1, base + j2))
        new_lines += region
        done = last
    if done < len(old_lines):
        opcodes.append(("equal", done, len(old_lines), len(new_lines),
                        len(new_lines) + len(old_lines) - done))
        new_lines += old_lines[done:]
    return _format_diff(old_lines, new_lines, _merge_equal(opcodes), path)


def _merge_equal(opcodes: list) -> list:
    """Join runs of "equal" opcodes, as difflib's grouping expects."""
    merged: list = []
    for opcode in opcodes:
        if merged and opcode[0] == merged[-1][0] == "equal":
            merged[-1] = ("equal", merged[-1][1], opcode[2], merged[-1][3], opcode[4])
        elif opcode[1] != opcode[2] or opcode[3] != opcode[4]:
            merged.append(opcode)
    return merged


def _line_regions(old, lines, starts, edits):
    """Each run of whole lines the edits touch: (first, end, its new text), merged."""
    merged: list[list] = []
    for start, end, replacement in edits:
        first = max(0, bisect.bisect_right(starts, start) - 1)
        last = max(first, bisect.bisect_right(starts, max(start, end - 1)) - 1) + 1
        # Only edits sharing a line are compared together: with context lines
        # added, edits a few lines apart chained into one region as large as
        # the page, and difflib's time grows with its square.
        if merged and first < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], last)
            merged[-1][2].append((start, end, replacement))
        else:
            merged.append([first, last, [(start, end, replacement)]])
    for first, last, group in merged:
        region_start = lines[first].start if lines else 0
        region_end = lines[last - 1].end if lines else 0
        shifted = [(s - region_start, e - region_start, r) for s, e, r in group]
        yield first, last, _apply(old[region_start:region_end], shifted)


_CONTEXT = 3  # lines of a diff's context
# Changed blocks times page lines up to which difflib diffs a page (about a second).
_DIFFLIB_BUDGET = 2_000_000


class _KnownOpcodes(difflib.SequenceMatcher):
    """A SequenceMatcher that groups opcodes already known (for get_grouped_opcodes)."""

    def __init__(self, opcodes: list) -> None:
        super().__init__(None, [], [])
        self.opcodes = opcodes

    def get_opcodes(self) -> list:
        return self.opcodes


def _format_diff(old_lines: list[str], new_lines: list[str], opcodes: list, path: str) -> str:
    if all(tag == "equal" for tag, *_ in opcodes):
        return ""
    out = [f"--- a/{path}\n", f"+++ b/{path}\n"]
    for group in _KnownOpcodes(opcodes).get_grouped_opcodes(_CONTEXT):
        old_range = _hunk_range(group[0][1], group[-1][2])
        new_range = _hunk_range(group[0][3], group[-1][4])
        out.append(f"@@ -{old_range} +{new_range} @@\n")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [" " + line for line in old_lines[i1:i2]]
                continue
            out += ["-" + line for line in old_lines[i1:i2]]
            out += ["+" + line for line in new_lines[j1:j2]]
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in out)


def _hunk_range(start: int, stop: int) -> str:
    """A hunk header's range, as difflib writes it."""
    length = stop - start
    begin = start + 1 if length else start
    return str(begin) if length == 1 else f"{begin},{length}"


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
    old_lines = [_diff_line(line) for line in split_lines(old)]
    new_lines = [_diff_line(line) for line in split_lines(new)]
    lines = []
    for line in difflib.unified_diff(old_lines, new_lines, f"a/{path}", f"b/{path}"):
        if not line.endswith("\n"):
            line += "\n\\ No newline at end of file\n"
        lines.append(line)
    return "".join(lines)


def _diff_line(line) -> str:
    """A line as a diff shows it: its ending kept, but a classic Mac ``\r`` shown as
    ``\n`` (a diff's lines end in ``\n``)."""
    return line.text + ("\n" if line.eol == "\r" else line.eol)


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
    return _apply(page.text, _edits(page, results))


def _edits(page: Page, results: list[BlockResult]) -> list[tuple[int, int, str]]:
    """The (start, end, new text) edits that promote the page, in page order."""
    edits = []
    page_lines = None
    for result in results:
        if result.outcome not in PROMOTABLE:
            continue
        block, output = result.block, normalize_output(result.output)
        if block.session is not None:
            page_lines = page_lines or split_lines(page.text)
            edits += _session_edits(page_lines, block, result.output)
        elif block.out is None:
            edits.append(_insertion(block, output))
        elif output:
            output = _keep_wildcards(block.out.body, output)
            edits.append(_replacement(page, block.out, output))
        else:
            edits.append((block.gap_start, block.out.end, ""))
    edits.sort()
    if edits:
        _verify(page, _apply(page.text, edits), results)
    return edits


def _session_edits(page_lines, block: PythonBlock, output: str) -> list[tuple[int, int, str]]:
    """Edits replacing the expected lines of each example of a session whose
    output changed; the prompts, blank lines and matching examples stay as they are."""
    fence = block.fence
    new_examples, _ = parse_session(tuple(output.split("\n")), *block.prompts)
    edits = []
    for old, new in zip(block.session, new_examples):
        if old.want_lines == new.want_lines:
            continue
        start, end = want_span(old)
        # Body line i is line fence.line + 1 + i of the page (index fence.line + i).
        position = page_lines[fence.line + start].start
        finish = page_lines[fence.line + end - 1].end if end > start else position
        text = "".join(_body_line(fence.prefix, line) + fence.eol for line in new.want_lines)
        edits.append((position, finish, text))
    return edits


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    pieces, position = [], 0
    for start, end, replacement in edits:
        pieces += [text[position:start], replacement]
        position = end
    return "".join(pieces) + text[position:]


def _keep_wildcards(expected: str, output: str) -> str:
    """The new out-block body: ``output``, keeping the ``...`` lines that still match.

    Lines are aligned as a diff would align them; a run of expected lines
    that are all ``...`` wildcard lines stays in place of the output lines
    it covers. When the result would not match, the plain output it is.
    """
    old, new = normalize_output(expected).split("\n"), output.split("\n")
    if ELLIPSIS not in old:
        return output
    old_keys = [object() if line == ELLIPSIS else line for line in old]
    kept = []
    matcher = difflib.SequenceMatcher(None, old_keys, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        kept += old[i1:i2] if tag == "equal" else _changed_run(old[i1:i2], new[j1:j2])
    body = "\n".join(kept)
    return body if output_matches(body, output) else output


def _insertion(block: PythonBlock, output: str) -> tuple[int, int, str]:
    """A new out block after the python block (and its captions and annotation
    list), in its container and style."""
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
    # Inserted before the line ending of the block (or of the caption or
    # annotation list after it), so a page without a final newline still ends
    # without one.
    where = fence.end if block.insert_at is None else block.insert_at
    return where, where, "".join(fence.eol + line for line in lines)


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
    new_blocks = parse_source(text, page.path, page.optionflags).python_blocks
    if len(new_blocks) != len(results):
        raise PromoteError(
            f"{page.path}: promote would change the number of python blocks "
            f"(a bug in rune.literate; the page was left as it was)"
        )
    for result, block in zip(results, new_blocks):
        if result.outcome not in PROMOTABLE:
            continue
        expected = block.fence.body if block.session is not None else (
            block.out.body if block.out else "")
        if not output_matches(expected, result.output):
            raise PromoteError(
                f"{page.path}:{block.line}: the promoted out block does not match "
                f"the output (a bug in rune.literate; the page was left as it was)"
            )


def _changed_run(old: list[str], new: list[str]) -> list[str]:
    """Lines for a run of changed lines: whole-line ``...`` at either end of the
    old run stay, covering the new lines beyond the old run's other lines."""
    wild = [line == ELLIPSIS for line in old]
    lead = wild.index(False) if False in wild else len(old)
    trail = wild[::-1].index(False) if False in wild else 0
    literal = len(old) - lead - trail
    if lead == len(old):  # only wildcards: they still cover whatever is there
        return old
    if (lead and trail) or len(new) < literal or not (lead or trail):
        return new
    if lead:
        return old[:lead] + new[len(new) - literal :]
    return new[:literal] + old[len(old) - trail :]


def promote_page(
    path: str | Path,
    display_path: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    on_step=None,
    pool: WorkerPool | None = None,
) -> PromotedPage:
    r"""Run the page at ``path`` in a worker process and compute its promoted text.

    Nothing is written. Never raises for a bad page: a parse error is recorded
    in the returned [`PromotedPage`][rune.literate.PromotedPage] (whose text is then unchanged), and
    failing blocks are in its ``failures`` (their out blocks stay as they are;
    the other blocks are promoted).

    Args:
      path: the page's file, a str or a pathlib.Path.
      display_path: names the page in messages and diffs (default: ``path``).
      timeout: seconds a block may run unless a directive says otherwise.
      on_step: called with the line of each step as it starts.
      pool: the [`WorkerPool`][rune.literate.WorkerPool] that lends the page
        its worker (default: a worker of its own).

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
        page = with_preludes(parse_source(text, name, configured_optionflags(str(path))), path)
    except LiterateSyntaxError as error:
        return PromotedPage(name, text, text, error=str(error))
    results = IsolatedPageRunner(page, timeout=timeout, on_step=on_step, pool=pool).run_all()
    promoted = PromotedPage(name, text, text, results)
    try:
        promoted.edits = _edits(page, results)
    except (PromoteError, LiterateSyntaxError) as error:
        promoted.error = str(error)
    promoted.new_text = _apply(text, promoted.edits)
    return promoted


def write_promoted(path: str | Path, promoted: PromotedPage, roots: list[Path]) -> str | None:
    """Write a promoted page, or say why not: None when written, else the reason.

    The page is written where a symlink leads (the link stays a link), only
    when that is inside one of ``roots`` (the paths promote was given), only
    when it is writable, and only when it still holds the text its blocks
    were run from.
    """
    name, target = promoted.path, Path(os.path.realpath(path))
    if not any(target == root or root in target.parents for root in roots):
        shown = ", ".join(str(root) for root in roots)
        return (f"{name}: refused: it is a link to {target}, outside the paths given "
                f"({shown}); promote writes only inside them")
    if not os.access(target, os.W_OK) or not os.stat(target).st_mode & stat.S_IWUSR:
        return f"{name}: the page is read-only; nothing written (make it writable and rerun)"
    with open(target, encoding="utf-8", newline="") as file:
        if file.read() != promoted.old_text:
            return (f"{name}: the page changed on disk while its blocks ran; nothing written "
                    f"(rerun promote)")
    try:
        write_atomically(target, promoted.new_text)
    except (OSError, UnicodeError) as error:
        return f"{name}: could not be written, left as it was: {error}"
    return None


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
