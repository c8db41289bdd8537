"""Blocks run ahead of pytest's tests (issue 26): one request for a page's next tests.

Under pytest, the first test of a page asks the worker for the blocks of the
tests pytest runs right after it, in one request; those tests then take their
answers. No block runs after a failed one (pytest may stop there: ``-x``), nor
for a test pytest will not run next (deselected, marked, queued on another
xdist node), and answers name their block, so reports are those of tests run
one by one.
"""

import time

import pytest

from rune.literate import IsolatedPageRunner, Outcome, PageRunner, WorkerPool, parse_page
from tests.literate.test_literate_isolation import page
from tests.literate.test_literate_pytest_plugin import make_project, run_pytest

F = "```"


def log_page(*codes):
    """A page whose block n appends n to log.txt after running its code."""
    blocks = []
    for number, code in enumerate(codes, start=1):
        body = f"{code}\n" if code else ""
        blocks.append((f"{body}open('log.txt', 'a').write('{number}')", None))
    return page(*blocks)


def logged(project):
    log = project / "log.txt"
    return log.read_text() if log.exists() else ""


def wait_for(condition, seconds=20.0):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)
    return condition()


# ------------------------------------------------------------- the runner


def test_blocks_asked_for_ahead_run_without_being_asked_again(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with WorkerPool() as pool:
        runner = IsolatedPageRunner(parse_page(log_page("", "", "")), pool=pool)
        first, second, third = runner.page.python_blocks
        assert runner.run_block(first, [second, third]).outcome is Outcome.PASSED
        assert wait_for(lambda: logged(tmp_path) == "123")  # nobody asked for 2 and 3 yet
        assert [runner.run_block(block).outcome for block in (second, third)] == [
            Outcome.PASSED, Outcome.PASSED]
    assert logged(tmp_path) == "123"  # each ran once


def test_a_failed_block_stops_the_blocks_asked_for_ahead(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with WorkerPool() as pool:
        runner = IsolatedPageRunner(parse_page(log_page("", "1 / 0", "")), pool=pool)
        first, second, third = runner.page.python_blocks
        assert runner.run_block(first, [second, third]).outcome is Outcome.PASSED
        assert runner.run_block(second).outcome is Outcome.RAISED
        time.sleep(1.0)
        assert logged(tmp_path) == "1"  # block 3 waits to be asked (pytest -x never asks)
        assert runner.run_block(third).outcome is Outcome.PASSED  # asked: it runs, as before
    assert logged(tmp_path) == "13"


def test_a_block_asked_for_ahead_and_never_taken_shows_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with WorkerPool() as pool:
        runner = IsolatedPageRunner(parse_page(log_page("", "print('unexpected')")), pool=pool)
        first, second = runner.page.python_blocks
        assert runner.run_block(first, [second]).outcome is Outcome.PASSED
        runner.close()  # the page ends before its second test runs: its answer is dropped
        assert runner.run_block(second).outcome is Outcome.NOT_RUN


def test_a_page_wakes_its_worker_once_to_start_and_never_to_end(tmp_path, monkeypatch):
    # Each wait for the other process costs more CPU than the message itself (on a
    # quiet machine, 100 us and more): the page goes out with its first request, and
    # the request for its last block ends it, with no "end" message to wait for.
    monkeypatch.chdir(tmp_path)
    from rune.literate.pool import Worker

    sent = []
    send = Worker.send
    monkeypatch.setattr(Worker, "send", lambda self, message, flush=True: (
        sent.append((sorted(message), message.get("run"), message.get("end"), flush)),
        send(self, message, flush)))
    with WorkerPool() as pool:
        runner = IsolatedPageRunner(parse_page(log_page("", "", "")), pool=pool)
        first, second, third = runner.page.python_blocks
        assert runner.run_block(first, [second]).outcome is Outcome.PASSED
        assert [runner.run_block(block).outcome for block in (second, third)] == [
            Outcome.PASSED, Outcome.PASSED]
        worker = runner._worker
        assert pool.acquire() is worker  # the page ended cleanly: the worker is reused
        pool.release(worker, reusable=False)
    page_job = sorted(["token", "page", "package", "sys_path", "timeout", "shell_directory"])
    assert sent[1:] == [(page_job, None, None, False),  # waits for the request after it
                        (["end", "run", "until_failure"], [0, 1], False, True),
                        (["end", "run", "until_failure"], [2], True, True)]
    assert logged(tmp_path) == "123"


def test_a_failure_before_the_last_block_keeps_the_page_open_for_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with WorkerPool() as pool:
        runner = IsolatedPageRunner(parse_page(log_page("", "1 / 0", "")), pool=pool)
        first, second, third = runner.page.python_blocks
        assert runner.run_block(first, [second, third]).outcome is Outcome.PASSED  # asks to end
        assert runner.run_block(second).outcome is Outcome.RAISED  # ... and stops before
        assert runner.run_block(third).outcome is Outcome.PASSED  # asked again: it runs
        runner.close()
        assert pool.acquire() is runner._worker
        pool.release(runner._worker, reusable=False)
    assert logged(tmp_path) == "13"


def test_a_page_without_python_blocks_runs_and_ends():
    assert IsolatedPageRunner(parse_page("Just text.\n")).run_all() == []


# ------------------------------------------------------------ under pytest


# Records each request a page's runner sends its worker, in requests.txt.
REQUESTS_SPY = (
    "from rune.literate.isolation import IsolatedPageRunner\n"
    "request = IsolatedPageRunner._request\n\n"
    "def spy(self, indices, until_failure):\n"
    "    open('requests.txt', 'a').write(f'{indices}\\n')\n"
    "    request(self, indices, until_failure)\n\n"
    "IsolatedPageRunner._request = spy\n"
)


def requests(project):
    return (project / "requests.txt").read_text().splitlines()


def test_side_effects_keep_the_page_order_with_one_request(tmp_path):
    project = make_project(tmp_path, files={"docs/a.md": log_page(*[""] * 6),
                                            "conftest.py": REQUESTS_SPY})
    result = run_pytest(project, "-q")
    assert "6 passed" in result.stdout, result.stdout
    assert logged(project) == "123456"
    assert requests(project) == ["[0, 1, 2, 3, 4, 5]"]


def test_with_x_no_block_runs_after_the_failure(tmp_path):
    project = make_project(tmp_path, files={"docs/a.md": log_page("", "", "1 / 0", "", "")})
    result = run_pytest(project, "-q", "-x")
    assert "1 failed, 2 passed" in result.stdout, result.stdout
    assert logged(project) == "12"


def test_maxfail_stops_at_its_count_and_later_blocks_report_as_before(tmp_path):
    project = make_project(tmp_path, files={"docs/a.md": log_page("1 / 0", "", "1 / 0", "", "")})
    result = run_pytest(project, "-q", "--maxfail", "2")
    assert "2 failed, 1 passed" in result.stdout, result.stdout
    assert logged(project) == "2"
    result = run_pytest(project, "-q")
    assert "2 failed, 3 passed" in result.stdout, result.stdout


def test_a_deselected_middle_block_still_prepares_the_next(tmp_path):
    text = page(("x = 1", None), ("x = 2", None), ("print(x)", "2"))
    project = make_project(tmp_path, files={"docs/a.md": text})
    middle = parse_page(text).python_blocks[1].line
    result = run_pytest(project, "-q", "--deselect", f"docs/a.md::line:{middle}")
    assert "2 passed, 1 deselected" in result.stdout, result.stdout


def test_a_test_a_hook_marks_skip_does_not_run_ahead(tmp_path):
    conftest = (
        "import pytest\n\n"
        "def pytest_collection_modifyitems(items):\n"
        "    items[-1].add_marker(pytest.mark.skip(reason='not today'))\n"
    )
    project = make_project(tmp_path, files={"docs/a.md": log_page("", "", ""),
                                            "conftest.py": conftest})
    result = run_pytest(project, "-q")
    assert "2 passed, 1 skipped" in result.stdout, result.stdout
    assert logged(project) == "12"


def test_a_worker_crash_mid_request_names_the_block_that_crashed(tmp_path):
    text = log_page("", "", "import os\nos._exit(3)", "", "")
    project = make_project(tmp_path, files={"docs/a.md": text})
    crashing = parse_page(text).python_blocks[2].line
    result = run_pytest(project, "-q", "-rf")
    assert "3 failed, 2 passed" in result.stdout, result.stdout
    assert (f"docs/a.md:{crashing}: the python block ended the process running the page"
            in result.stdout), result.stdout
    assert f"was not run because the block at line {crashing} ended the process" in result.stdout
    assert logged(project) == "12"


@pytest.mark.parametrize("dist", ["loadfile", "load", "worksteal"])
def test_under_xdist_each_block_runs_once_in_order(tmp_path, dist):
    files = {f"docs/{name}.md": log_page(*[""] * 8).replace("log.txt", f"{name}.txt")
             for name in "abcd"}
    project = make_project(tmp_path, files={**files, "conftest.py": REQUESTS_SPY})
    result = run_pytest(project, "-q", "-n", "2", "--dist", dist)
    assert "32 passed" in result.stdout, result.stdout
    # load and worksteal may send a page's tests to two nodes: they become loadfile,
    # so each page is on one node, asked for in one request, each block once.
    for name in "abcd":
        assert (project / f"{name}.txt").read_text() == "12345678"
    assert requests(project) == ["[0, 1, 2, 3, 4, 5, 6, 7]"] * 4
    changed = f"rune.literate: --dist {dist} would run a page's blocks on two nodes"
    assert (changed in result.stdout) == (dist != "loadfile"), result.stdout


def test_under_pdb_blocks_still_run_in_process(tmp_path):
    conftest = (
        "import os\n"
        "def pytest_runtest_call(item):\n"
        "    runner = item.example.document.literate_runner\n"
        "    open('runners.txt', 'a').write(type(runner).__name__ + '\\n')\n"
    )
    project = make_project(tmp_path, files={"docs/a.md": log_page("", ""),
                                            "conftest.py": conftest})
    result = run_pytest(project, "-q", "--pdb")
    assert "2 passed" in result.stdout, result.stdout
    assert set((project / "runners.txt").read_text().split()) == {PageRunner.__name__}


# --------------------------------------------------------- compiling blocks


def test_a_syntax_error_message_names_the_line_of_the_page():
    text = f"# Title\n\n{F}python\nx = 1\ns = '''never closed\n{F}\n"
    [result] = PageRunner(parse_page(text, "page.md")).run_all()
    assert result.outcome is Outcome.RAISED
    assert "(detected at line 5)" in result.traceback, result.traceback
    assert 'File "page.md", line 5' in result.traceback


@pytest.mark.parametrize("text", ["", "a", "a\n", "a\r\nb", "a\rb\r", "b\rb\r\r\n\r", "\n\n", "x\r\n\r\n"])
def test_the_lines_tracebacks_show_are_the_parser_s_lines(text):
    from rune.literate.page import line_texts, split_lines

    assert line_texts(text) == [line.text for line in split_lines(text)]


# ------------------------------------------------------ reading the answers


def test_answers_are_read_whole_lines_at_a_time_then_none_when_the_worker_is_gone():
    import os
    import queue

    from rune.literate.pool import Answers

    read_end, write_end = os.pipe()
    answers = Answers(os.fdopen(read_end, "r"))
    with pytest.raises(queue.Empty):
        answers.get(timeout=0.05)
    os.write(write_end, b'{"result": 0}\n{"result": 1}\nnot json\n{"resu')
    assert [answers.get(1.0) for _ in range(3)] == [{"result": 0}, {"result": 1}, "not json"]
    with pytest.raises(queue.Empty):  # half a line is no answer yet
        answers.get(timeout=0.05)
    os.write(write_end, b'lt": 2}\nlast words')
    assert answers.get(1.0) == {"result": 2}
    os.close(write_end)
    assert [answers.get(1.0), answers.get(1.0), answers.get(1.0)] == ["last words", None, None]
