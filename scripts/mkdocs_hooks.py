"""MkDocs hooks for rune's site (listed under `hooks:` in mkdocs.yml).

The rune.nx reference is one page per family, as numpy's is and as the
package is laid out: rune/nx/__init__.py gathers its names from one module
per family (`_families`: creation, manipulation/shape.py, math/trigonometric.py
...) and exports the namespaces nx.fft, nx.linalg and nx.random. Each page
under docs/api/nx/ is one marker line naming the module it is made from,

    <!-- api: rune.nx.creation -->

and gets, in its place, the family's title and docstring, then a
mkdocstrings block for each function and class it exports, under the name
readers call it by (`rune.nx.sum`). A package of families (manipulation)
gets a section per family, or a link to the family's own page if it has one
(math/); a namespace (nx.fft) gets every member it exports. The page of
`<!-- api: rune.nx -->` is the index: the families, a line each, in the
nav's order (numpy's), then every name, linking to its entry. A new
function appears without editing a page; a family module, namespace or name
on no page (or on two) is a warning, so the strict build fails
(nx_reference_problems).

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
import logging
import posixpath
import re
from html import escape as html_escape
from pathlib import Path, PurePosixPath

from rune.literate import parse_page
from rune.literate.export import FORMATS, Standalone, export_page

# Under "mkdocs.", so that the strict build counts its warnings.
log = logging.getLogger("mkdocs.hooks.rune")
NX = "rune.nx"
# The one line of a page of rune.nx's reference: the module the page is made from.
_PAGE_MARKER = re.compile(r"^<!-- api: (?P<module>rune\.nx(?:\.\w+)*) -->$", re.MULTILINE)
API_DIRECTORY = "api"
# The opening of a mkdocstrings block for one entry (see _entry): its anchor.
_ENTRY_BLOCK = re.compile(r"^::: (\S+)\n    options:\n      heading_level", re.MULTILINE)
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


def _nx():
    return importlib.import_module(NX)


def nx_families() -> tuple:
    """rune.nx's family modules: those rune/nx/__init__.py gathers its names from."""
    return _nx()._families


def nx_namespaces() -> list:
    """The modules rune.nx exports (nx.fft, nx.linalg, nx.random), each a page of its own."""
    nx = _nx()
    return [getattr(nx, name) for name in nx.__all__ if inspect.ismodule(getattr(nx, name))]


def _title(module) -> str:
    """A family's title: its docstring's first line, up to a colon."""
    return _first_line(module).split(":")[0].rstrip(".").strip("`")


def _summary(module) -> str:
    """The rest of the first line, after the title: what the family holds."""
    title, _, rest = _first_line(module).partition(":")
    return rest.strip() or title


def _first_line(module) -> str:
    return (module.__doc__ or module.__name__).strip().splitlines()[0]


def _documented(module, name: str) -> bool:
    obj = getattr(module, name)
    return (inspect.isfunction(obj) or inspect.isclass(obj)) and obj.__module__.startswith("rune")


def family_names(module) -> list[str]:
    """The rune.nx names a module's page documents: a family's `__all__`; for
    another module (not a package of families nor a namespace), the names
    rune.nx exports outside every family that it holds (Tensor and
    TracedValueError, in rune/nx/tensor.py)."""
    if module in nx_families():
        return list(module.__all__)
    if sub_families(module) or module in nx_namespaces():
        return []
    nx = _nx()
    in_families = {name for family in nx_families() for name in family.__all__}
    return [name for name in nx.__all__ if name not in in_families
            and not inspect.ismodule(getattr(nx, name))
            and getattr(module, name, None) is getattr(nx, name)]


def name_anchors(module) -> list[tuple[str, str | None]]:
    """(name, the anchor of its entry) for each name of a family; None for a
    name without an entry (the dtypes): the entry of a second name
    (`conjugate = conj`) is its original's."""
    nx, found = _nx(), []
    for name in family_names(module):
        if not _documented(module, name):
            found.append((name, None))
            continue
        original = getattr(module, name).__name__
        obj = getattr(module, name)
        if original == name or hasattr(nx, original):
            found.append((name, f"{NX}.{original}"))
        else:  # only the other name is exported (`__array_namespace_info__`)
            found.append((name, f"{obj.__module__}.{original}"))
    return found


def family_entries(module, heading_level: int) -> str:
    """The markdown of a family's entries (mkdocstrings `:::` blocks), each
    under the name readers call it by (`rune.nx.sum`)."""
    parts, other_names, plain = [], [], []
    for name, anchor in name_anchors(module):
        if anchor is None:
            plain.append(f"`nx.{name}`")
        elif anchor == f"{NX}.{name}":
            parts.append(_entry(anchor, heading_level))
        elif anchor.startswith(f"{NX}.") and anchor.count(".") == 2:
            other_names.append(f"`nx.{name}` for [`nx.{anchor.rpartition('.')[2]}`][{anchor}]")
        else:
            parts.append(_entry(anchor, heading_level))
            other_names.append(f"`nx.{name}` for [`{anchor.rpartition('.')[2]}`][{anchor}]")
    if plain:
        parts.insert(0, f"Names: {', '.join(plain)}.\n")
    if other_names:
        parts.append(f"Other names: {', '.join(other_names)}.\n")
    return "\n".join(parts)


def _docstring(dotted: str) -> str:
    """A module's docstring, without a heading of its own."""
    return (f"::: {dotted}\n"
            "    options:\n"
            "      show_root_heading: false\n"
            "      show_root_toc_entry: false\n"
            "      members: false\n")


def _entry(dotted: str, heading_level: int = 2) -> str:
    return (f"::: {dotted}\n"
            "    options:\n"
            f"      heading_level: {heading_level}\n"
            "      show_root_full_path: false\n")


def _members(dotted: str, heading_level: int) -> str:
    """Every member a namespace (nx.fft) exports, under its full name."""
    return (f"::: {dotted}\n"
            "    options:\n"
            "      show_root_heading: false\n"
            f"      heading_level: {heading_level}\n")


def page_markers(docs_dir) -> list[tuple[str, str]]:
    """(module name, page) of every page of rune.nx's reference: the page's src_uri."""
    return [(marker["module"], path.relative_to(docs_dir).as_posix())
            for path in sorted(Path(docs_dir, API_DIRECTORY).rglob("*.md"))
            for marker in _PAGE_MARKER.finditer(path.read_text(encoding="utf-8"))]


def page_modules(docs_dir) -> dict[str, str]:
    """The pages of rune.nx's reference: {module name: the page (src_uri) made from it}."""
    return dict(page_markers(docs_dir))


def nx_reference_problems(markers: list[tuple[str, str]]) -> list[str]:
    """What the pages of rune.nx's reference (`markers`, as page_markers reads
    them) leave out or say twice: each family of rune.nx and each namespace on
    exactly one page, each name rune.nx exports on exactly one page.

    The build warns of each (so the strict build fails): a family module
    added to rune/nx cannot be left out of the reference unseen.
    """
    problems = [f"{module} is the marker of {len(uris)} pages: {', '.join(uris)}"
                for module, uris in _grouped(markers).items() if len(uris) > 1]
    pages = dict(markers)
    for module in (*nx_families(), *nx_namespaces()):
        if page_home(module.__name__, pages) is None:
            problems.append(f"{module.__name__} is on no page of the API reference: add a page "
                            f"holding the line <!-- api: {module.__name__} --> under "
                            f"{API_DIRECTORY}/nx/ and to the nav")
    nx = _nx()
    shown = _grouped((name.partition(".")[0], uri) for module, uri in markers if module != NX
                     for name, _ in page_name_anchors(module, pages))
    for name in nx.__all__:
        uris = shown.get(name, [])
        if len(uris) != 1:
            problems.append(f"rune.nx.{name} is on {len(uris)} pages of the API reference"
                            f"{': ' + ', '.join(uris) if uris else ''}")
    return problems


def _grouped(pairs) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for key, value in pairs:
        if value not in found.setdefault(key, []):
            found[key].append(value)
    return found


def sub_families(module) -> list:
    """The families inside a package (math: trigonometric, hyperbolic...), in rune.nx's order."""
    return [family for family in nx_families() if family.__name__.startswith(module.__name__ + ".")]


def _relative(src_uri: str, from_uri: str) -> str:
    return posixpath.relpath(src_uri, posixpath.dirname(from_uri))


def family_page(module_name: str, pages: dict[str, str], src_uri: str) -> str:
    """The markdown of a page of rune.nx's reference made from one module.

    A family: its title, docstring and entries. A package of families
    (manipulation, math): a section per family, or a link to the family's
    own page if it has one. A namespace (nx.fft): every member it exports.
    """
    module = importlib.import_module(module_name)
    parts = [f"# {_title(module)}\n", _docstring(module_name), family_entries(module, 2)]
    families = sub_families(module)
    for family in families:
        if family.__name__ in pages:
            link = _relative(pages[family.__name__], src_uri)
            parts.append(f"- [{_title(family)}]({link}): {_summary(family)}")
        else:
            parts += [f"## {_title(family)}\n", _docstring(family.__name__),
                      family_entries(family, 3)]
    if module in nx_namespaces():
        if families:
            parts.append(f"## `{module_name}`\n")
        parts.append(_members(module_name, 3 if families else 2))
    return "\n".join(part for part in parts if part) + "\n"


def page_home(module_name: str, pages: dict[str, str]) -> str | None:
    """The page a module is documented on: its own, or its package's; None if none."""
    name = module_name
    while name != NX and name not in pages:
        name = name.rpartition(".")[0]
    return pages.get(name) if name != NX else None


def page_name_anchors(module_name: str, pages: dict[str, str]) -> list[tuple[str, str | None]]:
    """(name, anchor) of every name a page of the reference documents, as in name_anchors."""
    module = importlib.import_module(module_name)
    found = name_anchors(module)
    for family in sub_families(module):
        if family.__name__ not in pages:
            found += name_anchors(family)
    if module in nx_namespaces():
        found += [(f"{module.__name__.rpartition('.')[2]}.{name}", _member_anchor(module, name))
                  for name in module.__all__]
    return found


def _member_anchor(namespace, name: str) -> str:
    """The entry of a namespace's member: a function rune.nx exports too
    (`nx.linalg.vecdot is nx.vecdot`) has its entry there."""
    if getattr(namespace, name) is getattr(_nx(), name, None):
        return f"{NX}.{name}"
    return f"{namespace.__name__}.{name}"


def nx_index(pages: dict[str, str], order: list[str], url_of, page_url: str) -> str:
    """The markdown of rune.nx's index: its families, a line each, in the nav's
    order (`order`, the pages' src_uri), then every name, linking to its entry.

    Each name's link carries the id its entry had when the reference was one
    page (`api/nx/#rune.nx.sin`); javascripts/moved-anchors.js follows it
    there. The links are HTML: autorefs registers the id of a markdown link
    as an anchor, which would be the entry's second address.
    """
    from mkdocs.utils import get_relative_url  # here: the tests import this module without mkdocs

    by_page = {uri: name for name, uri in pages.items() if name != NX}
    listed = [uri for uri in order if uri in by_page]
    entry_pages = {anchor: uri for uri in listed
                   for anchor in _ENTRY_BLOCK.findall(family_page(by_page[uri], pages, uri))}

    def href(anchor, uri):
        target = get_relative_url(url_of(entry_pages.get(anchor, uri)), page_url)
        return f"{target}#{anchor}" if anchor else target

    lines, names = [], []
    for uri in listed:
        module = importlib.import_module(by_page[uri])
        inside = any(by_page[uri].startswith(by_page[other] + ".") for other in listed)
        link = _relative(uri, pages[NX])
        lines.append(f"{'    ' if inside else ''}- [{_title(module)}]({link}): {_summary(module)}")
        anchors = page_name_anchors(by_page[uri], pages)
        if not anchors:
            continue
        # `name` in backticks: markdown reads the text of inline HTML (`__x__` is bold).
        shown = ", ".join(f'<a id="{NX}.{name}" data-moved href="{href(anchor, uri)}">`{name}`</a>'
                          for name, anchor in anchors)
        names.append(f"[{_title(module)}]({link})\n:   {shown}\n")
    return ("## Families\n\n" + "\n".join(lines)
            + "\n\n`nx.special` is [`rune.scipy.special`][rune.scipy.special], "
              "imported on first use.\n\n## Every name\n\n" + "\n".join(names))


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
    """Add the notebook and the script of each downloaded page to the site;
    warn of what rune.nx's reference leaves out (nx_reference_problems)."""
    from mkdocs.structure.files import File  # here: the tests import this module without mkdocs

    for problem in nx_reference_problems(page_markers(config["docs_dir"])):
        log.warning(problem)
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


def on_page_markdown(markdown: str, page, config, files, **kwargs) -> str:
    if page.file.src_uri in downloaded_pages(config["nav"]):
        markdown = add_download_links(markdown, page.file.src_uri)
    if not page.file.src_uri.startswith("api/"):
        markdown = link_api_names(markdown)
    return _PAGE_MARKER.sub(lambda marker: nx_page(marker["module"], page, config, files), markdown)


def nx_page(module_name: str, page, config, files) -> str:
    """The markdown a page of rune.nx's reference is made of (see the module's docstring)."""
    pages = page_modules(config["docs_dir"])
    if module_name != NX:
        return family_page(module_name, pages, page.file.src_uri)
    order = [src_uri for _, src_uri in nav_pages(config["nav"])]
    return nx_index(pages, order, lambda uri: files.get_file_from_path(uri).url, page.url)


def mark_unsearched(html: str) -> str:
    """Mark out blocks and diagrams for the search plugin to leave out."""
    return _UNSEARCHED.sub(r"<\1 data-search-exclude>", html)


def on_page_content(html: str, page, config, files, **kwargs) -> str:
    html = mark_unsearched(html)
    if page.file.src_uri.startswith("api/"):
        taught = teaching_pages(prose_pages(config["nav"], files))
        html = add_taught_on(html, taught, page.url)
    return html
