"""Shell blocks: on a page with a `shell` directive, ```console/```bash blocks with `$ ` prompts run."""

import gc
import os
import tempfile

import pytest

from rune.literate.isolation import IsolatedPageRunner
from rune.literate.parser import parse_page
from rune.literate.promote import promote_text
from rune.literate.runner import Outcome, PageRunner

F = "```"

PAGE = f"""\
<!-- literate: shell -->

{F}console
$ echo hello
hello
$ printf 'a\\nb\\n' > made.txt
$ cat made.txt
a
b
$ pwd | grep -c literate-shell-
1
{F}

{F}bash
$ ls
made.txt
$ false
[1]
{F}
"""


def run(text, path="page.md"):
    return PageRunner(parse_page(text, path)).run_all()


def test_commands_run_in_one_temporary_directory_per_page_and_pass():
    results = run(PAGE)
    assert [r.report() for r in results if r.failed] == []
    assert [r.outcome for r in results] == [Outcome.PASSED, Outcome.PASSED]


def test_the_temporary_directory_is_removed_after_the_page():
    runner = PageRunner(parse_page(PAGE + f"\n{F}console\n$ pwd\n{F}\n", "page.md"))
    results = runner.run_all()
    directory = results[-1].output.split("\n")[1]
    assert "literate-shell-" in directory
    assert not os.path.exists(directory)


def test_a_changed_output_fails_and_promote_rewrites_it():
    text = f"<!-- literate: shell -->\n{F}console\n$ echo new\nold\n$ echo same\nsame\n{F}\n"
    (result,) = run(text)
    assert result.outcome is Outcome.MISMATCH
    assert "-old\n+new" in result.report()
    page = parse_page(text, "page.md")
    assert promote_text(page, PageRunner(page).run_all()) == text.replace("old", "new")


def test_without_the_directive_shell_blocks_are_only_shown():
    assert run(f"{F}console\n$ exit 1\n{F}\n") == []


def test_the_worker_runs_shell_blocks_as_the_runner_does():
    page = parse_page(PAGE.replace("hello\n$ printf", "goodbye\n$ printf"), "page.md")
    assert [r.outcome for r in IsolatedPageRunner(page).run_all()] == [
        Outcome.MISMATCH,
        Outcome.PASSED,
    ]


def test_a_command_past_its_timeout_is_stopped():
    page = parse_page(
        f"<!-- literate: shell -->\n<!-- literate: timeout 1 -->\n{F}console\n$ sleep 30\n{F}\n",
        "page.md",
    )
    (result,) = IsolatedPageRunner(page).run_all()
    assert result.outcome is Outcome.TIMED_OUT


@pytest.mark.parametrize("language", ["console", "bash", "sh", "shell"])
def test_every_shell_language_runs(language):
    (result,) = run(f"<!-- literate: shell -->\n{F}{language}\n$ echo 1\n2\n{F}\n")
    assert result.outcome is Outcome.MISMATCH


def test_a_timed_out_session_leaves_no_temporary_directory(tmp_path, monkeypatch):
    # The worker was killed at the timeout, before it could remove its directory.
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    page = parse_page(
        f"<!-- literate: shell -->\n<!-- literate: timeout 1 -->\n{F}console\n$ sleep 30\n{F}\n",
        "page.md",
    )
    (result,) = IsolatedPageRunner(page).run_all()
    assert result.outcome is Outcome.TIMED_OUT
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("literate-shell-")] == []


def test_a_command_sent_to_the_background_does_not_block_the_session():
    # `$ cmd &` waited for cmd to end: its output pipe stayed open.
    page = parse_page(
        f"<!-- literate: shell -->\n<!-- literate: timeout 5 -->\n"
        f"{F}console\n$ sleep 60 &\n$ echo next\nnext\n{F}\n",
        "page.md",
    )
    (result,) = IsolatedPageRunner(page).run_all()
    assert result.outcome is Outcome.PASSED, result.report()


def test_a_page_left_before_its_last_block_still_removes_its_directory():
    # As under pytest -k: the runner is dropped without running the last block.
    page = parse_page(f"<!-- literate: shell -->\n{F}console\n$ pwd\n{F}\n\n"
                      f"{F}console\n$ true\n{F}\n", "page.md")
    runner = IsolatedPageRunner(page)
    directory = runner.run_block(page.python_blocks[0]).output.split("\n")[1]
    assert os.path.isdir(directory)
    del runner
    gc.collect()
    assert not os.path.exists(directory)
