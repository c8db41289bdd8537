"""Compare what a block printed with its out block, and show the difference.

The rules: output is first normalised
([`normalize_output`][rune.literate.normalize_output]: line endings,
carriage returns, terminal escape sequences, trailing whitespace), then a
line that is exactly ``...`` matches any number of whole lines, zero
included (as in mdx). That is the only wildcard: ``...`` anywhere else is
three dots, so text such as ``Loading...`` can never hide lines inserted
after it. (pycon sessions follow doctest instead: `rune.literate.session`.)
"""

from __future__ import annotations

import difflib
import re

ELLIPSIS = "..."


def require_text(fn: str, **texts) -> None:
    """Raise a TypeError naming `fn` and the argument, unless every text is a str."""
    for name, value in texts.items():
        if not isinstance(value, str):
            raise TypeError(f"{fn}: {name} must be a str, got {type(value).__name__}")


# ANSI/VT100 escape sequences: CSI (colours, cursor moves: ESC [ ... final byte),
# OSC (titles, hyperlinks: ESC ] ... BEL or ESC \\) and the two-byte ones (ESC 7...).
_ESCAPE_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC
    r"|\x1b[ -Z\\-~]"  # two bytes
    r"|\x9b[0-?]*[ -/]*[@-~]"  # CSI as one C1 byte
)


def escape_surrogates(text: str) -> str:
    r"""``text`` as a UTF-8 page or terminal can hold it: each lone surrogate
    becomes its escape, as Python's own ``sys.stderr`` writes it.

    What a block prints is captured through this, so that promote can write
    it and check compares the same text (printed to a UTF-8 terminal, such a
    string raises UnicodeEncodeError; ``\ud800`` is what a reader can see).

    >>> print(escape_surrogates("odd \ud800 char"))
    odd \ud800 char
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def normalize_output(text: str) -> str:
    r"""The one normalisation of output and out blocks, applied to both before comparing.

    In order: ``\r\n`` becomes ``\n``; terminal escape sequences (colours,
    cursor moves, hyperlinks) are removed; a lone ``\r`` returns to the start
    of its line and what follows overwrites what was there, so a progress bar
    is kept as a terminal finally shows it; trailing whitespace of each line
    and trailing blank lines are dropped. promote writes output in this form.

    Args:
      text: what a block printed, or an out block's body.

    Raises:
      TypeError: text is not a str.

    >>> normalize_output("a  \r\nb\n\n")
    'a\nb'
    >>> normalize_output("\r 10%\r100%\n\x1b[32mdone\x1b[0m")
    '100%\ndone'
    """
    require_text("normalize_output", text=text)
    text = _ESCAPE_SEQUENCE.sub("", text.replace("\r\n", "\n"))
    lines = [_overwrite(line).rstrip() if "\r" in line else line.rstrip()
             for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def _overwrite(line: str) -> str:
    """What a terminal shows for a line holding carriage returns."""
    shown = ""
    for part in line.split("\r"):
        shown = part + shown[len(part) :]
    return shown


def output_matches(expected: str, actual: str) -> bool:
    r"""Whether ``actual`` output satisfies the ``expected`` out-block body.

    Trailing whitespace and blank lines are ignored, and a line of ``expected``
    that is exactly ``...`` matches any number of whole lines (none
    included); ``...`` elsewhere is text.

    Args:
      expected: the out block's body.
      actual: what the block printed.

    Raises:
      TypeError: expected or actual is not a str.

    >>> output_matches("total: 3", "total: 3   \n\n")
    True
    >>> output_matches("start\n...\nend", "start\n1\n2\nend")
    True
    >>> output_matches("Loading...\ndone", "Loading\nerror: disk full\ndone")
    False
    >>> output_matches("1", "2")
    False
    """
    require_text("output_matches", expected=expected, actual=actual)
    expected, actual = normalize_output(expected), normalize_output(actual)
    if expected == actual:
        return True
    if ELLIPSIS not in expected.split("\n"):
        return False
    return _wildcard_match(expected, actual)


def _wildcard_match(expected: str, actual: str) -> bool:
    """Match with whole-line ``...`` wildcards, in time linear in the output.

    Both texts are normalized. Every line of ``actual`` is taken to end in
    ``\n``; the expected text becomes runs of literal lines separated by
    wildcards, each run placed at a line start. As in doctest, placing each
    middle run at its leftmost possible position finds a match if there is
    one, with no backtracking.
    """
    text = actual + "\n"
    pieces = [""]
    for line in expected.split("\n"):
        if line == ELLIPSIS:
            pieces.append("")
        else:
            pieces[-1] += line + "\n"
    if not text.startswith(pieces[0]):
        return False
    position = len(pieces[0])
    for piece in pieces[1:-1]:
        position = _find_line_start(text, piece, position)
        if position < 0:
            return False
        position += len(piece)
    last_start = len(text) - len(pieces[-1])
    return last_start >= position and text.endswith(pieces[-1]) and _starts_line(text, last_start)


def _find_line_start(text: str, piece: str, start: int) -> int:
    found = text.find(piece, start)
    while found >= 0 and not _starts_line(text, found):
        found = text.find(piece, found + 1)
    return found


def _starts_line(text: str, position: int) -> bool:
    return position == 0 or text[position - 1] == "\n"


def diff_outputs(
    expected: str, actual: str, expected_label: str = "expected", actual_label: str = "actual"
) -> str:
    r"""A unified diff from ``expected`` to ``actual``, after normalizing both.

    Normalizing is what [`normalize_output`][rune.literate.normalize_output] does.

    Args:
      expected: the out block's body.
      actual: what the block printed.
      expected_label, actual_label: the names on the diff's two header lines.

    Raises:
      TypeError: an argument is not a str.

    >>> print(diff_outputs("a\nb", "a\nc"))
    --- expected
    +++ actual
    @@ -1,2 +1,2 @@
     a
    -b
    +c
    """
    require_text("diff_outputs", expected=expected, actual=actual,
                 expected_label=expected_label, actual_label=actual_label)
    expected_lines = normalize_output(expected).split("\n") if expected.strip() else []
    actual_lines = normalize_output(actual).split("\n") if actual.strip() else []
    lines = difflib.unified_diff(
        expected_lines, actual_lines, expected_label, actual_label, lineterm=""
    )
    return "\n".join(lines)
