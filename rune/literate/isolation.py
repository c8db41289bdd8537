"""Run a page in a worker process, so that no block can take its caller down.

``check``, ``promote`` and the pytest plugin all run pages through
[`IsolatedPageRunner`][rune.literate.IsolatedPageRunner]. Each page gets a fresh interpreter
(`rune.literate.worker`) that runs its blocks with [`PageRunner`][rune.literate.PageRunner];
the parent only reads its answers, so

- a block that calls ``os._exit``, crashes or is killed is a failure naming
  the page and line (never a silent exit 0), and the blocks after it are
  reported as not run;
- a block that runs past its timeout is stopped, with the worker and any
  process it started, and fails;
- the worker's stdin is ``/dev/null`` (``input()`` raises ``EOFError``) and
  colour is off (``NO_COLOR=1``, ``TERM=dumb``);
- the user's Ctrl-C reaches the parent alone (the worker has its own session),
  which stops the worker; a KeyboardInterrupt inside the worker is the block's.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path

from .parser import Page, PythonBlock
from .runner import BlockResult, Outcome
from .session import SHELL_LANGUAGES

DEFAULT_TIMEOUT = 300.0  # seconds per block, unless --timeout or a directive says otherwise
_START_UP_ALLOWANCE = 60.0  # seconds for a worker to start, on top of the first step's timeout

# Variables that force colour on whatever NO_COLOR says.
_FORCE_COLOUR = ("FORCE_COLOR", "CLICOLOR_FORCE", "PY_COLORS", "PYTHON_COLORS")

# Loads rune.literate in the worker under a private name, without importing
# the package around it (rune's engine, numpy): a page that imports rune then
# gets it fresh, and a page of another project pays nothing for it.
_BOOTSTRAP = """\
import importlib.util, sys
spec = importlib.util.spec_from_file_location(
    "_rune_literate", sys.argv[1], submodule_search_locations=[sys.argv[2]])
module = importlib.util.module_from_spec(spec)
sys.modules["_rune_literate"] = module
spec.loader.exec_module(module)
import _rune_literate.worker
_rune_literate.worker.main()
"""


def worker_environment() -> dict[str, str]:
    """The parent's environment with colour turned off for the blocks."""
    environment = {k: v for k, v in os.environ.items() if k not in _FORCE_COLOUR}
    environment.update(NO_COLOR="1", TERM="dumb")
    return environment


class IsolatedPageRunner:
    r"""Runs a page's blocks in a worker process; the same interface as PageRunner.

    Args:
      page: the parsed page.
      display_path: names the page in reports and tracebacks (default
        ``page.path``).
      timeout: seconds a block may run, unless a directive of the page says
        otherwise.
      on_step: called with the line of each step as it starts (progress).

    Raises:
      TypeError: page is not a Page.
      ValueError: timeout is not a positive number.

    >>> from rune.literate import parse_page
    >>> runner = IsolatedPageRunner(parse_page("```python\nimport os\nos._exit(3)\n```\n"))
    >>> [result] = runner.run_all()
    >>> result.outcome.name, result.traceback
    ('CRASHED', 'The process running the page ended with exit status 3 while this block ran.')
    """

    def __init__(
        self,
        page: Page,
        display_path: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        on_step: Callable[[int], None] | None = None,
    ) -> None:
        if not isinstance(page, Page):
            raise TypeError(f"IsolatedPageRunner: page must be a Page (from parse_page or "
                            f"read_page), got {type(page).__name__}")
        if not isinstance(timeout, (int, float)) or not 0 < timeout < float("inf"):
            raise ValueError(f"IsolatedPageRunner: timeout must be a positive number of "
                             f"seconds, got {timeout!r}")
        self.page = page
        self.path = display_path or page.path
        self.timeout = float(timeout)
        self._on_step = on_step or (lambda line: None)
        self._index = {id(block): index for index, block in enumerate(page.python_blocks)}
        self._process: subprocess.Popen | None = None
        self._finalizer: weakref.finalize | None = None  # ends the worker, once
        self._answers: queue.Queue = queue.Queue()
        self._ended: str | None = None  # why the worker is gone, for the blocks after
        self._shell_directory: str | None = None  # made here: the worker may be killed

    def run_all(self) -> list[BlockResult]:
        """Run every block of the page in order, then end the worker."""
        try:
            # Every request up front: the worker runs the page without waiting on us.
            if self._ended is None:
                self._start()
                for index in range(len(self._index)):
                    self._send({"run": index})
            results = [self._receive(block) for block in self.page.python_blocks]
        except BaseException:  # the user's Ctrl-C: stop the worker now
            self.close(grace=0)
            raise
        self.close()
        return results

    def run_block(self, block: PythonBlock) -> BlockResult:
        """Run ``block`` (after the steps before it) in the worker and judge it."""
        if self._ended is None:
            self._start()
            self._send({"run": self._index[id(block)]})
        return self._receive(block)

    def _receive(self, block: PythonBlock) -> BlockResult:
        """Wait for the worker's answer about ``block``, timing each step it starts."""
        if self._ended is not None:
            return BlockResult(block, Outcome.NOT_RUN, self.path, reason=self._ended)
        line, seconds = None, self.timeout
        # Until a step starts, allow for the worker's start-up on a busy machine.
        deadline = time.monotonic() + seconds + _START_UP_ALLOWANCE
        while True:
            try:
                answer = self._answers.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return self._timed_out(block, line, seconds)
            if answer is None:
                return self._crashed(block, line)
            if "start" in answer:
                line, seconds = answer["start"], answer["timeout"]
                deadline = time.monotonic() + seconds
                self._on_step(line)
                continue
            if answer["result"] == len(self._index) - 1:
                self.close()  # the page's last block: the worker has nothing left to do
            return BlockResult(
                block, Outcome[answer["outcome"]], self.path, answer["output"],
                answer["traceback"], answer["notes"], answer["reason"],
            )

    def close(self, grace: float = 5.0) -> None:
        """End the worker process and whatever it started; safe to call twice.

        The worker exits by itself once its requests end; after ``grace``
        seconds it is killed.
        """
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
            _stop(self._process, grace, self._shell_directory)

    def _start(self) -> None:
        if self._process is not None:
            return
        package = Path(__file__).resolve().parent
        if any(block.fence.language in SHELL_LANGUAGES and block.session is not None
               for block in self.page.python_blocks):
            self._shell_directory = tempfile.mkdtemp(prefix="literate-shell-")
        self._process = subprocess.Popen(
            [sys.executable, "-c", _BOOTSTRAP, str(package / "__init__.py"), str(package)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=worker_environment(),
            encoding="utf-8", start_new_session=(os.name == "posix"),
        )
        self._finalizer = weakref.finalize(self, _stop, self._process, 0.0,
                                           self._shell_directory)
        threading.Thread(target=_read_answers, args=(self._process.stdout, self._answers),
                         daemon=True).start()
        self._send({"text": self.page.text, "path": self.path, "sys_path": sys.path,
                    "timeout": self.timeout, "shell_directory": self._shell_directory})

    def _send(self, message: dict) -> None:
        try:
            self._process.stdin.write(json.dumps(message) + "\n")
            self._process.stdin.flush()
        except (OSError, ValueError):
            pass  # the worker is gone: its end of the answers says how

    def _timed_out(self, block: PythonBlock, line: int | None, seconds: float) -> BlockResult:
        self.close(grace=0)
        limit = f"its timeout of {seconds:g} s"
        if line in (None, block.line):
            self._ended = f"was not run because the block at line {block.line} timed out"
            return BlockResult(
                block, Outcome.TIMED_OUT, self.path, reason=f"did not finish within {limit}",
                traceback=("It was stopped. Give it longer with --timeout SECONDS, or with "
                           "<!-- literate: timeout SECONDS --> before the block (or "
                           "<!-- literate: page timeout SECONDS --> for every block of the page)."),
            )
        self._ended = f"was not run because the step at line {line} did not finish within {limit}"
        return BlockResult(block, Outcome.NOT_RUN, self.path, reason=self._ended)

    def _crashed(self, block: PythonBlock, line: int | None) -> BlockResult:
        self.close()
        how = _how_it_ended(self._process.returncode)
        if line == block.line:
            self._ended = f"was not run because the block at line {block.line} ended the process"
            return BlockResult(block, Outcome.CRASHED, self.path,
                               traceback=f"The process running the page {how} while this "
                                         f"block ran.")
        where = (f"the step at line {line}" if line else
                 "something before this block (a thread of an earlier block?)")
        self._ended = f"was not run because {where} ended the process running the page ({how})"
        return BlockResult(block, Outcome.NOT_RUN, self.path, reason=self._ended)


def _read_answers(stream, answers: queue.Queue) -> None:
    for line in stream:
        answers.put(json.loads(line))
    answers.put(None)  # the worker is gone


def _how_it_ended(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"was killed by {name}"
    return f"ended with exit status {code}"


def _stop(process: subprocess.Popen, grace: float, shell_directory: str | None = None) -> None:
    """Close the worker's requests (it then exits), then kill what is left and
    remove the directory its shell commands ran in."""
    try:
        process.stdin.close()
    except OSError:
        pass
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass
    # Kill the worker's whole session: processes a timed-out block started too.
    if os.name == "posix":
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    else:
        process.kill()
    process.wait()
    if shell_directory is not None:
        shutil.rmtree(shell_directory, ignore_errors=True)
