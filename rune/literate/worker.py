"""The worker process that runs pages, one after another: started by `rune.literate.pool`.

It reads requests from its stdin pipe and answers on its stdout pipe, one JSON
object a line, then gives the page's blocks neither: their stdin is
``/dev/null`` and what bypasses ``sys.stdout`` (``os.write(1, ...)``, child
processes) goes to stderr, so nothing a block does can garble the answers.

Requests: first ``{"environment", "coverage"}`` (the worker's own set-up), then
for each page ``{"token", "page", "package", "sys_path", "timeout",
"shell_directory"}`` (``page``: the parent's parsed page, pickled, in base64,
whose classes are those of the parent's ``package``; the parent makes and
removes the directory its shell commands run in), ``{"run": [i, ...]}``
for python blocks wanted, in page order (with ``"until_failure": true``, the
blocks after a failed one in that request are not run: under pytest, blocks
are asked for ahead of the tests; with ``"end": true``, the page ends
after the request, unless a failure stopped it first), and ``{"end": true}``. Answers,
each with the worker's ``pid`` and the page's ``token``:
``{"start": line, "timeout": seconds}`` before each step runs (so the parent
can time it and name it), ``{"result": i, ...}`` when block ``i`` is judged,
and ``{"ended": true, "left": [...], "coverage": ...}`` once the page's
teardown has run: ``left`` says what the page left behind that makes this
worker unfit for another page (it then exits). A forked child of the worker
has its copies of both pipes closed at once, so it can neither read a request
nor answer for the worker.
"""

from __future__ import annotations

import _signal
import base64
import io
import json
import linecache
import os
import pickle
import signal
import sys
import threading
import warnings

from .processes import become_subreaper, children, command_line, kill_descendants, reap_children


def main() -> None:
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    _give_blocks_no_terminal_streams()
    setup = json.loads(requests.readline())
    os.environ.update(setup["environment"])
    measure = _Coverage(setup["coverage"])
    become_subreaper()
    me = os.getpid()
    forked = threading.Event()
    if hasattr(os, "register_at_fork"):  # POSIX: Windows has no fork
        os.register_at_fork(after_in_parent=forked.set,
                            after_in_child=lambda: _leave_the_pipes(requests, answers))
    handlers = _signal_handlers()  # the same before every page: each page restores them
    for request in iter(requests.readline, ""):
        page = _PageJob(json.loads(request), requests, answers, me, forked, measure, handlers)
        if not page.run():
            break
    _exit()


class _PageJob:
    """One page's requests, from its start to its ``end``, in this worker."""

    def __init__(self, job: dict, requests, answers, me: int, forked, measure,
                 handlers: dict) -> None:
        self.job, self.requests, self.answers = job, requests, answers
        self.me, self.forked, self.measure, self.handlers = me, forked, measure, handlers

    def send(self, message: dict) -> None:
        message.update(pid=self.me, token=self.job["token"])
        self.answers.write(json.dumps(message) + "\n")
        self.answers.flush()

    def run(self) -> bool:
        """Run the page's requested blocks and its teardown; whether this worker
        may run another page."""
        from .runner import PageRunner  # here: after main's coverage set-up, so measured

        baseline = _Baseline(self.handlers)
        sys.path[:] = self.job["sys_path"]
        page = _unpack_page(self.job["page"], self.job["package"])
        blocks = page.python_blocks
        timeouts = {block.line: block.timeout for block in blocks}

        def announce(line: int) -> None:
            seconds = timeouts.get(line) or page.timeout or self.job["timeout"]
            self.send({"start": line, "timeout": seconds})

        runner = PageRunner(page, on_step=announce, interrupts_are_failures=True,
                            shell_directory=self.job.get("shell_directory"))
        ended = False
        for request in iter(self.requests.readline, ""):
            message = json.loads(request)
            if "run" not in message:  # {"end": true}
                ended = True
                break
            whole = True  # every block of the request ran (or the last one failed)
            for index in message["run"]:
                result = runner.run_block(blocks[index])
                if os.getpid() != self.me:  # a forked child came back here: it has no say
                    os._exit(_child_status(result))
                self.send({
                    "result": index, "outcome": result.outcome.name, "output": result.output,
                    "traceback": result.traceback, "notes": result.notes, "reason": result.reason,
                })
                if result.failed and message.get("until_failure"):
                    # pytest may stop here (-x): the blocks run ahead wait to be asked again
                    whole = index == message["run"][-1]
                    break
            if message.get("end") and whole:  # it asked for the page's last block: no more come
                ended = True
                break
        runner.finish()  # teardown blocks, if the page's last block was not asked for
        if os.getpid() != self.me:
            os._exit(0)
        left = self.left_behind(page)
        baseline.restore()
        for path in [page.path, *(prelude.path for prelude in page.preludes)]:
            linecache.cache.pop(path, None)
        if ended:
            self.send({"ended": True, "left": left, "coverage": self.measure.lines()})
        return ended and not left

    def left_behind(self, page) -> list[str]:
        """What the page leaves that another page must not inherit; ends its processes."""
        left = []
        if page.fresh_process:
            left.append("the page asked for a fresh process")
        if self.forked.is_set():
            left.append("a block forked the process")
        threads = [thread.name for thread in threading.enumerate()
                   if thread is not threading.main_thread()]
        if threads:
            left.append(f"threads still running: {', '.join(threads)}")
        if children(self.me):
            ended = [command_line(pid) for pid in kill_descendants(self.me)]
            reap_children()
            left.append(f"processes still running, now killed: {', '.join(ended)}")
        return left


class _PageUnpickler(pickle.Unpickler):
    """Reads the parent's parsed page (parsing it again cost as much as running
    its blocks). Its classes are the parent's ``package``'s: this worker loads
    its own copy of each, and nothing else but doctest's examples."""

    def __init__(self, data: bytes, package: str) -> None:
        super().__init__(io.BytesIO(data))
        self.package = package

    def find_class(self, module: str, name: str):
        if module == self.package or module.startswith(self.package + "."):
            module = __package__ + module[len(self.package):]
        elif module != "doctest":
            raise pickle.UnpicklingError(f"a page holds no {module}.{name}")
        return super().find_class(module, name)


def _unpack_page(packed: str, package: str):
    return _PageUnpickler(base64.b64decode(packed), package).load()


class _Baseline:
    """What a page may change in the worker and the next page must not see."""

    def __init__(self, handlers: dict) -> None:
        # os.environ's encoded mapping: copying and comparing it decodes nothing
        # (the decoded copy cost a tenth of a short page's time in the worker).
        self.environment = dict(os.environ._data)  # noqa: SLF001
        self.argv = list(sys.argv)
        self.directory = os.getcwd()
        self.hooks = (sys.stdin, sys.stdout, sys.stderr, sys.displayhook, sys.excepthook)
        self.lists = [(items, list(items)) for items in (sys.meta_path, sys.path_hooks)]
        self.warnings = list(warnings.filters)
        self.recursion = sys.getrecursionlimit()
        self.umask = os.umask(0o22)
        os.umask(self.umask)
        self.handlers = handlers

    def restore(self) -> None:
        if os.environ._data != self.environment:  # noqa: SLF001
            os.environ.clear()
            os.environ.update({os.environ.decodekey(key): os.environ.decodevalue(value)
                               for key, value in self.environment.items()})
        sys.argv[:] = self.argv
        os.chdir(self.directory)
        sys.stdin, sys.stdout, sys.stderr, sys.displayhook, sys.excepthook = self.hooks
        for items, saved in self.lists:
            items[:] = saved
        warnings.filters[:] = self.warnings
        warnings._filters_mutated()  # noqa: SLF001 -- drops the cached "already warned" state
        sys.setrecursionlimit(self.recursion)
        os.umask(self.umask)
        if hasattr(signal, "setitimer"):
            signal.setitimer(signal.ITIMER_REAL, 0)
        for number, handler in self.handlers.items():
            if _signal.getsignal(number) is not handler and handler is not None:
                signal.signal(number, handler)


def _signal_handlers() -> dict:
    """Each signal's handler, as ``_signal`` gives it: ``signal.getsignal`` turns
    each into an enum member first, which cost more than the rest of a page's restore."""
    return {number: _signal.getsignal(number) for number in _SIGNALS}


# The signals whose handlers a page may change (SIGKILL and SIGSTOP have none).
_SIGNALS = [number for number in signal.valid_signals()
            if number not in (getattr(signal, "SIGKILL", None), getattr(signal, "SIGSTOP", None))]


class _Coverage:
    """Measures the pages' lines when the parent measures its own (coverage.py).

    The lines go back to the parent with each page's end, which adds them to
    its own data: nothing to combine, and nothing lost when a later page
    kills the worker.
    """

    def __init__(self, settings: dict | None) -> None:
        self.coverage = None
        if settings is None:
            return
        import coverage

        self.coverage = coverage.Coverage(data_file=None, **settings)
        self.coverage.start()

    def lines(self) -> dict | None:
        if self.coverage is None:
            return None
        data = self.coverage.get_data()
        if data.has_arcs():
            return {"arcs": {name: sorted(data.arcs(name) or ()) for name in data.measured_files()}}
        return {"lines": {name: sorted(data.lines(name) or ()) for name in data.measured_files()}}


def _leave_the_pipes(requests, answers) -> None:
    """In a forked child: close its copies of the pipes, so it can never use them."""
    for stream in (requests, answers):
        try:
            os.close(stream.fileno())
        except OSError:
            pass


def _child_status(result) -> int:
    """The exit status of a forked child that finished its block: its SystemExit's code."""
    if not result.failed:
        return 0
    last = (result.traceback or "").rstrip("\n").rsplit("\n", 1)[-1]
    if last == "SystemExit" or last == "SystemExit: 0":
        return 0
    code = last.removeprefix("SystemExit: ")
    return int(code) if code.isdigit() else 1


def _give_blocks_no_terminal_streams() -> None:
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)


def _exit() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(0)  # threads a block left running must not keep the worker alive


if __name__ == "__main__":
    main()
