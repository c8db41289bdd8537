"""```` ```svg ```` fences shown as the picture they hold, on a MkDocs site.

A python block that prints an SVG drawing, followed by
`<!-- literate: out -->` and a ```` ```svg ```` fence, has that fence as its
out block: the drawing is compared and promoted like any output, and the
site shows the drawing itself (inline, so that its CSS variables and
`currentColor` follow the page's palette). The rune-literate MkDocs plugin
registers the fence with `pymdownx.superfences`; a fence whose text is not
one SVG element shows as code, so that a wrong output is seen, not hidden.
"""

from __future__ import annotations

import re
from html import escape

FENCE = "svg"
CSS_CLASS = "literate-picture"
_ONE_SVG = re.compile(r"\A\s*<svg\b.*</svg>\s*\Z", re.S)


def format_svg(source: str, language: str, class_name: str, options, md, **kwargs) -> str:
    """The fence's drawing in a figure-like div that search leaves out."""
    if _ONE_SVG.match(source) is None or source.count("<svg") != 1:
        return f'<pre class="{CSS_CLASS}-source"><code>{escape(source)}</code></pre>'
    return f'<div class="{CSS_CLASS}" data-search-exclude>{source.strip()}</div>'


def add_svg_fence(config) -> None:
    """Register the ```` ```svg ```` fence with pymdownx.superfences, if the
    site uses it and has not registered an svg fence of its own."""
    if "pymdownx.superfences" not in config.markdown_extensions:
        return
    superfences = config.mdx_configs.setdefault("pymdownx.superfences", {})
    fences = superfences.setdefault("custom_fences", [])
    if not any(fence.get("name") == FENCE for fence in fences):
        fences.append({"name": FENCE, "class": CSS_CLASS, "format": format_svg})
