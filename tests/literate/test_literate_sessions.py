"""pycon sessions: ``>>>`` prompts run in the page namespace, each followed by its output."""

import pytest

from rune.literate.isolation import IsolatedPageRunner
from rune.literate.parser import LiterateSyntaxError, parse_page
from rune.literate.promote import promote_text
from rune.literate.runner import Outcome, PageRunner

F = "```"


def run(text, path="page.md"):
    return PageRunner(parse_page(text, path)).run_all()


def promoted(text):
    page = parse_page(text, "page.md")
    return promote_text(page, PageRunner(page).run_all())


SESSION = f"""\
{F}python
x = 20
{F}

{F}pycon
>>> x + 1
21
>>> for i in range(2):
...     print(i, x)
0 20
1 20
>>> y = x * 2
>>> print(y)
40
{F}
"""


def test_a_session_runs_in_the_page_namespace_and_passes():
    results = run(SESSION)
    assert [r.outcome for r in results] == [Outcome.PASSED, Outcome.PASSED]


def test_a_session_shares_its_namespace_with_later_python_blocks():
    text = SESSION + f"\n{F}python\nprint(y + 2)\n{F}\n\n{F}out\n42\n{F}\n"
    assert [r.outcome for r in run(text)] == [Outcome.PASSED] * 3


def test_a_wrong_expected_line_fails_with_a_diff_of_the_session():
    text = SESSION.replace("1 20", "1 99")
    result = run(text)[1]
    assert result.outcome is Outcome.MISMATCH
    report = result.report()
    assert report.startswith("page.md:5: the pycon session printed output that differs from its expected output")
    assert "-1 99\n+1 20" in report


def test_sessions_use_doctests_ellipsis_flag_and_the_normalisation_of_out_blocks():
    flagged = "  # doctest: +ELLIPSIS"
    text = (f"{F}pycon\n>>> print('took 0.25 s  '){flagged}\ntook ... s\n"
            f">>> print('a\\nb\\nc'){flagged}\na\n...\n{F}\n")
    assert [r.outcome for r in run(text)] == [Outcome.PASSED]
    assert [r.outcome for r in run(text.replace(flagged, ""))] == [Outcome.MISMATCH]


def test_blank_output_lines_are_written_and_read_as_blankline():
    text = f"{F}pycon\n>>> print('a\\n\\nb')\n{F}\n"
    assert promoted(text) == f"{F}pycon\n>>> print('a\\n\\nb')\na\n<BLANKLINE>\nb\n{F}\n"
    assert run(promoted(text))[0].outcome is Outcome.PASSED


def test_promote_rewrites_only_the_expected_lines_inside_the_session():
    text = (
        f"> {F}pycon\r\n> >>> 1 + 1\r\n> 3\r\n> >>> print('kept ...')\r\n> kept ...\r\n"
        f"> >>> print('new')\r\n> {F}\r\n"
    )
    assert promoted(text) == (
        f"> {F}pycon\r\n> >>> 1 + 1\r\n> 2\r\n> >>> print('kept ...')\r\n> kept ...\r\n"
        f"> >>> print('new')\r\n> new\r\n> {F}\r\n"
    )


def test_a_passing_session_is_left_byte_identical_by_promote():
    assert promoted(SESSION) == SESSION


def test_an_expected_exception_matches_its_last_traceback_line():
    text = (
        f"{F}pycon\n>>> int('x')\nTraceback (most recent call last):\n    ...\n"
        f"ValueError: invalid literal for int() with base 10: 'x'\n>>> print('after')\nafter\n{F}\n"
    )
    assert [r.outcome for r in run(text)] == [Outcome.PASSED]


def test_an_unexpected_exception_fails_with_its_traceback_naming_the_markdown_line():
    text = f"# T\n\n{F}pycon\n>>> x = 1\n>>> 1 / 0\n{F}\n"
    (result,) = run(text)
    assert result.outcome is Outcome.RAISED
    assert 'File "page.md", line 5' in result.traceback
    assert "ZeroDivisionError" in result.traceback
    assert promoted(text) == text  # promote never writes an error it was not shown


def test_a_changed_exception_message_is_promoted():
    text = (
        f"{F}pycon\n>>> int('x')\nTraceback (most recent call last):\n  ...\n"
        f"ValueError: old message\n{F}\n"
    )
    assert run(text)[0].outcome is Outcome.MISMATCH
    assert "ValueError: invalid literal for int() with base 10: 'x'\n" in promoted(text)


def test_the_worker_process_runs_sessions_as_the_runner_does():
    page = parse_page(SESSION.replace("1 20", "1 99"), "page.md")
    assert [r.outcome for r in IsolatedPageRunner(page).run_all()] == [
        Outcome.PASSED,
        Outcome.MISMATCH,
    ]


def test_a_session_without_any_example_is_a_syntax_error():
    with pytest.raises(LiterateSyntaxError, match=r"page.md:2: .*>>>"):
        parse_page(f"{F}pycon\nx = 1\n{F}\n", "page.md")


def test_text_before_the_first_prompt_is_prose_as_in_doctest():
    assert [r.outcome for r in run(f"{F}pycon\nx = 1\n>>> 2\n2\n{F}\n")] == [Outcome.PASSED]


def test_a_session_cannot_have_an_out_block():
    with pytest.raises(LiterateSyntaxError, match="page.md:5: .*pycon session"):
        parse_page(f"{F}pycon\n>>> 1\n1\n{F}\n{F}out\n1\n{F}\n", "page.md")


def test_prompts_in_a_python_block_say_to_use_pycon():
    (result,) = run(f"{F}python\n>>> print(1)\n1\n{F}\n")
    assert result.outcome is Outcome.RAISED
    assert "```pycon" in result.report().split("\n")[0]
