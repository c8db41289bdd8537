"""A pycon session means what CPython's doctest makes of it: the same examples,
the same verdicts, the same option flags. Each test runs doctest itself on the
same text and holds rune to its answer."""

import doctest
import importlib.metadata
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rune.literate.docstrings import parse_module_page
from rune.literate.parser import LiterateSyntaxError, parse_page
from rune.literate.promote import promote_text
from rune.literate.runner import Outcome, PageRunner

F = "```"


def doctest_verdict(session: str, optionflags: int = 0) -> bool:
    """Whether doctest passes ``session`` (in a fresh namespace)."""
    test = doctest.DocTestParser().get_doctest(session, {}, "session", "session.md", 0)
    runner = doctest.DocTestRunner(optionflags=optionflags)
    runner.run(test, out=lambda text: None, clear_globs=True)
    return runner.summarize(verbose=False).failed == 0


def rune_results(session: str):
    page = parse_page(f"{F}pycon\n{session}{F}\n", "page.md")
    return page, PageRunner(page).run_all()


def rune_verdict(session: str) -> bool:
    _, [result] = rune_results(session)
    return not result.failed


def doctest_examples(session: str):
    return [(e.lineno, e.source, e.want) for e in doctest.DocTestParser().get_examples(session)]


def rune_examples(session: str):
    [block] = parse_page(f"{F}pycon\n{session}{F}\n", "page.md").python_blocks
    return [(e.first, e.source, "".join(line + "\n" for line in e.want_lines))
            for e in block.session]


SESSIONS = {
    "bare prompt": ">>> x = 1\n>>>\n>>> x\n1\n",
    "comment prompt": ">>> # a comment, no example\n>>> 1 + 1\n2\n",
    "comment prompt with text below": ">>> # the next line is prose to doctest\nnot output\n>>> 2\n2\n",
    "prose between examples": ">>> a = 3\n\nNow a is three:\n\n>>> a\n3\n",
    "prose before the first example": "Some words first.\n>>> 4\n4\n",
    "a comment line taken as output": ">>> a = 3\n# a comment\n>>> a\n3\n",
    "traceback with frames line": (
        ">>> int('x')\nTraceback (most recent call last):\n  ...\n"
        "ValueError: invalid literal for int() with base 10: 'x'\n"),
    "traceback without frames line": (
        ">>> int('x')\nTraceback (most recent call last):\n"
        "ValueError: invalid literal for int() with base 10: 'x'\n"),
    "traceback with real frames": (
        ">>> int('x')\nTraceback (most recent call last):\n"
        '  File "<stdin>", line 1, in <module>\n'
        "ValueError: invalid literal for int() with base 10: 'x'\n"),
    "exception without traceback header": (
        ">>> int('x')\nValueError: invalid literal for int() with base 10: 'x'\n"),
    "traceback, wrong message": (
        ">>> int('x')\nTraceback (most recent call last):\nValueError: nope\n"),
    "printed before raising": (
        ">>> print('hi'); int('x')\nTraceback (most recent call last):\n"
        "ValueError: invalid literal for int() with base 10: 'x'\n"),
    "expected traceback, none raised": ">>> 1\nTraceback (most recent call last):\nValueError: x\n",
    "ellipsis without the flag": ">>> print('took 0.25 s')\ntook ... s\n",
    "ellipsis with the flag": ">>> print('took 0.25 s')  # doctest: +ELLIPSIS\ntook ... s\n",
    "ellipsis flag across lines": (
        ">>> print('Loading\\nerror: x\\ndone')  # doctest: +ELLIPSIS\nLoading...\ndone\n"),
    "literal dots without the flag": ">>> print('Loading...')\nLoading...\n",
    "dots hiding an inserted line": ">>> print('Loading\\nerror\\ndone')\nLoading...\ndone\n",
    "whitespace without the flag": ">>> print('a  b')\na b\n",
    "whitespace with the flag": ">>> print('a  b')  # doctest: +NORMALIZE_WHITESPACE\na b\n",
    "skip": ">>> raise ValueError('never run')  # doctest: +SKIP\nnot what it prints\n",
    "skip keeps the namespace": ">>> y = 1  # doctest: +SKIP\n>>> 'y' in globals()\nFalse\n",
    "exception detail without the flag": (
        ">>> int('x')\nTraceback (most recent call last):\nValueError: something else\n"),
    "exception detail ignored": (
        ">>> int('x')  # doctest: +IGNORE_EXCEPTION_DETAIL\n"
        "Traceback (most recent call last):\nValueError: something else\n"),
    "exception detail ignored, module path": (
        ">>> int('x')  # doctest: +IGNORE_EXCEPTION_DETAIL\n"
        "Traceback (most recent call last):\nbuiltins.ValueError: other\n"),
    "flag switched off": (
        ">>> print('ab')  # doctest: +ELLIPSIS\na...\n"
        ">>> print('ab')  # doctest: -ELLIPSIS\na...\n"),
    "blankline": ">>> print('a\\n\\nb')\na\n<BLANKLINE>\nb\n",
    "true for 1": ">>> True\n1\n",
    "continuation lines": ">>> for i in range(2):\n...     print(i)\n0\n1\n",
}


@pytest.mark.parametrize("name", SESSIONS)
def test_rune_reads_a_session_into_the_examples_doctest_reads(name):
    session = SESSIONS[name]
    assert rune_examples(session) == doctest_examples(session)


@pytest.mark.parametrize("name", SESSIONS)
def test_rune_gives_a_session_the_verdict_doctest_gives(name):
    session = SESSIONS[name]
    assert rune_verdict(session) == doctest_verdict(session), name


def test_an_option_directive_on_a_line_without_an_example_is_an_error_as_in_doctest():
    session = ">>> # doctest: +ELLIPSIS\n>>> print('ab')\na...\n"
    with pytest.raises(ValueError, match="option directive on a line with no example"):
        doctest.DocTestParser().get_examples(session)
    with pytest.raises(LiterateSyntaxError, match=r"page\.md:2: .*option directive"):
        rune_results(session)


def test_an_unknown_option_flag_is_an_error_naming_its_line():
    with pytest.raises(LiterateSyntaxError, match=r"page\.md:4: .*invalid option.*\+ELIPSIS"):
        rune_results(">>> 1\n1\n>>> 2  # doctest: +ELIPSIS\n2\n")


def test_a_skipped_example_is_neither_run_nor_promoted():
    session = ">>> print('run')  # doctest: +SKIP\nsomething stale\n>>> print(2)\n3\n"
    page, results = rune_results(session)
    promoted = promote_text(page, results)
    assert "something stale\n" in promoted
    assert ">>> print(2)\n2\n" in promoted


def test_promote_keeps_a_traceback_as_written_and_adds_no_dots():
    session = (">>> int('x')\nTraceback (most recent call last):\n"
               "ValueError: an old message\n")
    page, results = rune_results(session)
    assert results[0].outcome is Outcome.MISMATCH
    promoted = promote_text(page, results)
    assert promoted == (f"{F}pycon\n>>> int('x')\nTraceback (most recent call last):\n"
                        f"ValueError: invalid literal for int() with base 10: 'x'\n{F}\n")
    assert doctest_verdict(promoted.split("\n", 1)[1].rsplit(F, 1)[0])


# Generated sessions: a few statements, each shown with an expected output that
# is right, wrong, or right only under a flag; rune and doctest must agree.
_OUTPUTS = st.sampled_from(["a", "b", "a  b", "a b", "", "a\nb", "x = 1", "Loading", "..."])
_FLAGS = st.sampled_from(["", "  # doctest: +ELLIPSIS", "  # doctest: +NORMALIZE_WHITESPACE",
                          "  # doctest: +SKIP", "  # doctest: +IGNORE_EXCEPTION_DETAIL"])
_EXPECTED = st.sampled_from(["a", "b", "a b", "a...", "...b", "...", "Loading...", "a\nb",
                             "<BLANKLINE>", "a\n...", "", "x = 1"])
_EXCEPTIONS = st.sampled_from(["ValueError: a", "ValueError: b", "KeyError: 'a'",
                               "mod.ValueError: a"])


@st.composite
def _examples(draw):
    flags = draw(_FLAGS)
    if draw(st.booleans()):
        printed = draw(_OUTPUTS)
        expected = draw(_EXPECTED)
        lines = [f">>> print({printed!r}){flags}"] + ([expected] if expected else [])
    else:
        message = draw(st.sampled_from(["a", "b"]))
        expected = draw(_EXCEPTIONS)
        frames = draw(st.sampled_from([[], ["  ..."]]))
        lines = [f">>> raise ValueError({message!r}){flags}",
                 "Traceback (most recent call last):", *frames, expected]
    if draw(st.booleans()):
        lines.append(draw(st.sampled_from([">>> # a comment", ">>>", "", "", "prose", "# note"])))
    return lines


@settings(max_examples=150, deadline=None)
@given(st.lists(_examples(), min_size=1, max_size=4))
def test_generated_sessions_get_the_verdict_doctest_gives(examples):
    session = "".join(line + "\n" for example in examples for line in example)
    try:
        expected = doctest_verdict(session)
    except ValueError:
        with pytest.raises(LiterateSyntaxError):
            rune_results(session)
        return
    assert rune_examples(session) == doctest_examples(session)
    assert rune_verdict(session) == expected


# Docstring examples: pytest (through doctest, with literate_doctest_optionflags)
# and `check` give the same verdict.
MODULE = '''\
def greet():
    """A greeting.

    >>> greet()
    'hello ... world'
    >>> print(greet())  # doctest: +NORMALIZE_WHITESPACE
    hello   there    world
    """
    return "hello there world"
'''


def _project(tmp_path, flags):
    (tmp_path / "greeting.py").write_text(MODULE)
    (tmp_path / "pyproject.toml").write_text(
        "[tool.pytest.ini_options]\n"
        'literate_docstring_paths = ["greeting.py"]\n'
        f"literate_doctest_optionflags = {flags!r}\n".replace("'", '"')
    )


REPO = Path(__file__).resolve().parents[2]


def _run(tmp_path, *arguments):
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), str(tmp_path)])
    return subprocess.run([sys.executable, "-m", *arguments], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)


def _pytest_passes(tmp_path) -> bool:
    names = {entry.name for entry in importlib.metadata.entry_points(group="pytest11")}
    plugin = [] if "rune_literate" in names else ["-p", "rune_literate_pytest"]
    run = _run(tmp_path, "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
               *plugin, "greeting.py")
    assert " passed" in run.stdout or " failed" in run.stdout, run.stdout + run.stderr
    return run.returncode == 0


def _check_passes(tmp_path) -> bool:
    run = _run(tmp_path, "rune.literate", "check", "-q", "greeting.py")
    assert "check:" in run.stdout + run.stderr, run.stdout + run.stderr
    return run.returncode == 0


@pytest.mark.parametrize("flags", [["ELLIPSIS"], []])
def test_a_docstring_example_gets_the_same_verdict_under_pytest_and_check(tmp_path, flags):
    _project(tmp_path, flags)
    assert _pytest_passes(tmp_path) is bool(flags)
    assert _check_passes(tmp_path) is bool(flags)


def test_configured_flags_apply_to_docstring_examples_as_doctest_applies_them(tmp_path):
    _project(tmp_path, ["ELLIPSIS"])
    page = parse_module_page(MODULE, str(tmp_path / "greeting.py"))
    [block] = page.python_blocks
    assert [bool(e.optionflags & doctest.ELLIPSIS) for e in block.session] == [True, True]
    assert [bool(e.optionflags & doctest.NORMALIZE_WHITESPACE)
            for e in block.session] == [False, True]


def test_sessions_in_rune_docstrings_parse_as_doctest_parses_them():
    """Every docstring session of rune.literate itself reads as doctest reads it."""
    import rune.literate as package

    for path in sorted(Path(package.__file__).parent.glob("*.py")):
        try:
            page = parse_module_page(path.read_text(), str(path))
        except LiterateSyntaxError:  # check refuses the module, saying why
            continue
        for block in page.python_blocks:
            body = "".join(line + "\n" for line in block.fence.body_lines)
            assert [e.source for e in block.session] == [
                e.source for e in doctest.DocTestParser().get_examples(textwrap.dedent(body))]


# Pages: the configured flags are doctest's file-wide form for a page's pycon
# sessions too, as pytest's doctest_optionflags is for --doctest-glob's files and
# `python -m doctest -o FLAG` for a text file.
PAGE_SESSION = (">>> print('took 0.25 s')\ntook ... s\n"
                ">>> print('a   b')  # doctest: +NORMALIZE_WHITESPACE\na b\n")


def _page_project(tmp_path, flags):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text(f"# Timing\n\n{F}pycon\n{PAGE_SESSION}{F}\n")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.rune-literate]\npaths = ["docs"]\n'
        f"doctest_optionflags = {flags!r}\n".replace("'", '"'))


@pytest.mark.parametrize("flags", [["ELLIPSIS"], []])
def test_the_configured_flags_are_the_file_wide_flags_of_a_page_s_sessions(tmp_path, flags):
    _page_project(tmp_path, flags)
    expected = doctest_verdict(PAGE_SESSION, doctest.ELLIPSIS if flags else 0)
    assert expected is bool(flags)
    names = {entry.name for entry in importlib.metadata.entry_points(group="pytest11")}
    plugin = [] if "rune_literate" in names else ["-p", "rune_literate_pytest"]
    pytest_run = _run(tmp_path, "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                      *plugin, "docs/page.md")
    assert " passed" in pytest_run.stdout or " failed" in pytest_run.stdout, pytest_run.stdout
    assert (pytest_run.returncode == 0) is expected, pytest_run.stdout
    check = _run(tmp_path, "rune.literate", "check", "-q", "docs/page.md")
    assert (check.returncode == 0) is expected, check.stdout + check.stderr
    promote = _run(tmp_path, "rune.literate", "promote", "--check", "-q", "docs/page.md")
    assert (promote.returncode == 0) is expected, promote.stdout + promote.stderr


def test_an_example_s_own_directive_overrides_the_file_wide_flag(tmp_path):
    session = ">>> print('took 0.25 s')  # doctest: -ELLIPSIS\ntook ... s\n"
    assert not doctest_verdict(session, doctest.ELLIPSIS)
    page = parse_page(f"{F}pycon\n{session}{F}\n", "page.md", optionflags=doctest.ELLIPSIS)
    [result] = PageRunner(page).run_all()
    assert result.failed
