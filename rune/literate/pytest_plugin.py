"""pytest collection of markdown pages and docstring examples, through Sybil.

pytest loads the light entry point `rune_literate_pytest` in every run;
when a project opts in (``paths`` or ``docstring_paths`` of its
``[tool.rune-literate]`` table, or ``--literate``), it imports this module and
registers a `LiterateCollector`. The settings are described there.
"""

from __future__ import annotations

import doctest
import pdb
import sys
from pathlib import Path

import pytest
from sybil.example import SybilFailure
from sybil.integration.pytest import SybilFile, SybilItem
from sybil.parsers.rest import DocTestParser

from .isolation import IsolatedPageRunner
from .parser import LiterateSyntaxError
from .paths import matches_paths
from .pool import WorkerPool
from .runner import BlockResult, Outcome, PageRunner
from .sybil_integration import (
    LiterateParser,
    LiterateSybil,
    display_path,
    end_page,
    skip_reason,
)


class LiterateCollector:
    """A pytest plugin collecting the pages and docstring modules a project names.

    Args:
      page_paths: markdown pages: files, directories (every ``*.md`` below)
        or glob patterns, relative to the rootdir.
      docstring_paths: Python modules whose docstring examples are tested,
        named the same way (a directory: every ``*.py`` below).
      optionflags: names of doctest option flags for those examples and for
        the pages' pycon sessions.

    Raises:
      pytest.UsageError: an option flag is not one of doctest's.
    """

    def __init__(self, page_paths, docstring_paths, optionflags) -> None:
        self.page_paths = list(page_paths)
        self.docstring_paths = list(docstring_paths)
        self.optionflags = _doctest_flags(optionflags)
        # One pool for the session (for each xdist worker): pages reuse its worker.
        self.pool = WorkerPool()
        self._pages: LiterateSybil | None = None

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self.pool.close()

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node) -> None:
        """Tell each xdist node how tests are spread (xdist gives its nodes
        ``--dist no``): blocks run ahead only where no other node takes queued tests."""
        node.workerinput["rune_literate_dist"] = node.config.getoption("dist", None)

    def pytest_collect_file(self, file_path: Path, parent: pytest.Collector):
        config = parent.config
        try:
            relative = file_path.relative_to(config.rootpath).as_posix()
        except ValueError:
            return None
        if matches_paths(relative, self.page_paths, ".md"):
            return LiterateFile.from_parent(parent, path=file_path,
                                            sybils=[self._page_sybil(config)])
        if (
            file_path.suffix == ".py"
            and matches_paths(relative, self.docstring_paths, ".py")
            and not config.getoption("doctestmodules", False)
        ):
            parser = DocTestParser(optionflags=self.optionflags)
            sybil = LiterateSybil(parsers=[parser], name="docstrings")
            return DocstringFile.from_parent(parent, path=file_path, sybils=[sybil])
        return None

    def pytest_report_collectionfinish(self, config: pytest.Config, items) -> list[str]:
        line = collected_twice(items, config.rootpath)
        return [line] if line else []

    def _page_sybil(self, config: pytest.Config) -> LiterateSybil:
        """The one Sybil of every page (making one per page cost 1 ms each)."""
        if self._pages is None:
            # Under a debugger, blocks run in this process, where it can see their frames.
            debugging = bool(config.getoption("usepdb", False) or config.getoption("trace", False))
            parser = LiterateParser(root=config.rootpath, pool=self.pool, in_process=debugging,
                                    optionflags=self.optionflags)
            self._pages = LiterateSybil(parsers=[parser], name="literate")
        return self._pages


def _doctest_flags(names) -> int:
    flags = 0
    for name in names:
        if name not in doctest.OPTIONFLAGS_BY_NAME:
            raise pytest.UsageError(f"doctest_optionflags: unknown doctest flag {name!r}")
        flags |= doctest.OPTIONFLAGS_BY_NAME[name]
    return flags


def collected_twice(items, root: Path) -> str | None:
    """One line when another collector (a Sybil conftest, ``--doctest-glob``, another
    plugin) also collects pages rune.literate collects: their blocks run twice.
    A remark after "collected N items", not an error: the project decides."""
    ours = [item for item in items if isinstance(item, (LiterateItem, DocstringItem))]
    paths = {item.path for item in ours}
    theirs = [item for item in items
              if item.path in paths and not isinstance(item, (LiterateItem, DocstringItem))]
    if not theirs:
        return None
    pages = sorted({display_path(item.path, root) for item in theirs})
    collectors = " and ".join(sorted({_collector_name(item) for item in theirs}))
    twice = {item.path for item in theirs}
    blocks = sum(item.path in twice for item in ours)
    return (f"rune.literate: {_count(len(pages), 'page')} {'is' if len(pages) == 1 else 'are'} "
            f"collected twice, by rune.literate and by {collectors} ({', '.join(pages)}): "
            f"{_count(blocks + len(theirs), 'test')} for {_count(blocks, 'block')}; "
            f"leave each page to one of them")


def _collector_name(item: pytest.Item) -> str:
    module = type(item).__module__
    if module == "_pytest.doctest":
        return "pytest's --doctest-glob" if item.path.suffix != ".py" else "--doctest-modules"
    if module.startswith("sybil."):
        return "a Sybil conftest"
    return f"the plugin {module.split('.')[0]}"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


class BlockFailed(AssertionError):
    """A python block of a page failed; carries its [`BlockResult`][rune.literate.BlockResult]."""

    def __init__(self, result: BlockResult) -> None:
        super().__init__(result.report())
        self.result = result


class LiterateItem(SybilItem):
    """One python block of a page, run as a pytest test."""

    def runtest(self) -> None:
        block = self.example.parsed
        runner = self.example.document.literate_runner
        if isinstance(runner, PageRunner) and self.config.getoption("trace", False):
            result = self._trace(runner, block)
        elif isinstance(runner, IsolatedPageRunner) and not runner.asked_for(block):
            ahead = [item.example.parsed for item in _run_next(self)]
            result = runner.run_block(block, ahead)
        else:
            result = runner.run_block(block)
        if result.outcome is Outcome.SKIPPED:
            pytest.skip(skip_reason(result.path, block))
        if result.failed and isinstance(runner, PageRunner):
            _fail_in_the_block(runner, result)
        if result.failed:
            raise BlockFailed(result)

    def _trace(self, runner: PageRunner, block) -> BlockResult:
        """Run the block under pdb from its first line, as ``--trace`` does for a test."""
        capture = self.config.pluginmanager.getplugin("capturemanager")
        # pytest's capture stays off throughout, and pdb talks to the terminal:
        # what the block prints is still the block's own output.
        capture.suspend_global_capture(in_=True)  # stdin too: pdb reads the user's commands
        runner.debugger = pdb.Pdb(stdin=sys.__stdin__, stdout=sys.__stdout__)
        runner.debugger.use_rawinput = False
        try:
            return runner.run_block(block)
        finally:
            runner.debugger = None
            capture.resume_global_capture()

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, BlockFailed):
            return excinfo.value.result.report()
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return _report_info(self)


class DocstringItem(SybilItem):
    """One ``>>>`` example of a docstring."""

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, SybilFailure):
            # Sybil's report lacks the example itself; show it, as doctest does.
            where = display_path(self.path, self.config.rootpath)
            source = "".join(
                (">>> " if index == 0 else "... ") + line + "\n"
                for index, line in enumerate(self.example.parsed.source.rstrip("\n").split("\n"))
            )
            return (
                f"{where}:{self.example.line}: the docstring example failed\n{source}"
                f"{excinfo.value.result.rstrip()}"
            )
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return _report_info(self)


def _run_next(item: LiterateItem) -> list[LiterateItem]:
    """The tests of ``item``'s page that pytest runs right after it, in order:
    their blocks can run ahead, in the same request to the worker.

    Only tests known to run next count: the session's order (after ``-k``,
    ``--deselect``, ``--lf``), or under xdist the indices queued for this
    node; a test with markers (a skip a hook added...) ends the run. The
    worker stops at a failed block, so with ``-x`` or ``--maxfail`` no block
    runs past the failure pytest stops at."""
    document = item.example.document
    following = []
    for later in _queued_after(item):
        if (not isinstance(later, LiterateItem) or later.example.document is not document
                or next(later.iter_markers(), None) is not None):
            break
        following.append(later)
    return following


def _queued_after(item: pytest.Item):
    """The tests pytest will run after ``item``, as far as this process knows."""
    session = item.session
    interactor = _xdist_interactor(item.config)
    if interactor is not None:
        yield from _xdist_queue(interactor, item)
        return
    positions = getattr(session, "_literate_positions", None)
    if positions is None or positions[0] is not session.items:
        positions = session._literate_positions = (
            session.items, {id(test): index for index, test in enumerate(session.items)})
    items, index = positions[0], positions[1].get(id(item))
    if index is not None:
        yield from items[index + 1:]


def _xdist_interactor(config: pytest.Config):
    """xdist's worker-side plugin when this is an xdist worker, else None."""
    if not hasattr(config, "workerinput"):
        return None
    found = getattr(config, "_literate_interactor", False)
    if found is False:
        found = next((plugin for plugin in config.pluginmanager.get_plugins()
                      if type(plugin).__name__ == "WorkerInteractor"), None)
        config._literate_interactor = found
    return found


# xdist's distributions that never take a test back from the node it was sent to.
_NO_STEALING = ("load", "loadfile", "loadscope", "loadgroup", "each")


def _xdist_queue(interactor, item: pytest.Item):
    """The tests queued on this xdist node after ``item``: none where another
    node may take them (``--dist worksteal``), or if xdist's queue is not the one known."""
    if item.config.workerinput.get("rune_literate_dist") not in _NO_STEALING:
        return
    try:
        items = interactor.session.items
        if items[interactor.item_index] is not item:
            return
        with interactor.torun.lock() as queued:
            indices = [interactor.nextitem_index, *queued]
    except (AttributeError, IndexError, TypeError):
        return
    for index in indices:
        if not isinstance(index, int):  # xdist's shutdown marker
            return
        yield items[index]


def _fail_in_the_block(runner: PageRunner, result: BlockResult) -> None:
    """Fail where a debugger (``--pdb``) shows the block: re-raise the block's own
    exception (its frames come along), or raise from a frame of the block's
    line whose variables are the page's."""
    if result.error is not None and not isinstance(result.error, BlockFailed):
        raise result.error
    failure = BlockFailed(result)
    where = compile("\n" * (result.block.line - 1) + "raise __literate_failure__",
                    runner.path, "exec")
    runner.namespace["__literate_failure__"] = failure
    try:
        exec(where, runner.namespace)  # noqa: S102 -- a frame on the page, for the debugger
    finally:
        runner.namespace.pop("__literate_failure__", None)


def _report_info(item: SybilItem):
    # The third item heads failure reports. It must not be a suffix of the node
    # id, or pytest's verbose output turns the ".md" of "page.md" into "::md".
    file = item.parent
    where = getattr(file, "_literate_where", None)  # once a file: pytest asks for each item
    if where is None:
        where = file._literate_where = display_path(item.path, item.config.rootpath)
    return item.path, item.example.line - 1, f"{where} line {item.example.line}"


class LiterateFile(SybilFile):
    """A literate page; a malformed page is a collection error naming its line.

    When pytest leaves the file (its last block run or deselected, ``-x``,
    the session's end), the page ends: its teardown runs, its worker goes back.
    """

    item_class: type[SybilItem] = LiterateItem

    def teardown(self) -> None:
        super().teardown()
        for document in self.documents:
            end_page(document)

    def collect(self):
        for sybil in self.sybils:
            try:
                document = sybil.parse(self.path)
            except LiterateSyntaxError as error:
                raise self.CollectError(str(error)) from None
            self.documents.append(document)
            for example in document.examples():
                yield self.item_class.from_parent(self, sybil=sybil, example=example)


class DocstringFile(LiterateFile):
    """A Python module whose docstring examples are tests."""

    item_class = DocstringItem
