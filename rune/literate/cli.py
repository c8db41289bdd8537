"""The command line: ``python -m rune.literate check|promote [PATHS]``.

``check`` runs pages without pytest and reports each failing block with its
diff or traceback. ``promote`` writes the actual output back into out blocks;
with ``--check`` it changes nothing and fails if anything would change (for
CI), with ``--diff`` it only prints the changes.

Pages run in worker processes reused from page to page (``-j N``: N pages at
a time, in N workers; see `rune.literate.pool`), with a timeout per block
(``--timeout``); this process alone reads and writes the pages (see
`rune.literate.isolation`).

Exit status: 0 when all is well, 1 when a block fails, a page cannot be parsed
or written, no page is found or (``promote --check``) a page would change,
2 for bad arguments, 130 when interrupted (Ctrl-C; no page is left half written).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TextIO

from . import export, migrate
from .isolation import DEFAULT_TIMEOUT, IsolatedPageRunner, WorkerPool
from .docstrings import read_source
from .prelude import with_preludes
from .parser import LiterateSyntaxError
from .paths import DEFAULT_PATHS, find_pages
from .promote import PromotedPage, promote_page, write_promoted
from .runner import BlockResult, Outcome
from .settings import SettingsError, read_table


class Progress:
    """Shows ``[pages done/total] page`` on stderr while pages run.

    On a terminal the line is redrawn in place and names the page and line
    running now (``[3/40] docs/jit.md:120``); elsewhere (CI logs) each page
    gets a line when it is done. Nothing is shown for a single page or with
    ``--quiet``.
    """

    def __init__(self, total: int, stream: TextIO, quiet: bool) -> None:
        self.total = total
        self.stream = stream
        self.enabled = total > 1 and not quiet
        self.redraw = self.enabled and stream.isatty()
        self.done = 0
        self._lock = threading.Lock()  # pages may run in parallel (-j)

    def show(self, done: int, name: str) -> None:
        """A page is done."""
        if not self.enabled:
            return
        with self._lock:
            self.done = done
            self._write(f"[{done}/{self.total}] {name}", newline=not self.redraw)

    def running(self, name: str, line: int) -> None:
        """A step of a page starts: on a terminal, say which."""
        if self.redraw:
            with self._lock:
                self._write(f"[{self.done}/{self.total}] {name}:{line}", newline=False)

    def _write(self, text: str, newline: bool) -> None:
        self.stream.write(text + "\n" if newline else "\r\x1b[K" + text)
        self.stream.flush()

    def clear(self) -> None:
        """Erase the redrawn line before other output is printed."""
        if self.redraw:
            with self._lock:
                self.stream.write("\r\x1b[K")
                self.stream.flush()


def display_name(path: Path) -> str:
    """``path`` relative to the current directory when it is inside it, with ``/``."""
    # Not resolved: a symlink is named as the user named it.
    relative = os.path.relpath(os.path.abspath(path), os.getcwd())
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return path.as_posix()
    return Path(relative).as_posix()


def run_pages(
    pages: list[Path],
    work: Callable[[Path, str, Callable[[int], None]], object],
    jobs: int,
    progress: Progress,
) -> Iterator[tuple[Path, str, object]]:
    """Yield ``(path, name, work(path, name, on_step))`` for each page, in page order.

    With ``jobs`` > 1 that many pages run at once (each in its own worker
    process, so the work runs in threads that only wait for them).
    """
    names = [display_name(path) for path in pages]

    def one(path: Path, name: str):
        return work(path, name, lambda line: progress.running(name, line))

    if jobs <= 1:
        for done, (path, name) in enumerate(zip(pages, names), start=1):
            outcome = one(path, name)
            progress.show(done, name)
            yield path, name, outcome
        return
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(one, path, name) for path, name in zip(pages, names)]
        try:
            for done, (path, name, future) in enumerate(zip(pages, names, futures), start=1):
                outcome = future.result()
                progress.show(done, name)
                yield path, name, outcome
        finally:
            for future in futures:
                future.cancel()


def check_page(path: Path, name: str, on_step, timeout: float,
               pool: WorkerPool | None = None) -> tuple[str | None, list]:
    """Run one page: (why it cannot run, or None; its block results)."""
    try:
        page = with_preludes(read_source(path), path)
    except LiterateSyntaxError as error:
        return f"{name}:{error.line}: {error.message}", []
    except UnicodeDecodeError as error:
        return f"{name}: not UTF-8 text: {error}", []
    except OSError as error:
        return f"{name}: cannot be read: {error}", []
    return None, IsolatedPageRunner(page, name, timeout, on_step, pool).run_all()


def run_check(
    pages: list[Path], quiet: bool = False, jobs: int = 1, timeout: float = DEFAULT_TIMEOUT
) -> int:
    """Run ``pages`` and print each failure; return the exit status."""
    progress = Progress(len(pages), sys.stderr, quiet)
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    broken_pages = 0

    pool = WorkerPool(jobs)

    def work(path, name, on_step):
        return check_page(path, name, on_step, timeout, pool)

    with pool:
        for _, _, (problem, results) in run_pages(pages, work, jobs, progress):
            broken_pages += _report_checked(problem, results, counts, progress)
    progress.clear()
    total = sum(counts.values())
    summary = ", ".join(f"{count} {word}" for word, count in counts.items())
    print(
        f"check: {_count(total, 'block')} in {_count(len(pages), 'page')}: {summary}"
        + (f"; {_count(broken_pages, 'page')} could not be parsed" if broken_pages else "")
    )
    return 1 if counts["failed"] or broken_pages else 0


def _report_checked(problem: str | None, results: list, counts: dict, progress) -> int:
    """Print a checked page's failures and count its blocks; 1 if it could not be parsed."""
    if problem is not None:
        progress.clear()
        print(problem + "\n")
    for result in results:
        if result.outcome is Outcome.SKIPPED:
            counts["skipped"] += 1
        elif result.failed:
            counts["failed"] += 1
            progress.clear()
            print(result.report() + "\n")
        else:
            counts["passed"] += 1
    return problem is not None


def run_promote(
    pages: list[Path],
    mode: str = "write",
    quiet: bool = False,
    jobs: int = 1,
    timeout: float = DEFAULT_TIMEOUT,
    roots: list[Path] | None = None,
) -> int:
    """Promote ``pages``; ``mode`` is "write", "check" or "diff". Return the exit status.

    ``roots`` are the directories promote may write in (default: where the
    pages are); a page that is a symlink leading elsewhere is refused.
    """
    progress = Progress(len(pages), sys.stderr, quiet)
    if roots is None:
        roots = sorted({Path(os.path.realpath(path)).parent for path in pages})
    changed = failed = 0

    pool = WorkerPool(jobs)

    def work(path, name, on_step):
        return promote_page(path, name, timeout, on_step, pool)

    with pool:
        for path, name, promoted in run_pages(pages, work, jobs, progress):
            progress.clear()
            problem = _report_promoted(promoted)
            if promoted.changed:
                print(promoted.diff())
                refused = write_promoted(path, promoted, roots) if mode == "write" else None
                changed += not refused
                if refused:
                    print(refused + "\n")
                elif problem and mode == "write":
                    print(f"{name}: wrote the blocks that ran; the failing blocks' out blocks "
                          f"are as they were\n")
                problem = problem or bool(refused)
            elif problem:
                print(f"{name}: not promoted, left unchanged\n")
            failed += problem
    progress.clear()
    verb = {"write": "changed", "check": "would change", "diff": "would change"}[mode]
    print(
        f"promote: {changed} of {_count(len(pages), 'page')} {verb}"
        + (f"; {_count(failed, 'page')} not promoted because of errors" if failed else "")
    )
    if failed or (mode == "check" and changed):
        return 1
    return 0


def _report_promoted(promoted: PromotedPage) -> bool:
    """Print why a page cannot be fully promoted; whether there was anything to print."""
    if promoted.error:
        print(promoted.error)
    failures: list[BlockResult] = promoted.failures
    for result in failures:
        print(result.report() + "\n")
    return bool(promoted.error or failures)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``check`` and ``promote``."""
    parser = argparse.ArgumentParser(
        prog="python -m rune.literate",
        description="Run literate markdown pages and keep their out blocks true.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="run pages and report failing blocks")
    _add_common_options(check)

    promote = commands.add_parser("promote", help="write actual output into out blocks")
    _add_common_options(promote)
    mode = promote.add_mutually_exclusive_group()
    mode.add_argument(
        "--check",
        dest="mode",
        action="store_const",
        const="check",
        help="change nothing; exit 1 if any page would change",
    )
    mode.add_argument(
        "--diff",
        dest="mode",
        action="store_const",
        const="diff",
        help="change nothing; only print the diff of what would change",
    )
    export.add_command(commands)
    migrate.add_command(commands)
    return parser


def _add_common_options(command: argparse.ArgumentParser) -> None:
    defaults = " and ".join(DEFAULT_PATHS)
    command.add_argument(
        "paths", nargs="*",
        help=f"pages or directories of pages (default: the paths of [tool.rune-literate] in "
             f"./pyproject.toml, else {defaults} under the current directory)",
    )
    command.add_argument("-q", "--quiet", action="store_true", help="do not show progress")
    command.add_argument(
        "--timeout", type=_seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
        help=f"stop a block that runs longer and fail it (default {DEFAULT_TIMEOUT:g}; a "
             f"`timeout` or `page timeout` directive in a page wins)",
    )
    command.add_argument(
        "-j", "--jobs", type=_positive_int, default=1, metavar="N",
        help="run N pages at once, in N worker processes (default 1)",
    )


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def _positive_int(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of pages, 1 or more, "
                                         f"got {text!r}")
    return int(text)


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    parser = build_parser()
    arguments = parser.parse_args(argv)
    if arguments.command == "export":
        return export.run_export(arguments)
    if arguments.command == "migrate":
        return migrate.run_migrate(arguments)
    try:
        patterns = configured_paths()
        pages = [path.absolute() for path in find_pages(arguments.paths, os.getcwd(), patterns)]
    except (FileNotFoundError, SettingsError) as error:
        parser.error(str(error))
    if not pages:
        searched = (", ".join(arguments.paths) if arguments.paths else
                    f"{' and '.join(patterns)} under {os.getcwd()}")
        print(f"no pages found in {searched} (looked for *.md files, skipping hidden "
              f"directories, Python environments, installed packages, node_modules and "
              f"site)", file=sys.stderr)
        return 1
    options = {"quiet": arguments.quiet, "jobs": arguments.jobs, "timeout": arguments.timeout}
    try:
        if arguments.command == "check":
            return run_check(pages, **options)
        return run_promote(pages, arguments.mode or "write", roots=_roots(arguments.paths),
                           **options)
    except KeyboardInterrupt:
        print("\ninterrupted: pages not yet written were left as they were", file=sys.stderr)
        return 130


def configured_paths() -> tuple[str, ...]:
    """The pages taken when none are given: ``paths`` of ``[tool.rune-literate]`` in
    the current directory's pyproject.toml, as pytest collects them, else the defaults."""
    return tuple(read_table("pyproject.toml").get("paths") or DEFAULT_PATHS)


def _roots(arguments: list[str]) -> list[Path]:
    """Where promote may write: the directories given, the directories of the files
    given, or the current directory."""
    if not arguments:
        return [Path(os.path.realpath(os.getcwd()))]
    return [Path(os.path.realpath(argument if os.path.isdir(argument) else
                                  os.path.dirname(os.path.abspath(argument))))
            for argument in arguments]
