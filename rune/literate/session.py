r"""pycon sessions: ``>>>`` examples, each followed by the output it must print.

A ```` ```pycon ```` block is a transcript of the interactive interpreter, as
doctest reads one: a ``>>>`` line (and the ``...`` lines right after it) is
an example's source; the lines after it, up to the next prompt or a blank
line, are its expected output, compared with the same normalisation and
``...`` wildcards as out blocks. A blank output line is written
``<BLANKLINE>``. An example that raises must show the exception: a
``Traceback (most recent call last):`` line, then (usually) ``...`` for the
frames, then the exception's last traceback line.

The runner (`rune.literate.runner`) runs each example in the page's
namespace, in ``single`` mode, so a bare expression prints its repr as in the
interpreter; it renders the session with the actual outputs, which is what
``promote`` writes back as the block's body.
"""

from __future__ import annotations

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
    removed; ``want_lines``: the expected output lines as written.
    """

    first: int
    source_lines: tuple[str, ...]
    source: str
    want_lines: tuple[str, ...]

    @property
    def want(self) -> str:
        """The expected output, ``<BLANKLINE>`` read as an empty line."""
        return "\n".join("" if line.strip() == BLANKLINE else line for line in self.want_lines)

    @property
    def expects_exception(self) -> bool:
        return any(line.strip() == TRACEBACK_HEADER for line in self.want_lines)


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
    body_lines: tuple[str, ...], prompt: str = PROMPT, continuation: str = CONTINUATION
) -> tuple[tuple[Example, ...], int | None]:
    """The examples of a session, and the index of a line that is no part of one
    (text before the first prompt), or None."""
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
