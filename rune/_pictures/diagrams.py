"""Flowcharts drawn as pictures: boxes with wrapped labels, and arrows.

Used at build time for the site's static Mermaid flowcharts of the simplest
kind (`flowchart TD`, boxes and `-->` arrows: scripts/mkdocs_diagrams.py
reads them), so that a page with one such diagram needs no Mermaid script,
and its text stays readable on a phone.
"""

from __future__ import annotations

import textwrap

from .graphs import Layout
from .svg import CHAR, Canvas


def flowchart(labels: dict, edges: list, title: str) -> str:
    """Boxes `labels` (key -> text) with arrows `edges` ((from, to) keys),
    from the top down. Raises ValueError on a cycle or an unknown key."""
    unknown = {key for edge in edges for key in edge} - set(labels)
    if unknown:
        raise ValueError("rune._pictures.flowchart: arrows to or from unknown boxes "
                         f"{sorted(unknown)}")
    sources = {key: [a for a, b in edges if b == key] for key in labels}
    order = []
    while len(order) < len(labels):  # each box after its sources, else in the given order
        ready = [key for key in labels
                 if key not in order and all(s in order for s in sources[key])]
        if not ready:
            raise ValueError("rune._pictures.flowchart: the arrows make a cycle")
        order.append(ready[0])
    boxes = {key: [key] for key in labels}  # a list per box: identity, for Layout's ids
    wrapped = {}

    def lines(box, box_w):
        key = box[0]
        wrapped[key] = textwrap.wrap(labels[key], max(4, int((box_w - 12) / CHAR)),
                                     break_on_hyphens=False)
        return len(wrapped[key])

    layout = Layout([boxes[key] for key in order],
                    {id(boxes[key]): [boxes[s] for s in sources[key]] for key in labels},
                    lines, top=8, uniform=False)
    canvas = Canvas(title)
    layout.draw(canvas, lambda box: [(line, "") for line in wrapped[box[0]]], "end", "")
    canvas.grow(layout.bottom)
    return canvas.svg()
