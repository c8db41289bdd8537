"""MkDocs hook: the site's simplest Mermaid flowcharts drawn at build time.

A ```` ```mermaid ```` fence that is only boxes and arrows (`flowchart TD`,
lines such as `a["label"] --> b["label"]`) becomes a ```` ```svg ```` fence
holding the same diagram drawn by rune._pictures, which the rune-literate
plugin shows inline. The page then needs no Mermaid script (3.6 MB, which
overrides/main.html loads only on a page with a diagram left to draw), and
the text stays at 13 px on a phone, where Mermaid's would shrink with the
diagram. Anything else (other shapes, labels on arrows, subgraphs, styles)
and the out blocks that show what `graph.mermaid()` prints stay Mermaid's.
"""

from __future__ import annotations

import re

from rune._pictures.diagrams import flowchart

_HEADER = re.compile(r"(?:flowchart|graph)\s+(?:TD|TB)")
_NODE = re.compile(r'([A-Za-z_]\w*)(?:\["([^"<#\]]*)"\]|\[([^"<#\[\]]*)\])?')
_OPENING = re.compile(r"^(`{3,}|~{3,})(.*)$")
OUT_DIRECTIVE = re.compile(r"<!--\s*literate\s*:\s*out\s*-->")


def parse_flowchart(source: str):
    """(labels, edges) of a boxes-and-arrows flowchart, or None if it is more."""
    lines = [line.strip() for line in source.strip().splitlines() if line.strip()]
    if not lines or not _HEADER.fullmatch(lines[0]):
        return None
    labels, edges = {}, []
    for line in lines[1:]:
        chain = []
        for part in line.split("-->"):
            node = _NODE.fullmatch(part.strip())
            if node is None:
                return None
            key, label = node[1], node[2] if node[2] is not None else node[3]
            if label is not None:
                labels[key] = label.strip()
            else:
                labels.setdefault(key, key)
            chain.append(key)
        edges += list(zip(chain, chain[1:]))
    return labels, edges


def draw_static_flowcharts(markdown: str) -> str:
    """The page with each boxes-and-arrows mermaid fence drawn as an svg fence.

    Fences inside other fences (a page showing a diagram's source) and out
    blocks (`<!-- literate: out -->` before the fence) are left alone.
    """
    lines = markdown.split("\n")
    result, i = [], 0
    while i < len(lines):
        opening = _OPENING.match(lines[i])
        if opening is None:
            result.append(lines[i])
            i += 1
            continue
        marker = opening[1]
        end = next((j for j in range(i + 1, len(lines))
                    if lines[j].strip() and lines[j].strip().startswith(marker)
                    and set(lines[j].strip()) == {marker[0]}), len(lines))
        block = lines[i:end + 1]
        previous = next((line for line in reversed(result) if line.strip()), "")
        parsed = None
        if opening[2].strip() == "mermaid" and not OUT_DIRECTIVE.fullmatch(previous.strip()):
            parsed = parse_flowchart("\n".join(lines[i + 1:end]))
        if parsed is not None:
            labels, edges = parsed
            title = "A diagram: " + "; ".join(labels.values())
            block = [f"{marker}svg", flowchart(labels, edges, title), marker]
        result += block
        i = end + 1
    return "\n".join(result)


def on_page_markdown(markdown: str, **kwargs) -> str:
    return draw_static_flowcharts(markdown)
