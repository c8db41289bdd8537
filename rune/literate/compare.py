"""Compare what a block printed with its out block, and show the difference.

The rules: trailing whitespace at line ends and trailing blank lines are
ignored, and ``...`` matches any text. A line that is only ``...`` matches any
number of whole lines, zero included (as in mdx); ``...`` inside a line matches
any text, across lines too (as doctest's ELLIPSIS does).
"""

from __future__ import annotations

import difflib
import re

ELLIPSIS = "..."


def normalize_output(text: str) -> str:
    r"""Drop trailing whitespace of each line and trailing blank lines; ``\r\n`` becomes ``\n``.

    >>> normalize_output("a  \r\nb\n\n")
    'a\nb'
    """
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def output_matches(expected: str, actual: str) -> bool:
    r"""Whether ``actual`` output satisfies the ``expected`` out-block body.

    >>> output_matches("total: 3", "total: 3   \n\n")
    True
    >>> output_matches("start\n...\nend", "start\n1\n2\nend")
    True
    >>> output_matches("took ... seconds", "took 0.25 seconds")
    True
    >>> output_matches("1", "2")
    False
    """
    expected, actual = normalize_output(expected), normalize_output(actual)
    if expected == actual:
        return True
    if ELLIPSIS not in expected:
        return False
    return _ellipsis_pattern(expected).fullmatch(actual + "\n") is not None


def _ellipsis_pattern(expected: str) -> re.Pattern:
    # Every expected line matches one line of actual output including its "\n",
    # so a line that is only "..." can match zero or more whole lines.
    parts = []
    for line in expected.split("\n"):
        if line.strip() == ELLIPSIS:
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(r"[\s\S]*?".join(map(re.escape, line.split(ELLIPSIS))) + r"\n")
    return re.compile("".join(parts))


def diff_outputs(
    expected: str, actual: str, expected_label: str = "expected", actual_label: str = "actual"
) -> str:
    r"""A unified diff from ``expected`` to ``actual``, after :func:`normalize_output`.

    >>> print(diff_outputs("a\nb", "a\nc"))
    --- expected
    +++ actual
    @@ -1,2 +1,2 @@
     a
    -b
    +c
    """
    expected_lines = normalize_output(expected).split("\n") if expected.strip() else []
    actual_lines = normalize_output(actual).split("\n") if actual.strip() else []
    lines = difflib.unified_diff(
        expected_lines, actual_lines, expected_label, actual_label, lineterm=""
    )
    return "\n".join(lines)
