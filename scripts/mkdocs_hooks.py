"""MkDocs hooks for rune's site (listed under `hooks:` in mkdocs.yml).

The rune.nx reference is long, so it is laid out by family, as the package
itself is: rune/nx/__init__.py star-imports one module per family (creation,
math, reductions...) in reading order. A page holding the marker line

    <!-- api: rune.nx by family -->

gets, in its place, one section per family: the family module's docstring,
then a mkdocstrings block for each function and class it exports, under the
name readers call it by (`rune.nx.sum`). A new family or function appears
without editing the page.

In the prose of the other pages, a code span naming a part of rune
(`` `rune.grad` ``, `` `rune.vjp(f, *primals)` ``) becomes a link to its
entry in the API reference, through mkdocs-autorefs: written once, in code,
so that no page has to spell the links out and none is forgotten.

Search indexes prose and code, not out blocks nor diagram sources: the
Material search plugin skips elements marked `data-search-exclude`, so the
previews under a result show what the page says rather than printed tensors.

Each page of the Learn section can be downloaded as a Jupyter notebook and as
a Python script, made at build time from its blocks by `rune.literate
export` (under downloads/), with links to both under the page's title.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import PurePosixPath

from rune.literate import parse_page
from rune.literate.export import FORMATS, export_page

MARKER = "<!-- api: rune.nx by family -->"
_STAR_IMPORT = re.compile(r"^from \.([\w.]+) import \*", re.MULTILINE)
# A code span that starts with a dotted name in rune, not already a link's
# text: `rune.grad` or `rune.jit(f)` (linked to rune.jit).
_RUNE_SPAN = re.compile(r"(?<![`\[])`(?P<name>rune(?:\.[A-Za-z_]\w*)+)(?P<rest>\([^`]*)?`(?![`\]])")
_FENCE = re.compile(r"^[ \t>]*(`{3,}|~{3,})")
# What search leaves out: out blocks and the Mermaid source of diagrams.
_UNSEARCHED = re.compile(r'<(div class="language-out highlight"|pre class="mermaid")>')
LEARN_SECTION = "Learn"
DOWNLOADS = "downloads"


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
            # `conjugate = conj`: documented once, under conj (when the package has conj)
            if original != name and hasattr(importlib.import_module(package), original):
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


def _resolves(dotted: str) -> bool:
    """Whether `rune.a.b` names a module or an attribute of one."""
    parts = dotted.split(".")
    for split in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            if not hasattr(obj, attribute):
                return False
            obj = getattr(obj, attribute)
        return True
    return False


def link_api_names(markdown: str) -> str:
    """Link each prose code span naming a part of rune to its API entry.

    Fenced blocks and headings stay as they are; a name that does not
    resolve stays plain (scripts/site_check.py reports it).
    """
    lines, fence = [], None
    for line in markdown.split("\n"):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
        elif opened:
            fence = opened.group(1)
        elif not line.startswith("#"):
            line = _RUNE_SPAN.sub(_link, line)
        lines.append(line)
    return "\n".join(lines)


def _link(match: re.Match) -> str:
    name = match["name"]
    return f"[{match.group()}][{name}]" if _resolves(name) else match.group()


def learn_pages(nav: list) -> list[str]:
    """The markdown files of the nav's Learn section, as mkdocs.yml lists them."""
    for entry in nav or []:
        if isinstance(entry, dict) and LEARN_SECTION in entry:
            return [next(iter(item.values())) if isinstance(item, dict) else item
                    for item in entry[LEARN_SECTION]]
    return []


def download_uri(src_uri: str, to: str) -> str:
    return f"{DOWNLOADS}/{PurePosixPath(src_uri).stem}.{to}"


def on_files(files, config, **kwargs):
    """Add each Learn page's notebook and script to the site."""
    from mkdocs.structure.files import File  # here: the tests import this module without mkdocs

    for src_uri in learn_pages(config["nav"]):
        page = files.get_file_from_path(src_uri)
        parsed = parse_page(page.content_string, src_uri)
        for to in FORMATS:
            files.append(File.generated(config, download_uri(src_uri, to),
                                        content=export_page(parsed, to)))
    return files


def add_download_links(markdown: str, src_uri: str) -> str:
    """The page with links to its notebook and script under its title."""
    depth = "../" * src_uri.count("/")
    links = (f"Run this page yourself: "
             f"[as a notebook]({depth}{download_uri(src_uri, 'ipynb')})"
             f"{{ download=\"{PurePosixPath(src_uri).stem}.ipynb\" .rune-download }} or "
             f"[as a Python script]({depth}{download_uri(src_uri, 'py')})"
             f"{{ download=\"{PurePosixPath(src_uri).stem}.py\" .rune-download }}.")
    title = re.search(r"^# .*\n", markdown, re.MULTILINE)
    at = title.end() if title else 0
    return f"{markdown[:at]}\n{links}\n{markdown[at:]}"


def on_page_markdown(markdown: str, page, config, **kwargs) -> str:
    if page.file.src_uri in learn_pages(config["nav"]):
        markdown = add_download_links(markdown, page.file.src_uri)
    if not page.file.src_uri.startswith("api/"):
        markdown = link_api_names(markdown)
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, nx_reference())


def on_page_content(html: str, **kwargs) -> str:
    """Mark out blocks and diagrams for the search plugin to leave out."""
    return _UNSEARCHED.sub(r"<\1 data-search-exclude>", html)
