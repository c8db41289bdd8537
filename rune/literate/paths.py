"""Which files are literate pages: paths and glob patterns shared by pytest and the CLI.

A project names its pages by entries relative to a root directory (the pytest
rootdir, or the current directory for the CLI): a file, a directory (every
``*.md`` below it) or a glob pattern. Patterns use ``/`` and support ``*``,
``?`` and ``**`` (any number of directories, zero included), so
``docs/**/*.md`` matches both ``docs/index.md`` and ``docs/guide/start.md``.
"""

from __future__ import annotations

import os
import posixpath
import re
from pathlib import Path

# The pages the CLI takes when given none, and `pytest --literate` when the
# project names none (rune_literate_pytest.DEFAULT_PATHS: a test keeps them equal).
DEFAULT_PATHS = ("docs", "README.md")

# Directories searched for pages never include hidden ones (.git, .venv, .tox,
# .nox), environments (found by their markers, whatever their name) or these:
# their markdown is other projects' (installed packages) or generated.
_SKIPPED_DIRECTORIES = frozenset({
    "venv", "node_modules", "__pycache__", "site", "build", "dist",
    "site-packages", "dist-packages", "__pypackages__",
})
# What a directory holds when it is a Python environment: a virtualenv's
# pyvenv.cfg, a conda (mamba, pixi) environment's conda-meta/.
_ENVIRONMENT_MARKERS = ("pyvenv.cfg", "conda-meta")


def pattern_regex(pattern: str) -> re.Pattern:
    """Compile a glob ``pattern`` into a regex for whole relative posix paths.

    >>> bool(pattern_regex("docs/**/*.md").fullmatch("docs/index.md"))
    True
    >>> bool(pattern_regex("docs/**/*.md").fullmatch("docs/a/b/c.md"))
    True
    >>> bool(pattern_regex("README.md").fullmatch("sub/README.md"))
    False
    """
    parts = pattern.strip("/").split("/")
    regex = ""
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if part == "**":
            regex += ".*" if last else "(?:[^/]+/)*"
            continue
        for char in part:
            regex += {"*": "[^/]*", "?": "[^/]"}.get(char) or re.escape(char)
        if not last:
            regex += "/"
    return re.compile(regex)


def is_pattern(entry: str) -> bool:
    """Whether a path entry is a glob pattern rather than a file or directory name."""
    return any(char in entry for char in "*?")


def matches_paths(relative_path: str, entries: list[str] | tuple[str, ...], suffix: str) -> bool:
    """Whether a relative posix path is named by one of ``entries``.

    An entry is a file, a directory (naming every file below it that ends in
    ``suffix``) or a glob pattern, relative to the same root.

    >>> matches_paths("docs/guide/start.md", ["docs", "README.md"], ".md")
    True
    >>> matches_paths("docs/logo.svg", ["docs"], ".md")
    False
    >>> matches_paths("notes/page.md", ["docs/*.md", "./README.md"], ".md")
    False
    """
    for entry in entries:
        if is_pattern(entry):
            if pattern_regex(entry).fullmatch(relative_path):
                return True
            continue
        entry = posixpath.normpath(entry.replace(os.sep, "/"))
        if relative_path == entry:
            return True
        inside = entry == "." or relative_path.startswith(entry.rstrip("/") + "/")
        if inside and relative_path.endswith(suffix):
            return True
    return False


def find_pages(
    arguments: list[str], root: str | Path = ".", patterns: tuple[str, ...] = DEFAULT_PATHS
) -> list[Path]:
    """The pages to run: files as given, directories searched for ``*.md``.

    With no ``arguments``, the pages under ``root`` that ``patterns`` name
    (files, directories or glob patterns, as in `matches_paths`).
    Raises ``FileNotFoundError`` for an argument that does not exist.
    The result is sorted and has no duplicates.
    """
    found: set[Path] = set()
    if not arguments:
        root = Path(root)
        for pattern in patterns:
            if not is_pattern(pattern):
                if (root / pattern).is_file():
                    found.add(root / pattern)
                elif (root / pattern).is_dir():
                    found.update(p for p in _walk(root / pattern) if p.suffix == ".md")
                continue
            # Walk only the literal directories at the front of the pattern.
            base = root
            for part in pattern.split("/")[:-1]:
                if is_pattern(part):
                    break
                base = base / part
            for path in _walk(base):
                if matches_paths(path.relative_to(root).as_posix(), patterns, ".md"):
                    found.add(path)
        return sorted(found)
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            found.update(p for p in _walk(path) if p.suffix == ".md")
        elif path.is_file():
            found.add(path)
        else:
            raise FileNotFoundError(f"no such file or directory: {argument}")
    return sorted(found)


def _walk(base: Path):
    if base.is_file():
        yield base
        return
    for directory, subdirectories, files in os.walk(base):
        subdirectories[:] = sorted(
            d for d in subdirectories
            if d not in _SKIPPED_DIRECTORIES and not d.startswith(".")
            and not is_environment(os.path.join(directory, d))
        )
        for name in files:
            yield Path(directory) / name


def is_environment(directory: str | Path) -> bool:
    """Whether ``directory`` is a Python environment (a virtualenv or a conda one),
    whose markdown belongs to the packages installed in it.

    >>> import pathlib, tempfile
    >>> env = pathlib.Path(tempfile.mkdtemp())
    >>> is_environment(env)
    False
    >>> (env / "conda-meta").mkdir()
    >>> is_environment(env)
    True
    """
    return any(os.path.exists(os.path.join(directory, marker)) for marker in _ENVIRONMENT_MARKERS)
