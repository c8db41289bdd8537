"""The site's MkDocs hooks (scripts/mkdocs_hooks.py): API links in the prose,
download links on Learn pages, out blocks left out of search.

scripts/site_check.py checks the built site in a browser; these check the
rewriting itself, without mkdocs.
"""

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "mkdocs_hooks", Path(__file__).resolve().parent.parent / "scripts" / "mkdocs_hooks.py")
hooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hooks)


def test_prose_code_spans_naming_rune_link_to_their_api_entry():
    text = "Use `rune.grad`, or `rune.vjp(f, *primals)`, on `nx.sin`.\n"
    assert hooks.link_api_names(text) == (
        "Use [`rune.grad`][rune.grad], or [`rune.vjp(f, *primals)`][rune.vjp], on `nx.sin`.\n")


def test_fences_headings_links_and_unknown_names_stay_as_they_are():
    text = ("## About `rune.grad`\n\n```python\nx = `rune.grad`\n```\n\n"
            "[`rune.jit`](jit.md) and `rune.no_such_thing`.\n")
    assert hooks.link_api_names(text) == text


def test_learn_pages_are_read_from_the_nav():
    nav = [{"Home": "index.md"}, {"Learn": [{"Tensors": "tensors.md"}, "vmap.md"]},
           {"Guides": [{"Performance": "performance.md"}]}]
    assert hooks.learn_pages(nav) == ["tensors.md", "vmap.md"]


def test_download_links_go_under_the_title():
    text = hooks.add_download_links("# Tensors\n\nProse.\n", "tensors.md")
    title, blank, links, *rest = text.split("\n")
    assert title == "# Tensors" and blank == ""
    assert "[as a notebook](downloads/tensors.ipynb)" in links
    assert "[as a Python script](downloads/tensors.py)" in links
    assert rest[:2] == ["", "Prose."]


def test_search_leaves_out_blocks_and_diagram_sources_out():
    html = ('<div class="language-python highlight">code</div>'
            '<div class="language-out highlight">out</div><pre class="mermaid">graph</pre>')
    assert hooks.mark_unsearched(html) == (
        '<div class="language-python highlight">code</div>'
        '<div class="language-out highlight" data-search-exclude>out</div>'
        '<pre class="mermaid" data-search-exclude>graph</pre>')
