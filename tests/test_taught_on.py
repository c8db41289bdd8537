"""API entries link back to the pages that teach them ("Taught on: ..."), made
at build time by scripts/mkdocs_hooks.py from the prose's links to the API.

scripts/site_check.py checks the built site: every API entry a page links to
links back to that page.
"""

import importlib.util
from pathlib import Path
from types import SimpleNamespace

import rune
from rune import nx

_spec = importlib.util.spec_from_file_location(
    "mkdocs_hooks", Path(__file__).resolve().parent.parent / "scripts" / "mkdocs_hooks.py")
hooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hooks)


def test_the_objects_a_page_links_to_are_those_the_prose_links():
    page = ("# About `rune.jit`\n\nUse `rune.grad`, then `rune.vjp(f, *primals)`, "
            "[a hand-written link][rune.jit] and `rune.grad` again.\n\n"
            "```python\nrune.vmap  # `rune.vmap` in code is not a link\n```\n\n"
            "Not `rune.no_such_thing`, nor `nx.sin`, nor a constant: `rune.literate.PROMOTABLE`.\n")
    assert hooks.linked_objects(page) == [rune.grad, rune.vjp, rune.jit]


def test_a_page_teaches_an_object_under_any_of_its_names():
    assert rune.TracedValueError is nx.TracedValueError
    taught = hooks.teaching_pages([
        ("Tensors", "tensors/", "See `rune.nx.TracedValueError` and `rune.grad`."),
        ("vmap", "vmap/", "No links."),
        ("jit and graphs", "jit-and-graphs/", "Then `rune.TracedValueError`."),
    ])
    assert taught == {id(rune.TracedValueError): [("Tensors", "tensors/"),
                                                  ("jit and graphs", "jit-and-graphs/")],
                      id(rune.grad): [("Tensors", "tensors/")]}


ENTRY = ('<h2 id="{name}" class="doc doc-heading">{name}</h2>'
         '<div class="language-python doc-signature highlight"></div>'
         '<div class="doc doc-contents first"><p>Docstring.</p></div>')


def test_taught_entries_link_back_to_their_pages_in_order():
    html = "".join(ENTRY.format(name=name) for name in ("rune.grad", "rune.jvp", "rune.nx.sin"))
    taught = {id(rune.grad): [("Derivatives", "derivatives/"), ("A & B", "a-b/")],
              id(nx.sin): [("Tensors", "tensors/")]}
    out = hooks.add_taught_on(html, taught, "api/rune/")
    grad, jvp, sin = out.split("<h2")[1:]
    assert ('<div class="doc doc-contents first">\n<p class="rune-taught">Taught on: '
            '<a href="../../derivatives/">Derivatives</a>, <a href="../../a-b/">A &amp; B</a>.'
            '</p><p>Docstring.</p>') in grad
    assert "rune-taught" not in jvp
    assert 'Taught on: <a href="../../tensors/">Tensors</a>.' in sin
    assert hooks.add_taught_on(html, {}, "api/rune/") == html


def test_the_prose_pages_are_the_navs_outside_the_api_in_its_order():
    nav = [{"Home": "index.md"}, {"Learn": [{"vmap": "vmap.md"}, "tensors.md"]},
           {"Reference": [{"rune": "api/rune.md"}]}]
    assert hooks.nav_pages(nav) == [("Home", "index.md"), ("vmap", "vmap.md"),
                                    (None, "tensors.md"), ("rune", "api/rune.md")]
    files = SimpleNamespace(get_file_from_path=lambda src_uri: SimpleNamespace(
        url=src_uri.replace(".md", "/"), content_string=f"text of {src_uri}"))
    assert hooks.prose_pages(nav, files) == [
        ("Home", "index/", "text of index.md"), ("vmap", "vmap/", "text of vmap.md"),
        ("tensors.md", "tensors/", "text of tensors.md")]
