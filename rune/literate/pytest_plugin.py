"""pytest plugin: markdown pages and docstring examples as tests, through Sybil.

Installed as the ``pytest11`` entry point ``rune_literate`` (turn it off with
``-p no:rune_literate``). Configuration, in ``[tool.pytest.ini_options]``:

``literate_patterns``
    glob patterns, relative to the rootdir, of literate markdown pages; one
    test per python block, named ``docs/page.md::line:12``. Default:
    ``docs/**/*.md README.md``. Empty turns page collection off.
``literate_docstring_patterns``
    glob patterns of Python modules whose docstring ``>>>`` examples are
    tested with Sybil's doctest parser. Default: none. Skipped when pytest's
    own ``--doctest-modules`` is on, so no example is collected twice.
``literate_doctest_optionflags``
    doctest option flags for those examples, e.g. ``ELLIPSIS``. Default: none.

A page's blocks share one namespace and must run in order on one process, so
under pytest-xdist ``--dist loadfile`` becomes the default (an explicit
``--dist`` wins).
"""

from __future__ import annotations

import doctest
import os
import shlex

import pytest
from sybil.example import SybilFailure
from sybil.integration.pytest import SybilFile, SybilItem
from sybil.parsers.rest import DocTestParser

from .parser import LiterateSyntaxError
from .paths import DEFAULT_PATTERNS, matches_any
from .runner import BlockResult, Outcome
from .sybil_integration import LiterateParser, LiterateSybil, display_path, skip_reason


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "literate_patterns",
        type="args",
        default=list(DEFAULT_PATTERNS),
        help="glob patterns (relative to the rootdir) of literate markdown pages",
    )
    parser.addini(
        "literate_docstring_patterns",
        type="args",
        default=[],
        help="glob patterns of Python modules whose docstring examples are tested",
    )
    parser.addini(
        "literate_doctest_optionflags",
        type="args",
        default=[],
        help="doctest option flags for docstring examples, e.g. ELLIPSIS",
    )


def pytest_configure(config: pytest.Config) -> None:
    # Runs before xdist's own pytest_configure (trylast) builds its scheduler.
    if getattr(config.option, "dist", "no") == "load" and not _dist_chosen_by_user(config):
        config.option.dist = "loadfile"


def _dist_chosen_by_user(config: pytest.Config) -> bool:
    arguments = [
        *config.invocation_params.args,
        *config.getini("addopts"),
        *shlex.split(os.environ.get("PYTEST_ADDOPTS", "")),
    ]
    return any(
        argument in ("--dist", "-d", "--distload") or argument.startswith("--dist=")
        for argument in arguments
    )


def pytest_collect_file(file_path, parent: pytest.Collector) -> pytest.Collector | None:
    config = parent.config
    try:
        relative = file_path.relative_to(config.rootpath).as_posix()
    except ValueError:
        return None
    if matches_any(relative, config.getini("literate_patterns")):
        sybil = LiterateSybil(parsers=[LiterateParser(root=config.rootpath)], name="literate")
        return LiterateFile.from_parent(parent, path=file_path, sybils=[sybil])
    if (
        file_path.suffix == ".py"
        and matches_any(relative, config.getini("literate_docstring_patterns"))
        and not config.getoption("doctestmodules", False)
    ):
        parser = DocTestParser(optionflags=_doctest_flags(config))
        sybil = LiterateSybil(parsers=[parser], name="docstrings")
        return DocstringFile.from_parent(parent, path=file_path, sybils=[sybil])
    return None


def _doctest_flags(config: pytest.Config) -> int:
    flags = 0
    for name in config.getini("literate_doctest_optionflags"):
        if name not in doctest.OPTIONFLAGS_BY_NAME:
            raise pytest.UsageError(f"literate_doctest_optionflags: unknown doctest flag {name!r}")
        flags |= doctest.OPTIONFLAGS_BY_NAME[name]
    return flags


class BlockFailed(AssertionError):
    """A python block of a page failed; carries its [`BlockResult`][rune.literate.BlockResult]."""

    def __init__(self, result: BlockResult) -> None:
        super().__init__(result.report())
        self.result = result


class LiterateItem(SybilItem):
    """One python block of a page, run as a pytest test."""

    def runtest(self) -> None:
        block = self.example.parsed
        result = self.example.document.literate_runner.run_block(block)
        if result.outcome is Outcome.SKIPPED:
            pytest.skip(skip_reason(result.path, block))
        if result.failed:
            raise BlockFailed(result)

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


def _report_info(item: SybilItem):
    # The third item heads failure reports. It must not be a suffix of the node
    # id, or pytest's verbose output turns the ".md" of "page.md" into "::md".
    where = display_path(item.path, item.config.rootpath)
    return item.path, item.example.line - 1, f"{where} line {item.example.line}"


class LiterateFile(SybilFile):
    """A literate page; a malformed page is a collection error naming its line."""

    item_class: type[SybilItem] = LiterateItem

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
