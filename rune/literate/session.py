r"""pycon sessions: ``>>>`` examples, each followed by the output it must print.

A ```` ```pycon ```` block (or a docstring's examples) means exactly what
CPython's doctest makes of it: doctest's own parser reads the examples (a
``>>>`` line and the ``...`` lines right after it; the lines after them, up
to a prompt or a blank line, are the expected output; other text is prose,
and a ``>>>`` line holding only a comment is no example), and doctest's own
output checker judges each one, with the option flags in force (``#
doctest: +ELLIPSIS``...). So ``...`` is a wildcard only under ELLIPSIS, and an
example that raises passes when its expected output starts with a
``Traceback (most recent call last):`` line and its last lines are the
exception's message (printed output before it is not compared). rune adds
one thing: both sides first get the normalisation of out blocks (line
endings, terminal escapes, trailing whitespace), which doctest does not do.

Shell sessions (``$`` prompts) are read by `parse_session`'s own rule below
and compared as out blocks are.

The runner (`rune.literate.runner`) runs each example in the page's
namespace, in ``single`` mode, so a bare expression prints its repr as in the
interpreter; it renders the session with the actual outputs, which is what
``promote`` writes back as the block's body.
"""

from __future__ import annotations

import functools
import re
import traceback
from dataclasses import dataclass

from .compare import normalize_output, output_matches

PYCON_LANGUAGES = frozenset({"pycon"})
# Run on a page with a `shell` directive: cram-style `$ ` prompts, `> ` continuations.
SHELL_LANGUAGES = frozenset({"console", "bash", "sh", "shell"})
PROMPT, CONTINUATION = ">>>", "..."
SHELL_PROMPTS = ("$", ">")
BLANKLINE = "<BLANKLINE>"
TRACEBACK_HEADER = "Traceback (most recent call last):"


@dataclass(frozen=True)
class Example:
    """One ``>>>`` example of a session.

    ``first``: the index, in the fence's body lines, of its ``>>>`` line;
    ``source_lines``: its prompt lines as written; ``source``: its code, prompts
    removed; ``want_lines``: the expected output lines as written. For a pycon
    example, ``doctest`` is doctest's reading of it and ``optionflags`` the
    doctest flags in force for it (the file-wide ones, then its own).
    """

    first: int
    source_lines: tuple[str, ...]
    source: str
    want_lines: tuple[str, ...]
    doctest: doctest.Example | None = None
    optionflags: int = 0

    @property
    def want(self) -> str:
        """The expected output, ``<BLANKLINE>`` read as an empty line."""
        return "\n".join("" if line.strip() == BLANKLINE else line for line in self.want_lines)

    @property
    def expects_exception(self) -> bool:
        """Whether doctest reads the expected output as a traceback."""
        return self.doctest is not None and self.doctest.exc_msg is not None

    @property
    def skipped(self) -> bool:
        """Whether doctest's SKIP flag is on: the example neither runs nor is promoted."""
        import doctest  # here: a worker that runs no session never imports it (17 ms)

        return bool(self.optionflags & doctest.SKIP)


class SessionSyntaxError(ValueError):
    """doctest cannot read a session; ``index`` is the body line at fault."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(reason)
        self.index = index
        self.reason = reason


def is_prompt(line: str, prompt: str = PROMPT) -> bool:
    """Whether ``line`` is a ``>>>`` (or ``...``) prompt line.

    >>> is_prompt(">>> x"), is_prompt(">>>"), is_prompt(">>>x"), is_prompt("... y", "...")
    (True, True, False, True)
    """
    return line == prompt or line.startswith(prompt + " ")


def prompts_for(language: str) -> tuple[str, str]:
    """The prompt and continuation prompt of a session in ``language``."""
    return SHELL_PROMPTS if language in SHELL_LANGUAGES else (PROMPT, CONTINUATION)


def parse_session(
    body_lines: tuple[str, ...], prompt: str = PROMPT, continuation: str = CONTINUATION,
    optionflags: int = 0,
) -> tuple[tuple[Example, ...], int | None]:
    """The examples of a session, and the index of a line that is no part of one
    (text before the first prompt; for pycon, only in a session without examples),
    or None. ``optionflags``: the file-wide doctest flags of a pycon session.

    Raises:
      SessionSyntaxError: doctest cannot read the pycon session.
    """
    if prompt == PROMPT:
        return _parse_doctest(body_lines, optionflags)
    examples = []
    index = 0
    while index < len(body_lines) and not body_lines[index].strip():
        index += 1
    while index < len(body_lines):
        if not is_prompt(body_lines[index], prompt):
            return tuple(examples), index
        first = index
        index += 1
        while index < len(body_lines) and is_prompt(body_lines[index], continuation):
            index += 1
        source_lines = body_lines[first:index]
        want_start = index
        while (index < len(body_lines) and body_lines[index].strip()
               and not is_prompt(body_lines[index], prompt)):
            index += 1
        examples.append(Example(
            first=first,
            source_lines=tuple(source_lines),
            source="".join(line[len(prompt) + 1 :] + "\n" for line in source_lines),
            want_lines=tuple(body_lines[want_start:index]),
        ))
        while index < len(body_lines) and not body_lines[index].strip():
            index += 1
    return tuple(examples), None


_CONTINUATION = re.compile(r" *\.\.\.")  # as doctest.DocTestParser._EXAMPLE_RE reads them
_DOCTEST_LINE = re.compile(r"^line (\d+) of the \w+ for \S+ ")


def _parse_doctest(body_lines, optionflags: int) -> tuple[tuple[Example, ...], int | None]:
    """The examples doctest's parser finds in a pycon session."""
    import doctest  # here: a worker that runs no session never imports it (17 ms)

    text = "".join(line + "\n" for line in body_lines)
    try:
        parsed = doctest.DocTestParser().get_examples(text, "session")
    except ValueError as error:
        found = _DOCTEST_LINE.match(str(error))
        # doctest counts lines from 1, except in this one message.
        from_zero = "option directive on a line with no example" in str(error)
        index = int(found[1]) - (0 if from_zero else 1) if found else 0
        raise SessionSyntaxError(index, _DOCTEST_LINE.sub("", str(error))) from None
    examples = []
    for example in parsed:
        source_end = example.lineno + 1  # then the lines doctest's regex reads as "..." lines
        while source_end < len(body_lines) and _CONTINUATION.match(body_lines[source_end]):
            source_end += 1
        want_end = source_end + example.want.count("\n")
        flags = optionflags
        for flag, on in example.options.items():
            flags = flags | flag if on else flags & ~flag
        examples.append(Example(
            first=example.lineno, source_lines=tuple(body_lines[example.lineno : source_end]),
            source=example.source, want_lines=tuple(body_lines[source_end:want_end]),
            doctest=example, optionflags=flags,
        ))
    if examples:
        return tuple(examples), None
    stray = next((i for i, line in enumerate(body_lines)
                  if line.strip() and not is_prompt(line.lstrip())), None)
    return (), stray


@functools.cache
def _checker():
    import doctest  # here: a worker that runs no session never imports it (17 ms)

    return doctest.OutputChecker()


def judge_example(example: Example, printed: str, error: BaseException | None):
    """doctest's verdict on a pycon example that printed ``printed`` and raised
    ``error`` (or None): None when it passes, else its new expected lines.

    The new lines of an example expecting an exception keep its traceback
    header and frames lines as written and replace only the message; printed
    output before an exception is not compared, as in doctest.
    """
    import doctest  # here: a worker that runs no session never imports it (17 ms)

    flags, want, checker = example.optionflags, example.doctest, _checker()
    if error is None:
        if checker.check_output(_as_doctest(want.want), _as_doctest(printed), flags):
            return None
        return _render_doctest(printed)
    message = traceback.format_exception_only(type(error), error)[-1]
    if checker.check_output(_as_doctest(want.exc_msg), _as_doctest(message), flags):
        return None
    if flags & doctest.IGNORE_EXCEPTION_DETAIL and checker.check_output(
            doctest._strip_exception_details(_as_doctest(want.exc_msg)),  # noqa: SLF001
            doctest._strip_exception_details(_as_doctest(message)), flags):  # noqa: SLF001
        return None
    kept = len(example.want_lines) - want.exc_msg.count("\n")
    return list(example.want_lines[:kept]) + _render_doctest(message)


def _as_doctest(text: str) -> str:
    """Each line normalised as out blocks' lines are; blank lines at the end are
    kept, since doctest compares them."""
    return "\n".join(normalize_output(line) for line in text.split("\n"))


def _render_doctest(output: str) -> list[str]:
    """Output lines as expected lines that doctest reads back as that output."""
    text = _as_doctest(output)
    lines = text[:-1].split("\n") if text.endswith("\n") else text.split("\n")
    return [line or BLANKLINE for line in lines] if text else []


def render_output(output: str) -> list[str]:
    """Output lines as a session shows them: an empty line is ``<BLANKLINE>``."""
    text = normalize_output(output)
    return [line or BLANKLINE for line in text.split("\n")] if text else []


def example_matches(example: Example, actual: str) -> bool:
    """Whether what an example printed satisfies its expected lines."""
    return output_matches(example.want, actual)


def want_span(example: Example) -> tuple[int, int]:
    """The body-line indices [start, end) of an example's expected lines."""
    start = example.first + len(example.source_lines)
    return start, start + len(example.want_lines)


def render_session(body_lines: tuple[str, ...], examples, new_wants) -> str:
    """The session's body with each example's expected lines replaced by
    ``new_wants`` (one list of lines per example; None keeps them)."""
    lines = list(body_lines)
    for example, want in reversed(list(zip(examples, new_wants))):
        if want is not None:
            start, end = want_span(example)
            lines[start:end] = want
    return "\n".join(lines) + "\n"
