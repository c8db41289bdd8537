"""The pytest11 entry point of rune.literate: light, and idle until a project opts in.

Installing rune-autodiff installs this plugin into every pytest run of the
environment, so loading it must cost nothing and break nothing: it imports
only pytest and the standard library. It is a top-level module, not part of
the ``rune`` package, because importing anything under ``rune`` first
imports the engine and numpy.

Pages and docstring examples are collected only when the project asks, in
the ``[tool.rune-literate]`` table of the rootdir's pyproject.toml, which
pytest never reads (`rune.literate.settings`: pytest without rune stops on an
ini key it does not know, under ``strict`` or ``filterwarnings = error``):

``paths``
    markdown pages to test: files, directories (every ``*.md`` below) or glob
    patterns, relative to the rootdir, e.g. ``["docs", "README.md"]``. One test
    per python block, named ``docs/page.md::line:12``.
``docstring_paths``
    Python modules whose docstring ``>>>`` examples are tested with Sybil's
    doctest parser, the same way: e.g. ``["mypackage"]``. Skipped when pytest's
    own ``--doctest-modules`` is on, so no example is collected twice.
``doctest_optionflags``
    doctest option flags for those examples and for the pages' ``pycon``
    sessions (doctest's file-wide form), e.g. ``["ELLIPSIS"]``.

The older form, the ini keys ``literate_paths``, ``literate_docstring_paths``
and ``literate_doctest_optionflags``, still works.

``pytest --literate`` collects pages for one run without configuration:
those of ``paths``, or ``docs`` and ``README.md`` when it is empty.
Only then are Sybil and `rune.literate.pytest_plugin` imported (without the
engine: see `literate_package`); without Sybil, pytest stops with one line
naming the extra to install.

A page's blocks share one namespace and must run in order on one process, so
under pytest-xdist ``load`` and ``worksteal``, which may split a file between
nodes, become ``--dist loadfile`` (said in a line when chosen explicitly);
``loadscope``, ``loadgroup`` and ``each`` keep a file on one node and stay.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shlex
import sys

import pytest

# The pages `--literate` collects when literate_paths is empty.
DEFAULT_PATHS = ("docs", "README.md")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rune.literate")
    group.addoption(
        "--literate",
        action="store_true",
        default=False,
        help="test markdown pages with rune.literate: those of [tool.rune-literate] paths, "
        f"else {' and '.join(DEFAULT_PATHS)}",
    )
    parser.addini(
        "literate_paths",
        type="args",
        default=[],
        help="the older form of [tool.rune-literate] paths: markdown pages tested by "
        "rune.literate (files, directories or glob patterns, relative to the rootdir)",
    )
    parser.addini(
        "literate_docstring_paths",
        type="args",
        default=[],
        help="the older form of [tool.rune-literate] docstring_paths: Python modules "
        "whose docstring examples rune.literate tests",
    )
    parser.addini(
        "literate_doctest_optionflags",
        type="args",
        default=[],
        help="the older form of [tool.rune-literate] doctest_optionflags: doctest option "
        "flags for docstring examples and pages' pycon sessions, e.g. ELLIPSIS",
    )


_SETTINGS = pytest.StashKey[dict]()


def settings(config: pytest.Config) -> dict[str, list[str]]:
    """The project's settings: ``[tool.rune-literate]`` of the rootdir's pyproject.toml,
    else the older ini keys (read once a run)."""
    if _SETTINGS not in config.stash:
        module = _settings_module()
        try:
            config.stash[_SETTINGS] = module.merged_settings(
                config.rootpath / "pyproject.toml", config.getini)
        except module.SettingsError as error:
            raise pytest.UsageError(str(error)) from None
    return config.stash[_SETTINGS]


def page_paths(config: pytest.Config) -> list[str]:
    """The configured page paths; with ``--literate`` and none configured, the defaults."""
    configured = settings(config)["paths"]
    if not configured and config.getoption("literate", False):
        return list(DEFAULT_PATHS)
    return configured


def opted_in(config: pytest.Config) -> bool:
    """Whether this project (or this run) asks for pages or docstring examples."""
    return bool(page_paths(config) or settings(config)["docstring_paths"])


def pytest_configure(config: pytest.Config) -> None:
    if not opted_in(config):
        return
    try:
        import sybil  # noqa: F401
    except ImportError:
        raise pytest.UsageError(
            "rune.literate is turned on (its paths, docstring_paths or "
            '--literate) but Sybil is not installed: pip install "sybil>=9"'
        ) from None
    pytest_plugin = importlib.import_module(literate_package().__name__ + ".pytest_plugin")

    collector = pytest_plugin.LiterateCollector(
        page_paths(config),
        settings(config)["docstring_paths"],
        settings(config)["doctest_optionflags"],
    )
    config.pluginmanager.register(collector, "rune_literate_collector")
    # Runs before xdist's own pytest_configure (trylast) builds its scheduler.
    dist = getattr(config.option, "dist", "no")
    if dist in _SPLITS_FILES:
        config.option.dist = "loadfile"
        if _dist_chosen_by_user(config):
            config.stash[_DIST_CHANGED] = (
                f"rune.literate: --dist {dist} would run a page's blocks on two nodes, "
                f"which share no namespace; running with --dist loadfile")


# xdist's distributions that may send one file's tests to two nodes.
_SPLITS_FILES = ("load", "worksteal")
_DIST_CHANGED = pytest.StashKey[str]()


def pytest_sessionstart(session: pytest.Session) -> None:
    changed = session.config.stash.get(_DIST_CHANGED, None)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if changed and reporter is not None:  # a line, not a warning: -W error would fail on it
        reporter.write_line(changed)


def literate_package():
    """rune.literate, without importing the ``rune`` package around it.

    ``import rune.literate`` first runs ``rune/__init__.py``: the engine and
    numpy, 0.15 s, and under pytest far more, since pytest rewrites the asserts
    of every module of a plugin's distribution. Unless rune is imported
    already, the package is loaded under the private name ``_rune_literate``,
    as the worker processes load it (`rune.literate.pool`).
    """
    for name in ("rune.literate", "_rune_literate"):
        if name in sys.modules:
            return sys.modules[name]
    if "rune" in sys.modules:
        return importlib.import_module("rune.literate")
    package = os.path.join(os.path.dirname(importlib.util.find_spec("rune").origin), "literate")
    spec = importlib.util.spec_from_file_location(
        "_rune_literate", os.path.join(package, "__init__.py"),
        submodule_search_locations=[package])
    module = importlib.util.module_from_spec(spec)
    sys.modules["_rune_literate"] = module
    spec.loader.exec_module(module)
    return module


def _settings_module():
    """rune/literate/settings.py, loaded alone: every pytest run of the environment
    reads the settings, and importing the package around it would cost more."""
    for name in ("rune.literate.settings", "_rune_literate.settings", "_rune_literate_settings"):
        if name in sys.modules:
            return sys.modules[name]
    path = os.path.join(os.path.dirname(importlib.util.find_spec("rune").origin),
                        "literate", "settings.py")
    spec = importlib.util.spec_from_file_location("_rune_literate_settings", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["_rune_literate_settings"] = module
    spec.loader.exec_module(module)
    return module


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
