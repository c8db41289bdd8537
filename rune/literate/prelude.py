"""A directory's prelude: ``literate_prelude.py``, run before each page below it.

Pages that need the same environment (a variable set, a warning filter, a
helper every page uses) would each repeat a setup block for it; a project puts
it once in a file named ``literate_prelude.py`` beside its pages or in a
directory above them. Before a page's first block, each prelude found from
the project's root down to the page's directory runs in the page's namespace,
the outermost first, as pytest's conftest.py files nest: what a prelude
defines, every block of the page sees (after a `clear` too), and what it
prints is discarded. If it raises, every block of the page fails with its
traceback. The search stops at the project's root, the first directory
holding pyproject.toml, setup.cfg, setup.py or .git (its prelude included);
a page with no project root above it takes only its own directory's prelude
(a stray /tmp/literate_prelude.py must not run before every page in /tmp).

pytest, ``check``, ``promote`` and the MkDocs plugin run a page with its
preludes; ``export`` puts them at the top of the notebook or script. Docstring
examples run in their module's globals instead, and take none.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from .page import LiterateSyntaxError, Page, Prelude

PRELUDE_NAME = "literate_prelude.py"
_PROJECT_ROOT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")


def find_preludes(page_path: str | Path) -> tuple[Prelude, ...]:
    """The preludes of the page at ``page_path``, the outermost first.

    Raises:
      LiterateSyntaxError: a prelude cannot be read as UTF-8 text.
    """
    directory = page_directory = os.path.dirname(os.path.abspath(page_path))
    found = []
    while True:
        candidate = os.path.join(directory, PRELUDE_NAME)
        if os.path.isfile(candidate):
            found.append(candidate)
        if any(os.path.exists(os.path.join(directory, marker))
               for marker in _PROJECT_ROOT_MARKERS):
            break
        parent = os.path.dirname(directory)
        if parent == directory:  # no project root above the page: its directory's alone
            found = [path for path in found if os.path.dirname(path) == page_directory]
            break
        directory = parent
    return tuple(_read(path) for path in reversed(found))


def with_preludes(page: Page, page_path: str | Path,
                  found: dict[str, tuple[Prelude, ...]] | None = None) -> Page:
    """``page`` with the preludes of its directory (a docstring module takes none).

    ``found``: the preludes found so far, by directory, for a run that reads
    many pages (each page's search looked at every directory up to the root).
    """
    if str(page_path).endswith(".py"):
        return page
    if found is None:
        preludes = find_preludes(page_path)
    else:
        directory = os.path.dirname(os.path.abspath(page_path))
        if directory not in found:
            found[directory] = find_preludes(page_path)
        preludes = found[directory]
    return dataclasses.replace(page, preludes=preludes) if preludes else page


def _read(path: str) -> Prelude:
    shown = os.path.relpath(path)
    if shown.startswith(os.pardir):
        shown = path
    try:
        with open(path, encoding="utf-8") as file:
            return Prelude(path=Path(shown).as_posix(), code=file.read())
    except (OSError, UnicodeDecodeError) as error:
        raise LiterateSyntaxError(shown, 1, f"the prelude cannot be read: {error}") from None
