"""Worker processes that run page after page: started once, replaced when unfit.

Starting an interpreter for every page cost about 96% of a run (and a page's
imports were paid again on each page). A [`WorkerPool`][rune.literate.WorkerPool]
keeps started workers (`rune.literate.worker`) and lends one to each page;
the page gets a fresh namespace and the worker restores what a page may change
(see `rune.literate.worker`). A worker whose page crashed, timed out, forked,
left threads or processes running, or asked for a ``fresh process`` is never
lent again. ``check -j N`` lends at most N at once, so N pages run side by side;
under pytest the pool is the session's, and each page gives its worker back
when pytest leaves the page's file.

Each worker has two pipes (and a thread reading its answers): the descriptors
a run holds are bounded by the number of workers, not of pages.
"""

from __future__ import annotations

import collections
import json
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time
import warnings
import weakref
from pathlib import Path

from .processes import kill_descendants

# Variables that force colour on whatever NO_COLOR says.
_FORCE_COLOUR = ("FORCE_COLOR", "CLICOLOR_FORCE", "PY_COLORS", "PYTHON_COLORS")
# Variables that make coverage.py start by itself in a new interpreter: the
# worker measures the pages itself (and gives them back to the blocks).
_COVERAGE_START = ("COVERAGE_PROCESS_START", "COVERAGE_PROCESS_CONFIG")

# Loads rune.literate in the worker under a private name, without importing
# the package around it (rune's engine, numpy): a page that imports rune then
# gets it fresh, and a page of another project pays nothing for it. Nor does
# it run the package's __init__: the worker imports only the modules it uses.
_BOOTSTRAP = """\
import importlib.util, sys
spec = importlib.util.spec_from_file_location(
    "_rune_literate", sys.argv[1], submodule_search_locations=[sys.argv[2]])
sys.modules["_rune_literate"] = importlib.util.module_from_spec(spec)
import _rune_literate.worker
_rune_literate.worker.main()
"""


def worker_environment() -> dict[str, str]:
    """The parent's environment with colour turned off for the blocks."""
    environment = {k: v for k, v in os.environ.items() if k not in _FORCE_COLOUR}
    environment.update(NO_COLOR="1", TERM="dumb")
    return environment


class Worker:
    """One worker process: its pipes, and the answers read from it so far.

    ``answers`` holds each answer as a dict, a ``str`` for a line that is not
    JSON, and None once the worker is gone.
    """

    def __init__(self, coverage: dict | None) -> None:
        package = Path(__file__).resolve().parent
        environment = worker_environment()
        kept = {name: environment.pop(name) for name in _COVERAGE_START
                if coverage is not None and name in environment}
        self.process = subprocess.Popen(
            [sys.executable, "-c", _BOOTSTRAP, str(package / "__init__.py"), str(package)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=environment,
            encoding="utf-8", start_new_session=(os.name == "posix"),
        )
        self.pid = self.process.pid
        self.answers = Answers(self.process.stdout)
        self.pages = 0  # pages it has been lent for
        self._stopped = False
        self.send({"environment": kept, "coverage": coverage})

    def send(self, message: dict, flush: bool = True) -> None:
        """Write a request; with ``flush`` False it waits in the buffer for the
        next request, so that the worker wakes once for both."""
        try:
            self.process.stdin.write(json.dumps(message) + "\n")
            if flush:
                self.process.stdin.flush()
        except (OSError, ValueError):
            pass  # the worker is gone: its end of the answers says how

    def stop(self, grace: float = 0.0) -> None:
        """End the worker and every process below it; safe to call twice.

        The worker exits by itself when its requests end; after ``grace``
        seconds it is killed, with whatever it started.
        """
        if self._stopped:
            return
        self._stopped = True
        _stop(self.process, self.answers, grace)

    @property
    def returncode(self) -> int | None:
        return self.process.returncode


class WorkerPool:
    r"""Lends workers to pages; keeps at most ``size`` idle ones for the next pages.

    Args:
      size: how many idle workers to keep (``check -j N``: N).

    Raises:
      ValueError: size is not a positive whole number.

    >>> from rune.literate import IsolatedPageRunner, WorkerPool, parse_page
    >>> page = parse_page("```python\nimport os\nprint(os.getpid())\n```\n")
    >>> with WorkerPool() as pool:
    ...     first, second = (IsolatedPageRunner(page, pool=pool).run_all()[0] for _ in "ab")
    ...     print(first.output == second.output)  # one worker ran both pages
    True
    """

    def __init__(self, size: int = 1) -> None:
        if not isinstance(size, int) or isinstance(size, bool) or size < 1:
            raise ValueError(f"WorkerPool: size must be a whole number of workers, 1 or more, "
                             f"got {size!r}")
        self.size = size
        self._idle: list[Worker] = []
        self._lock = threading.Lock()
        self._closed = False
        self._coverage = _ParentCoverage()
        self._finalizer = weakref.finalize(self, _stop_all, self._idle)

    def acquire(self, fresh: bool = False) -> Worker:
        """A worker for one page: an idle one, or a new one (always new when ``fresh``).

        >>> with WorkerPool() as pool:
        ...     worker = pool.acquire()
        ...     pool.release(worker, reusable=True)
        ...     again = pool.acquire()  # the idle one
        ...     print(again is worker, worker.pages, pool.acquire(fresh=True) is worker)
        ...     pool.release(worker, reusable=False)
        True 2 False
        """
        with self._lock:
            if self._idle and not fresh:
                worker = self._idle.pop()
            else:
                worker = None
        if worker is None:
            worker = Worker(self._coverage.settings())
        worker.pages += 1
        return worker

    def release(self, worker: Worker, reusable: bool) -> None:
        """Take a worker back after its page; stop it unless it may run another.

        >>> with WorkerPool() as pool:
        ...     worker = pool.acquire()
        ...     pool.release(worker, reusable=False)  # a page crashed it, say
        ...     print(worker.returncode is not None)  # stopped
        True
        """
        with self._lock:
            if reusable and not self._closed and len(self._idle) < self.size:
                self._idle.append(worker)
                return
        worker.stop(grace=5.0)

    def add_coverage(self, measured: dict | None) -> None:
        """Add the lines a worker measured to this process's coverage data.

        ``measured`` is what the worker reports at its page's end: None when
        coverage.py is not running, which adds nothing.

        >>> with WorkerPool() as pool:
        ...     pool.add_coverage(None)
        """
        self._coverage.add(measured)

    def close(self) -> None:
        """Stop the idle workers; workers lent out are stopped when given back.

        >>> pool = WorkerPool()
        >>> worker = pool.acquire()
        >>> pool.close()
        >>> pool.release(worker, reusable=True)  # closed: stopped, not kept
        >>> worker.returncode is not None
        True
        """
        with self._lock:
            self._closed = True
            idle, self._idle[:] = list(self._idle), []
        _stop_all(idle, grace=5.0)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


class _ParentCoverage:
    """coverage.py running in this process, if any: the settings a worker
    measures with, and the place its lines go."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._data: tuple | None = None  # (the Coverage, its data), taken once

    @staticmethod
    def current():
        coverage = sys.modules.get("coverage")
        if coverage is None:
            return None
        return coverage.Coverage.current()

    def settings(self) -> dict | None:
        current = self.current()
        if current is None:
            return None
        config = current.config
        return {
            "config_file": config.config_file or False, "branch": config.branch,
            "source": config.source, "source_pkgs": config.source_pkgs or None,
            "include": config.run_include or None, "omit": config.run_omit or None,
            "cover_pylib": config.cover_pylib, "timid": config.timid,
        }

    def add(self, measured: dict | None) -> None:
        current = self.current()
        if not measured or current is None:
            return
        with self._lock:
            data = self._data_of(current)
            if "arcs" in measured:
                data.add_arcs({name: [tuple(arc) for arc in arcs]
                               for name, arcs in measured["arcs"].items()})
            else:
                data.add_lines(measured["lines"])


    def _data_of(self, current):
        """The data ``current`` will save (get_data, once: each call also runs its
        end-of-run checks, which warn "No data was collected" while this
        process has measured nothing of its own yet)."""
        if self._data is None or self._data[0] is not current:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                self._data = (current, current.get_data())
        return self._data[1]


class Answers:
    """A worker's answers, read from its pipe as they are asked for: each a dict,
    a ``str`` for a line that is not JSON, and None once the worker is gone.

    Where ``select.poll`` exists the caller reads the pipe itself, taking every
    answer that has come in one read (answers to blocks run ahead come in
    bursts); a thread reading each line and waking the caller for it cost more
    than the rest of the parent's work on a block. Elsewhere (Windows) a
    thread reads the pipe.
    """

    def __init__(self, stream) -> None:
        self._stream = stream
        self._ready: collections.deque = collections.deque()
        self._partial = b""  # the start of a line not ended yet
        self._gone = False
        if hasattr(select, "poll"):
            self._poll = select.poll()
            self._poll.register(stream.fileno(), select.POLLIN)
        else:
            self._poll = None
            self._lines: queue.Queue = queue.Queue()
            threading.Thread(target=_read_lines, args=(stream, self._lines), daemon=True).start()

    def put(self, answer) -> None:
        """Add an answer after those read so far."""
        self._ready.append(answer)

    def get(self, timeout: float):
        """The next answer; raises queue.Empty if none comes within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not self._ready:
            if self._gone:
                return None
            if self._poll is None:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
                self._add(line)
            elif self._poll.poll(max(0.0, deadline - time.monotonic()) * 1000):
                self._read()
            else:
                raise queue.Empty
        return self._ready.popleft()

    def drop(self, seconds: float) -> None:
        """Read and drop answers until the worker is gone, for at most ``seconds``."""
        deadline = time.monotonic() + seconds
        while not self._gone:
            try:
                self.get(max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return

    def _read(self) -> None:
        chunk = os.read(self._stream.fileno(), 1 << 16)
        if not chunk:  # the worker is gone
            if self._partial:  # its last line, without a newline
                self._add(self._partial.decode("utf-8", "replace"))
            self._poll.unregister(self._stream.fileno())
            self._stream.close()
            self._add(None)
            return
        *lines, self._partial = (self._partial + chunk).split(b"\n")
        for line in lines:
            self._add(line.decode("utf-8", "replace"))

    def _add(self, line: str | None) -> None:
        if line is None:
            self._gone = True
            self._ready.append(None)
            return
        try:
            self._ready.append(json.loads(line))
        except ValueError:
            self._ready.append(line)  # not an answer at all: the runner reports it


def _read_lines(stream, lines: queue.Queue) -> None:
    with stream:
        for line in stream:
            lines.put(line)
    lines.put(None)  # the worker is gone


def _stop_all(workers: list[Worker], grace: float = 0.0) -> None:
    for worker in list(workers):
        worker.stop(grace)


def _stop(process: subprocess.Popen, answers: Answers, grace: float) -> None:
    """Close the worker's requests (it then exits), then kill what is left."""
    try:
        process.stdin.close()
    except OSError:
        pass
    deadline = time.monotonic() + grace
    answers.drop(grace)  # answers nobody took must not hold the worker writing
    try:
        process.wait(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        pass
    if process.stdout is not None:
        process.stdout.close()  # its answers: unread ones are no one's now
    if os.name == "posix":
        # Freeze it, then kill every process below it (those in sessions of
        # their own too: the worker is their subreaper), then its group.
        _signal_group(process.pid, signal.SIGSTOP)
        kill_descendants(process.pid)
        _signal_group(process.pid, signal.SIGKILL)
    else:
        process.kill()
    process.wait()


def _signal_group(pid: int, number: int) -> None:
    try:
        os.killpg(pid, number)
    except (ProcessLookupError, PermissionError):
        pass
