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


def test_a_second_name_links_to_the_entry_of_the_function_it_names():
    text = "`rune.stop_gradient` is `rune.detach`.\n"
    assert hooks.link_api_names(text) == (
        "[`rune.stop_gradient`][rune.detach] is [`rune.detach`][rune.detach].\n")


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
            '<div class="language-out literate-out highlight">out</div>'
            '<div class="language-python literate-out highlight">source</div>'
            '<pre class="mermaid">graph</pre>')
    assert hooks.mark_unsearched(html) == (
        '<div class="language-python highlight">code</div>'
        '<div class="language-out literate-out highlight" data-search-exclude>out</div>'
        '<div class="language-python literate-out highlight" data-search-exclude>source</div>'
        '<pre class="mermaid" data-search-exclude>graph</pre>')


def test_getting_started_tensors_and_the_learn_section_are_downloaded():
    nav = [{"Home": "index.md"}, {"Getting started": "getting-started.md"},
           {"Learn": [{"Derivatives": "derivatives.md"}, "vmap.md"]},
           {"Guides": [{"Performance": "performance.md"}]},
           {"Reference": [{"Tensors": "tensors.md"}, {"API": "api/index.md"}]}]
    assert hooks.downloaded_pages(nav) == [
        "getting-started.md", "derivatives.md", "vmap.md", "tensors.md"]


def test_downloads_install_rune_from_the_repository_and_link_to_the_site():
    config = {"site_url": "https://example.org/rune/", "repo_url": "https://git.example/rune"}
    standalone = hooks.standalone("getting-started.md", config)
    assert standalone.install == 'pip install "rune-autodiff[fast] @ git+https://git.example/rune"'
    assert standalone.url("derivatives.md") == "https://example.org/rune/derivatives/"


def test_the_learn_path_goes_from_getting_started_to_derivatives():
    """The footer's Next on Getting started opens the first Learn page:
    Derivatives, not the long Tensors reference."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    import site_reading

    pages = site_reading.learn_pages()  # Getting started, Learn..., Tensors: the nav's order
    assert pages[:2] == ["getting-started.md", "derivatives.md"]
    assert pages[-1] == "tensors.md"
