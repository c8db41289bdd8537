"""SVG text for the site's pictures: a canvas of boxes, text and arrows.

The pictures are printed by the docs pages' python blocks into ```` ```svg ````
out blocks, compared like any output, so the text must be deterministic: every
coordinate is rounded to a tenth, every number formatted by `number`.

They read in both palettes of the site: text is `currentColor` (the page's
text colour), and the colours of tangents, cotangents and batch examples are
CSS variables with a light and a dark value (Material's slate scheme sets
`data-md-color-scheme="slate"`). They read on a phone: the drawing is at most
`WIDTH` units wide and shown at its natural size, shrunk only to the column,
so 13-unit text renders at 11 px or more down to a 330 px column.
"""

from __future__ import annotations

import re
from html import escape

import numpy as np

WIDTH = 360
FONT = 13  # units; the site's check asks for 11 px rendered at 390 px
CHAR = 0.61 * FONT  # a monospace character's advance
LINE = FONT + 5

STYLE = """\
.rp{--rp-tan:#c2410c;--rp-cot:#1d4ed8}
[data-md-color-scheme=slate] .rp{--rp-tan:#fdba74;--rp-cot:#93c5fd}
.rp .e0{--rp-e:#0e7490}
.rp .e1{--rp-e:#a21caf}
.rp .e2{--rp-e:#4d7c0f}
.rp .e3{--rp-e:#b45309}
[data-md-color-scheme=slate] .rp .e0{--rp-e:#67e8f9}
[data-md-color-scheme=slate] .rp .e1{--rp-e:#f0abfc}
[data-md-color-scheme=slate] .rp .e2{--rp-e:#bef264}
[data-md-color-scheme=slate] .rp .e3{--rp-e:#fcd34d}
.rp text{fill:currentColor;font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.rp .muted{fill-opacity:.7}
.rp .box{fill:none;stroke:currentColor;stroke-opacity:.45}
.rp .edge{fill:none;stroke:currentColor;stroke-opacity:.6;stroke-width:1.3}
.rp .tan{stroke:var(--rp-tan);stroke-opacity:1}
.rp .cot{stroke:var(--rp-cot);stroke-opacity:1}
.rp text.tan{fill:var(--rp-tan);stroke:none}
.rp text.cot{fill:var(--rp-cot);stroke:none}
.rp .head-tan{fill:var(--rp-tan)}
.rp .head-cot{fill:var(--rp-cot)}
.rp .head{fill:currentColor;fill-opacity:.6}
.rp .cell{fill:none;stroke:currentColor;stroke-opacity:.35}
.rp .hl-tan{fill:var(--rp-tan);fill-opacity:.22;stroke:var(--rp-tan)}
.rp .hl-cot{fill:var(--rp-cot);fill-opacity:.22;stroke:var(--rp-cot)}
.rp rect.example{fill:var(--rp-e);fill-opacity:.25;stroke:var(--rp-e)}
.rp text.example{fill:var(--rp-e)}"""

# Arrowheads, one per colour; orient auto-start-reverse lets a path carry its
# head at either end (forward: at the end; backward: at the start).
MARKERS = {
    kind: f'<marker id="rp-{kind}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
          f'markerHeight="7" orient="auto-start-reverse"><path class="{css}" d="M0 0L10 5L0 10z"/>'
          "</marker>"
    for kind, css in (("arrow", "head"), ("arrow-tan", "head-tan"), ("arrow-cot", "head-cot"))
}
_CLASS = re.compile(r"\.([a-z][\w-]*)")
_USED_CLASS = re.compile(r'class="([^"]*)"')


def used_style(elements: list[str]) -> str:
    """The stylesheet's rules for the classes the elements use, and the palette's."""
    used = {name for element in elements for match in _USED_CLASS.finditer(element)
            for name in match[1].split()}
    kept = []
    for rule in STYLE.splitlines():
        classes = set(_CLASS.findall(rule.split("{")[0])) - {"rp"}
        if not classes or classes & used:
            kept.append(rule)
    return "\n".join(kept)


def coordinate(v: float) -> str:
    """A coordinate rounded to a tenth, without a trailing .0."""
    text = f"{round(float(v), 1):.1f}"
    return text[:-2] if text.endswith(".0") else text


def number(v, digits: int = 3) -> str:
    """A number as the pictures print it: `digits` significant digits, a true minus."""
    v = float(v)
    if v == 0:
        return "0"
    text = f"{v:.{digits}g}"
    if "e" in text:
        text = f"{v:.2e}"
    return text.replace("-", "\u2212")


def array_text(value, digits: int = 3, most: int = 3) -> str:
    """`[0.841, 1.82]`: a 0-d or 1-d value, cut after `most` entries."""
    value = np.asarray(getattr(value, "_value", value))
    if value.ndim == 0:
        return number(value, digits)
    flat = [number(v, digits) for v in value.reshape(-1)[:most]]
    if value.size > most:
        flat.append("\u2026")
    return "[" + ", ".join(flat) + "]"


def text_width(text: str) -> float:
    return len(text) * CHAR


class Canvas:
    """An SVG drawing made of elements appended in order."""

    def __init__(self, label: str, width: float = WIDTH) -> None:
        self.label = label
        self.width = width
        self.height = 0.0
        self.elements: list[str] = []

    def grow(self, y: float) -> None:
        self.height = max(self.height, y)

    def text(self, x, y, content: str, css: str = "", anchor: str = "start") -> None:
        attributes = f' x="{coordinate(x)}" y="{coordinate(y)}"'
        if anchor != "start":
            attributes += f' text-anchor="{anchor}"'
        if css:
            attributes += f' class="{css}"'
        self.elements.append(f"<text{attributes}>{escape(content, quote=False)}</text>")
        self.grow(y + 5)

    def rect(self, x, y, w, h, css: str = "box", rounded: float = 0) -> None:
        corner = f' rx="{coordinate(rounded)}"' if rounded else ""
        self.elements.append(
            f'<rect class="{css}" x="{coordinate(x)}" y="{coordinate(y)}" '
            f'width="{coordinate(w)}" height="{coordinate(h)}"{corner}/>')
        self.grow(y + h)

    def path(self, points, css: str = "edge", head: str = "end", colour: str = "") -> None:
        """A polyline through `points`, with an arrowhead at its `head` end
        ("end", "start" or "none"); `colour` is "", "tan" or "cot"."""
        d = "M" + "L".join(f"{coordinate(x)} {coordinate(y)}" for x, y in points)
        marker = "rp-arrow" + (f"-{colour}" if colour else "")
        heads = {"end": f' marker-end="url(#{marker})"',
                 "start": f' marker-start="url(#{marker})"', "none": ""}[head]
        css = f"{css} {colour}".strip()
        self.elements.append(f'<path class="{css}" d="{d}"{heads}/>')

    def svg(self, padding: float = 6) -> str:
        """The drawing as one SVG element, `label` as its accessible name."""
        markers = [marker for kind, marker in MARKERS.items()
                   if any(f"url(#rp-{kind})" in element for element in self.elements)]
        height = coordinate(self.height + padding)
        width = coordinate(self.width)
        return "\n".join([
            f'<svg xmlns="http://www.w3.org/2000/svg" class="rp" role="img" '
            f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'aria-label="{escape(self.label, quote=False)}">',
            f"<title>{escape(self.label, quote=False)}</title>",
            f"<style>\n{used_style(self.elements + markers)}\n</style>",
            *([f"<defs>{''.join(markers)}</defs>"] if markers else []),
            *self.elements,
            "</svg>",
        ])
