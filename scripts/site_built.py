"""What scripts/site_check.py checks of the built site (site/), without a browser.

Every built page is one the reader can reach: a page of the navigation, or
one of ORPHANS_ALLOWED, each with its reason. Snippets that pages include
(docs/assets/*.md, the Performance page's tables) are `exclude_docs` in
mkdocs.yml, so they are neither built as pages nor found by the search.

The API reference reads cleanly. A docstring is markdown to mkdocstrings, so
plain text that happens to be markdown syntax renders as something else.
Each entry of the built API pages (site/api/) must read as its docstring was
written:

- no emphasis: rune's docstrings write code and maths in backticks and do
  not emphasise, so a `<strong>` or `<em>` in an entry is a `*`, `**` or
  `__` read as markdown (`sqrt(x1**2 + x2**2)` shows as "sqrt(x12 + x22)",
  `__index__` as a bold "index", and an unmatched `**params` turns the rest
  of a paragraph bold);
- no `<sup>`, and no element HTML does not know (a `<BLANKLINE>` or
  `<tensor>` in the text is read as a tag and vanishes);
- every link resolves to a built page and anchor (`funclist[i](x)` reads
  as a link to "x");
- each `>>>` example is one whole code block: no fence marker shows as
  text, no code block sits inside a paragraph, and every console block
  starts at a `>>>` prompt (an output line holding a fence closes the
  example's fence early and splits it).

Each problem names the entry (its anchor) it was found in.

And every API entry that a page's prose links to links back to that page
in its "Taught on" line, which scripts/mkdocs_hooks.py writes.

And each API page is one a reader can scroll: its table of contents holds
at most MAX_CONTENTS_ENTRIES entries (rune.nx's reference as one page had
397), and rune.nx's own page (/api/nx/) is the index of its family pages,
holding no entry: the reference stays split by family, as numpy's is.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

API_DIRECTORY = "api"
# Built pages outside the navigation, each with the reason it may be.
ORPHANS_ALLOWED = {
    "/404.html": "the page mkdocs serves for a missing address",
}
EMPHASIS = {"strong", "em"}
# The elements mkdocs, Material and mkdocstrings write into an API page.
KNOWN_ELEMENTS = {
    "a", "abbr", "article", "aside", "b", "blockquote", "br", "button", "code", "dd",
    "del", "details", "div", "dl", "dt", "em", "footer", "form", "h1", "h2", "h3", "h4",
    "h5", "h6", "header", "hr", "i", "img", "input", "kbd", "label", "li", "main", "mark",
    "meta", "nav", "ol", "p", "path", "pre", "s", "small", "span", "strong", "sub",
    "summary", "sup", "svg", "table", "tbody", "td", "th", "thead", "tr", "u", "ul",
}
VOID_ELEMENTS = {"br", "hr", "img", "input", "meta", "link", "wbr", "path"}
FENCE_TEXT = re.compile(r"(`{3,}|~{3,})")
PROMPT = ">>>"
ENTRY_HEADING = re.compile(r'<h[1-6] id="[^"]*" class="doc doc-heading"')
ENTRY_ANCHOR = re.compile(r'<h[1-6] id="([^"]*)" class="doc doc-heading"')
# What scripts/mkdocs_hooks.py writes atop an entry that pages teach.
TAUGHT_ON = re.compile(r'<p class="rune-taught">.*?</p>', re.DOTALL)
RUN_ON = 40  # characters of emphasis: longer is a paragraph turned bold, not a word
# Contents entries an API page may hold: numpy's longest family page, Mathematical
# functions, lists about 110 routines under its sub-families.
MAX_CONTENTS_ENTRIES = 150
# The page of rune.nx itself: an index of its family pages, not the reference at once.
NX_INDEX = "/api/nx/"
NX_MODULE = "rune.nx"


class EntryReader(HTMLParser):
    """Walks an API page's article and notes, per entry, what does not read cleanly.

    An entry starts at a mkdocstrings heading (`class="doc doc-heading"`,
    whose id is the entry's anchor) and runs to the next one; text before
    the first heading belongs to the page ("(page)").
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.entry = "(page)"
        self.problems: list[tuple[str, str]] = []
        self.links: list[tuple[str, str]] = []  # (entry, href)
        self._stack: list[tuple[str, str]] = []  # (tag, class) of the open elements
        self._in_article = False
        self._emphasis: list[str] | None = None  # the text of the open emphasis
        self._console: list[str] | None = None  # the text of the open pycon block

    def note(self, problem: str) -> None:
        self.problems.append((self.entry, problem))

    def _inside(self, tag: str) -> bool:
        return any(open_tag == tag for open_tag, _ in self._stack)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "article":
            self._in_article = True
        if not self._in_article:
            return
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6") and "doc-heading" in classes:
            self.entry = attributes.get("id") or self.entry
        if tag not in KNOWN_ELEMENTS:
            self.note(f"<{tag}> is not HTML: text in angle brackets read as a tag "
                      "(put it in backticks)")
        elif tag == "sup":
            self.note("a <sup>: a ^ or footnote syntax in the docstring")
        elif tag in EMPHASIS:
            self._emphasis = []
        elif tag == "a" and attributes.get("href"):
            self.links.append((self.entry, attributes["href"]))
        elif tag == "div" and "highlight" in classes:
            if self._inside("p"):
                self.note("a code block inside a paragraph: an example's fence broke apart")
            if "language-pycon" in classes:
                self._console = []
        if tag not in VOID_ELEMENTS and tag in KNOWN_ELEMENTS:
            self._stack.append((tag, " ".join(classes)))

    def handle_endtag(self, tag: str) -> None:
        if not self._in_article or not any(open_tag == tag for open_tag, _ in self._stack):
            return
        while self._stack:
            open_tag, classes = self._stack.pop()
            if open_tag in EMPHASIS and self._emphasis is not None:
                self._close_emphasis(open_tag)
            if open_tag == "div" and "language-pycon" in classes and self._console is not None:
                self._close_console()
            if open_tag == tag:
                break
        if tag == "article":
            self._in_article = False

    def _close_emphasis(self, tag: str) -> None:
        text = " ".join("".join(self._emphasis).split())
        self._emphasis = None
        if len(text) > RUN_ON:
            self.note(f"<{tag}> runs on for {len(text)} characters ({text[:30]}...): "
                      "an unmatched ** or __ of the docstring (put code in backticks)")
        else:
            self.note(f"<{tag}>{text}</{tag}>: a * or _ of the docstring read as emphasis "
                      "(put maths and names in backticks)")

    def _close_console(self) -> None:
        first = next((line for line in "".join(self._console).splitlines() if line.strip()), "")
        self._console = None
        if not first.startswith(PROMPT):
            self.note(f"an example block starts at {first.strip()[:40]!r}, not at a >>> prompt: "
                      "an example split apart")

    def handle_data(self, data: str) -> None:
        if not self._in_article:
            return
        if self._emphasis is not None:
            self._emphasis.append(data)
        if self._console is not None:
            self._console.append(data)
        if not (self._inside("pre") or self._inside("code")):
            if FENCE_TEXT.search(data):
                self.note(f"a fence ({FENCE_TEXT.search(data).group()}) shows as text: "
                          "an example split apart")
            if PROMPT in data:
                self.note(">>> shows as text: an example read as prose")


def read_entries(html: str) -> EntryReader:
    reader = EntryReader()
    reader.feed(html)
    reader.close()
    return reader


def missing_link_target(href: str, page_url: str, site: Path) -> bool:
    """Whether `href`, on the page served at `page_url`, points at nothing built.

    Links off the site (another scheme or host) are not followed: the check
    runs offline.
    """
    target = urlsplit(urljoin(f"http://site{page_url}", href))
    if target.scheme != "http" or target.netloc != "site":
        return False
    path = site / target.path.lstrip("/")
    if path.is_dir() or target.path.endswith("/"):
        path = path / "index.html"
    if not path.is_file():
        return True
    if not target.fragment or path.suffix != ".html":
        return False
    return f'id="{target.fragment}"' not in path.read_text(encoding="utf-8")


def garbled_entries(html: str, page_url: str, site: Path) -> list[str]:
    """The problems of one built API page, each naming its entry."""
    reader = read_entries(html)
    # dict.fromkeys: a problem found twice in one entry is said once.
    problems = list(dict.fromkeys(f"{entry}: {problem}" for entry, problem in reader.problems))
    problems += [f"{entry}: a link to {href!r}, which is no page or anchor of the site"
                 for entry, href in reader.links if missing_link_target(href, page_url, site)]
    return problems


def check_api_entries(site: Path) -> list[str]:
    """Every entry of every built API page reads cleanly (see the module's docstring)."""
    failures = []
    for page in sorted((site / API_DIRECTORY).rglob("index.html")):
        page_url = "/" + page.parent.relative_to(site).as_posix() + "/"
        failures += [f"{page_url}: {problem}" for problem in
                     garbled_entries(page.read_text(encoding="utf-8"), page_url, site)]
    return failures


class NavReader(HTMLParser):
    """The addresses of the page links in a built page's primary navigation."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        if tag == "a" and "md-nav__link" in (attributes.get("class") or "").split():
            href = attributes.get("href") or ""
            if not href.startswith("#"):  # a heading of the page's own contents
                self.hrefs.append(href)


def built_pages(site: Path) -> set[str]:
    """The address of every HTML page under `site` (a directory's index.html is "/dir/")."""
    addresses = set()
    for page in site.rglob("*.html"):
        relative = page.relative_to(site).as_posix()
        addresses.add("/" + (relative[: -len("index.html")] if page.name == "index.html"
                             else relative))
    return addresses


def nav_pages(site: Path) -> set[str]:
    """The pages the home page's navigation links to (Material writes the whole tree)."""
    reader = NavReader()
    reader.feed((site / "index.html").read_text(encoding="utf-8"))
    return {urlsplit(urljoin("http://site/", href)).path for href in reader.hrefs}


def check_orphan_pages(site: Path) -> list[str]:
    """No page is built that the navigation does not reach (see ORPHANS_ALLOWED)."""
    orphans = built_pages(site) - nav_pages(site) - set(ORPHANS_ALLOWED)
    return [f"{address}: a built page outside the navigation (add it to the nav, "
            "exclude_docs it in mkdocs.yml, or allow it with a reason in ORPHANS_ALLOWED)"
            for address in sorted(orphans)]


class LinkReader(HTMLParser):
    """The addresses the links of a built page's article point to."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hrefs: list[str] = []
        self._in_article = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self._in_article = self._in_article or tag == "article"
        href = dict(attrs).get("href")
        if self._in_article and tag == "a" and href:
            self.hrefs.append(href)

    def handle_endtag(self, tag: str) -> None:
        self._in_article = self._in_article and tag != "article"


def entry_html(page_html: str, anchor: str) -> str | None:
    """The HTML of the API entry `anchor`, to the next entry's heading; None if no entry."""
    heading = re.search(rf'<h[1-6] id="{re.escape(anchor)}" class="doc doc-heading"', page_html)
    if heading is None:
        return None  # a module's anchor, or a heading of prose
    following = ENTRY_HEADING.search(page_html, heading.end())
    return page_html[heading.start():following.start() if following else len(page_html)]


def taught_on(entry: str, entry_url: str) -> set[str]:
    """The addresses of the pages an entry's "Taught on" line links to."""
    line = TAUGHT_ON.search(entry)
    hrefs = re.findall(r'href="([^"]*)"', line.group()) if line else []
    return {urlsplit(urljoin(f"http://site{entry_url}", href)).path for href in hrefs}


def check_taught_on(site: Path) -> list[str]:
    """Every API entry that a page's prose links to says it is taught on that page."""
    failures, texts = [], {}
    for address in sorted(built_pages(site)):
        if address.startswith(f"/{API_DIRECTORY}/") or not address.endswith("/"):
            continue
        reader = LinkReader()
        reader.feed((site / address.lstrip("/") / "index.html").read_text(encoding="utf-8"))
        for href in dict.fromkeys(reader.hrefs):
            target = urlsplit(urljoin(f"http://site{address}", href))
            built = site / target.path.lstrip("/") / "index.html"
            if not (target.path.startswith(f"/{API_DIRECTORY}/") and target.fragment
                    and built.is_file()):
                continue
            if built not in texts:
                texts[built] = built.read_text(encoding="utf-8")
            entry = entry_html(texts[built], target.fragment)
            if entry is not None and address not in taught_on(entry, target.path):
                failures.append(f"{target.path}#{target.fragment}: {address} links to it, "
                                "and its 'Taught on' line does not link back")
    return failures


class ContentsReader(HTMLParser):
    """The links of a built page's table of contents (Material's secondary nav).

    Material writes the table twice, in the primary nav (for small screens)
    and in the sidebar: the first is read.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.entries: list[str] = []
        self._depth = 0  # nav elements open inside the table of contents
        self._read = False  # the first table has been read

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "nav" and (self._depth or ("md-nav--secondary" in classes and not self._read)):
            self._depth += 1
        elif tag == "a" and self._depth and "md-nav__link" in classes:
            self.entries.append(attributes.get("href") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav" and self._depth:
            self._depth -= 1
            self._read = not self._depth


def contents_entries(html: str) -> list[str]:
    """The anchors a built page's table of contents links to, in order."""
    reader = ContentsReader()
    reader.feed(html)
    reader.close()
    return reader.entries


def api_pages(site: Path) -> list[tuple[str, str]]:
    """(address, html) of every built API page."""
    return [("/" + page.parent.relative_to(site).as_posix() + "/", page.read_text(encoding="utf-8"))
            for page in sorted((site / API_DIRECTORY).rglob("index.html"))]


def check_api_page_sizes(site: Path) -> list[str]:
    """No API page is too long to scroll, and rune.nx's page is an index (see the docstring)."""
    failures = []
    for address, html in api_pages(site):
        entries = contents_entries(html)
        if len(entries) > MAX_CONTENTS_ENTRIES:
            failures.append(f"{address}: {len(entries)} contents entries, more than "
                            f"{MAX_CONTENTS_ENTRIES}: split the page (one page per family)")
        if address == NX_INDEX:
            held = [anchor for anchor in ENTRY_ANCHOR.findall(html) if anchor != NX_MODULE]
            if held:
                failures.append(f"{address}: holds {len(held)} API entries "
                                f"({', '.join(held[:3])}...): rune.nx's page lists its "
                                "families, each on a page of its own")
    return failures


if __name__ == "__main__":  # python scripts/site_built.py [SITE]: this check alone
    import sys

    site = Path(sys.argv[1] if len(sys.argv) > 1 else "site")
    found = (check_orphan_pages(site) + check_api_entries(site) + check_taught_on(site)
             + check_api_page_sizes(site))
    print("\n".join(found) or "no orphan page; the API pages read cleanly")
    sys.exit(1 if found else 0)
