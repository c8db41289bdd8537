"""What scripts/site_check.py checks of the built site without a browser
(scripts/site_built.py), on small sites and HTML.

The API snippets are what mkdocstrings wrote for the entries that issue 29
found garbled; the check must name the entry and the fault.
"""

import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "site_built", Path(__file__).resolve().parent.parent / "scripts" / "site_built.py")
site_built = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(site_built)


def entry(name: str, body: str) -> str:
    """An API page with one mkdocstrings entry holding `body`."""
    return (f'<html><body><nav><a href="nowhere">menu</a></nav><article>'
            f'<h3 id="{name}" class="doc doc-heading">{name.rsplit(".", 1)[-1]}</h3>'
            f'<div class="doc doc-contents">{body}</div></article></body></html>')


def problems(body: str, site: Path) -> list[str]:
    return site_built.garbled_entries(entry("rune.nx.f", body), "/api/nx/", site)


CLEAN = ('<p>The <code>x1**2</code> <b><code>x</code></b> of '
         '<a href="#rune.nx.f">f</a>.</p>'
         '<div class="language-pycon highlight"><pre><code>'
         '<span class="gp">&gt;&gt;&gt; </span>print(f(2))\n<span class="go">4</span>'
         '</code></pre></div>')


@pytest.fixture
def site(tmp_path):
    """A built site whose API page holds the clean entry."""
    page = tmp_path / "api" / "nx" / "index.html"
    page.parent.mkdir(parents=True)
    page.write_text(entry("rune.nx.f", CLEAN))
    return tmp_path


def test_a_clean_entry_has_no_problem(site):
    assert site_built.check_api_entries(site) == []


@pytest.mark.parametrize("body, fault", [
    # hypot: sqrt(x1**2 + x2**2) outside backticks.
    ("<p>sqrt(x1<strong>2 + x2</strong>2) without overflow.</p>",
     "<strong>2 + x2</strong>: a * or _ of the docstring read as emphasis"),
    # matrix_power: __index__ outside backticks.
    ("<p>anything with <strong>index</strong>).</p>", "<strong>index</strong>"),
    ("<p>a <em>b</em> c</p>", "<em>b</em>"),
    # Primitive: **params opens a bold that runs to the next **.
    ("<p>impl(*values, <strong>params): the numpy computation. Its arguments are numpy "
     "arrays, numpy scalars or Python numbers. abstract_eval(</strong>vals)</p>",
     "<strong> runs on for"),
    ("<p>x<sup>2</sup></p>", "a <sup>"),
    # promote_text: an output line holding ``` closed the example's fence.
    ('<p><div class="language-pycon highlight"><pre><code>&gt;&gt;&gt; 1</code></pre></div>'
     "<BLANKLINE>\n```</p>", "a code block inside a paragraph"),
    ("<p><BLANKLINE></p>", "<blankline> is not HTML"),
    ("<p>```</p>", "a fence (```) shows as text"),
    ('<div class="language-pycon highlight"><pre><code>print(page)\n</code></pre></div>',
     "starts at 'print(page)', not at a >>> prompt"),
    ("<p>&gt;&gt;&gt; f(2)</p>", ">>> shows as text"),
])
def test_each_kind_of_fault_is_found_and_names_its_entry(body, fault, site):
    found = problems(body, site)
    assert any(problem.startswith("rune.nx.f: ") and fault in problem for problem in found), found
    assert problems(CLEAN, site) == []


def test_links_must_reach_a_built_page_and_anchor(site):
    (site / "vmap").mkdir()
    (site / "vmap" / "index.html").write_text('<h2 id="axes">Axes</h2>')

    def broken(href):
        return site_built.missing_link_target(href, "/api/nx/", site)

    # piecewise: funclist[i](x) is a markdown link to "x".
    assert broken("x")
    assert broken("#rune.nx.nothing") and broken("../../vmap/#nothing")
    assert not broken("#rune.nx.f") and not broken("../../vmap/#axes")
    assert not broken("../../vmap/") and not broken("https://numpy.org/doc/")
    found = problems('<p>funclist<a href="x">i</a></p>', site)
    assert found == ["rune.nx.f: a link to 'x', which is no page or anchor of the site"]


def test_only_the_article_is_read(site):
    # The nav's links and the theme's markup are mkdocs', not the docstrings'.
    assert problems("", site) == []


def write(site: Path, address: str, html: str = "<html></html>") -> None:
    path = site / address.lstrip("/")
    path = path / "index.html" if address.endswith("/") else path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html)


def test_every_built_page_is_in_the_nav_or_allowed(tmp_path):
    nav = ('<nav class="md-nav md-nav--primary"><a href="." class="md-nav__link">Home</a>'
           '<a href="#intro" class="md-nav__link">Intro</a>'
           '<a href="vmap/" class="md-nav__link">vmap</a>'
           '<a href="api/nx/" class="md-nav__link">rune.nx</a></nav>')
    write(tmp_path, "/", nav)
    for address in ("/vmap/", "/api/nx/", "/404.html"):
        write(tmp_path, address)
    assert site_built.built_pages(tmp_path) == {"/", "/vmap/", "/api/nx/", "/404.html"}
    assert site_built.nav_pages(tmp_path) == {"/", "/vmap/", "/api/nx/"}
    assert site_built.check_orphan_pages(tmp_path) == []
    # The Performance page's table snippet, built as a page of its own.
    write(tmp_path, "/assets/bench-table/")
    (found,) = site_built.check_orphan_pages(tmp_path)
    assert found.startswith("/assets/bench-table/: a built page outside the navigation")


def test_the_performance_page_includes_every_snippet():
    # mkdocs.yml excludes docs/assets/*.md from the build: they are only
    # ever included, and the orphan check fails if one is built.
    root = Path(__file__).resolve().parent.parent
    performance = (root / "docs" / "performance.md").read_text(encoding="utf-8")
    for snippet in (root / "docs" / "assets").glob("*.md"):
        assert f'--8<-- "docs/assets/{snippet.name}"' in performance


def test_an_entry_the_prose_links_to_links_back(tmp_path):
    prose = '<article><a href="../api/rune/#rune.grad">grad</a> <a href="../api/rune/#rune">'
    write(tmp_path, "/derivatives/", prose + "the module</a></article>")
    api = ('<h2 id="rune.grad" class="doc doc-heading">grad</h2>'
           '<div class="doc doc-contents">{taught}</div>'
           '<h2 id="rune.jvp" class="doc doc-heading">jvp</h2>'
           '<div class="doc doc-contents"><p class="rune-taught">Taught on: '
           '<a href="../../derivatives/">Derivatives</a>.</p></div>')
    write(tmp_path, "/api/rune/", api.format(taught=""))
    (found,) = site_built.check_taught_on(tmp_path)
    assert found == ("/api/rune/#rune.grad: /derivatives/ links to it, "
                     "and its 'Taught on' line does not link back")
    write(tmp_path, "/api/rune/", api.format(
        taught='<p class="rune-taught">Taught on: <a href="../../derivatives/">Derivatives</a>.</p>'))
    assert site_built.check_taught_on(tmp_path) == []


def api_page(anchors: list[str], entries: list[str] = ()) -> str:
    """A built API page whose table of contents links to `anchors` (the second half
    nested under the first entry), written twice as Material does (primary nav, sidebar)."""
    def links(names):
        return "".join(f'<li class="md-nav__item"><a href="#{name}" class="md-nav__link">{name}'
                       "</a></li>" for name in names)

    half = len(anchors) // 2
    toc = (f'<nav class="md-nav md-nav--secondary"><ul>{links(anchors[:1])}'
           f'<nav class="md-nav"><ul>{links(anchors[half:])}</ul></nav>'
           f'{links(anchors[1:half])}</ul></nav>')
    headings = "".join(f'<h3 id="{name}" class="doc doc-heading">{name}</h3>' for name in entries)
    return (f'<html><body><nav class="md-nav md-nav--primary">{toc}</nav>'
            f'<div class="md-sidebar">{toc}</div><article>{headings}</article></body></html>')


def test_an_api_page_with_too_many_contents_entries_fails(tmp_path):
    limit = site_built.MAX_CONTENTS_ENTRIES
    write(tmp_path, "/api/rune/", api_page([f"rune.f{i}" for i in range(limit)]))
    write(tmp_path, "/api/nx/math/", api_page([f"rune.nx.f{i}" for i in range(limit + 1)]))
    (found,) = site_built.check_api_page_sizes(tmp_path)
    assert found.startswith(f"/api/nx/math/: {limit + 1} contents entries, more than {limit}")


def test_the_nx_reference_as_one_page_fails(tmp_path):
    write(tmp_path, "/api/nx/", api_page(["rune.nx"], ["rune.nx", "rune.nx.sin", "rune.nx.cos"]))
    (found,) = site_built.check_api_page_sizes(tmp_path)
    assert found.startswith("/api/nx/: holds 2 API entries (rune.nx.sin, rune.nx.cos")
    write(tmp_path, "/api/nx/", api_page(["rune.nx"], ["rune.nx"]))
    write(tmp_path, "/api/nx/math/", api_page(["rune.nx.sin"], ["rune.nx.sin", "rune.nx.cos"]))
    assert site_built.check_api_page_sizes(tmp_path) == []
