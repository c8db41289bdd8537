"""Run a page in a worker process, so that no block can take its caller down.

``check``, ``promote`` and the pytest plugin all run pages through
[`IsolatedPageRunner`][rune.literate.IsolatedPageRunner]. Each page runs in a worker process
(`rune.literate.worker`, lent by a [`WorkerPool`][rune.literate.WorkerPool]) that runs its
blocks in a fresh namespace with [`PageRunner`][rune.literate.PageRunner]; the parent only
reads its answers, which name the worker's pid and the page's token, so

- a block that calls ``os._exit``, crashes or is killed is a failure naming
  the page and line (never a silent exit 0), and the blocks after it are
  reported as not run;
- a block that runs past its timeout is stopped, with the worker and any
  process it started (in a session of its own too: the worker is their
  subreaper on Linux), and fails;
- a forked child cannot answer for the worker: anything on the answers pipe
  that is not the worker's answer for this page fails the page;
- the worker's stdin is ``/dev/null`` (``input()`` raises ``EOFError``) and
  colour is off (``NO_COLOR=1``, ``TERM=dumb``);
- the user's Ctrl-C reaches the parent alone (the worker has its own session),
  which stops the worker; a KeyboardInterrupt inside the worker is the block's.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import pickle
import queue
import secrets
import shutil
import signal
import sys
import tempfile
import time
import weakref
from collections.abc import Callable, Sequence

from .parser import Page, PythonBlock
from .pool import Worker, WorkerPool, worker_environment  # noqa: F401 -- re-exported
from .runner import BlockResult, Outcome
from .session import SHELL_LANGUAGES

DEFAULT_TIMEOUT = 300.0  # seconds per block, unless --timeout or a directive says otherwise
_START_UP_ALLOWANCE = 60.0  # seconds for a worker to start, on top of the first step's timeout
_TEARDOWN_ALLOWANCE = 60.0  # seconds for a page's teardown blocks, at the page's end
# The package of the page's classes: "rune.literate", or "_rune_literate" where
# it is loaded under its private name (under pytest). The worker maps it to its own.
_PACKAGE = __name__.rpartition(".")[0]


class IsolatedPageRunner:
    r"""Runs a page's blocks in a worker process; the same interface as PageRunner.

    Args:
      page: the parsed page.
      display_path: names the page in reports and tracebacks (default
        ``page.path``).
      timeout: seconds a block may run, unless a directive of the page says
        otherwise.
      on_step: called with the line of each step as it starts (progress).
      pool: the [`WorkerPool`][rune.literate.WorkerPool] that lends the
        worker; default a worker of the page's own, stopped at its end.

    Raises:
      TypeError: page is not a Page, or pool not a WorkerPool.
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
        pool: WorkerPool | None = None,
    ) -> None:
        if not isinstance(page, Page):
            raise TypeError(f"IsolatedPageRunner: page must be a Page (from parse_page or "
                            f"read_page), got {type(page).__name__}")
        if not isinstance(timeout, (int, float)) or not 0 < timeout < float("inf"):
            raise ValueError(f"IsolatedPageRunner: timeout must be a positive number of "
                             f"seconds, got {timeout!r}")
        if pool is not None and not isinstance(pool, WorkerPool):
            raise TypeError(f"IsolatedPageRunner: pool must be a WorkerPool or None, got "
                            f"{type(pool).__name__}")
        self.page = page
        self.path = display_path or page.path
        self.timeout = float(timeout)
        self._on_step = on_step or (lambda line: None)
        self._index = {id(block): index for index, block in enumerate(page.python_blocks)}
        self._pool = pool
        self._worker: Worker | None = None
        self._token = secrets.token_hex(8)  # names this page's answers
        self._finalizer: weakref.finalize | None = None  # ends the worker, once
        self._ended: str | None = None  # why the worker is gone, for the blocks after
        self._page_over = False  # the worker was given back (or stopped)
        # Blocks asked for and not answered yet (each with the blocks after it that
        # its failure cancels), and answers not yet taken (blocks run ahead).
        self._pending: dict[int, list[int]] = {}
        self._answers: dict[int, dict] = {}
        # The last request asked for the page's last block, which ends the page in
        # the worker unless a failure stops the request first: no "end" to send.
        self._end_asked = False
        # Made here, not in the worker: a worker killed at a timeout cannot remove it.
        self._shell_directory: str | None = None

    def run_all(self) -> list[BlockResult]:
        r"""Run every block of the page in order, then give the worker back.

        >>> from rune.literate import parse_page
        >>> page = parse_page("```python\nx = 6\n```\n\n```python\nprint(x * 7)\n```\n")
        >>> [(result.outcome.name, result.output) for result in IsolatedPageRunner(page).run_all()]
        [('PASSED', ''), ('MISSING_OUT', '42\n')]
        """
        try:
            # One request up front: the worker runs the page without waiting on us.
            if self._ended is None and self._begin():
                self._request(list(range(len(self._index))), until_failure=False)
            results = [self._receive(block) for block in self.page.python_blocks]
        except BaseException:  # the user's Ctrl-C: stop the worker now
            self.close(grace=0)
            raise
        self.close()
        return results

    def run_block(self, block: PythonBlock, ahead: Sequence[PythonBlock] = ()) -> BlockResult:
        r"""Run ``block`` (after the steps before it) in the worker and judge it.

        ``ahead``: later blocks of the page that will be asked for next, in
        order (pytest's next tests): the worker runs them in the same request,
        without waiting, and stops at the first block that fails; asking for
        them later takes their answers. An answer never asked for is dropped
        when the page ends.

        >>> from rune.literate import parse_page
        >>> page = parse_page("```python\nx = 6\n```\n\n```python\nprint(x * 7)\n```\n\n"
        ...                   "```out\n42\n```\n")
        >>> runner = IsolatedPageRunner(page)
        >>> runner.run_block(page.python_blocks[1]).outcome.name  # x = 6 runs first
        'PASSED'
        >>> runner.close()
        """
        index = self._index[id(block)]
        if self._ended is None and not self.asked_for(block) and self._begin():
            self._request([index, *(self._index[id(later)] for later in ahead)],
                          until_failure=bool(ahead))
        return self._receive(block)

    def asked_for(self, block: PythonBlock) -> bool:
        r"""Whether ``block`` was asked for already (run ahead): its answer is
        on its way, or here.

        >>> from rune.literate import parse_page
        >>> page = parse_page("```python\nx = 6\n```\n\n```python\nprint(x * 7)\n```\n")
        >>> first, second = page.python_blocks
        >>> runner = IsolatedPageRunner(page)
        >>> runner.asked_for(second)
        False
        >>> _ = runner.run_block(first, ahead=[second])  # the worker runs both
        >>> runner.asked_for(second)
        True
        >>> runner.close()
        """
        index = self._index[id(block)]
        return index in self._pending or index in self._answers

    def close(self, grace: float = 5.0) -> None:
        r"""End the page: its teardown runs, and the worker goes back to the pool
        (or is stopped, after ``grace`` seconds, if unfit for another page).
        Safe to call twice.

        >>> from rune.literate import WorkerPool, parse_page
        >>> page = parse_page("```python\nx = 6\n```\n\n```python\nprint(x * 7)\n```\n")
        >>> with WorkerPool() as pool:
        ...     runner = IsolatedPageRunner(page, pool=pool)
        ...     _ = runner.run_block(page.python_blocks[0])
        ...     runner.close()  # the page ends early: its worker goes back to the pool
        ...     worker = pool.acquire()  # ... and is lent to the next page
        ...     print(worker.pages)
        ...     pool.release(worker, reusable=False)
        2
        """
        if self._page_over or self._worker is None:
            self._page_over = True
            return
        self._page_over = True
        worker = self._worker
        if self._finalizer is not None:
            self._finalizer.detach()
        if grace == 0 or self._ended is not None:
            worker.stop(grace)
            _remove(self._shell_directory)
            return
        if not self._end_asked:
            worker.send({"end": True})
        ended = self._await("ended", None)
        if isinstance(ended, dict):
            self._pool_of_page().add_coverage(ended.get("coverage"))
            self._give_back(worker, reusable=not ended["left"])
        else:
            worker.stop(grace)
            self._give_back(worker, reusable=False)
        _remove(self._shell_directory)

    def _pool_of_page(self) -> WorkerPool:
        if self._pool is None:
            self._pool = WorkerPool()
            self._own_pool = True
        return self._pool

    def _give_back(self, worker: Worker, reusable: bool) -> None:
        pool = self._pool_of_page()
        pool.release(worker, reusable)
        if getattr(self, "_own_pool", False):
            pool.close()

    def _begin(self) -> bool:
        """Borrow a worker and send it the page, once; whether the page is under way."""
        if self._worker is None:
            if self._page_over:
                return False
            self._worker = self._pool_of_page().acquire(fresh=self.page.fresh_process)
            if any(block.fence.language in SHELL_LANGUAGES and block.session is not None
                   for block in self.page.python_blocks):
                self._shell_directory = tempfile.mkdtemp(prefix="literate-shell-")
            self._finalizer = weakref.finalize(self, _abandon, self._worker,
                                               self._shell_directory)
            self._worker.send({"token": self._token, "page": _packed(self.page, self.path),
                               "package": _PACKAGE, "sys_path": sys.path, "timeout": self.timeout,
                               "shell_directory": self._shell_directory},
                              flush=False)  # sent with the first request, which follows
        return not self._page_over

    def _request(self, indices: list[int], until_failure: bool) -> None:
        """Ask the worker for these blocks; each waits for its answer in ``_pending``
        (in the order the answers come) with the blocks after it in the request
        that a failure of it cancels. A request for the page's last block also
        ends the page: the worker ends it at once, and its "ended" is there by
        the time the page's last test asks (each wait for the other process
        costs more CPU than the message itself)."""
        self._end_asked = bool(indices) and indices[-1] == len(self._index) - 1
        self._worker.send({"run": indices, "until_failure": until_failure,
                           "end": self._end_asked})
        for position, index in enumerate(indices):
            self._pending[index] = indices[position + 1:] if until_failure else []

    def _receive(self, block: PythonBlock) -> BlockResult:
        """Wait for the worker's answer about ``block`` (unless it ran ahead and
        was answered already), timing each step it starts."""
        index = self._index[id(block)]
        if index not in self._answers:
            if self._ended is not None:
                return BlockResult(block, Outcome.NOT_RUN, self.path, reason=self._ended)
            if self._worker is None or self._page_over:
                return BlockResult(block, Outcome.NOT_RUN, self.path,
                                   reason="was not run: its page had already ended")
            failed = self._await_answer(block, index)
            if failed is not None:
                return failed
        if index == len(self._index) - 1:
            self.close()  # the page's last block: the worker has nothing left to do
        return self._result(block, self._answers.pop(index))

    def _await_answer(self, block: PythonBlock, index: int) -> BlockResult | None:
        """Read answers until block ``index``'s; None, or the block's failure
        (a timeout, a crash, a garbled pipe)."""
        while index not in self._answers:
            if index not in self._pending:  # a failure before it stopped its request
                self._request([index], until_failure=False)
            answer = self._await("result", block)
            if isinstance(answer, BlockResult):
                return answer
            # The worker answers in the order of the requests: any other block is garbled.
            if answer["result"] != next(iter(self._pending), None):
                return self._garbled(block, answer)
            cancelled = self._pending.pop(answer["result"])
            if Outcome[answer["outcome"]] not in (Outcome.PASSED, Outcome.SKIPPED):
                for later in cancelled:  # the worker stopped that request at this failure
                    self._pending.pop(later, None)
                if len(self._index) - 1 in cancelled:  # ... before the end it asked for
                    self._end_asked = False
            self._answers[answer["result"]] = answer
        return None

    def _result(self, block: PythonBlock, answer: dict) -> BlockResult:
        return BlockResult(
            block, Outcome[answer["outcome"]], self.path, answer["output"],
            answer["traceback"], answer["notes"], answer["reason"],
        )

    def _await(self, kind: str, block: PythonBlock | None):
        """The worker's next ``kind`` answer for this page, timing each step it
        starts; for a timeout, a crash or a garbled pipe, the block's failure."""
        worker = self._worker
        line, seconds = None, self.timeout
        # Until a step starts, allow for the worker's start-up (or teardown).
        allowance = _START_UP_ALLOWANCE if kind == "result" else _TEARDOWN_ALLOWANCE
        deadline = time.monotonic() + seconds + allowance
        while True:
            try:
                answer = worker.answers.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return self._timed_out(block, line, seconds)
            if answer is None:
                return self._crashed(block, line)
            if not self._is_ours(answer):
                return self._garbled(block, answer)
            if "start" in answer:
                line, seconds = answer["start"], answer["timeout"]
                deadline = time.monotonic() + seconds
                self._on_step(line)
            elif kind in answer:
                return answer

    def _is_ours(self, answer) -> bool:
        return (isinstance(answer, dict) and answer.get("pid") == self._worker.pid
                and answer.get("token") == self._token)

    def _garbled(self, block: PythonBlock | None, answer) -> BlockResult | None:
        self._stop_worker()
        sender = answer.get("pid") if isinstance(answer, dict) else None
        whom = f"process {sender}" if sender is not None else "some process"
        text = answer if isinstance(answer, str) else json.dumps(answer)
        self._ended = ("was not run because the answers of the page's worker were garbled "
                       "(protocol error)")
        if block is None:
            return None
        return BlockResult(
            block, Outcome.CRASHED, self.path,
            reason="could not be judged: the worker's answers carried a line that is not "
                   "its answer for this page (protocol error)",
            traceback=(f"The worker is pid {self._worker.pid}; the line came from {whom} (a "
                       f"forked child, or a block writing on the worker's pipe?): "
                       f"{text[:300]!r}"),
        )

    def _stop_worker(self) -> None:
        if not self._page_over:
            self._page_over = True
            if self._finalizer is not None:
                self._finalizer.detach()
            self._worker.stop(0)
            self._give_back(self._worker, reusable=False)
            _remove(self._shell_directory)

    def _timed_out(self, block: PythonBlock | None, line: int | None,
                   seconds: float) -> BlockResult | None:
        self._stop_worker()
        limit = f"its timeout of {seconds:g} s"
        if block is None:  # a teardown block of the page
            self._ended = f"the step at line {line} did not finish within {limit}"
            return None
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

    def _crashed(self, block: PythonBlock | None, line: int | None) -> BlockResult | None:
        worker = self._worker
        self._stop_worker()
        how = _how_it_ended(worker.returncode)
        if block is None:
            self._ended = f"the process running the page {how} after its last block"
            return None
        if line == block.line:
            self._ended = f"was not run because the block at line {block.line} ended the process"
            return BlockResult(block, Outcome.CRASHED, self.path,
                               traceback=f"The process running the page {how} while this "
                                         f"block ran.")
        where = (f"the step at line {line}" if line else
                 "something before this block (a thread of an earlier block?)")
        self._ended = f"was not run because {where} ended the process running the page ({how})"
        return BlockResult(block, Outcome.NOT_RUN, self.path, reason=self._ended)


def _packed(page: Page, path: str) -> str:
    """The parsed page as the worker takes it, named ``path``: the worker need
    not parse it again, and runs the very steps the parent's blocks index."""
    if page.path != path:
        page = dataclasses.replace(page, path=path)
    return base64.b64encode(pickle.dumps(page, pickle.HIGHEST_PROTOCOL)).decode("ascii")


def _how_it_ended(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"was killed by {name}"
    return f"ended with exit status {code}"


def _abandon(worker: Worker, shell_directory: str | None) -> None:
    """A page dropped without being closed: stop its worker, remove its directory."""
    worker.stop(5.0)
    _remove(shell_directory)


def _remove(shell_directory: str | None) -> None:
    if shell_directory is not None:
        shutil.rmtree(shell_directory, ignore_errors=True)
