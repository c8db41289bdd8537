"""No false pass from ``...``: an out block's only wildcard is a line that is
exactly ``...``; any other ``...`` is three dots. An inserted, deleted or
changed output line fails unless such a line covers that place."""

import doctest
from pathlib import Path

import pytest

from rune.literate.compare import output_matches
from rune.literate.docstrings import read_source
from rune.literate.session import judge_example

REPO = Path(__file__).resolve().parents[2]
WILDCARD = "..."
MUTANT = "a line no page prints"


def test_dots_inside_a_line_do_not_hide_inserted_lines():
    assert not output_matches("Loading...\ndone", "Loading\nerror: disk full\ndone")


def test_dots_inside_a_line_are_three_dots():
    assert output_matches("Loading...\ndone", "Loading...\ndone")
    assert not output_matches("took ... seconds", "took 0.25 seconds")
    assert not output_matches("[0, 1, ..., 9]", "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]")


def test_a_line_that_is_exactly_dots_matches_any_lines():
    assert output_matches("start\n...\nend", "start\n1\n2\nend")
    assert output_matches("start\n...\nend", "start\nend")
    assert output_matches("...\nend", "a\nb\nend")
    assert not output_matches("start\n...\nend", "start\n1\nnot the end")


def test_an_indented_dots_line_is_text():
    assert not output_matches("start\n  ...\nend", "start\n1\nend")
    assert output_matches("start\n  ...\nend", "start\n  ...\nend")


def _mutants(lines):
    """Every one-line mutant of ``lines``: (mutated lines, the places it touches)."""
    for position in range(len(lines) + 1):
        yield lines[:position] + [MUTANT] + lines[position:], {position - 1, position}
    for position in range(len(lines)):
        yield lines[:position] + lines[position + 1 :], {position - 1, position, position + 1}
        yield lines[:position] + [MUTANT] + lines[position + 1 :], {position}


def _output_of(expected: str) -> tuple[list[str], set[int]]:
    """Output an out block matches (the block passes `check`, so for a block
    without a wildcard it is the block's own text), with each wildcard line
    standing for one line; and the places a wildcard covers."""
    lines = expected.split("\n")
    return lines, {index for index, line in enumerate(lines) if line == WILDCARD}


def _docs_pages():
    return sorted((REPO / "docs").glob("*.md")) + [REPO / "README.md"]


def test_every_one_line_mutant_of_every_out_block_in_the_docs_fails():
    survivors, checked = [], 0
    for path in _docs_pages():
        for block in read_source(path).python_blocks:
            if block.out is None or block.nondeterministic or block.skip:
                continue
            output, covered = _output_of(block.out.body)
            assert output_matches(block.out.body, "\n".join(output))
            for mutant, places in _mutants(output):
                if places & covered:
                    continue  # a wildcard the page wrote covers this place
                checked += 1
                if output_matches(block.out.body, "\n".join(mutant)):
                    survivors.append((f"{path.name}:{block.out.line}", mutant))
    assert checked > 1000
    assert survivors == []


def test_every_one_line_mutant_of_every_session_example_in_the_docs_fails():
    survivors, checked = [], 0
    for path in _docs_pages():
        for block in read_source(path).python_blocks:
            if block.session is None or block.fence.language != "pycon" or block.skip:
                continue
            for example in block.session:
                if example.skipped or example.expects_exception or not example.want_lines:
                    continue
                output = [line if line != "<BLANKLINE>" else "" for line in example.want_lines]
                assert judge_example(example, "\n".join(output) + "\n", None) is None
                # Under the ELLIPSIS the example asks for, a line holding ... covers its place.
                covered = {index for index, line in enumerate(output) if WILDCARD in line
                           and example.optionflags & doctest.ELLIPSIS}
                for mutant, places in _mutants(output):
                    if places & covered:
                        continue
                    checked += 1
                    if judge_example(example, "\n".join(mutant) + "\n", None) is None:
                        survivors.append((f"{path.name}:{block.line}", mutant))
    assert checked > 10
    assert survivors == []


@pytest.mark.parametrize("expected, output", [
    ("a\nLoading...\nb", "a\nLoading\nerror\nb"),
    ("x = ...", "x = 1"),
])
def test_promote_never_turns_literal_dots_into_wildcards(expected, output):
    from rune.literate.promote import _keep_wildcards

    assert _keep_wildcards(expected, output) == output
