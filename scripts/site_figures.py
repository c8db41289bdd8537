"""What scripts/site_check.py checks of a page's pictures, diagrams and maths.

- The text of every picture (an SVG drawn inline, as the ```` ```svg ```` out
  blocks of rune's pictures are) and of every Mermaid diagram renders at
  11 px or more on a phone (390 px wide): its font size in the drawing's
  units times the drawing's rendered width over its viewBox width.
- Maths is typeset: no `$...$`, `\\(...\\)` or `\\[...\\]` is left as text, and
  the pages' prose writes no maths in Unicode (Jᵀ, ȳ, x₀, sin′, x²) that
  KaTeX should typeset (docstrings may: `help()` shows them as text too).
- The 3.6 MB Mermaid script loads only on pages that have a Mermaid diagram,
  and KaTeX only on pages that have maths.

Mermaid draws into closed shadow roots, which the page's scripts cannot
read: its drawings are found through the DevTools DOM (`pierce`), as
site_check.Browser.mermaid_svgs does.
"""

from __future__ import annotations

import re

import site_reading

SMALLEST_FIGURE_TEXT = 11.0  # px at 390 px
# Raw TeX delimiters, left when a formula was not typeset
# (as pandoc reads $: no space inside either dollar, no digit after the second)
RAW_MATHS = re.compile(r"\$[^$\s](?:[^$\n]*[^$\s])?\$(?!\d)|\\\(|\\\)|\\\[|\\\]")
# Characters that write maths in Unicode: combining accents (ẋ, ȳ, x̄), the
# superscript T, subscript letters and digits, superscript 2 and 3, sums,
# partials, nablas and primes.
UNICODE_MATHS = re.compile(
    "[\u0300-\u036f\u1d40\u1d62\u2c7c\u2096\u2080-\u2089\u00b2\u00b3\u2211\u03a3\u2202\u2207"
    "\u2032\u2033\u1e8b\u1e8f\u0233\u0101]")

# The inline pictures' smallest text, the prose outside code, formulas and
# pictures, and which libraries the page loaded.
MEASURE_FIGURES = r"""(() => {
  const content = document.querySelector("article.md-content__inner") || document.body;
  const pictures = [...content.querySelectorAll("svg")]
    .filter((svg) => !svg.closest(".mermaid, .md-icon, .headerlink, .twemoji"))
    .filter((svg) => svg.viewBox.baseVal && svg.viewBox.baseVal.width)
    .map((svg) => {
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const sizes = [...svg.querySelectorAll("text")]
        .map((text) => parseFloat(getComputedStyle(text).fontSize));
      return {label: svg.getAttribute("aria-label") || "an SVG",
              smallest: sizes.length ? Math.min(...sizes) * scale : null};
    });
  const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT);
  let prose = "";
  let pages_prose = "";  // without docstrings, which help() shows too: x² reads better there
  while (walker.nextNode()) {
    const parent = walker.currentNode.parentElement;
    if (!parent.closest("pre, code, .katex, .arithmatex, svg, .mermaid, .doc-signature")) {
      prose += walker.currentNode.textContent;
      if (!parent.closest(".doc")) pages_prose += walker.currentNode.textContent;
    }
  }
  const scripts = [...document.querySelectorAll("script[src]")].map((s) => s.src);
  return {
    pictures,
    prose,
    pages_prose,
    diagrams: content.querySelectorAll("div.mermaid, pre.mermaid").length,
    maths: content.querySelectorAll(".arithmatex").length,
    mermaid_loaded: scripts.some((src) => /mermaid[^/]*\.js$/.test(src)),
    katex_loaded: scripts.some((src) => /katex[^/]*\.js$/.test(src)),
  };
})()"""


def check_figures(browser, drawn) -> list[str]:
    """Pictures, diagrams and maths of the open page; `drawn` is a JavaScript
    condition that holds once Mermaid has drawn the page's diagrams."""
    failures = check_maths_and_scripts(browser.evaluate(MEASURE_FIGURES))
    if not site_reading.reopen(browser, "phone", "light"):
        return failures + ["the light palette was not chosen at 390 px"]
    browser.wait_until(drawn, 60.0)
    seen = browser.evaluate(MEASURE_FIGURES)
    sizes = [(picture["label"], picture["smallest"]) for picture in seen["pictures"]
             if picture["smallest"] is not None]
    sizes += [("a Mermaid diagram", size) for size in mermaid_text_sizes(browser)]
    failures += [f"{label[:60]}: text renders at {size:.1f} px at 390 px, "
                 f"under {SMALLEST_FIGURE_TEXT:g}" for label, size in sizes
                 if size < SMALLEST_FIGURE_TEXT]
    browser.send("Emulation.setEmulatedMedia", features=[])
    site_reading.set_viewport(browser, "desktop")
    return failures


def check_maths_and_scripts(seen: dict) -> list[str]:
    failures = []
    raw = RAW_MATHS.search(seen["prose"])
    if raw:
        failures.append(f"maths left as text, not typeset: {context(seen['prose'], raw)}")
    unicode = UNICODE_MATHS.search(seen["pages_prose"])
    if unicode:
        failures.append("maths written in Unicode where KaTeX should typeset it: "
                        f"{context(seen['pages_prose'], unicode)}")
    if seen["mermaid_loaded"] and not seen["diagrams"]:
        failures.append("the page loads the Mermaid script but has no diagram")
    if seen["katex_loaded"] and not seen["maths"]:
        failures.append("the page loads KaTeX but has no maths")
    return failures


def context(text: str, match: re.Match) -> str:
    start, end = max(0, match.start() - 30), match.end() + 30
    return repr(" ".join(text[start:end].split()))


def mermaid_text_sizes(browser) -> list[float]:
    """The smallest text of each drawn Mermaid diagram, in rendered px.

    Each drawing's stylesheet sets its font sizes in px of its viewBox;
    the box model gives the width the drawing renders at.
    """
    root = browser.send("DOM.getDocument", depth=-1, pierce=True)["root"]
    svgs = []

    def walk(node, in_mermaid):
        attributes = dict(zip(node.get("attributes", [])[::2], node.get("attributes", [])[1::2]))
        if in_mermaid and node.get("localName") == "svg":
            svgs.append(node["nodeId"])
            return
        in_mermaid = in_mermaid or "mermaid" in attributes.get("class", "").split()
        for child in node.get("children", []) + node.get("shadowRoots", []):
            walk(child, in_mermaid)

    walk(root, False)
    sizes = []
    for node_id in svgs:
        markup = browser.send("DOM.getOuterHTML", nodeId=node_id)["outerHTML"]
        view_box = re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) [\d.]+"', markup)
        fonts = [float(size) for size in re.findall(r"font-size:\s*([\d.]+)px", markup)]
        width = browser.send("DOM.getBoxModel", nodeId=node_id)["model"]["width"]
        if view_box and fonts and float(view_box[1]):
            sizes.append(min(fonts) * width / float(view_box[1]))
    return sizes
