"""The parts of a parsed page: lines, fences, blocks, steps and the page itself.

`rune.literate.parser` builds them; the runner, promote and the plugins
read them. Offsets index the page text exactly as it was read.
"""

from __future__ import annotations

from dataclasses import dataclass

from .session import SHELL_LANGUAGES, Example, prompts_for


class LiterateSyntaxError(ValueError):
    """A page breaks a rule of the literate format.

    ``str(error)`` reads ``path:line: message``; ``path``, ``line`` and
    ``message`` are also attributes.

    Args:
      path: the page's path, as shown in the message.
      line: the line (1-based) of the problem.
      message: what is wrong, and how to fix it.

    >>> str(LiterateSyntaxError("docs/a.md", 3, "unknown directive 'skp'"))
    "docs/a.md:3: unknown directive 'skp'"
    """

    def __init__(self, path: str, line: int, message: str) -> None:
        self.path = path
        self.line = line
        self.message = message
        super().__init__(f"{path}:{line}: {message}")


@dataclass(frozen=True)
class Line:
    """One line of a page: 1-based ``number``, offsets, text without its ending."""

    number: int
    start: int
    content_end: int  # offset just before the line ending
    end: int  # offset just after the line ending
    text: str
    eol: str  # "\n", "\r\n" or "" for a last line without one


@dataclass(frozen=True)
class Fence:
    """A fenced code block, with the offsets promote needs to edit it in place.

    ``body_lines`` are the lines between the fences with the container prefix
    (indentation, ``>`` markers) removed; ``prefix`` is that container prefix.
    ``end`` is the offset just after the closing fence, before its line ending.
    """

    line: int
    end_line: int
    info: str
    language: str
    marker: str  # the opening fence itself, e.g. "```" or "~~~~"
    prefix: str
    start: int
    body_start: int
    body_end: int
    end: int
    eol: str
    body_lines: tuple[str, ...]

    @property
    def body(self) -> str:
        r"""The dedented body, lines joined by ``\n``, without a final newline."""
        return "\n".join(self.body_lines)

    @property
    def code(self) -> str:
        """The dedented body as source code, ending in a newline."""
        return self.body + "\n" if self.body_lines else ""


@dataclass(frozen=True)
class PythonBlock:
    r"""A python fence, the out block that belongs to it, and its directives.

    Attributes:
      fence: the python fence.
      out: its out block, or None.
      skipped_by: the line of the `skip` or `skip start` directive that skips
        it, or None.
      nondeterministic: a `nondeterministic` directive marks it: its output
        is not compared.
      raises: a `raises` directive marks it: it must raise, and its out block
        ends with the exception's last traceback line.
      timeout: the seconds a `timeout` directive gives it, or None.
      skip_condition: the expression of ``skip if CONDITION``, evaluated in the
        page namespace when the block's turn comes: it is skipped only if true.
      skip_reason: the reason of ``skip because REASON``, or None.
      name: the name a ``name`` directive gives it (its pytest id), or None.
      session: for a `pycon` block, its `>>>` examples (which hold their
        expected output: it has no out block); None for a python block.
      gap_start: where the out block's removal begins: the end of the last
        line before it that is not blank, so that removing it also removes
        the blank lines that separated it from the python block (and the
        `out` directive that made a fence of another language its out block).
      insert_at: where promote inserts an out block the block lacks: after the
        captions and the code-annotation list that follow the block (they stay
        with their code), else just after the block (None: there).

    >>> from rune.literate import parse_page
    >>> [block] = parse_page("```python\nprint(1)\n```\n\n```out\n1\n```\n").python_blocks
    >>> block.line, block.fence.code, block.out.body, block.skip
    (1, 'print(1)\n', '1', False)
    """

    fence: Fence
    out: Fence | None
    skipped_by: int | None  # the line of the `skip` or `skip start` that skips it
    nondeterministic: bool
    raises: bool
    gap_start: int
    timeout: float | None = None  # seconds, from a `timeout` directive
    skip_condition: str | None = None  # `skip if CONDITION`: skipped only when it is true
    skip_reason: str | None = None  # `skip because REASON`
    name: str | None = None  # from a `name` directive: its test id
    session: tuple[Example, ...] | None = None  # the examples of a ```pycon block
    insert_at: int | None = None  # where a new out block goes (None: after the fence)

    @property
    def kind(self) -> str:
        """What the block is, as reports name it: "python block" or "pycon session"."""
        if self.session is None:
            return "python block"
        return "shell session" if self.fence.language in SHELL_LANGUAGES else "pycon session"

    @property
    def prompts(self) -> tuple[str, str]:
        """A session's prompt and continuation prompt: `>>>`, `...` or `$`, `>`."""
        return prompts_for(self.fence.language)

    @property
    def skip(self) -> bool:
        """Whether a skip directive applies (a `skip if` skips only when its
        condition is true)."""
        return self.skipped_by is not None

    @property
    def line(self) -> int:
        """The line of the opening fence, which names the block (``page.md::line:12``)."""
        return self.fence.line


@dataclass(frozen=True)
class SetupBlock:
    """An invisible python block written inside ``<!-- literate: setup ... -->``.

    It runs in the page namespace; what it prints is discarded.
    """

    fence: Fence
    line: int  # the line of the comment that holds it
    skip: bool


@dataclass(frozen=True)
class TeardownBlock:
    """An invisible python block written inside ``<!-- literate: teardown ... -->``.

    It runs after the page's last block (failed or not) in the page
    namespace; what it prints is discarded.
    """

    fence: Fence
    line: int  # the line of the comment that holds it
    skip: bool


@dataclass(frozen=True)
class ClearNamespace:
    """``<!-- literate: clear -->``: the page namespace starts afresh here."""

    line: int
    skip: bool


@dataclass(frozen=True)
class Prelude:
    """A ``literate_prelude.py`` of the page's directory or a directory above
    (`rune.literate.prelude`): run in the page's namespace before its first block."""

    path: str  # as tracebacks show it
    code: str


Step = PythonBlock | SetupBlock | TeardownBlock | ClearNamespace


@dataclass(frozen=True)
class Page:
    r"""A parsed page: its exact text and its steps in page order.

    Attributes:
      path: the page's path, as given to `parse_page` (it names the page in
        messages and tests).
      text: the page's text, exactly as read.
      steps: the python blocks, setup blocks and `clear` directives, in page
        order.
      timeout: the seconds a `page timeout` directive gives every block, or None.
      fresh_process: a `fresh process` directive asks for a worker process
        that has run no other page (and runs none after it).
      preludes: the ``literate_prelude.py`` files that run before its first
        block, the outermost first (`rune.literate.prelude`); none unless
        the page was read from a file with them.
      optionflags: the doctest flags configured for its pycon sessions
        (``doctest_optionflags``), doctest's file-wide form; each example's
        own directives change them for that example.

    >>> from rune.literate import parse_page
    >>> page = parse_page("Text.\n\n```python\nx = 1\n```\n", "intro.md")
    >>> page.path, len(page.python_blocks), page.python_blocks[0].line
    ('intro.md', 1, 3)
    """

    path: str
    text: str
    steps: tuple[Step, ...]
    timeout: float | None = None
    fresh_process: bool = False
    preludes: tuple[Prelude, ...] = ()
    optionflags: int = 0  # doctest's file-wide flags for its pycon sessions

    @property
    def python_blocks(self) -> list[PythonBlock]:
        """The visible python blocks, one test each, in page order."""
        return [step for step in self.steps if isinstance(step, PythonBlock)]


def line_texts(text: str) -> list[str]:
    r"""The text of each line of ``text`` without its ending, as `split_lines`
    splits it (its ``Line.text``s, for less than the `Line` objects cost).

    >>> line_texts("a\r\nb\n"), line_texts("a\rb"), line_texts("")
    (['a', 'b'], ['a', 'b'], [])
    """
    separator = "\r" if "\r" in text and "\n" not in text else "\n"
    texts = text.split(separator)
    last = texts.pop()  # after the last line ending: a line without one, or nothing
    if separator == "\n" and "\r" in text:  # "\r\n" endings
        texts = [line[:-1] if line.endswith("\r") else line for line in texts]
    if last:
        texts.append(last)
    return texts


def split_lines(text: str) -> list[Line]:
    r"""Split ``text`` at ``\n`` into `Line` objects with exact offsets.

    A text without any ``\n`` but with ``\r`` has classic Mac line endings:
    it is split at ``\r``, which is then each line's ending.

    >>> [(line.text, line.eol) for line in split_lines("a\r\nb")]
    [('a', '\r\n'), ('b', '')]
    >>> [(line.text, line.eol) for line in split_lines("a\rb\r")]
    [('a', '\r'), ('b', '\r')]
    """
    lines = []
    position = 0
    separator = "\r" if "\r" in text and "\n" not in text else "\n"
    while position < len(text):
        newline = text.find(separator, position)
        if newline == -1:
            end = content_end = len(text)
        else:
            end = newline + 1
            content_end = (
                newline - 1 if newline > position and text[newline - 1] == "\r" else newline
            )
        lines.append(
            Line(
                len(lines) + 1,
                position,
                content_end,
                end,
                text[position:content_end],
                text[content_end:end],
            )
        )
        position = end
    return lines
