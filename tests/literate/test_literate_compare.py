"""Comparing printed output with out blocks: whitespace and ellipsis rules."""

import pytest

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
        ("id=...", "id=140234\n"),  # ... inside a line
        ("x ... y", "x 1\n2 y\n"),  # ... inside a line also spans lines, like doctest
        ("    ...", "anything\nat all\n"),  # an indented ... line is a whole-line ellipsis
        ("a...b...c", "a1b2c\n"),
        ("[0, 1, ..., 9]", "[0, 1, ..., 9]\n"),  # a literal ... still matches itself
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
