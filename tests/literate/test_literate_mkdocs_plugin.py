"""The rune-literate MkDocs plugin, building a tiny Material site in a child process."""

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
F = "```"

MKDOCS_YML = """\
site_name: tiny
theme:
  name: material
  features: [content.code.copy]
markdown_extensions:
  - admonition
  - pymdownx.superfences
plugins:
  - rune-literate{options}
"""

PAGE = f"""\
# Tiny

<!-- literate: nondeterministic -->
{F}python
print(6 * 7)
{F}

{F}out
42
{F}

!!! note
    <!-- literate: skip -->
    {F}python
    print("in a note")
    {F}

How to skip a block:

{F}markdown
<!-- literate: skip -->
{F}
"""


def build(root, page=PAGE, options=""):
    """Build a site with the plugin; return the finished process."""
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs" / "index.md").write_text(page)
    (root / "mkdocs.yml").write_text(MKDOCS_YML.format(options=options))
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"],
        cwd=root, env=env, capture_output=True, text=True, timeout=300, check=False,
    )


def test_the_plugin_is_an_entry_point_of_mkdocs():
    plugins = {entry.name: entry.value for entry in importlib.metadata.entry_points(group="mkdocs.plugins")}
    assert plugins.get("rune-literate") == "rune.literate.mkdocs_plugin:LiteratePlugin"


def test_out_blocks_get_the_stylesheet_and_a_class_and_directives_disappear(tmp_path):
    result = build(tmp_path)
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site" / "index.html").read_text()
    css = (tmp_path / "site" / "assets" / "rune-literate" / "literate.css").read_text()
    assert 'href="assets/rune-literate/literate.css"' in html
    # The hooks the stylesheet targets: the label, the tint in both palettes, no copy button.
    assert ('<div class="language-out literate-out literate-wrap highlight"><pre><span></span>'
            '<code>42') in html
    assert 'content: "out"' in css and '[data-md-color-scheme="slate"]' in css
    assert ".md-typeset .literate-out .md-code__nav" in css
    assert ".md-typeset .literate-wrap pre > code {\n  white-space: pre-wrap;" in css
    # Directives are gone, and the indented one left no paragraph around the code.
    assert "<!-- literate" not in html
    assert '<p class="admonition-title">Note</p>\n<div class="language-python highlight">' in html
    # A directive shown as an example, inside a code block, stays.
    assert "&lt;!-- literate: skip --&gt;" in html


def test_the_check_option_fails_the_build_on_a_stale_out_block(tmp_path):
    stale = f"# Stale\n\n{F}python\nprint(6 * 7)\n{F}\n\n{F}out\n41\n{F}\n"
    result = build(tmp_path, stale, options=":\n      check: true")
    assert result.returncode != 0
    assert "rune-literate: 1 page(s) have stale out blocks" in result.stderr
    assert "-41\n+42" in result.stderr
    assert "docs/index.md" in result.stderr


def test_the_check_option_passes_pages_whose_out_blocks_hold(tmp_path):
    result = build(tmp_path, options=":\n      check: true")
    assert result.returncode == 0, result.stderr


def test_without_the_check_option_a_stale_page_builds(tmp_path):
    result = build(tmp_path, f"{F}python\nprint(1)\n{F}\n\n{F}out\n2\n{F}\n")
    assert result.returncode == 0, result.stderr


SOURCE_PAGE = f"""\
# Source

{F}python
print("def f(x):\\n    return x")
{F}

<!-- literate: out -->
{F}python
def f(x):
    return x
{F}
"""


def test_an_out_block_of_python_source_is_highlighted_as_python_and_styled_as_output(tmp_path):
    result = build(tmp_path, SOURCE_PAGE, options=":\n      wrap: false")
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site" / "index.html").read_text()
    assert '<div class="language-python literate-out highlight">' in html
    assert '<span class="k">def</span>' in html.split("literate-out")[1]  # pygments' Python


def test_checked_with_names_the_versions_on_pages_with_tested_blocks(tmp_path):
    result = build(tmp_path, options=":\n      checked_with: [numpy, mkdocs]")
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site" / "index.html").read_text()
    numpy, mkdocs = (importlib.metadata.version(name) for name in ("numpy", "mkdocs"))
    assert (f'<p class="literate-checked-with">The outputs on this page were checked with '
            f"numpy {numpy}, mkdocs {mkdocs}.</p>") in html


def test_checked_with_leaves_pages_without_tested_blocks_alone(tmp_path):
    result = build(tmp_path, "# Prose\n\nNo blocks.\n", options=":\n      checked_with: [numpy]")
    assert result.returncode == 0, result.stderr
    assert "literate-checked-with" not in (tmp_path / "site" / "index.html").read_text()


def test_checked_with_an_unknown_distribution_fails_the_build_naming_it(tmp_path):
    result = build(tmp_path, options=":\n      checked_with: [no-such-distribution-x]")
    assert result.returncode != 0
    assert "checked_with names 'no-such-distribution-x', which is not installed" in result.stderr
