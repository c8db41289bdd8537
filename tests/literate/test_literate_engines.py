"""Differential tests: the python blocks rune.literate runs against the code
blocks two real markdown engines render.

The engines are Python-Markdown with the extensions and settings of this
site's mkdocs.yml (superfences, admonitions, content tabs...: what MkDocs
shows a reader) and markdown-it-py in CommonMark mode (what GitHub and MyST
build on). Run over every page of the docs, the README, the fixture pages and
a generated set of layouts (lists, nested lists, block quotes, admonitions,
tabs, MyST directives, comments, tildes and longer fences, indented code,
CRLF), the rule is one: a python or pycon block an engine renders as code is
run, or the page fails with an error naming a line. Never silently not run.

rune may run a fence an engine does not render as code (Python-Markdown does
not read a fence on a list bullet's line, ``- ```python``, which CommonMark
does; CommonMark reads an admonition's body as indented code): a block run
that was not meant as one fails or passes in plain view, so that direction is
not asserted.
"""

import functools
import html
import itertools
import re
from collections import Counter
from pathlib import Path

import markdown  # Python-Markdown, with mkdocs (the test extra)
import markdown_it
import mkdocs.config as mkdocs_config
import pytest

from rune.literate.page import SetupBlock, TeardownBlock
from rune.literate.parser import PYTHON_LANGUAGES, LiterateSyntaxError, fence_language, parse_page

ROOT = Path(__file__).resolve().parents[2]
RUN = PYTHON_LANGUAGES | {"pycon"}
F = "```"

# A code block as pymdownx.highlight writes it (with a title or line numbers
# or neither): its language in the div's class, its code in the first <code>.
_HIGHLIGHTED = re.compile(r'<div class="language-([\w+-]+) highlight">.*?<code>(.*?)</code>', re.S)
_TAG = re.compile(r"<[^>]+>")
# Python-Markdown keeps an HTML comment's markdown inside it, rendered, but
# hidden from the reader (code blocks escape "<", so none holds "<!--").
_COMMENT = re.compile(r"<!--.*?-->", re.S)


@functools.cache
def _python_markdown():
    # Only the markdown settings matter here, so without the plugins: the test
    # extra has mkdocs and the theme but not the docs extra's mkdocstrings.
    config = mkdocs_config.load_config(str(ROOT / "mkdocs.yml"), plugins=[])
    settings = {name: dict(value) for name, value in config.mdx_configs.items()}
    settings.setdefault("pymdownx.snippets", {})["base_path"] = [str(ROOT)]
    return list(config.markdown_extensions), settings


def mkdocs_codes(text: str) -> Counter:
    """The python and pycon code blocks MkDocs renders, by their code."""
    extensions, settings = _python_markdown()
    rendered = markdown.markdown(text, extensions=extensions, extension_configs=settings)
    rendered = _COMMENT.sub("", rendered)
    return Counter(_normal(html.unescape(_TAG.sub("", match[2])))
                   for match in _HIGHLIGHTED.finditer(rendered) if match[1] in RUN)


def commonmark_lines(text: str) -> set[int]:
    """The lines where the python and pycon fences CommonMark renders open."""
    tokens = markdown_it.MarkdownIt("commonmark").parse(text)
    return {token.map[0] + 1 for token in tokens
            if token.type == "fence" and fence_language(token.info) in RUN}


def rune_fences(text: str):
    """The fences rune.literate runs (hidden setup and teardown ones too) or
    checks as output (`<!-- literate: out -->` before a python fence that shows
    printed source)."""
    page = parse_page(text, "page.md")
    fences = [block.fence for block in page.python_blocks]
    fences += [block.out for block in page.python_blocks if block.out is not None]
    fences += [step.fence for step in page.steps if isinstance(step, (SetupBlock, TeardownBlock))]
    return fences


def _normal(code: str) -> str:
    return "\n".join(line.rstrip() for line in code.strip("\r\n").splitlines())


def unrun(text: str) -> list[str] | None:
    """What the engines render as python code and rune does not run; None
    when rune fails the page naming a line."""
    try:
        fences = rune_fences(text)
    except LiterateSyntaxError as error:
        assert re.match(r"page\.md:\d+: ", str(error)), error
        return None
    missing = mkdocs_codes(text) - Counter(_normal(fence.code) for fence in fences)
    lines = commonmark_lines(text) - {fence.line for fence in fences}
    return ([f"MkDocs renders {code!r}" for code in missing.elements()]
            + [f"CommonMark renders the fence at line {line}" for line in sorted(lines)])


# --- the project's own pages -----------------------------------------------------------

def _pages():
    pages = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md",
             *sorted((ROOT / "tests").rglob("*.md"))]
    return [page for page in pages if page.is_file()]


@pytest.mark.parametrize("path", _pages(), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_python_block_a_page_renders_is_run(path):
    text = path.read_text(encoding="utf-8")
    assert unrun(text) in ([], None)


def test_the_docs_pages_parse():
    # The pages above may only pass by failing when they are meant to fail.
    for path in [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]:
        rune_fences(path.read_text(encoding="utf-8"))


# --- generated layouts -----------------------------------------------------------------

# Containers: the lines before the block, the prefix of its lines, the lines after.
CONTAINERS = {
    "top": ([], "", []),
    "paragraph": (["Some text:", ""], "", []),
    "dash item": (["- Item:", ""], "  ", []),
    "star item, 4 columns": (["* Item:", ""], "    ", []),
    "plus item": (["+ Item:", ""], "  ", []),
    "numbered item": (["1. Item:", ""], "   ", []),
    "paren item": (["1) Item:", ""], "   ", []),
    "wide number": (["10. Item:", ""], "    ", []),
    "bare bullet": (["-"], "  ", []),
    "item, no blank": (["1. Item:"], "   ", []),
    "nested item": (["- Outer:", "", "    - Inner:", ""], "      ", []),
    "second item after a fence": (["1. One:", "", f"    {F}text", "    x", f"    {F}",
                                   "2. Two:", ""], "    ", []),
    "quote": (["> Quoted:", ">"], "> ", []),
    "quote in item": (["- Item:", "", "    > Quoted:", "    >"], "    > ", []),
    "admonition": (['!!! note "N"', ""], "    ", []),
    "admonition, no blank": (["!!! note"], "    ", []),
    "collapsible": (["???+ tip"], "    ", []),
    "tab": (['=== "A"', ""], "    ", ['', '=== "B"', "", "    Text."]),
    "definition": (["Term", ": Definition:", ""], "    ", []),
    "footnote": (["Text[^1]", "", "[^1]: Note:", ""], "    ", []),
    "colon fence": ([":::{note}"], "", [":::"]),
    "backtick directive": (["`````{note}"], "", ["`````"]),
    "comment": (["<!-- a comment", "over two lines -->"], "", []),
    "directive": (["<!-- literate: name first -->"], "", []),
    "inside a comment": (["<!--"], "", ["-->"]),
    "directive in item": (["1. Item:", "", "   <!-- literate: name first -->"], "   ", []),
    "comment in item": (["1. Item:", "", "   <!-- a comment -->"], "   ", []),
    "admonition in item": (["1. Item:", "", "    !!! note", ""], "        ", []),
    "under indented code": (["Source:", "", "    # Title"], "    ", []),
    "details": (['<details markdown="1">', "<summary>S</summary>", ""], "", ["", "</details>"]),
}
OPENINGS = [("```", "python"), ("~~~", "py"), ("````", 'python title="a.py"'), ("```", "pycon")]


def _block(prefix: str, marker: str, info: str) -> list[str]:
    code = [">>> print(1)", "1"] if info == "pycon" else ["print(1)"]
    lines = [f"{marker}{info}", *code, marker]
    if info != "pycon":
        lines += ["", f"{marker}out", "1", marker]
    return [prefix + line if line else prefix.rstrip() for line in lines]


def layouts():
    for (name, (before, prefix, after)), extra, blank, (marker, info), follow in itertools.product(
            CONTAINERS.items(), [0, 1, 2, 3, 4, 5, 8], [True, False], OPENINGS, [True, False]):
        if blank and before and not before[-1].strip(" >"):
            continue  # the container already ends in a blank line
        head = before + ([prefix.rstrip()] if blank else [])
        lines = head + _block(prefix + " " * extra, marker, info) + after
        if follow:  # another item, or text, right after the closing fence
            lines += ["- Next item", "", f"  {F}python", "  print(2)", f"  {F}"]
        yield (f"{name}, +{extra}, {'blank' if blank else 'no blank'}, {marker}{info}, "
               f"{'followed' if follow else 'alone'}"), "# Page\n\n" + "\n".join(lines) + "\n"


LAYOUTS = dict(layouts())


@pytest.mark.parametrize("eol", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_every_python_block_a_generated_layout_renders_is_run(eol):
    unrun_by_layout = {}
    for name, text in LAYOUTS.items():
        missing = unrun(text.replace("\n", eol))
        if missing:
            unrun_by_layout[name] = missing
    assert unrun_by_layout == {}


def test_a_block_indented_as_its_containers_content_runs_in_every_layout():
    # The rule is kept by running blocks; an error only where an engine could
    # read the block as indented code (four columns or more past the content).
    failing = []
    for name, text in LAYOUTS.items():
        not_code = (name.startswith(("inside a comment", "under indented code"))
                    # an empty item: an item starts with one blank line at most
                    or name.startswith("bare bullet, +") and ", blank," in name)
        if int(re.search(r", \+(\d+),", name)[1]) < 4 and not not_code:
            try:
                if not any(fence.code == "print(1)\n" or ">>> print(1)" in fence.code
                           for fence in rune_fences(text)):
                    failing.append(f"{name}: not run")
            except LiterateSyntaxError as error:
                failing.append(f"{name}: {error}")
    assert failing == []


def test_the_differential_oracles_see_code_blocks():
    # The oracles themselves: a list item's fence is code to both engines, and
    # so is one under a bullet written without text.
    text = f"1. Item:\n\n   {F}python\n   print(1)\n   {F}\n\nText.\n\n-\n    {F}py\n    x = 2\n    {F}\n"
    assert mkdocs_codes(text) == Counter({"print(1)": 1, "x = 2": 1})
    assert commonmark_lines(text) == {3, 10}
    assert unrun(text) == []
