"""Comparing printed output with out blocks: whitespace and wildcard-line rules."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rune.literate.compare import diff_outputs, normalize_output, output_matches


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        ("a\nb", "a\nb\n"),
        ("a   \nb", "a\nb  \n\n\n"),  # trailing whitespace and blank lines at the end
        ("a\r\nb", "a\nb\n"),
        ("", "\n  \n"),
        ("a\n...\nz", "a\nb\nc\nz\n"),  # a whole-line ... matches several lines
        ("a\n...\nz", "a\nz\n"),  # ... and zero lines
        ("...\nz", "z\n"),
        ("a\n...", "a\n"),
        ("[0, 1, ..., 9]", "[0, 1, ..., 9]\n"),  # ... inside a line is text
        ("    ...", "    ...\n"),  # so is an indented ... line
    ],
)
def test_matches(expected, actual):
    assert output_matches(expected, actual)


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        ("a", "b\n"),
        ("a\nb", "b\na\n"),
        ("  a", "a\n"),  # leading whitespace counts
        ("\na", "a\n"),  # so does a leading blank line
        ("a\n...\nz", "a\nb\ny\n"),
        ("id=...!", "id=1\n"),
        ("id=...", "id=140234\n"),  # only a line that is exactly ... is a wildcard
        ("x ... y", "x 1\n2 y\n"),
        ("    ...", "anything\nat all\n"),
        ("a...b...c", "a1b2c\n"),
        ("Loading...\ndone", "Loading\nerror\ndone\n"),  # no line hides under Loading...
        ("", "something\n"),
        ("something", ""),
        ("a\n...\nb\n...\nc", "a\nc\nb\n"),
    ],
)
def test_does_not_match(expected, actual):
    assert not output_matches(expected, actual)


def test_normalize_output():
    assert normalize_output("x \t\r\ny\n\n \n") == "x\ny"
    assert normalize_output("\n\nx") == "\n\nx"


def test_diff_shows_expected_against_actual():
    diff = diff_outputs("one\ntwo\n", "one\nthree\n", "expected (p.md:5)", "actual")
    assert diff.splitlines() == [
        "--- expected (p.md:5)",
        "+++ actual",
        "@@ -1,2 +1,2 @@",
        " one",
        "-two",
        "+three",
    ]


def test_diff_from_nothing():
    assert diff_outputs("", "new\n").splitlines()[-1] == "+new"


def test_many_ellipses_against_long_output_do_not_backtrack():
    # A backtracking regex takes minutes on this; the matcher is linear.
    assert not output_matches("...\na\n...\na\n...\na\n...\nb", "a\n" * 20000)
    assert output_matches("x\n...\nx\n...\ny", "x\n" * 5000 + "y")


def reference_match(expected, actual):
    """The rules as a (slow, backtracking) regex, to check the fast matcher against."""
    expected, actual = normalize_output(expected), normalize_output(actual)
    parts = []
    for line in expected.split("\n"):
        if line == "...":
            parts.append(r"(?:[^\n]*\n)*")
        else:
            parts.append(re.escape(line) + r"\n")
    return re.fullmatch("".join(parts), actual + "\n") is not None


TEXT = st.lists(st.sampled_from(["a", "b", "ab", "", "...", "a...", "...b", " ..."]), max_size=5)


@settings(max_examples=300, deadline=None)
@given(TEXT, TEXT)
def test_the_matcher_agrees_with_the_regex_definition(expected_lines, actual_lines):
    expected, actual = "\n".join(expected_lines), "\n".join(actual_lines)
    assert output_matches(expected, actual) == reference_match(expected, actual)
