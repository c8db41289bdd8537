"""The rune.nx reference that scripts/mkdocs_hooks.py lays out as one page per
family (issues 29 and 30): every family, namespace and name on exactly one page."""

import importlib.util
import re
import types
from pathlib import Path

import pytest

from rune import nx

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
_spec = importlib.util.spec_from_file_location("mkdocs_hooks", ROOT / "scripts" / "mkdocs_hooks.py")
hooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hooks)


def pages_markdown() -> dict[str, str]:
    """{page: its markdown} for every family page, as the build makes them."""
    markers = hooks.page_markers(DOCS)
    pages = dict(markers)
    return {uri: hooks.family_page(module, pages, uri) for module, uri in markers
            if module != hooks.NX}


def test_the_reference_leaves_out_no_family_and_no_name():
    assert hooks.nx_reference_problems(hooks.page_markers(DOCS)) == []


def test_a_family_without_a_page_is_named_with_its_names():
    markers = [(module, uri) for module, uri in hooks.page_markers(DOCS)
               if module != "rune.nx.sets"]
    problems = hooks.nx_reference_problems(markers)
    assert problems[0].startswith("rune.nx.sets is on no page of the API reference")
    assert "rune.nx.isin is on 0 pages of the API reference" in problems


def test_a_new_family_module_is_named(monkeypatch):
    # A module added to rune/nx's families, and no page made for it.
    family = types.ModuleType("rune.nx.windows", "Window functions: hann.")
    family.__all__ = ["hann"]
    family.hann = lambda n: n
    monkeypatch.setattr(nx, "_families", (*nx._families, family))
    monkeypatch.setattr(nx, "__all__", [*nx.__all__, "hann"])
    monkeypatch.setattr(nx, "hann", family.hann, raising=False)
    problems = hooks.nx_reference_problems(hooks.page_markers(DOCS))
    assert problems == [
        "rune.nx.windows is on no page of the API reference: add a page holding the line "
        "<!-- api: rune.nx.windows --> under api/nx/ and to the nav",
        "rune.nx.hann is on 0 pages of the API reference"]


def test_a_module_marking_two_pages_is_named():
    markers = [*hooks.page_markers(DOCS), ("rune.nx.sets", "api/nx/more-sets.md")]
    problems = hooks.nx_reference_problems(markers)
    assert problems[0] == "rune.nx.sets is the marker of 2 pages: api/nx/sets.md, api/nx/more-sets.md"
    assert "rune.nx.isin is on 2 pages of the API reference: api/nx/sets.md, api/nx/more-sets.md" \
        in problems


def test_every_public_name_has_one_entry_or_mention_over_all_pages():
    # Read from the markdown the pages are made of: an entry (`::: rune.nx.sum`),
    # a second name (`nx.conjugate` for ...), a name without an entry (the dtypes),
    # or a namespace's members (`::: rune.nx.fft`).
    found = []
    for markdown in pages_markdown().values():
        found += re.findall(r"^::: rune\.nx\.(\w+)\n    options:\n      heading_level",
                            markdown, re.MULTILINE)
        found += re.findall(r"`nx\.(\w+)` for ", markdown)
        for names in re.findall(r"^Names: (.*)$", markdown, re.MULTILINE):
            found += re.findall(r"`nx\.(\w+)`", names)
        found += re.findall(r"^::: rune\.nx\.(\w+)\n    options:\n      show_root_heading: false\n"
                            r"      heading_level", markdown, re.MULTILINE)
    assert sorted(found) == sorted(nx.__all__)


def test_every_other_name_links_to_an_entry_of_the_reference():
    # `__array_namespace_info__ = ArrayNamespaceInfo`: the class is not exported
    # under its own name, so a link to it found no entry (a strict-build warning).
    markdown = "\n".join(pages_markdown().values())
    entries = set(hooks._ENTRY_BLOCK.findall(markdown))
    targets = re.findall(r"\]\[(rune\.nx\.[\w.]+)\]", markdown)
    assert targets, "no other names at all: the test reads the wrong text"
    assert [t for t in targets if t not in entries] == []


def test_a_package_of_families_has_a_section_or_a_link_for_each():
    pages = hooks.page_modules(DOCS)
    manipulation = hooks.family_page("rune.nx.manipulation", pages, pages["rune.nx.manipulation"])
    assert "## Changing array shape\n" in manipulation
    assert "::: rune.nx.reshape\n" in manipulation
    math = hooks.family_page("rune.nx.math", pages, "api/nx/math/index.md")
    assert "- [Trigonometric functions](trigonometric.md): sin, cos" in math
    assert "::: rune.nx.sin\n" not in math


@pytest.mark.parametrize("name, href", [
    ("sin", "math/trigonometric/#rune.nx.sin"),
    ("conjugate", "math/complex/#rune.nx.conj"),  # a second name: its original's entry
    ("float64", "dtypes/"),  # no entry of its own
    ("linalg.inv", "linalg/#rune.nx.linalg.inv"),
    ("linalg.vecdot", "linalg/#rune.nx.vecdot"),  # nx.linalg.vecdot is nx.vecdot
    ("Tensor", "tensor/#rune.nx.Tensor"),
])
def test_the_index_keeps_each_old_anchor_and_links_it_to_the_entry(name, href):
    markers = hooks.page_markers(DOCS)
    pages = dict(markers)
    order = [uri for _, uri in markers]
    index = hooks.nx_index(pages, order, lambda uri: uri.removesuffix("index.md")
                           .removesuffix(".md").rstrip("/") + "/", "api/nx/")
    assert f'<a id="rune.nx.{name}" data-moved href="{href}">`{name}`</a>' in index
    ids = re.findall(r'<a id="(rune\.nx\.[\w.]+)"', index)
    assert len(ids) == len(set(ids))
    assert {f"rune.nx.{name}" for name in nx.__all__ if name not in ("fft", "linalg", "random")} \
        <= set(ids)
