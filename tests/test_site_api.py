"""The API-page check of scripts/site_check.py (scripts/site_api.py), on small HTML.

Each snippet is what mkdocstrings wrote for one of the entries that issue 29
found garbled; the check must name the entry and the fault.
"""

import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "site_api", Path(__file__).resolve().parent.parent / "scripts" / "site_api.py")
site_api = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(site_api)


def entry(name: str, body: str) -> str:
    """An API page with one mkdocstrings entry holding `body`."""
    return (f'<html><body><nav><a href="nowhere">menu</a></nav><article>'
            f'<h3 id="{name}" class="doc doc-heading">{name.rsplit(".", 1)[-1]}</h3>'
            f'<div class="doc doc-contents">{body}</div></article></body></html>')


def problems(body: str, site: Path) -> list[str]:
    return site_api.garbled_entries(entry("rune.nx.f", body), "/api/nx/", site)


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
    assert site_api.check_api_entries(site) == []


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
        return site_api.missing_link_target(href, "/api/nx/", site)

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
