r"""Read a markdown page into the steps rune.literate runs, with exact offsets.

This is the one parser behind pytest collection, ``check`` and ``promote``, so
every rule of the format lives here once: what counts as a fence, which out
block belongs to which python block, what the directives mean and which
mistakes are errors. Its first pass, which reads lines as fences, directives
and prose, is `rune.literate.scanner`; this module assembles them into steps.

Offsets index the page text exactly as it was read (``newline=""``, so CRLF
stays CRLF); ``promote`` edits the page through these offsets and never
re-serializes it. A line ends at ``\n`` only; a ``\r`` before it belongs to
the line ending (a page without any ``\n`` has ``\r`` line endings).
"""

from __future__ import annotations

import os
from pathlib import Path

from .compare import require_text
from .page import (  # noqa: F401 -- re-exported: the parser's results
    ClearNamespace,
    Fence,
    Line,
    LiterateSyntaxError,
    Page,
    Prelude,
    PythonBlock,
    SetupBlock,
    Step,
    TeardownBlock,
    split_lines,
)
from .scanner import (  # noqa: F401 -- DIRECTIVES and fence_language re-exported
    BETWEEN_DIRECTIVES,
    BLOCK_DIRECTIVES,
    BYTE_ORDER_MARK,
    DIRECTIVES,
    OUT_LANGUAGE,
    PYTHON_LANGUAGES,
    UNRUNNABLE_PYTHON,
    Directive,
    Other,
    Scanner,
    attached_end,
    caption_end,
    fence_language,
    introduction_end,
    is_prose,
)
from .session import (
    PYCON_LANGUAGES,
    SHELL_LANGUAGES,
    Example,
    SessionSyntaxError,
    parse_session,
    prompts_for,
)

class _Assembler:
    """Second pass: attach out blocks and directives to python blocks."""

    def __init__(self, tokens: list, path: str, optionflags: int = 0) -> None:
        self.tokens = tokens
        self.path = path
        self.optionflags = optionflags  # doctest's file-wide flags, for pycon sessions
        self.pending: list[Directive] = []  # directives waiting for the next python block
        self.skip_start: int | None = None  # line of an open `skip start`
        self.page_timeout: Directive | None = None
        self.names: dict[str, int] = {}  # block names given so far, and their lines
        self.shell = False  # a `shell` directive came: shell blocks run
        self.fresh_process = False  # a `fresh process` directive came

    def error(self, line: int, message: str) -> LiterateSyntaxError:
        return LiterateSyntaxError(self.path, line, message)

    def steps(self) -> list[Step]:
        steps: list[Step] = []
        index = 0
        while index < len(self.tokens):
            token = self.tokens[index]
            index += 1
            if isinstance(token, Directive):
                if token.name == "out":  # one that python_block did not take
                    raise self.misplaced_out(token, self.tokens[index : index + 1])
                step = self.directive(token)
                if step is not None:
                    steps.append(step)
            elif isinstance(token, (SetupBlock, TeardownBlock)):
                self.expect_no_pending(token)
                steps.append(type(token)(token.fence, token.line, skip=self.skip_start is not None))
            elif isinstance(token, Other) and token.comment:
                continue  # an HTML comment may stand between a directive and its block
            elif isinstance(token, Other):
                self.expect_no_pending(token)
            elif (token.language in PYTHON_LANGUAGES or token.language in PYCON_LANGUAGES
                  or (self.shell and token.language in SHELL_LANGUAGES)):
                block, index = self.python_block(token, index)
                steps.append(block)
            elif token.language in UNRUNNABLE_PYTHON:
                raise self.error(
                    token.line,
                    f"the {token.marker}{token.language} fence names Python but rune.literate "
                    f"runs only {', '.join(sorted(PYTHON_LANGUAGES))}: write one of those to "
                    f"test it, or ```text to show it without running it",
                )
            elif token.language == OUT_LANGUAGE:
                before = (
                    _describe(self.tokens[index - 2]) if index >= 2 else "the start of the page"
                )
                raise self.error(
                    token.line,
                    f"this out block does not follow a python block (it comes after {before}); "
                    f"only blank lines, HTML comments, literate directives, a caption, a "
                    f"code-annotation list and a line ending in ':' may stand between a python "
                    f"block and its out block",
                )
            else:
                self.expect_no_pending(token)
        if self.pending:
            first = self.pending[0]
            raise self.error(
                first.line.number,
                f"the `{first.name}` directive is not followed by any python block",
            )
        if self.skip_start is not None:
            raise self.error(self.skip_start, "`skip start` has no matching `skip end` after it")
        return steps

    def directive(self, token: Directive) -> ClearNamespace | None:
        name, line = token.name, token.line.number
        if name in BLOCK_DIRECTIVES:
            self.pending.append(token)
            return None
        self.expect_no_pending(token)
        if name == "skip start":
            if self.skip_start is not None:
                raise self.error(
                    line,
                    f"`skip start` inside the skip region already started at "
                    f"line {self.skip_start}; expected `skip end` first",
                )
            self.skip_start = line
        elif name == "skip end":
            if self.skip_start is None:
                raise self.error(line, "`skip end` without a `skip start` before it")
            self.skip_start = None
        elif name == "shell":
            self.shell = True
        elif name == "fresh process":
            self.fresh_process = True
        elif name == "page timeout":
            if self.page_timeout is not None:
                raise self.error(line, f"a second `page timeout`: the page already has one at "
                                       f"line {self.page_timeout.line.number}")
            self.page_timeout = token
        else:  # clear
            return ClearNamespace(line=line, skip=self.skip_start is not None)
        return None

    def misplaced_out(self, token: Directive, following: list) -> LiterateSyntaxError:
        if following and isinstance(following[0], Fence):
            problem = (
                f"it marks {_describe(following[0])} as the out block of a python block, but "
                f"no python block comes before it"
            )
        else:
            found = _describe(following[0]) if following else "the end of the page"
            problem = f"it marks the fence right after it as an out block, but next comes {found}"
        return self.error(
            token.line.number,
            f"misplaced `out` directive: {problem}; write it after a python block (blank lines "
            f"and the nondeterministic and raises directives may stand between), right before "
            f"the fence that holds that block's output",
        )

    def expect_no_pending(self, found: object) -> None:
        if self.pending:
            first = self.pending[0]
            raise self.error(
                first.line.number,
                f"the `{first.name}` directive must be followed by a python block (blank "
                f"lines, HTML comments and other directives may stand between), but next comes "
                f"{_describe(found)}",
            )

    def python_block(self, fence: Fence, index: int) -> tuple[PythonBlock, int]:
        # Captions and a code-annotation list right after the block stay with it:
        # a new out block goes after them.
        attached = attached_end(self.tokens, index, fence)
        insert_at = self.tokens[attached - 1].end if attached > index else fence.end
        out, between, gap_start, lookahead = self.find_out(attached, insert_at)
        session = self.session(fence)
        if out is not None:
            if session is not None:
                raise self.error(
                    out.line,
                    f"this out block follows the pycon session at line {fence.line}, which "
                    f"holds its own expected output after each >>> prompt; remove the out block",
                )
            for directive in between:
                if directive.name not in BETWEEN_DIRECTIVES:
                    raise self.error(
                        directive.line.number,
                        f"`{directive.name}` cannot stand between the python block at line "
                        f"{fence.line} and its out block at line {out.line}; only "
                        f"nondeterministic, raises and out can",
                    )
            if any(directive.name == "out" for directive in between):
                self.expect_out_last(between, out, self.tokens[lookahead - 1])
                between = between[:-1]  # the `out` directive goes with its fence
            self.pending.extend(between)
            index = lookahead + 1
        names = {directive.name for directive in self.pending}
        skip = next((d for d in self.pending if d.name == "skip"), None)
        skips = [skip.line.number if skip else None, self.skip_start]
        conditional = skip is not None and self.skip_start is None
        timeouts = [d.seconds for d in self.pending if d.name == "timeout"]
        if session is not None and "raises" in names:
            raise self.error(
                next(d.line.number for d in self.pending if d.name == "raises"),
                f"`raises` does not apply to the pycon session at line {fence.line}: show the "
                f"exception in the session instead (a 'Traceback (most recent call last):' "
                f"line, '...', then its last line)",
            )
        name = self.block_name(fence)
        self.pending = []
        block = PythonBlock(
            fence=fence,
            out=out,
            skipped_by=next((line for line in skips if line is not None), None),
            nondeterministic="nondeterministic" in names,
            raises="raises" in names,
            gap_start=gap_start,
            timeout=timeouts[-1] if timeouts else None,
            session=session,
            skip_condition=skip.condition if conditional else None,
            skip_reason=skip.reason if skip else None,
            name=name,
            insert_at=insert_at,
        )
        return block, index

    def find_out(self, index: int, after: int) -> tuple[Fence | None, list[Directive], int, int]:
        """The out block from ``tokens[index]`` on: (the fence or None, the
        directives before it, where its removal begins, its index).

        Directives, HTML comments and one caption (or a line introducing the
        output, as "Output:") may stand before it; ``after`` is where the text before
        them ends. Its removal begins after the last of them that stays: the
        `out` directive that marks it goes with it.
        """
        between: list[Directive] = []
        gap_start, captioned = after, False
        while index < len(self.tokens):
            token = self.tokens[index]
            if isinstance(token, Directive):
                between.append(token)
                if token.name != "out":
                    gap_start = token.line.content_end
                index += 1
            elif isinstance(token, Other) and token.comment:
                gap_start = token.end
                index += 1
            elif is_prose(token) and not captioned:
                end = caption_end(self.tokens, index) or introduction_end(self.tokens, index)
                if end is None:
                    break
                captioned, gap_start, index = True, self.tokens[end - 1].end, end
            else:
                break
        following = self.tokens[index] if index < len(self.tokens) else None
        marked = any(directive.name == "out" for directive in between)
        if isinstance(following, Fence) and (following.language == OUT_LANGUAGE or marked):
            return following, between, gap_start, index
        return None, [], after, index

    def block_name(self, fence: Fence) -> str | None:
        """The name a pending `name` directive gives the block; names are unique."""
        directive = next((d for d in reversed(self.pending) if d.name == "name"), None)
        if directive is None:
            return None
        name = directive.argument
        if name in self.names:
            raise self.error(
                directive.line.number,
                f"the name {name!r} already names the block at line {self.names[name]}; "
                f"each block's name must be unique on its page",
            )
        self.names[name] = fence.line
        return name

    def session(self, fence: Fence) -> tuple[Example, ...] | None:
        """The examples of a pycon fence (None for a python fence)."""
        if fence.language not in PYCON_LANGUAGES | SHELL_LANGUAGES:
            return None
        prompt, _ = prompts_for(fence.language)
        try:
            examples, stray = parse_session(fence.body_lines, *prompts_for(fence.language),
                                            optionflags=self.optionflags)
        except SessionSyntaxError as error:
            raise self.error(fence.line + 1 + error.index,
                             f"doctest cannot read this line of the {fence.language} session "
                             f"opened at line {fence.line}: it {error.reason}") from None
        if stray is not None:
            raise self.error(
                fence.line + 1 + stray,
                f"this line of the {fence.language} session opened at line {fence.line} is "
                f"neither a {prompt} prompt nor output following one (output ends at a blank "
                f"line; write a blank output line as <BLANKLINE>); start the session with a "
                f"{prompt} prompt",
            )
        return examples

    def expect_out_last(self, between: list[Directive], out: Fence, before: object) -> None:
        """`out` stands right before its fence (``before`` is what stands there), so
        that removing the out block removes it too."""
        marker = next(directive for directive in between if directive.name == "out")
        if before is not marker:
            raise self.error(
                marker.line.number,
                f"only blank lines may stand between the `out` directive and the fence "
                f"it marks at line {out.line}, but {_describe(before)} comes between; "
                f"put it before the `out` directive",
            )


def _describe(token: object) -> str:
    """Name a token for an error message: what was found, and where."""
    if isinstance(token, Directive):
        return f"the `{token.name}` directive at line {token.line.number}"
    if isinstance(token, Other):
        what = "an HTML comment" if token.comment else "text"
        return f"{what} at line {token.line.number}"
    if isinstance(token, (SetupBlock, TeardownBlock)):
        kind = "setup" if isinstance(token, SetupBlock) else "teardown"
        return f"a {kind} block at line {token.line}"
    return f"a {token.marker}{token.language} block at line {token.line}"


def parse_page(text: str, path: str = "<page>", optionflags: int = 0) -> Page:
    r"""Parse markdown ``text`` into a [`Page`][rune.literate.Page].

    Args:
      text: the page's markdown.
      path: names the page in error messages and test ids.
      optionflags: doctest flags for every example of its pycon sessions
        (the configured ``doctest_optionflags``, which ``check``, ``promote``
        and the pytest plugin read).

    Raises:
      LiterateSyntaxError: naming the line of the first problem: an
        unterminated fence, an out block that follows no python block, an
        unknown or misplaced directive, an unbalanced ``skip start``/``skip end``.
      TypeError: text or path is not a str.

    >>> page = parse_page("```python\nprint(1)\n```\n\n```out\n1\n```\n")
    >>> [(block.line, block.fence.code, block.out.body) for block in page.python_blocks]
    [(1, 'print(1)\n', '1')]
    >>> try:
    ...     parse_page("```out\n1\n```\n", "a.md")
    ... except LiterateSyntaxError as error:
    ...     print(str(error).split(";")[0])
    a.md:1: this out block does not follow a python block (it comes after the start of the page)
    """
    require_text("parse_page", text=text, path=path)
    tokens = Scanner(text, path).tokens()
    assembler = _Assembler(tokens, path, optionflags)
    steps = tuple(assembler.steps())
    timeout = assembler.page_timeout.seconds if assembler.page_timeout else None
    return Page(path=path, text=text, steps=steps, timeout=timeout,
                fresh_process=assembler.fresh_process, optionflags=optionflags)


def read_page(path: str | Path) -> Page:
    r"""Read and parse the page at ``path`` (UTF-8, line endings kept as they are).

    Args:
      path: the page's file, a str or a pathlib.Path.

    Raises:
      LiterateSyntaxError: as [`parse_page`][rune.literate.parse_page] does.
      OSError: the file cannot be read.
      UnicodeDecodeError: the file is not UTF-8 text.
      TypeError: path is not a str or a path.

    >>> import pathlib, tempfile
    >>> from rune.literate import read_page
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "page.md"
    >>> _ = path.write_text("```python\nprint(1)\n```\n")
    >>> len(read_page(path).python_blocks)
    1
    """
    check_path("read_page", path)
    with open(path, encoding="utf-8", newline="") as file:
        return parse_page(file.read(), str(path))


def check_path(fn: str, path) -> None:
    """Raise a TypeError naming `fn` unless `path` is a str or a path (`open(5)`
    would read file descriptor 5)."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{fn}: path must be a str or a pathlib.Path, got {type(path).__name__}")
