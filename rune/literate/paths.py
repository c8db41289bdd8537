"""Which files are literate pages: glob patterns shared by pytest and the CLI.

Patterns are relative to a root directory (the pytest rootdir, or the current
directory for the CLI), use ``/`` and support ``*``, ``?`` and ``**`` (any
number of directories, zero included), so ``docs/**/*.md`` matches both
``docs/index.md`` and ``docs/guide/start.md``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

DEFAULT_PATTERNS = ("docs/**/*.md", "README.md")

# Directories searched for pages never include hidden ones (.git, .venv), virtual
# environments (any directory holding a pyvenv.cfg) or these.
_SKIPPED_DIRECTORIES = frozenset({"venv", "node_modules", "__pycache__", "site", "build", "dist"})


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


def matches_any(relative_path: str, patterns: list[str] | tuple[str, ...]) -> bool:
    """Whether a relative posix path matches one of the glob ``patterns``.

    >>> matches_any("docs/guide.md", ["docs/**/*.md", "README.md"])
    True
    >>> matches_any("tests/fixtures/page.md", ["docs/**/*.md", "README.md"])
    False
    """
    return any(pattern_regex(pattern).fullmatch(relative_path) for pattern in patterns)


def find_pages(
    arguments: list[str], root: str | Path = ".", patterns: tuple[str, ...] = DEFAULT_PATTERNS
) -> list[Path]:
    """The pages to run: files as given, directories searched for ``*.md``.

    With no ``arguments``, the files under ``root`` matching ``patterns``.
    Raises ``FileNotFoundError`` for an argument that does not exist.
    The result is sorted and has no duplicates.
    """
    found: set[Path] = set()
    if not arguments:
        root = Path(root)
        for pattern in patterns:
            if not any(char in pattern for char in "*?["):
                if (root / pattern).is_file():
                    found.add(root / pattern)
                continue
            # Walk only the literal directories at the front of the pattern.
            base = root
            for part in pattern.split("/")[:-1]:
                if any(char in part for char in "*?["):
                    break
                base = base / part
            for path in _walk(base):
                if matches_any(path.relative_to(root).as_posix(), patterns):
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
            and not os.path.isfile(os.path.join(directory, d, "pyvenv.cfg"))
        )
        for name in files:
            yield Path(directory) / name
