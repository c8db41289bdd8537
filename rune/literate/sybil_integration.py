"""Literate pages as Sybil documents: one Sybil example per python block.

The pytest plugin (`rune.literate.pytest_plugin`) uses this; a project
that prefers its own ``conftest.py`` can use it directly::

    from sybil import Sybil
    from rune.literate.sybil_integration import LiterateParser

    pytest_collect_file = Sybil(parsers=[LiterateParser()], patterns=["*.md"]).pytest()

Every example of a page shares one
[`IsolatedPageRunner`][rune.literate.IsolatedPageRunner], kept on the Sybil
document: the page's blocks run in order in a worker process lent by the
parser's [`WorkerPool`][rune.literate.WorkerPool], as with ``check`` and
``promote``, so an abrupt exit, a crash or a timeout fails the block instead
of ending pytest. Call `end_page(document)` when the page is over (the pytest
plugin does when pytest leaves the page's file): its teardown runs and its
worker goes back to the pool. The page is read exactly as they read it
(line endings untouched), so all three see the same page.
"""

from __future__ import annotations

import os
import unittest
from collections.abc import Iterator
from pathlib import Path

from sybil import Document, Example, Region, Sybil

from .docstrings import configured_optionflags
from .isolation import DEFAULT_TIMEOUT, IsolatedPageRunner, WorkerPool
from .parser import PythonBlock, parse_page
from .prelude import with_preludes
from .runner import Outcome, PageRunner


class LiterateParser:
    """A Sybil parser that yields one region per python block of a page.

    ``root`` is the directory page paths are shown relative to in reports
    and tracebacks (default: the current directory); ``timeout`` the seconds
    a block may run unless a directive of the page says otherwise; ``pool``
    the [`WorkerPool`][rune.literate.WorkerPool] lending workers to pages
    (default: one of the parser's own). With ``in_process`` the blocks run in
    this process instead ([`PageRunner`][rune.literate.PageRunner]), as under
    ``pytest --pdb``, so that a debugger sees their frames. ``optionflags``: the
    doctest flags of the pages' pycon sessions (None: those configured above
    each page, as ``check`` reads them). Parsing raises
    [`LiterateSyntaxError`][rune.literate.LiterateSyntaxError] for a malformed page.
    """

    def __init__(self, root: str | Path | None = None, timeout: float = DEFAULT_TIMEOUT,
                 pool: WorkerPool | None = None, in_process: bool = False,
                 optionflags: int | None = None) -> None:
        self.root = root
        self.timeout = timeout
        self.pool = pool
        self.in_process = in_process
        self.optionflags = optionflags
        self._preludes: dict = {}  # found so far, by directory: a run reads them once

    def __call__(self, document: Document) -> Iterator[Region]:
        flags = (configured_optionflags(document.path) if self.optionflags is None
                 else self.optionflags)
        page = with_preludes(parse_page(document.text, display_path(document.path, self.root),
                                        flags), document.path, self._preludes)
        if self.in_process:
            document.literate_runner = PageRunner(page)
        else:
            if self.pool is None:
                self.pool = WorkerPool()
            document.literate_runner = IsolatedPageRunner(page, timeout=self.timeout,
                                                          pool=self.pool)
        for block in page.python_blocks:
            yield Region(block.fence.start, block.fence.end, parsed=block, evaluator=evaluate_block)


def evaluate_block(example: Example) -> str | None:
    """Sybil evaluator: run the block; return a failure report, or None if it passed.

    Raises ``unittest.SkipTest`` for a block skipped by a directive.
    """
    result = example.document.literate_runner.run_block(example.parsed)
    if result.outcome is Outcome.SKIPPED:
        raise unittest.SkipTest(skip_reason(result.path, example.parsed))
    return result.report() if result.failed else None


def end_page(document: Document) -> None:
    """The page is over: run its teardown, give its worker back (safe to call twice)."""
    runner = getattr(document, "literate_runner", None)
    if isinstance(runner, IsolatedPageRunner):
        runner.close()
    elif runner is not None:
        runner.finish()


def skip_reason(path: str, block: PythonBlock) -> str:
    """Why a block was skipped, naming the directive's line (and its reason)."""
    reason = f": {block.skip_reason}" if block.skip_reason else ""
    where = f"{path}:{block.line}"
    return f"{where}: skipped by the literate directive at line {block.skipped_by}{reason}"


class LiterateDocument(Document):
    """A page read as ``check`` and ``promote`` read it: no newline translation.

    (Sybil's own Document reads with universal newlines, which turns a lone
    ``\r`` into a line break: pytest would see another page.)
    """

    @classmethod
    def parse(cls, path: str, *parsers, encoding: str = "utf-8") -> Document:
        with open(path, encoding=encoding, newline="") as source:
            document = cls(source.read(), path)
        for parser in parsers:
            for region in parser(document):
                document.add(region)
        return document


class LiterateSybil(Sybil):
    """A Sybil whose test ids are ``line:N`` (``docs/page.md::line:12``), or the
    block's name when a ``name`` directive gives it one (``docs/page.md::NAME``).

    Pages are read as `LiterateDocument` (python files as Sybil does).
    """

    def __init__(self, *args, document_types=None, **kwargs) -> None:
        super().__init__(*args, document_types={None: LiterateDocument, **(document_types or {})},
                         **kwargs)

    def identify(self, example: Example) -> str:
        name = getattr(example.parsed, "name", None)
        return name or f"line:{example.line}"


def display_path(path: str | Path, root: str | Path | None = None) -> str:
    """``path`` relative to ``root`` (default: the current directory) when inside it.

    >>> display_path("/project/docs/a.md", "/project")
    'docs/a.md'
    >>> display_path("/elsewhere/a.md", "/project")
    '/elsewhere/a.md'
    """
    root = os.path.abspath(root if root is not None else os.getcwd())
    relative = os.path.relpath(os.path.abspath(path), root)
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return Path(path).as_posix()
    return Path(relative).as_posix()
