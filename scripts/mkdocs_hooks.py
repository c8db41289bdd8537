"""MkDocs hooks for rune's site (listed under `hooks:` in mkdocs.yml).

The rune.nx reference is long, so it is laid out by family, as the package
itself is: rune/nx/__init__.py star-imports one module per family (creation,
math, reductions...) in reading order. A page holding the marker line

    <!-- api: rune.nx by family -->

gets, in its place, one section per family: the family module's docstring,
then a mkdocstrings block for each function and class it exports, under the
name readers call it by (`rune.nx.sum`). A new family or function appears
without editing the page.
"""

from __future__ import annotations

import importlib
import inspect
import re

MARKER = "<!-- api: rune.nx by family -->"
_STAR_IMPORT = re.compile(r"^from \.(\w+) import \*", re.MULTILINE)


def _families(package: str) -> list:
    """The modules `package` star-imports, in the order its __init__ imports them."""
    module = importlib.import_module(package)
    source = inspect.getsource(module)
    return [importlib.import_module(f"{package}.{name}") for name in _STAR_IMPORT.findall(source)]


def _title(module) -> str:
    """A family's title: its docstring's first line, up to a colon."""
    first = (module.__doc__ or module.__name__).strip().splitlines()[0]
    return first.split(":")[0].rstrip(".").strip("`")


def _documented(module, name: str) -> bool:
    obj = getattr(module, name)
    return (inspect.isfunction(obj) or inspect.isclass(obj)) and obj.__module__.startswith("rune")


def nx_reference(package: str = "rune.nx") -> str:
    """The markdown of the family sections (mkdocstrings `:::` blocks)."""
    parts = []
    for family in _families(package):
        parts.append(f"## {_title(family)}\n")
        parts.append(
            f"::: {family.__name__}\n"
            "    options:\n"
            "      show_root_heading: false\n"
            "      show_root_toc_entry: false\n"
            "      members: false\n"
        )
        other_names = []
        for name in getattr(family, "__all__", ()):
            if not _documented(family, name):
                continue
            original = getattr(family, name).__name__
            if original != name:  # `conjugate = conj`: documented once, under conj
                other_names.append(f"`nx.{name}` for [`nx.{original}`][{package}.{original}]")
                continue
            parts.append(
                f"::: {package}.{name}\n"
                "    options:\n"
                "      heading_level: 3\n"
                "      show_root_full_path: false\n"
            )
        if other_names:
            parts.append(f"Other names: {', '.join(other_names)}.\n")
    return "\n".join(parts)


def on_page_markdown(markdown: str, **kwargs) -> str:
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, nx_reference())
