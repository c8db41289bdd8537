"""The command line: ``python -m rune.literate check|promote [PATHS]``.

``check`` runs pages without pytest and reports each failing block with its
diff or traceback. ``promote`` writes the actual output back into out blocks;
with ``--check`` it changes nothing and fails if anything would change (for
CI), with ``--diff`` it only prints the changes.

Exit status: 0 when all is well, 1 when a block fails, a page cannot be parsed
or (``promote --check``) a page would change, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TextIO

from . import export
from .parser import LiterateSyntaxError, read_page
from .paths import DEFAULT_PATHS, find_pages
from .promote import promote_page, write_atomically
from .runner import Outcome, PageRunner


class Progress:
    """Shows ``[pages done/total] page`` on stderr while pages run.

    On a terminal the line is redrawn in place; elsewhere (CI logs) each page
    gets a line. Nothing is shown for a single page or with ``--quiet``.
    """

    def __init__(self, total: int, stream: TextIO, quiet: bool) -> None:
        self.total = total
        self.stream = stream
        self.enabled = total > 1 and not quiet
        self.redraw = self.enabled and stream.isatty()

    def show(self, done: int, name: str) -> None:
        if not self.enabled:
            return
        text = f"[{done}/{self.total}] {name}"
        if self.redraw:
            self.stream.write("\r\x1b[K" + text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def clear(self) -> None:
        """Erase the redrawn line before other output is printed."""
        if self.redraw:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def display_name(path: Path) -> str:
    """``path`` relative to the current directory when it is inside it, with ``/``."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def run_check(pages: list[Path], quiet: bool = False) -> int:
    """Run ``pages`` and print each failure; return the exit status."""
    progress = Progress(len(pages), sys.stderr, quiet)
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    broken_pages = 0
    for done, path in enumerate(pages, start=1):
        name = display_name(path)
        try:
            page = read_page(path)
        except LiterateSyntaxError as error:
            problem, page = f"{name}:{error.line}: {error.message}", None
        except UnicodeDecodeError as error:
            problem, page = f"{name}: not UTF-8 text: {error}", None
        if page is None:
            progress.clear()
            print(problem + "\n")
            broken_pages += 1
        results = [] if page is None else PageRunner(page, display_path=name).run_all()
        for result in results:
            if result.outcome is Outcome.SKIPPED:
                counts["skipped"] += 1
            elif result.failed:
                counts["failed"] += 1
                progress.clear()
                print(result.report() + "\n")
            else:
                counts["passed"] += 1
        progress.show(done, name)
    progress.clear()
    total = sum(counts.values())
    summary = ", ".join(f"{count} {word}" for word, count in counts.items())
    print(
        f"check: {_count(total, 'block')} in {_count(len(pages), 'page')}: {summary}"
        + (f"; {_count(broken_pages, 'page')} could not be parsed" if broken_pages else "")
    )
    return 1 if counts["failed"] or broken_pages else 0


def run_promote(pages: list[Path], mode: str = "write", quiet: bool = False) -> int:
    """Promote ``pages``; ``mode`` is "write", "check" or "diff". Return the exit status."""
    progress = Progress(len(pages), sys.stderr, quiet)
    changed = failed = 0
    for done, path in enumerate(pages, start=1):
        name = display_name(path)
        promoted = promote_page(path, name)
        if promoted.error or promoted.failures:
            failed += 1
            progress.clear()
            if promoted.error:
                print(promoted.error)
            for result in promoted.failures:
                print(result.report() + "\n")
            print(f"{name}: not promoted, left unchanged\n")
        elif promoted.changed:
            changed += 1
            progress.clear()
            print(promoted.diff())
            if mode == "write":
                write_atomically(path, promoted.new_text)
        progress.show(done, name)
    progress.clear()
    verb = {"write": "changed", "check": "would change", "diff": "would change"}[mode]
    print(
        f"promote: {changed} of {_count(len(pages), 'page')} {verb}"
        + (f"; {_count(failed, 'page')} not promoted because of errors" if failed else "")
    )
    if failed or (mode == "check" and changed):
        return 1
    return 0


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``check`` and ``promote``."""
    parser = argparse.ArgumentParser(
        prog="python -m rune.literate",
        description="Run literate markdown pages and keep their out blocks true.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    defaults = " and ".join(DEFAULT_PATHS)
    paths_help = f"pages or directories of pages (default: {defaults} under the current directory)"

    check = commands.add_parser("check", help="run pages and report failing blocks")
    check.add_argument("paths", nargs="*", help=paths_help)
    check.add_argument("-q", "--quiet", action="store_true", help="do not show progress")

    promote = commands.add_parser("promote", help="write actual output into out blocks")
    promote.add_argument("paths", nargs="*", help=paths_help)
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
    promote.add_argument("-q", "--quiet", action="store_true", help="do not show progress")
    export.add_command(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    parser = build_parser()
    arguments = parser.parse_args(argv)
    if arguments.command == "export":
        return export.run_export(arguments)
    try:
        pages = find_pages(arguments.paths, os.getcwd())
    except FileNotFoundError as error:
        parser.error(str(error))
    if not pages:
        print("no pages found", file=sys.stderr)
    if arguments.command == "check":
        return run_check(pages, arguments.quiet)
    return run_promote(pages, arguments.mode or "write", arguments.quiet)
