"""skip with a reason and a condition, teardown blocks, and named blocks."""

import pytest

from rune.literate.isolation import IsolatedPageRunner
from rune.literate.parser import LiterateSyntaxError, parse_page
from rune.literate.runner import Outcome, PageRunner
from rune.literate.sybil_integration import skip_reason

from test_literate_pytest_plugin import make_project, run_pytest

F = "```"


def run(text, path="page.md"):
    return PageRunner(parse_page(text, path)).run_all()


def outcomes(results):
    return [result.outcome for result in results]


def test_skip_takes_a_reason_which_the_skip_message_names():
    page = parse_page(f"<!-- literate: skip because needs a network -->\n{F}python\nx\n{F}\n", "p.md")
    (block,) = page.python_blocks
    assert outcomes(PageRunner(page).run_all()) == [Outcome.SKIPPED]
    assert skip_reason("p.md", block) == (
        "p.md:2: skipped by the literate directive at line 1: needs a network"
    )


CONDITIONAL = f"""\
{F}python
import sys
flag = True
{F}

<!-- literate: skip if flag because flag is set -->
{F}python
raise RuntimeError("should be skipped")
{F}

<!-- literate: skip if not flag -->
{F}python
print("runs")
{F}

{F}out
runs
{F}
"""


def test_a_condition_evaluated_in_the_page_namespace_decides_the_skip():
    assert outcomes(run(CONDITIONAL)) == [Outcome.PASSED, Outcome.SKIPPED, Outcome.PASSED]


def test_the_worker_process_decides_conditions_as_the_runner_does():
    page = parse_page(CONDITIONAL, "page.md")
    assert outcomes(IsolatedPageRunner(page).run_all()) == [
        Outcome.PASSED,
        Outcome.SKIPPED,
        Outcome.PASSED,
    ]


def test_a_condition_that_raises_fails_the_block_naming_the_directive():
    text = f"<!-- literate: skip if undefined_name -->\n{F}python\nprint(1)\n{F}\n"
    (result,) = run(text)
    assert result.outcome is Outcome.RAISED
    assert "skip condition at line 1" in result.report()
    assert "NameError" in result.report()


def test_a_condition_that_is_not_an_expression_is_a_syntax_error_naming_the_line():
    with pytest.raises(LiterateSyntaxError, match=r"page.md:1: .*skip condition"):
        parse_page(f"<!-- literate: skip if x = 1 -->\n{F}python\nx\n{F}\n", "page.md")


TEARDOWN = f"""\
{F}python
import pathlib, tempfile
marker = pathlib.Path(tempfile.mkdtemp()) / "made"
marker.write_text("x")
{F}

<!-- literate: teardown
{F}python
marker.unlink()
print("hidden")
{F}
-->

{F}python
print(marker.exists())
{F}

{F}out
True
{F}

{F}python
raise ValueError("a failing block")
{F}
"""


def test_teardown_runs_after_the_page_even_when_a_block_failed():
    runner = PageRunner(parse_page(TEARDOWN, "page.md"))
    results = runner.run_all()
    assert outcomes(results) == [Outcome.PASSED, Outcome.PASSED, Outcome.RAISED]
    assert not runner.namespace["marker"].exists()


def test_a_failing_teardown_fails_the_page_last_block():
    text = f"{F}python\nx = 1\n{F}\n\n<!-- literate: teardown\n{F}python\n1 / 0\n{F}\n-->\n"
    (result,) = run(text)
    assert result.outcome is Outcome.TEARDOWN_FAILED
    assert "teardown block at line 5" in result.report()
    assert "ZeroDivisionError" in result.report()


def test_the_worker_runs_teardown_when_only_an_early_block_is_asked_for(tmp_path):
    marker = tmp_path / "made"
    text = (
        f"{F}python\nimport pathlib\npathlib.Path({str(marker)!r}).write_text('x')\n{F}\n\n"
        f"{F}python\nprint(2)\n{F}\n\n"
        f"<!-- literate: teardown\n{F}python\npathlib.Path({str(marker)!r}).unlink()\n{F}\n-->\n"
    )
    page = parse_page(text, "page.md")
    runner = IsolatedPageRunner(page)
    assert runner.run_block(page.python_blocks[0]).outcome is Outcome.PASSED
    runner.close()
    assert not marker.exists()


def test_a_name_directive_names_the_block():
    text = f"# T\n\n<!-- literate: name load-data -->\n{F}python\nx = 1\n{F}\n"
    (block,) = parse_page(text, "page.md").python_blocks
    assert block.name == "load-data"


@pytest.mark.parametrize(
    "names, message",
    [
        (("bad name!",), "letters, digits"),
        (("same", "same"), "already names the block at line"),
        (("line:3",), "letters, digits"),
    ],
)
def test_bad_or_repeated_names_are_errors(names, message):
    text = "".join(f"<!-- literate: name {name} -->\n{F}python\nx = 1\n{F}\n\n" for name in names)
    with pytest.raises(LiterateSyntaxError, match=message):
        parse_page(text, "page.md")


def test_pytest_ids_use_names_and_report_skip_reasons(tmp_path):
    page = (
        f"<!-- literate: name setup-data -->\n{F}python\nimport sys\nx = 1\n{F}\n\n"
        f"{F}python\nprint(x)\n{F}\n\n{F}out\n1\n{F}\n\n"
        f"<!-- literate: skip if x == 1 because x is one -->\n{F}python\nraise SystemExit\n{F}\n"
    )
    project = make_project(tmp_path, files={"docs/page.md": page})
    result = run_pytest(project, "-v", "-rs")
    assert "docs/page.md::setup-data PASSED" in result.stdout, result.stdout
    assert "docs/page.md::line:7 PASSED" in result.stdout
    assert "docs/page.md:16: skipped by the literate directive at line 15: x is one" in (
        result.stdout
    )
