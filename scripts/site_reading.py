"""What scripts/site_check.py checks of a page as a reader reads it.

At a desktop width (its column is 688 px wide) and a phone's (390 px):

- no table is wider than the column (no sideways scroll), and the page
  itself does not scroll sideways;
- the text of a plot (an SVG image) renders at 12 px or more, and the
  variant shown is the palette's (`#only-light`, `#only-dark`) with text
  that contrasts with the page's background; no raster image is shown
  smaller than drawn.

At the desktop width:

- no Sphinx role (`:class:`, `:func:`, `:mod:`, `:meth:`) shows as text;
- maths is typeset by KaTeX, without an error, on every page whose markdown
  has any;
- on a Learn page, every code span in the prose that names a part of rune
  (`rune.grad`, `rune.vjp(f, *primals)`) links to an anchor that exists in
  the API reference;
- a Learn page links to its notebook and its script, which download, and
  are a notebook (nbformat 4 JSON with cells) and Python source.

And without a browser: the search index holds no out block.
"""

from __future__ import annotations

import html
import json
import re
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import yaml

ROOT = Path(__file__).resolve().parent.parent
VIEWPORTS = {
    "desktop": dict(width=1280, height=900, mobile=False),  # a 688 px column
    "phone": dict(width=390, height=844, mobile=True),
}
SMALLEST_PLOT_TEXT = 12.0  # px, rendered
SMALLEST_PLOT_CONTRAST = 4.5  # WCAG AA for body text
PALETTE_SCHEMES = {"light": "default", "dark": "slate"}  # Material's, in mkdocs.yml
RAW_ROLE = re.compile(r":(?:class|func|mod|meth):")

# Tables wider than their column, sideways scrolling, and each visible SVG
# image's smallest text as rendered (its font size in the SVG's units times
# the image's rendered width over its viewBox width).
MEASURE_LAYOUT = r"""(async () => {
  const content = document.querySelector("article.md-content__inner") || document.body;
  content.querySelectorAll("details").forEach((details) => { details.open = true; });
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const overflowing = [...content.querySelectorAll("table")]
    .filter((table) => {
      const box = table.closest(".md-typeset__scrollwrap") || table.parentElement;
      return box.scrollWidth > box.clientWidth + 1;
    })
    .map((table) => (table.querySelector("tr") || table).textContent
      .replace(/\s+/g, " ").trim().slice(0, 60));
  const plots = [];
  const shrunk = [];
  for (const img of content.querySelectorAll("img")) {
    const width = img.getBoundingClientRect().width;
    if (!width) continue;  // the other palette's variant
    if (!/\.svg(#|$)/.test(img.getAttribute("src"))) {
      // A picture drawn smaller than its pixels shrinks the text in it.
      if (width < img.naturalWidth - 1) shrunk.push(img.getAttribute("src"));
      continue;
    }
    const text = await (await fetch(img.src)).text();
    const viewBox = /viewBox="[\d.\s-]*?\s([\d.]+)\s+[\d.]+"/.exec(text);
    const sizes = [...text.matchAll(/font-size:\s*([\d.]+)px/g)].map((m) => Number(m[1]));
    plots.push({
      src: img.getAttribute("src"),
      smallest: sizes.length && viewBox ? Math.min(...sizes) * width / Number(viewBox[1]) : 0,
      // The colours of its text, read against the page's background.
      fills: [...new Set([...text.matchAll(/<text[^>]*style="[^"]*fill:\s*(#[0-9a-fA-F]{6})/g)]
        .map((m) => m[1]))],
      background: getComputedStyle(document.body).backgroundColor,
    });
  }
  return {
    overflowing,
    page_overflows: document.documentElement.scrollWidth > window.innerWidth + 1,
    plots,
    shrunk,
  };
})()"""

MEASURE_READING = r"""(() => {
  const content = document.querySelector("article.md-content__inner") || document.body;
  const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT);
  let prose = "";
  while (walker.nextNode()) {
    if (!walker.currentNode.parentElement.closest("pre")) prose += walker.currentNode.textContent;
  }
  const spans = [...content.querySelectorAll("code")]
    .filter((code) => !code.closest("pre, h1, h2, h3, h4, h5, h6, .doc"))
    .filter((code) => /^rune\.[A-Za-z_]/.test(code.textContent))
    .map((code) => ({
      text: code.textContent,
      href: code.closest("a") ? code.closest("a").getAttribute("href") : null,
    }));
  return {
    prose,
    math: content.querySelectorAll(".arithmatex").length,
    typeset: content.querySelectorAll(".arithmatex .katex").length,
    math_errors: content.querySelectorAll(".katex-error").length,
    spans,
    downloads: [...content.querySelectorAll("a[download]")].map((a) => a.href),
  };
})()"""


def learn_pages() -> list[str]:
    """The pages with downloads (Getting started, the Learn section, Tensors),
    from mkdocs.yml's nav, as the hooks read it."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from mkdocs_hooks import downloaded_pages as from_nav

    class Loader(yaml.SafeLoader):
        """mkdocs.yml's own tags (!ENV, !!python/name) are not needed here."""

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    return from_nav(config["nav"])


def set_viewport(browser, name: str) -> None:
    browser.send("Emulation.setDeviceMetricsOverride", deviceScaleFactor=1,
                 **VIEWPORTS[name])


def reopen(browser, viewport: str, palette: str) -> bool:
    """Open the current page afresh at a viewport, preferring a palette.

    Material remembers the palette it chose in local storage; that is
    cleared (from a blank page, so that the page cannot write it back), so
    that it follows the emulated preference. Whether it did is returned.
    """
    url = browser.evaluate("location.href")
    origin = browser.evaluate("location.origin")
    browser.open("about:blank")
    browser.send("Storage.clearDataForOrigin", origin=origin, storageTypes="local_storage")
    set_viewport(browser, viewport)
    browser.send("Emulation.setEmulatedMedia",
                 features=[{"name": "prefers-color-scheme", "value": palette}])
    browser.open(url)
    chosen = browser.wait_until(
        f"document.body.dataset.mdColorScheme === '{PALETTE_SCHEMES[palette]}'", 20.0)
    time.sleep(0.3)  # let the palette's transitions finish
    return chosen


def check_layout(browser, viewport: str, palette: str = "light") -> list[str]:
    """Tables and plots of the open page at a viewport, in a palette; the page
    is opened afresh, with no palette remembered, so Material follows the
    emulated preference."""
    at = f"at {VIEWPORTS[viewport]['width']} px"
    if not reopen(browser, viewport, palette):
        return [f"the {palette} palette was not chosen {at}"]
    seen = browser.evaluate(MEASURE_LAYOUT)
    failures = [f"a table is wider than the column {at}: {row}" for row in seen["overflowing"]]
    if seen["page_overflows"]:
        failures.append(f"the page scrolls sideways {at}")
    failures += [f"{src} is shown smaller than drawn, its text shrunk {at} (draw it as SVG)"
                 for src in seen["shrunk"]]
    for plot in seen["plots"]:
        if plot["smallest"] < SMALLEST_PLOT_TEXT:
            failures.append(f"{plot['src']}: text renders at {plot['smallest']:.1f} px {at}, "
                            f"under {SMALLEST_PLOT_TEXT:g}")
        for fill in plot["fills"]:
            contrast = contrast_ratio(hex_rgb(fill), css_rgb(plot["background"]))
            if contrast < SMALLEST_PLOT_CONTRAST:
                failures.append(f"{plot['src']}: text {fill} on the {palette} page's "
                                f"background has a contrast of {contrast:.1f} {at}")
        if "#only-" in plot["src"] and not plot["src"].endswith(f"#only-{palette}"):
            failures.append(f"{plot['src']} shows in the {palette} palette {at}")
    return failures


def hex_rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def css_rgb(colour: str) -> tuple[int, int, int]:
    """`rgb(30, 33, 41)` (or rgba) as numbers."""
    return tuple(int(float(part)) for part in re.findall(r"[\d.]+", colour)[:3])


def contrast_ratio(a: tuple, b: tuple) -> float:
    """WCAG's contrast ratio of two sRGB colours, from 1 to 21."""

    def luminance(rgb):
        linear = [c / 255 / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4
                  for c in rgb]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    lighter, darker = sorted((luminance(a), luminance(b)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def check_reading(browser, base: str, url: str, markdown: Path, learn: bool) -> list[str]:
    """Roles, maths, API links and downloads of the open page (desktop)."""
    seen = browser.evaluate(MEASURE_READING)
    failures = []
    if RAW_ROLE.search(seen["prose"]):
        failures.append(f"a raw Sphinx role shows: {RAW_ROLE.search(seen['prose']).group()}")
    if has_maths(markdown.read_text(encoding="utf-8")) and not seen["math"]:
        failures.append("its maths ($...$) is not marked for KaTeX (pymdownx.arithmatex)")
    if seen["typeset"] < seen["math"] or seen["math_errors"]:
        failures.append(f"{seen['math']} formulas, {seen['typeset']} typeset by KaTeX, "
                        f"{seen['math_errors']} with an error")
    if learn:
        failures += check_api_links(seen["spans"], base + url)
        failures += check_downloads(seen["downloads"])
    return failures


def has_maths(text: str) -> bool:
    """Whether markdown has a $ outside code: fences and code spans."""
    prose = re.sub(r"^(`{3,}|~{3,}).*?^\1", "", text, flags=re.MULTILINE | re.DOTALL)
    return "$" in re.sub(r"`[^`\n]*`", "", prose)


def check_api_links(spans: list[dict], page_url: str) -> list[str]:
    failures = []
    for span in spans:
        if span["href"] is None:
            failures.append(f"`{span['text']}` in the prose does not link to the API")
            continue
        target = urlsplit(urljoin(page_url, span["href"]))
        built = ROOT / "site" / target.path.lstrip("/") / "index.html"
        if "/api/" not in target.path or not built.exists() or (
            f'id="{target.fragment}"' not in built.read_text(encoding="utf-8")
        ):
            failures.append(f"`{span['text']}` links to {span['href']}, not an API entry")
    return failures


def check_downloads(links: list[str]) -> list[str]:
    """The page's notebook and script download and are what they say."""
    kinds = sorted(Path(urlsplit(link).path).suffix for link in links)
    if kinds != [".ipynb", ".py"]:
        return [f"download links to a notebook and a script expected, found {links}"]
    failures = []
    for link in links:
        try:
            with urllib.request.urlopen(link, timeout=10) as response:
                text = response.read().decode("utf-8")
        except OSError as error:
            failures.append(f"download {link} does not resolve: {error}")
            continue
        try:
            if link.endswith(".ipynb"):
                notebook = json.loads(text)
                if notebook.get("nbformat") != 4 or not notebook.get("cells"):
                    failures.append(f"download {link} is not an nbformat 4 notebook")
            else:
                compile(text, link, "exec")
        except (ValueError, SyntaxError) as error:
            failures.append(f"download {link} does not parse: {error}")
    return failures


def check_search_index(site: Path, pages: list[Path]) -> list[str]:
    """The search index must hold no out block (only prose and code)."""
    sys.path.insert(0, str(ROOT))
    from rune.literate import read_page

    outs = {block.out.body.strip() for page in pages for block in read_page(page).python_blocks
            if block.out is not None and block.out.body.strip()}
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    found = []
    for doc in index["docs"]:
        for code in re.findall(r"<pre><code>(.*?)</code></pre>", doc["text"], re.DOTALL):
            if html.unescape(code).strip() in outs:
                found.append(f"search: the index holds an out block of {doc['location']}")
                break
    return found
