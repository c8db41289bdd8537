"""Running pages: one namespace, exact output, tracebacks with markdown lines."""

import pytest

import rune.literate
from rune.literate.parser import parse_page, read_page
from rune.literate.runner import Outcome, PageRunner, exception_summary

F = "```"


def run(text, path="page.md"):
    return PageRunner(parse_page(text, path)).run_all()


def outcomes(results):
    return [result.outcome for result in results]


@pytest.mark.parametrize(
    "name",
    [
        "passing.md",
        "containers.md",
        "tildes.md",
        "nested_fence.md",
        "attributes.md",
        "crlf.md",
        "no_final_newline.md",
        "ellipsis.md",
        "raises.md",
        "directives.md",
        "mermaid.md",
    ],
)
def test_passing_fixtures_pass(fixtures_dir, name):
    results = PageRunner(read_page(fixtures_dir / name)).run_all()
    assert results, "a passing fixture must have blocks"
    assert [r.report() for r in results if r.failed] == []
    assert all(r.outcome is Outcome.PASSED for r in results)


def test_blocks_share_one_namespace_and_run_in_order():
    results = run(
        f"{F}python\nx = [1]\n{F}\n\n{F}python\nx.append(2)\nprint(x)\n{F}\n\n{F}out\n[1, 2]\n{F}\n"
    )
    assert outcomes(results) == [Outcome.PASSED, Outcome.PASSED]
    assert results[1].output == "[1, 2]\n"


def test_a_differing_out_block_fails_with_a_diff_naming_page_and_lines():
    (result,) = run(f"# T\n\n{F}python\nprint('a')\nprint('b')\n{F}\n\n{F}out\na\nc\n{F}\n")
    assert result.outcome is Outcome.MISMATCH
    report = result.report()
    assert report.startswith("page.md:3: the python block printed output that differs")
    assert "--- expected (page.md:8)\n+++ actual\n" in report
    assert "-c\n+b" in report


def test_printing_without_an_out_block_fails_and_asks_for_promote(fixtures_dir):
    (result,) = PageRunner(read_page(fixtures_dir / "missing_out.md")).run_all()
    assert result.outcome is Outcome.MISSING_OUT
    assert "printed output but has no out block; run promote" in result.report()
    assert "+surprise" in result.report()


def test_an_unexpected_exception_shows_a_traceback_with_markdown_lines(fixtures_dir):
    page = read_page(fixtures_dir / "raises_unmarked.md")
    definition, call = PageRunner(page, display_path="docs/raises.md").run_all()
    assert definition.outcome is Outcome.PASSED
    assert call.outcome is Outcome.RAISED
    report = call.report()
    assert report.startswith("docs/raises.md:10: the python block raised an exception")
    assert 'File "docs/raises.md", line 12, in <module>\n    print(divide(1, 0))' in report
    assert 'File "docs/raises.md", line 5, in divide\n    return a / b' in report
    assert report.count("ZeroDivisionError: division by zero") == 1
    assert "It printed, before raising:\n    about to divide" in report
    assert "runner.py" not in report


def test_traceback_lines_and_source_for_an_indented_block():
    text = f"1. Item\n\n    {F}python\n    y = 1\n    y.nope\n    {F}\n"
    (result,) = run(text)
    assert "line 5, in <module>\n    y.nope\n" in result.traceback
    assert "AttributeError: 'int' object has no attribute 'nope'" in result.traceback


def test_a_syntax_error_names_its_markdown_line():
    (result,) = run(f"text\n\n{F}python\nx = 1\nx = = 2\n{F}\n")
    assert result.outcome is Outcome.RAISED
    assert 'File "page.md", line 5' in result.traceback
    assert "SyntaxError" in result.traceback


def test_a_block_marked_raises_passes_with_the_exception_line_in_its_out_block(fixtures_dir):
    (result,) = PageRunner(read_page(fixtures_dir / "raises.md")).run_all()
    assert result.outcome is Outcome.PASSED
    assert result.output == (
        "before the error\nValueError: invalid literal for int() with base 10: 'seven'\n"
    )


def test_a_block_marked_raises_fails_when_its_out_block_names_another_error():
    (result,) = run(
        f"<!-- literate: raises -->\n{F}python\n{{}}['k']\n{F}\n\n{F}out\nValueError: 'k'\n{F}\n"
    )
    assert result.outcome is Outcome.MISMATCH
    assert "+KeyError: 'k'" in result.report()


def test_a_block_marked_raises_that_does_not_raise_fails():
    (result,) = run(f"<!-- literate: raises -->\n{F}python\nprint('fine')\n{F}\n")
    assert result.outcome is Outcome.DID_NOT_RAISE
    report = result.report()
    assert "is marked `<!-- literate: raises -->` but raised no exception" in report
    assert "It printed:\n    fine" in report


def test_exception_summary_is_the_last_traceback_line():
    class Custom(Exception):
        pass

    assert exception_summary(KeyError("k")) == "KeyError: 'k'"
    assert exception_summary(RuntimeError()) == "RuntimeError"
    assert exception_summary(Custom("x")).endswith("Custom: x")
    assert exception_summary(SyntaxError("bad", ("f.md", 3, 1, "x = =\n"))) == "SyntaxError: bad"


def test_exceptions_of_classes_defined_on_the_page_have_short_names():
    text = (
        f"<!-- literate: raises -->\n{F}python\nclass Oops(Exception):\n    pass\n"
        f"raise Oops('no')\n{F}\n\n{F}out\nOops: no\n{F}\n"
    )
    assert outcomes(run(text)) == [Outcome.PASSED]


def test_system_exit_is_a_failure_not_the_end_of_the_run():
    first, second = run(f"{F}python\nimport sys\nsys.exit(3)\n{F}\n\n{F}python\nx = 1\n{F}\n")
    assert first.outcome is Outcome.RAISED and "SystemExit: 3" in first.traceback
    assert second.outcome is Outcome.PASSED


def test_skipped_blocks_do_not_run(fixtures_dir):
    results = PageRunner(read_page(fixtures_dir / "skip.md")).run_all()
    assert outcomes(results) == [Outcome.SKIPPED] * 3 + [Outcome.PASSED]
    assert results[-1].output == "False\n"  # `ran = True` inside skip start/end never ran


def test_nondeterministic_output_is_not_compared():
    text = f"<!-- literate: nondeterministic -->\n{F}python\nprint(object())\n{F}\n\n{F}out\nstale\n{F}\n"
    assert outcomes(run(text)) == [Outcome.PASSED]
    text = f"<!-- literate: nondeterministic -->\n{F}python\nprint(object())\n{F}\n"
    assert outcomes(run(text)) == [Outcome.PASSED]


def test_a_nondeterministic_block_that_raises_still_fails():
    text = f"<!-- literate: nondeterministic -->\n{F}python\n1 / 0\n{F}\n"
    assert outcomes(run(text)) == [Outcome.RAISED]


def test_setup_runs_invisibly_and_clear_empties_the_namespace(fixtures_dir):
    results = PageRunner(read_page(fixtures_dir / "directives.md")).run_all()
    assert results[0].output == "42\n"  # setup's own print is discarded
    assert results[2].output == "False\n"


def test_a_failing_setup_block_fails_the_blocks_after_it():
    text = (
        f"<!-- literate: setup\n{F}python\nimport not_a_module_anywhere\n{F}\n-->\n\n"
        f"{F}python\nx = 1\n{F}\n\n{F}python\ny = 2\n{F}\n"
    )
    first, second = run(text)
    assert first.outcome is second.outcome is Outcome.SETUP_FAILED
    report = first.report()
    assert "The setup block at line 1 raised:" in report
    assert 'File "page.md", line 3' in report and "ModuleNotFoundError" in report


def test_running_a_later_block_first_runs_the_earlier_steps():
    text = (
        f"<!-- literate: setup\n{F}python\nbase = 10\n{F}\n-->\n\n"
        f"{F}python\nx = base + 1\n{F}\n\n{F}python\nprint(x)\n{F}\n\n{F}out\n11\n{F}\n"
    )
    page = parse_page(text, "page.md")
    runner = PageRunner(page)
    result = runner.run_block(page.python_blocks[1])
    assert result.outcome is Outcome.PASSED and result.output == "11\n"


def test_an_earlier_failure_is_noted_when_running_a_later_block_first():
    text = f"{F}python\nx = 1 / 0\n{F}\n\n{F}python\nprint(x)\n{F}\n\n{F}out\n1\n{F}\n"
    page = parse_page(text, "page.md")
    result = PageRunner(page).run_block(page.python_blocks[1])
    assert result.outcome is Outcome.RAISED
    assert (
        "the earlier block at line 1, run first to prepare this one, raised ZeroDivisionError"
        in result.report()
    )


def test_the_namespace_can_be_shared_with_the_caller():
    namespace = {"given": 5}
    PageRunner(parse_page(f"{F}python\nresult = given * 2\n{F}\n"), namespace=namespace).run_all()
    assert namespace["result"] == 10 and namespace["__name__"] == "__main__"


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda lit: lit.normalize_output(None), "normalize_output: text must be a str, got NoneType"),
        (lambda lit: lit.output_matches("1", 1), "output_matches: actual must be a str, got int"),
        (lambda lit: lit.diff_outputs("a", "b", 1), "diff_outputs: expected_label must be a str, got int"),
        (lambda lit: lit.exception_summary("boom"), "exception_summary: error must be an exception, got str"),
        (lambda lit: lit.parse_page(b"x"), "parse_page: text must be a str, got bytes"),
        (lambda lit: lit.read_page(5), "read_page: path must be a str or a pathlib.Path, got int"),
        (lambda lit: lit.promote_page(None), "promote_page: path must be a str or a pathlib.Path"),
        (lambda lit: lit.write_atomically("page.md", None), "write_atomically: text must be a str, got NoneType"),
        (lambda lit: lit.PageRunner("page.md"), r"PageRunner: page must be a Page \(from parse_page or read_page\), got str"),
        (lambda lit: lit.PageRunner(parse_page(""), namespace=[]), "PageRunner: namespace must be a dict or None, got list"),
        (lambda lit: lit.promote_text("text", []), "promote_text: page must be a Page, got str"),
        (lambda lit: lit.promote_text(parse_page(""), ["result"]), r"promote_text: results must be BlockResults \(from PageRunner.run_all\), got str"),
    ],
)
def test_bad_arguments_raise_type_errors_naming_them(call, message):
    # They were AttributeErrors ('NoneType' object has no attribute 'replace');
    # read_page(5) read file descriptor 5.
    with pytest.raises(TypeError, match=message):
        call(rune.literate)


def test_bytes_written_to_sys_stdout_buffer_are_output_in_order():
    # sys.stdout.buffer was missing: AttributeError naming the internal _BlockOutput.
    code = (
        "import sys\n"
        "print('text first')\n"
        "sys.stdout.buffer.write('bytes: caf\\u00e9\\n'.encode())\n"
        "sys.stdout.buffer.write(b'split: \\xc3')  # half of a character...\n"
        "sys.stdout.buffer.write(b'\\xa9\\n')  # ...and the other half\n"
        "sys.stdout.buffer.flush()\n"
        "print('text last', sys.stdout.encoding)\n"
    )
    (result,) = run(f"{F}python\n{code}{F}\n")
    assert result.outcome is Outcome.MISSING_OUT, result.report()
    assert result.output == "text first\nbytes: café\nsplit: é\ntext last utf-8\n"
