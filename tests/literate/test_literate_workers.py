"""Workers reused across pages, and what they must never let through (issue 26).

A worker runs page after page; each page still gets a fresh namespace and the
guarantees of a fresh process, and a worker whose page could have left it
changed (forked, left threads or processes, crashed, timed out, asked for a
fresh process) is replaced. Answers name their worker, so a forked child can
never answer for it.
"""

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rune.literate import processes
from tests.literate.test_literate_isolation import PYTEST_INI, page, run_cli, run_pytest

F = "```"


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    return tmp_path


def pid_page(name, *extra):
    """A page that writes its worker's pid to NAME.pid, after blocks ``extra``."""
    blocks = [(code, None) for code in extra]
    blocks.append((f"import os\nopen({name + '.pid'!r}, 'w').write(str(os.getpid()))", None))
    return page(*blocks)


def pids(project, *names):
    return [int((project / f"{name}.pid").read_text()) for name in names]


# ------------------------------------------------------------------ reuse


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_pages_share_a_worker_and_get_a_fresh_namespace(project, jobs):
    for name in ("a", "b", "c"):
        (project / "docs" / f"{name}.md").write_text(
            pid_page(name, "assert 'x' not in globals()\nx = 1"))
    result = run_cli(["check", "-j", jobs, "docs"], project)
    assert result.returncode == 0, result.stdout + result.stderr
    used = set(pids(project, "a", "b", "c"))
    assert len(used) <= int(jobs), used


@pytest.mark.parametrize("leaves", [
    "import threading, time\nthreading.Thread(target=time.sleep, args=(5,), daemon=True).start()",
    "import subprocess\nsubprocess.Popen(['sleep', '30'])",
    "import os\nif os.fork() == 0:\n    os._exit(0)",
    "raise SystemExit(3)",
])
def test_a_worker_whose_page_left_something_behind_is_replaced(project, leaves):
    (project / "docs" / "a.md").write_text(pid_page("a", leaves))
    (project / "docs" / "b.md").write_text(pid_page("b"))
    run_cli(["check", "docs"], project)
    first, second = pids(project, "a", "b")
    if leaves.startswith("raise"):
        assert first == second  # an exception is the block's failure, not the worker's
    else:
        assert first != second


@pytest.mark.parametrize("ends", ["os._exit(0)", "import time\ntime.sleep(60)"])
def test_a_worker_whose_page_crashed_or_timed_out_is_replaced(project, ends):
    (project / "docs" / "a.md").write_text("<!-- literate: page timeout 2 -->\n" + page(
        (f"import os\nopen('a.pid', 'w').write(str(os.getpid()))\n{ends}", None)))
    (project / "docs" / "b.md").write_text(pid_page("b"))
    result = run_cli(["check", "docs"], project)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 passed, 1 failed" in result.stdout
    first, second = pids(project, "a", "b")
    assert first != second


def test_a_directive_asks_for_a_fresh_process(project):
    (project / "docs" / "a.md").write_text(pid_page("a"))
    (project / "docs" / "b.md").write_text("<!-- literate: fresh process -->\n" + pid_page("b"))
    (project / "docs" / "c.md").write_text(pid_page("c"))
    result = run_cli(["check", "docs"], project)
    assert result.returncode == 0, result.stdout + result.stderr
    a, b, c = pids(project, "a", "b", "c")
    assert b not in (a, c)


def test_environment_path_and_directory_do_not_carry_over(project):
    (project / "docs" / "a.md").write_text(page((
        "import os, sys\nos.environ['LEAK'] = '1'\nos.environ.pop('NO_COLOR')\n"
        "sys.path.insert(0, '/leak')\nsys.argv.append('leak')", None)))
    (project / "docs" / "b.md").write_text(page((
        "import os, sys\nprint('LEAK' in os.environ, os.environ['NO_COLOR'], "
        "'/leak' in sys.path, 'leak' in sys.argv)", "False 1 False False")))
    result = run_cli(["check", "docs"], project)
    assert result.returncode == 0, result.stdout + result.stderr


# ------------------------------------------------------------------- fork


FORKS = [
    "import os, time\nif os.fork() == 0:\n    time.sleep(0.3)\nprint('one')",
    "import os, sys, time\nif os.fork() == 0:\n    time.sleep(0.3)\n    sys.exit(0)\nprint('one')",
]


@pytest.mark.parametrize("fork", FORKS)
def test_a_forked_child_never_answers_for_the_worker_in_check(project, fork):
    (project / "docs" / "page.md").write_text(page(
        (fork, "one"), ("import time\ntime.sleep(0.5)\nprint('two')", "two"),
        ("print('three')", "WRONG")))
    result = run_cli(["check", "docs"], project)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 failed" in result.stdout, result.stdout
    assert "+three" in result.stdout


@pytest.mark.parametrize("fork", FORKS)
def test_a_forked_child_never_answers_for_the_worker_under_pytest(project, fork):
    (project / "pytest.ini").write_text(PYTEST_INI)
    (project / "docs" / "page.md").write_text(page(
        (fork, "one"), ("import time\ntime.sleep(0.5)\nprint('two')", "two"),
        ("print('three')", "WRONG")))
    result = run_pytest(project, "-v")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 failed, 2 passed" in result.stdout, result.stdout


@pytest.mark.parametrize("fork", FORKS)
def test_promote_writes_each_blocks_own_output_after_a_fork(project, fork):
    path = project / "docs" / "page.md"
    path.write_text(page((fork, None), ("import time\ntime.sleep(0.5)\nprint('two')", None),
                         ("print('three')", None)))
    result = run_cli(["promote", "docs"], project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert path.read_text() == page((fork, "one"),
                                    ("import time\ntime.sleep(0.5)\nprint('two')", "two"),
                                    ("print('three')", "three"))


def test_an_answer_from_another_process_is_a_protocol_error(project):
    # A block that writes a well-formed answer on the worker's answers pipe.
    forge = (
        "import json, os\n"
        "for fd in range(3, 64):\n"
        "    try:\n"
        "        os.write(fd, (json.dumps({'result': 1, 'outcome': 'PASSED', 'output': '',"
        " 'traceback': None, 'notes': [], 'reason': None}) + '\\n').encode())\n"
        "    except OSError:\n"
        "        pass"
    )
    (project / "docs" / "page.md").write_text(page((forge, None), ("print('x')", "WRONG")))
    result = run_cli(["check", "docs"], project)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "0 failed" not in result.stdout


def test_an_answer_about_another_block_is_a_protocol_error():
    from rune.literate import IsolatedPageRunner, Outcome, parse_page

    runner = IsolatedPageRunner(parse_page(page(("print(1)", "1"), ("print(2)", "2"))))
    runner._begin()
    worker = runner._worker
    # Well-formed, from the worker, for this page, but about the second block.
    worker.answers.put({"result": 1, "outcome": "PASSED", "output": "2\n", "traceback": None,
                        "notes": [], "reason": None, "pid": worker.pid, "token": runner._token})
    first, second = runner.run_all()
    assert first.outcome is Outcome.CRASHED
    assert "protocol error" in first.report()
    assert second.outcome is Outcome.NOT_RUN


# ---------------------------------------------------------- descriptors


def test_descriptors_stay_bounded_under_pytest(tmp_path):
    (tmp_path / "pytest.ini").write_text(PYTEST_INI)
    (tmp_path / "docs").mkdir()
    for number in range(150):
        (tmp_path / "docs" / f"p{number:03}.md").write_text(page((f"print({number})",
                                                                    str(number))))

    def low_limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (128, 128))

    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "docs"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
        preexec_fn=low_limit)
    assert "150 passed" in result.stdout, result.stdout[-3000:] + result.stderr[-2000:]


# ---------------------------------------------------- escaped processes


def escaped(marker):
    return ("import subprocess\n"
            "child = subprocess.Popen(['sleep', '60'], start_new_session=True)\n"
            f"open({marker!r}, 'w').write(str(child.pid))")


def gone(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # A zombie not yet reaped by init is gone too.
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0] == "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_children_are_found_with_or_without_the_children_files():
    child = subprocess.Popen(["sleep", "30"])
    try:
        assert child.pid in processes.children(os.getpid())
        assert child.pid in processes._children_by_scanning(os.getpid())
    finally:
        child.kill()
        child.wait()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="child subreaper is Linux's")
@pytest.mark.parametrize("then", ["", "import time\ntime.sleep(60)"])
def test_a_process_in_a_new_session_ends_with_its_page(project, then):
    text = "<!-- literate: timeout 2 -->\n" + page((escaped("child.pid") + "\n" + then, None))
    (project / "docs" / "page.md").write_text(text)
    started = time.monotonic()
    # `check 2>&1 | cat`: the run is over only when nothing holds its output.
    result = subprocess.run(
        [sys.executable, "-m", "rune.literate", "check", "docs"], cwd=project, text=True,
        env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2])),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=40)
    assert time.monotonic() - started < 30, result.stdout
    assert gone(int((project / "child.pid").read_text()))


# ------------------------------------------------------------- teardown


@pytest.mark.parametrize("deselect", [["-k", "line:9"], ["-x"]])
def test_teardown_runs_when_the_last_block_is_deselected(project, deselect):
    (project / "pytest.ini").write_text(PYTEST_INI)
    marker = project / "torn-down"
    teardown = (f"<!-- literate: teardown\n{F}python\nimport time\ntime.sleep(0.5)\n"
                f"open({str(marker)!r}, 'w').write('yes')\n{F}\n-->\n\n")
    first = "print(1)" if deselect[0] == "-k" else "raise ValueError"
    (project / "docs" / "page.md").write_text(
        teardown + page((first, "1"), ("print(2)", "2")))
    result = run_pytest(project, "-v", *deselect)
    assert "line:16" not in result.stdout, result.stdout  # the last block did not run
    assert marker.exists(), result.stdout + result.stderr


# ------------------------------------------------------------ the page sent


def test_the_worker_gets_the_parsed_page_under_its_display_name():
    import dataclasses

    from rune.literate import isolation, parse_page, worker

    parsed = parse_page(page(("print(1)", "1")) + f"\n{F}pycon\n>>> 1 + 1\n2\n{F}\n", "a.md")
    sent = worker._unpack_page(isolation._packed(parsed, "docs/a.md"), "rune.literate")
    assert sent == dataclasses.replace(parsed, path="docs/a.md")
    assert sent.python_blocks[1].session[0].doctest.want == "2\n"


def test_the_worker_unpickles_nothing_but_a_page():
    import base64
    import pickle

    from rune.literate import worker

    packed = base64.b64encode(pickle.dumps(os.system)).decode()
    with pytest.raises(pickle.UnpicklingError, match="a page holds no"):
        worker._unpack_page(packed, "rune.literate")
