"""check and promote never lose a byte and never pass falsely (issue 11).

Each page runs in a worker process: an abrupt exit, a crash, a hang or a block
that changes directory or reads stdin is a failure naming the page and line,
and only the parent process writes files. These tests drive the command line
in a throwaway project, as a user would.
"""

import importlib.metadata
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rune.literate.cli import main
from rune.literate.compare import normalize_output
from rune.literate.parser import LiterateSyntaxError, parse_page
from rune.literate.promote import promote_text
from rune.literate.runner import PageRunner

REPO = Path(__file__).resolve().parents[2]
F = "```"


def page(*blocks):
    """A page of python blocks, each (code, out-body or None)."""
    parts = []
    for code, out in blocks:
        parts.append(f"{F}python\n{code}\n{F}\n")
        if out is not None:
            parts.append(f"{F}out\n{out}\n{F}\n")
    return "\n".join(parts)


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    return tmp_path


def run_cli(arguments, cwd, timeout=120, **kwargs):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, "-m", "rune.literate", *arguments],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, **kwargs,
    )


# ------------------------------------------------------------------ symlinks


def test_promote_writes_through_a_symlink_and_keeps_the_link(project, capsys):
    target = project / "README.md"
    target.write_text(page(("print('new')", "old")))
    link = project / "link.md"
    link.symlink_to("README.md")
    assert main(["promote", "link.md"]) == 0
    assert link.is_symlink() and os.readlink(link) == "README.md"
    assert "new" in target.read_text() and "old" not in target.read_text()


def test_promote_refuses_a_symlink_pointing_outside_the_given_paths(project, capsys):
    outside = project / "outside.md"
    outside.write_text(page(("print('new')", "old")))
    before = outside.read_bytes()
    (project / "docs" / "link.md").symlink_to("../outside.md")
    assert main(["promote", "docs"]) == 1
    out = capsys.readouterr().out
    assert "docs/link.md" in out and "outside" in out and "refused" in out
    assert outside.read_bytes() == before
    assert (project / "docs" / "link.md").is_symlink()


# ------------------------------------------------------- working directory


def test_a_block_that_changes_directory_cannot_redirect_the_write(project, capsys):
    (project / "docs" / "other").mkdir()
    bystander = project / "docs" / "other" / "page.md"
    bystander.write_text("an unrelated file\n")
    text = page(("import os\nos.chdir('docs/other')", None), ("print('new')", "old"))
    (project / "docs" / "page.md").write_text(text)
    assert main(["promote", "docs/page.md"]) == 0
    assert bystander.read_text() == "an unrelated file\n"
    assert "new" in (project / "docs" / "page.md").read_text()


def test_check_goes_on_to_the_next_page_after_a_block_changes_directory(project, capsys):
    (project / "docs" / "sub").mkdir()
    (project / "docs" / "a.md").write_text(page(("import os\nos.chdir('docs/sub')", None)))
    (project / "docs" / "b.md").write_text(page(("import os\nprint(os.path.basename(os.getcwd()))",
                                                 project.name)))
    assert main(["check", "docs/a.md", "docs/b.md"]) == 0, capsys.readouterr().out


def test_the_working_directory_is_restored_after_each_block(project, capsys):
    (project / "docs" / "sub").mkdir()
    text = page(("import os\nos.chdir('docs/sub')", None),
                ("print(os.path.basename(os.getcwd()))", project.name))
    (project / "docs" / "page.md").write_text(text)
    assert main(["check", "docs/page.md"]) == 0, capsys.readouterr().out


# ---------------------------------------------------------- concurrent edits


def test_a_page_edited_while_promote_runs_is_not_overwritten(project, capsys):
    path = project / "docs" / "page.md"
    edit = f"with open({str(path)!r}, 'a') as f:\n    f.write('edited meanwhile\\n')\nprint('new')"
    path.write_text(page((edit, "old")))
    assert main(["promote", "docs/page.md"]) == 1
    out = capsys.readouterr().out
    assert "docs/page.md: the page changed on disk while its blocks ran" in out
    assert path.read_text().endswith("edited meanwhile\n")
    assert "old" in path.read_text()


# ------------------------------------------------------------ abrupt endings


@pytest.mark.parametrize("code, words", [
    ("import os\nos._exit(0)", "exit status 0"),
    ("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)", "SIGKILL"),
    ("import ctypes\nctypes.string_at(0)", "SIGSEGV"),
])
@pytest.mark.parametrize("command", ["check", "promote"])
def test_an_abrupt_exit_is_a_failure_naming_page_and_line(project, capsys, code, words, command):
    text = "# Title\n\n" + page(("print('before')", "before"), (code, None),
                                ("print('after')", "after"))
    path = project / "docs" / "page.md"
    path.write_text(text)
    assert main([command, "docs/page.md"]) == 1
    out = capsys.readouterr().out
    assert "docs/page.md:11: the python block ended the process running the page" in out
    assert words in out
    assert "docs/page.md:16: the python block was not run" in out
    assert path.read_text() == text


def test_an_abrupt_exit_fails_the_real_command_line(project):
    (project / "docs" / "page.md").write_text(page(("import os\nos._exit(0)", None)))
    result = run_cli(["check", "docs/page.md"], project)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "docs/page.md:1: the python block ended the process" in result.stdout


# ------------------------------------------------------------------- stdin


def test_input_reads_an_empty_stdin_and_fails_the_block(project):
    (project / "docs" / "page.md").write_text(page(("print(input())", "typed")))
    before = (project / "docs" / "page.md").read_text()
    result = run_cli(["promote", "docs/page.md"], project, input="typed\n")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "docs/page.md:1: the python block raised an exception" in result.stdout
    assert "EOFError" in result.stdout
    assert (project / "docs" / "page.md").read_text() == before


# ----------------------------------------------------------------- timeouts


def test_a_block_that_never_ends_times_out_with_the_option(project, capsys):
    text = page(("print('fast')", "fast"), ("import time\ntime.sleep(60)", None),
                ("print('later')", "later"))
    (project / "docs" / "page.md").write_text(text)
    started = time.monotonic()
    assert main(["check", "--timeout", "1", "docs/page.md"]) == 1
    assert time.monotonic() - started < 30
    out = capsys.readouterr().out
    assert "docs/page.md:9: the python block did not finish within its timeout of 1 s" in out
    assert "docs/page.md:14: the python block was not run" in out


@pytest.mark.parametrize("directive", ["timeout 1", "page timeout 1"])
def test_a_directive_sets_the_timeout(project, capsys, directive):
    text = f"<!-- literate: {directive} -->\n" + page(("import time\ntime.sleep(60)", None))
    (project / "docs" / "page.md").write_text(text)
    started = time.monotonic()
    assert main(["promote", "docs/page.md"]) == 1
    assert time.monotonic() - started < 30
    assert "did not finish within its timeout of 1 s" in capsys.readouterr().out


def test_the_timeout_option_has_a_default():
    from rune.literate.cli import build_parser
    arguments = build_parser().parse_args(["check"])
    assert 0 < arguments.timeout < float("inf")


# ----------------------------------------------------------- BaseException


@pytest.mark.parametrize("error", ["asyncio.CancelledError()", "KeyboardInterrupt()",
                                   "GeneratorExit()", "SystemExit(0)"])
def test_a_base_exception_fails_its_block_and_later_pages_still_run(project, capsys, error):
    (project / "docs" / "a.md").write_text(page((f"import asyncio\nraise {error}", None)))
    (project / "docs" / "b.md").write_text(page(("print('b ran')", "b ran")))
    assert main(["check", "docs"]) == 1
    out = capsys.readouterr().out
    assert "docs/a.md:1: the python block raised an exception" in out
    assert "check: 2 blocks in 2 pages: 1 passed, 1 failed, 0 skipped" in out


def test_the_users_ctrl_c_stops_the_run_and_leaves_every_file_intact(project):
    path = project / "docs" / "page.md"
    text = page(("print('new')", "old"), ("import time\ntime.sleep(60)", None))
    path.write_text(text)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    process = subprocess.Popen([sys.executable, "-m", "rune.literate", "promote", "docs"],
                               cwd=project, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    time.sleep(3)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode != 0
    assert path.read_text() == text
    assert os.listdir(project / "docs") == ["page.md"]


# ------------------------------------------------------ byte-order mark


def test_a_page_starting_with_a_byte_order_mark_runs_and_keeps_it(project, capsys):
    path = project / "docs" / "page.md"
    path.write_bytes(b"\xef\xbb\xbf" + page(("print('new')", "old")).encode())
    assert main(["check", "docs/page.md"]) == 1
    assert "1 failed" in capsys.readouterr().out
    assert main(["promote", "docs/page.md"]) == 0
    assert path.read_bytes().startswith(b"\xef\xbb\xbf```python\n")
    assert b"new" in path.read_bytes()


# -------------------------------------------------- carriage returns, colour


def test_progress_bar_output_is_promoted_as_the_terminal_shows_it(project, capsys):
    path = project / "docs" / "page.md"
    code = "for p in (10, 50, 100):\n    print(f'\\r{p}%', end='')\nprint()"
    path.write_text(page((code, None)))
    assert main(["promote", "docs/page.md"]) == 0
    assert path.read_bytes().endswith(b"```out\n100%\n```\n")
    assert main(["check", "docs/page.md"]) == 0


def test_colour_is_off_and_escape_sequences_are_stripped(project, capsys):
    path = project / "docs" / "page.md"
    code = ("import os\nprint(os.environ.get('NO_COLOR'), os.environ.get('TERM'))\n"
            "print('\\x1b[31mred\\x1b[0m')")
    path.write_text(page((code, None)))
    assert main(["promote", "docs/page.md"]) == 0
    assert path.read_text().endswith(f"{F}out\n1 dumb\nred\n{F}\n")
    assert main(["check", "docs/page.md"]) == 0


# ----------------------------------------------------------------- ellipsis


def test_promote_keeps_wildcard_lines_that_still_match(project, capsys):
    path = project / "docs" / "page.md"
    code = "for n in range(50):\n    print(n)\nprint('took 0.25 s')\nprint('total: 2')"
    path.write_text(page((code, "0\n...\n49\ntook 0.25 s\ntotal: 1")))
    assert main(["promote", "docs/page.md"]) == 0
    assert path.read_text().endswith(f"{F}out\n0\n...\n49\ntook 0.25 s\ntotal: 2\n{F}\n")
    assert main(["check", "docs/page.md"]) == 0


# ---------------------------------------------------- one failing block


def test_one_failing_block_does_not_stop_promote_writing_the_others(project, capsys):
    path = project / "docs" / "page.md"
    path.write_text(page(("print('one')", "stale one"), ("raise ValueError('no')", "kept"),
                         ("print('three')", None)))
    assert main(["promote", "docs/page.md"]) == 1
    out = capsys.readouterr().out
    assert "docs/page.md:9: the python block raised an exception" in out
    assert path.read_text() == page(("print('one')", "one"), ("raise ValueError('no')", "kept"),
                                    ("print('three')", "three"))


# --------------------------------------------------------- thread output


def test_output_of_a_thread_after_its_block_ended_goes_to_no_other_block(project, capsys):
    starter = ("import threading, time\n"
               "def late():\n    time.sleep(0.5)\n    print('late')\n"
               "threading.Thread(target=late, daemon=True).start()")
    path = project / "docs" / "page.md"
    path.write_text(page((starter, None), ("time.sleep(1.5)\nprint('two')", "two")))
    assert main(["check", "docs/page.md"]) == 0, capsys.readouterr().out


# ---------------------------------------------------------------- finding


def test_no_pages_found_exits_non_zero_naming_what_was_searched(project, capsys):
    (project / "empty").mkdir()
    assert main(["check", "empty"]) == 1
    assert "no pages found in empty" in capsys.readouterr().err
    assert main(["promote"]) == 1
    assert "no pages found" in capsys.readouterr().err


def test_check_dot_skips_environments_git_node_modules_and_site(project, capsys):
    (project / "docs" / "page.md").write_text(page(("print(1)", "1")))
    bad = page(("raise SystemExit('must not run')", None))
    for directory in [".venv", "venv", "env", ".git", "node_modules", "site"]:
        (project / directory).mkdir()
        (project / directory / "page.md").write_text(bad)
    (project / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    assert main(["check", "."]) == 0, capsys.readouterr().out
    assert "1 block in 1 page" in capsys.readouterr().out


# ------------------------------------------------------------------ writes


def test_promote_keeps_the_file_mode(project, capsys):
    path = project / "docs" / "page.md"
    path.write_text(page(("print('new')", "old")))
    path.chmod(0o640)
    assert main(["promote", "docs/page.md"]) == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert "new" in path.read_text()


def test_a_read_only_page_gives_a_clear_error_and_stays_untouched(project, capsys):
    path = project / "docs" / "page.md"
    text = page(("print('new')", "old"))
    path.write_text(text)
    path.chmod(0o444)
    try:
        assert main(["promote", "docs/page.md"]) == 1
        assert "docs/page.md: the page is read-only; nothing written" in capsys.readouterr().out
        assert path.read_text() == text
    finally:
        path.chmod(0o644)


def test_parallel_pages_report_in_page_order(project, capsys):
    for name in "abcd":
        (project / "docs" / f"{name}.md").write_text(page((f"print('{name}')", "stale")))
    assert main(["check", "-j", "2", "docs"]) == 1
    out = capsys.readouterr().out
    positions = [out.index(f"docs/{name}.md:1:") for name in "abcd"]
    assert positions == sorted(positions)
    assert main(["promote", "-j", "2", "docs"]) == 0
    assert all((project / "docs" / f"{n}.md").read_text().endswith(f"{n}\n{F}\n") for n in "abcd")


# ------------------------------------------------------------------ parsing


@pytest.mark.parametrize("info", ["python3", "{python}", "{.python}", 'py title="x.py"', "py3",
                                  "{ .python3 linenums='1' }"])
def test_every_fence_that_names_python_runs(info):
    text = f"{F}{info}\nprint(1)\n{F}\n\n{F}out\n1\n{F}\n"
    [block] = parse_page(text).python_blocks
    assert block.out.body == "1"


@pytest.mark.parametrize("info", ["ipython", "python2", "py2"])
def test_a_python_fence_that_cannot_run_is_reported(info):
    with pytest.raises(LiterateSyntaxError, match=f"a.md:3: the {F}{info} fence names Python"):
        parse_page(f"Text\n\n{F}{info}\nprint(1)\n{F}\n", "a.md")


@pytest.mark.parametrize("comment", ["<!-- literate skip -->", "<!-- Literate: skip -->",
                                     "<!--- literate: skip --->", "<!-- literate:: skip -->",
                                     "<!-- LITERATE: raises -->", "<!-- literate = skip -->"])
def test_a_misspelt_directive_is_an_error_naming_the_line_and_the_directives(comment):
    text = f"# T\n\n{comment}\n{F}python\nprint(1)\n{F}\n"
    with pytest.raises(LiterateSyntaxError) as error:
        parse_page(text, "a.md")
    assert str(error.value).startswith("a.md:3: ")
    assert "skip, skip start, skip end" in str(error.value)


def test_an_ordinary_comment_mentioning_literate_is_not_a_directive():
    text = f"<!-- literate programming, as Knuth wrote -->\n{F}python\nx = 1\n{F}\n"
    assert len(parse_page(text).python_blocks) == 1


def test_an_indented_fence_that_markdown_shows_as_text_is_not_a_block():
    text = f"Some text\n\n    {F}python\n    raise SystemExit\n    {F}\n"  # indented code
    assert parse_page(text).python_blocks == []


def test_an_indented_fence_right_under_a_paragraph_is_an_error_not_text():
    # CommonMark reads it into the paragraph, but MkDocs shows it as code: a
    # block the reader takes as tested (test_literate_fence_placement.py).
    text = f"Some text\n        {F}python\n        raise SystemExit\n        {F}\n"
    with pytest.raises(LiterateSyntaxError, match=r"^<page>:2: .* may show it as code or as text"):
        parse_page(text)


def test_fences_in_list_items_and_admonitions_still_run():
    text = (f"1. Step:\n\n    Prose in the item.\n\n    {F}python\n    x = 1\n    {F}\n\n"
            f'!!! note "N"\n    {F}python\n    y = 2\n    {F}\n')
    assert len(parse_page(text).python_blocks) == 2


def test_a_fence_after_a_wrapped_list_item_paragraph_runs():
    # The item's paragraph wraps onto a line indented less than the fence; the
    # fence still belongs to the item (MkDocs renders it as code), so it runs.
    text = (f"- Standard input is empty, so a block waiting for input fails\n"
            f"  at once instead of hanging:\n\n    {F}python\n    x = 1\n    {F}\n")
    assert len(parse_page(text).python_blocks) == 1


def test_a_fence_under_a_wrapped_plain_paragraph_is_still_text():
    text = f"Some text that wraps\n  onto an indented line.\n\n    {F}python\n    x = 1\n    {F}\n"
    assert parse_page(text).python_blocks == []


def test_a_byte_order_mark_is_not_part_of_the_first_line():
    page_ = parse_page(f"\ufeff{F}python\nprint(1)\n{F}\n")
    assert [block.line for block in page_.python_blocks] == [1]


# ------------------------------------------------------------ normalisation


def test_one_normalisation_for_carriage_returns_and_escape_sequences():
    assert normalize_output("\r10%\r100%\n") == "100%"
    assert normalize_output("a\r\nb\r\n") == "a\nb"
    assert normalize_output("\x1b[1;31mred\x1b[0m \x1b]8;;http://x\x07link\x1b]8;;\x07") == (
        "red link")


def test_promote_text_keeps_wildcards_around_a_changed_line():
    text = page(("print('a'); print('b'); print('c'); print('d')", "a\n...\nX"))
    parsed = parse_page(text)
    new = promote_text(parsed, PageRunner(parsed).run_all())
    assert new == page(("print('a'); print('b'); print('c'); print('d')", "a\n...\nd"))


# ---------------------------------------------------------------- pytest


def run_pytest(project, *arguments):
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    env["PYTHONPATH"] = str(REPO)
    installed = {entry.name for entry in importlib.metadata.entry_points(group="pytest11")}
    plugin = [] if "rune_literate" in installed else ["-p", "rune_literate_pytest"]
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *plugin, *arguments]
    return subprocess.run(command, cwd=project, env=env, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)


PYTEST_INI = "[pytest]\nliterate_paths = docs\n"


@pytest.mark.parametrize("code, words", [
    ("import os\nos._exit(0)", "ended the process running the page"),
    ("import asyncio\nraise asyncio.CancelledError()", "CancelledError"),
    ("print(input())", "EOFError"),
])
def test_under_pytest_an_abrupt_exit_or_base_exception_fails_the_block(tmp_path, code, words):
    (tmp_path / "pytest.ini").write_text(PYTEST_INI)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text(page(("print(1)", "1"), (code, None),
                                                     ("print(2)", "2")))
    result = run_pytest(tmp_path, "-v")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "docs/page.md::line:1 PASSED" in result.stdout
    assert "docs/page.md::line:9 FAILED" in result.stdout
    assert words in result.stdout


def test_under_pytest_the_timeout_cwd_and_carriage_returns_hold(tmp_path):
    (tmp_path / "pytest.ini").write_text(PYTEST_INI)
    (tmp_path / "docs" / "sub").mkdir(parents=True)
    slow = "<!-- literate: timeout 1 -->\n" + page(("import time\ntime.sleep(60)", None))
    (tmp_path / "docs" / "slow.md").write_text(slow)
    (tmp_path / "docs" / "page.md").write_text(page(
        ("import os\nos.chdir('docs/sub')", None),
        ("print(os.path.basename(os.getcwd()))", tmp_path.name),
        ("print('\\r10%\\r100%')", "100%"),
    ))
    result = run_pytest(tmp_path, "-v")
    assert "docs/slow.md::line:2 FAILED" in result.stdout, result.stdout
    assert "did not finish within its timeout of 1 s" in result.stdout
    assert "1 failed, 3 passed" in result.stdout, result.stdout
