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

Each API entry that a page of the site teaches links back to it: "Taught
on: Reverse mode, vmap." The pages are those whose prose links to the
entry's object (the links above, and any written by hand as
`[text][rune.name]`), in the nav's order; an alias counts for its object.
Read from the pages at each build, the list stays true as they change.

Search indexes prose and code, not out blocks nor diagram sources: the
Material search plugin skips elements marked `data-search-exclude`, so the
previews under a result show what the page says rather than printed tensors.

Getting started, each page of the Learn section and Tensors can be
downloaded as a Jupyter notebook and as a Python script, made at build time
from its blocks by `rune.literate export` (under downloads/), with links to
both under the page's title. They stand alone: the notebook installs rune
first, and links and diagrams lead to the site.
"""

from __future__ import annotations

import importlib
import inspect
import re
from html import escape as html_escape
from pathlib import PurePosixPath

from rune.literate import parse_page
from rune.literate.export import FORMATS, Standalone, export_page

MARKER = "<!-- api: rune.nx by family -->"
_STAR_IMPORT = re.compile(r"^from \.([\w.]+) import \*", re.MULTILINE)
# A code span that starts with a dotted name in rune, not already a link's
# text: `rune.grad` or `rune.jit(f)` (linked to rune.jit).
_RUNE_SPAN = re.compile(r"(?<![`\[])`(?P<name>rune(?:\.[A-Za-z_]\w*)+)(?P<rest>\([^`]*)?`(?![`\]])")
_FENCE = re.compile(r"^[ \t>]*(`{3,}|~{3,})")
# What search leaves out: out blocks and the Mermaid source of diagrams.
# (The rune-literate plugin gives every out block the class literate-out.)
_UNSEARCHED = re.compile(r'<(div class="[^"]*\bliterate-out\b[^"]*"|pre class="mermaid")>')
LEARN_SECTION = "Learn"
# Pages outside the Learn section that are downloaded too, by their nav title.
ALSO_DOWNLOADED = ("Getting started", "Tensors")
DOWNLOADS = "downloads"
# The README's install command, the distribution from the repository, with the
# fast extra (numexpr), which the outputs are checked with (the test extra has it):
# the jit page's Fusion outputs need it.
INSTALL = 'pip install "rune-autodiff[fast] @ git+{repo_url}"'


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
    namespace = importlib.import_module(package)
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
            obj = getattr(family, name)
            original = obj.__name__
            if original == name:
                parts.append(_entry(f"{package}.{name}"))
            elif hasattr(namespace, original):  # `conjugate = conj`: documented once, under conj
                other_names.append(f"`nx.{name}` for [`nx.{original}`][{package}.{original}]")
            else:
                # Only the other name is exported (`__array_namespace_info__` for
                # the class ArrayNamespaceInfo): the entry is where it is defined.
                parts.append(_entry(f"{obj.__module__}.{original}"))
                other_names.append(f"`nx.{name}` for [`{original}`][{obj.__module__}.{original}]")
        if other_names:
            parts.append(f"Other names: {', '.join(other_names)}.\n")
    return "\n".join(parts)


def _entry(dotted: str) -> str:
    return (f"::: {dotted}\n"
            "    options:\n"
            "      heading_level: 3\n"
            "      show_root_full_path: false\n")


_MISSING = object()


def _resolve(dotted: str):
    """What `rune.a.b` names, as Python reads it; _MISSING if nothing.

    An attribute comes before a submodule of the same name: `rune.jit` is
    the function, not rune/jit.py. A submodule not yet imported is imported.
    """
    parts = dotted.split(".")
    try:
        obj = importlib.import_module(parts[0])
    except ImportError:
        return _MISSING
    for at, attribute in enumerate(parts[1:], 2):
        if not hasattr(obj, attribute):
            try:
                importlib.import_module(".".join(parts[:at]))
            except ImportError:
                return _MISSING
        obj = getattr(obj, attribute, _MISSING)
        if obj is _MISSING:
            return _MISSING
    return obj


def _resolves(dotted: str) -> bool:
    """Whether `rune.a.b` names a module or an attribute of one."""
    return _resolve(dotted) is not _MISSING


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
    target = _entry_name(name)
    return f"[{match.group()}][{target}]" if target is not None else match.group()


def _entry_name(dotted: str) -> str | None:
    """The API entry documenting what `dotted` names, or None if it names nothing.

    A second name of a function (`rune.stop_gradient = detach`) has no entry of
    its own: it links to the entry under the function's own name.
    """
    obj = _resolve(dotted)
    if obj is _MISSING:
        return None
    parent, _, last = dotted.rpartition(".")
    own = getattr(obj, "__name__", last)
    if own != last and callable(obj) and _resolve(f"{parent}.{own}") is obj:
        return f"{parent}.{own}"
    return dotted


_REFERENCE_LINK = re.compile(r"\]\[(rune(?:\.[A-Za-z_]\w*)+)\]")
# mkdocstrings' heading of an API entry, and the opening of its contents.
_ENTRY_HEADING = re.compile(r'<h[1-6] id="(?P<name>rune[\w.]*)" class="doc doc-heading"')
_ENTRY_CONTENTS = re.compile(r'<div class="doc doc-contents[^"]*">')


def linked_objects(markdown: str) -> list:
    """The functions, classes and modules of rune that a page's prose links to, in order."""
    found = []
    for name in _REFERENCE_LINK.findall(link_api_names(markdown)):
        obj = _resolve(name)
        if (callable(obj) or inspect.ismodule(obj)) and not any(obj is f for f in found):
            found.append(obj)
    return found


def teaching_pages(pages: list[tuple[str, str, str]]) -> dict[int, list[tuple[str, str]]]:
    """Which pages teach each object: `pages` are (title, url, markdown) in reading
    order; the answer maps id(object) to the (title, url) of the pages linking it."""
    taught: dict[int, list[tuple[str, str]]] = {}
    for title, url, markdown in pages:
        for obj in linked_objects(markdown):
            taught.setdefault(id(obj), []).append((title, url))
    return taught


def add_taught_on(html: str, taught: dict, page_url: str) -> str:
    """An API page's HTML with "Taught on: ..." atop each entry that pages teach."""
    from mkdocs.utils import get_relative_url  # here: the tests import this module without mkdocs

    def links(pages):
        return ", ".join(f'<a href="{get_relative_url(url, page_url)}">{html_escape(title)}</a>'
                         for title, url in pages)

    parts, at = [], 0
    for heading in _ENTRY_HEADING.finditer(html):
        pages = taught.get(id(_resolve(heading["name"])))
        contents = _ENTRY_CONTENTS.search(html, heading.end())
        if not pages or contents is None:
            continue
        taught_on = f'\n<p class="rune-taught">Taught on: {links(pages)}.</p>'
        parts += [html[at:contents.end()], taught_on]
        at = contents.end()
    return "".join(parts) + html[at:]


def nav_pages(nav: list) -> list[tuple[str, str]]:
    """(title, markdown file) of every page in the nav, in its order."""
    found = []
    for entry in nav or []:
        title, value = next(iter(entry.items())) if isinstance(entry, dict) else (None, entry)
        if isinstance(value, list):
            found += nav_pages(value)
        else:
            found.append((title, value))
    return found


def prose_pages(nav: list, files) -> list[tuple[str, str, str]]:
    """(title, url, markdown) of the nav's pages outside the API reference."""
    pages = []
    for title, src_uri in nav_pages(nav):
        file = files.get_file_from_path(src_uri)
        if file is None or src_uri.startswith("api/"):
            continue
        pages.append((title or src_uri, file.url, file.content_string))
    return pages


def learn_pages(nav: list) -> list[str]:
    """The markdown files of the nav's Learn section, as mkdocs.yml lists them."""
    for entry in nav or []:
        if isinstance(entry, dict) and LEARN_SECTION in entry:
            return [next(iter(item.values())) if isinstance(item, dict) else item
                    for item in entry[LEARN_SECTION]]
    return []


def downloaded_pages(nav: list) -> list[str]:
    """The pages with a notebook and a script: the Learn section's, and those
    ALSO_DOWNLOADED names, in the nav's order."""
    found = []

    def walk(entries, in_learn):
        for entry in entries or []:
            title, value = next(iter(entry.items())) if isinstance(entry, dict) else (None, entry)
            if isinstance(value, list):
                walk(value, title == LEARN_SECTION)
            elif in_learn or title in ALSO_DOWNLOADED:
                found.append(value)

    walk(nav, False)
    return found


def download_uri(src_uri: str, to: str) -> str:
    return f"{DOWNLOADS}/{PurePosixPath(src_uri).stem}.{to}"


def standalone(src_uri: str, config) -> Standalone:
    """How the page's downloads stand alone: the site's address and rune's install."""
    return Standalone(site_url=config["site_url"] or "", page_uri=src_uri,
                      install=INSTALL.format(repo_url=config["repo_url"]))


def on_files(files, config, **kwargs):
    """Add the notebook and the script of each downloaded page to the site."""
    from mkdocs.structure.files import File  # here: the tests import this module without mkdocs

    for src_uri in downloaded_pages(config["nav"]):
        page = files.get_file_from_path(src_uri)
        parsed = parse_page(page.content_string, src_uri)
        for to in FORMATS:
            content = export_page(parsed, to, standalone(src_uri, config))
            files.append(File.generated(config, download_uri(src_uri, to), content=content))
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
    if page.file.src_uri in downloaded_pages(config["nav"]):
        markdown = add_download_links(markdown, page.file.src_uri)
    if not page.file.src_uri.startswith("api/"):
        markdown = link_api_names(markdown)
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, nx_reference())


def mark_unsearched(html: str) -> str:
    """Mark out blocks and diagrams for the search plugin to leave out."""
    return _UNSEARCHED.sub(r"<\1 data-search-exclude>", html)


def on_page_content(html: str, page, config, files, **kwargs) -> str:
    html = mark_unsearched(html)
    if page.file.src_uri.startswith("api/"):
        taught = teaching_pages(prose_pages(config["nav"], files))
        html = add_taught_on(html, taught, page.url)
    return html
