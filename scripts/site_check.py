"""Build the docs site, open every page in headless Chromium, check what a reader sees.

    python scripts/site_check.py [--no-build] [--screenshots DIR] [--chromium PATH]

Builds the site (`mkdocs build --strict`, into site/), serves it on a free
localhost port, and opens each page of docs/ in Debian's `chromium`. A page
passes when:

- it logs no console error, uncaught exception or failed request;
- every python and out block of its markdown is rendered, as many as the
  literate parser finds (so a setup block, hidden in a comment, is not), and
  each out block is labelled "out", without a copy button;
- no directive comment shows in its text (`<!-- literate: ... -->`);
- docstring `>>>` examples (API pages) render as code, not as block quotes;
- each Mermaid diagram is rendered as an SVG, not as mermaid's error picture;
- what scripts/site_reading.py checks as a reader reads: tables and plots at
  688 px and 390 px, no raw Sphinx roles, maths typeset, API links from the
  prose and the downloads of Learn pages;
- what scripts/site_course.py checks of the site as a course: no out block
  scrolls sideways at 1280 px or 390 px, a page with tested blocks names the
  rune version its outputs were checked with, a downloaded notebook installs
  rune first and links to the site, not to .md files.
- what scripts/site_figures.py checks of pictures, diagrams and maths: their
  text at 11 px or more at 390 px, no maths left raw or written in Unicode,
  Mermaid's script loaded only where a diagram is.

And without a browser, what scripts/site_built.py checks: no built page
outside the navigation, and each entry of the API pages reads as its
docstring was written (no `*` read as emphasis, no bogus link, no example
split apart) and links back to the pages that link to it ("Taught on").

Then the search, opened from `?q=linearize`, must list a result that mentions
"linearize", and its index must hold no out block. Screenshots of Home,
Derivatives, the pages with pictures (Reverse mode, Forward mode, vmap, How it
works, Custom rules), Performance and the API reference of `rune`, in the light
and dark palettes, at 1280 px and (but Derivatives and the API) at 390 px, go
to site-check/. Search must find the names "Coming from JAX, PyTorch or
autograd" maps, on that page, and Getting started's notebook, run by
nbclient, must print its out blocks.
Exits 1 with a line per failure.

Chromium is driven through the DevTools protocol over a pipe
(`--remote-debugging-pipe`: JSON messages ending in a NUL byte on file
descriptors 3 and 4), which needs only the standard library. The command
line flags alone cannot see into the closed shadow roots Material renders
Mermaid diagrams into, nor wait for search results.
"""

from __future__ import annotations

import argparse
import base64
import functools
import http.server
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import mkdocs_diagrams
import site_built
import site_course
import site_figures
import site_reading

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SITE = ROOT / "site"
SEARCH_TERM = "linearize"
# Pages photographed when they exist: docs/<name>.md -> <name>-light.png and
# <name>-dark.png (a / in the name becomes -).
SCREENSHOT_PAGES = ("index", "derivatives", "reverse-mode", "forward-mode", "vmap",
                    "how-it-works", "custom-rules", "performance", "api/rune")
# ... and on a phone, in both palettes: <name>-phone-light.png, <name>-phone-dark.png.
# Home, and the pages whose pictures are drawn from the engine's data (issue 29).
PHONE_SCREENSHOT_PAGES = ("index", "reverse-mode", "forward-mode", "vmap", "how-it-works",
                          "custom-rules", "performance")
# Seconds for a page to load and draw its diagrams (generous: a loaded 2-core
# machine is slow; a page that loads sooner does not wait).
PAGE_TIMEOUT = 60.0
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--mute-audio",
)
FENCE_LINE = re.compile(r"[ \t>]*(?P<marker>`{3,}|~{3,})(?P<info>.*)")

# What a page shows, measured in the page. Blocks inside mkdocstrings output
# (.doc: signatures, docstring examples) are not blocks of the markdown.
MEASURE_PAGE = r"""(() => {
  const content = document.querySelector("article.md-content__inner") || document.body;
  const blocks = (selector) => [...content.querySelectorAll(selector)]
    .filter((el) => !el.closest(".doc"));
  const blocks_in_docs = (selector) => content.querySelectorAll(`.doc ${selector}`).length;
  const empty = (els) => els.filter((el) => !el.textContent.trim()).length;
  // An out block in a code language (printed source) is an out block, not code.
  const code = ":not(.literate-out)";
  const python = blocks(`div.language-python${code}, div.language-py${code}`);
  const out = blocks("div.language-out, div.literate-out:not(.language-out)");
  const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT);
  let prose = "";
  while (walker.nextNode()) {
    if (!walker.currentNode.parentElement.closest("pre, code")) {
      prose += walker.currentNode.textContent;
    }
  }
  return {
    python: python.length,
    out: out.length,
    // The rune-literate MkDocs plugin labels each out block "out" and hides its copy button.
    out_unstyled: out.filter((el) => {
      const label = getComputedStyle(el.querySelector("pre"), "::before").content;
      const copy = el.querySelector(".md-code__nav, .md-clipboard");
      return label !== '"out"' || (copy && getComputedStyle(copy).display !== "none");
    }).length,
    empty: empty(python) + empty(out),
    mermaid: content.querySelectorAll("div.mermaid, pre.mermaid").length,
    directive_text: /<!--\s*literate\s*:/.test(prose),
    // A docstring's >>> example read as markdown becomes nested block quotes.
    doctest_as_text: />>>/.test(prose) || blocks_in_docs("blockquote") > 0,
    title: document.title,
  };
})()"""

SEARCH_RESULTS = """(() => [...document.querySelectorAll(".md-search-result__item")]
  .map((item) => item.textContent.replace(/\\s+/g, " ").trim()))()"""


class Browser:
    """Headless Chromium driven over the DevTools protocol on a pipe."""

    def __init__(self, executable: str) -> None:
        self.profile = tempfile.mkdtemp(prefix="site-check-chromium-")
        commands_read, self._commands = os.pipe()
        self._replies, replies_write = os.pipe()
        # Chromium reads commands on fd 3 and writes replies on fd 4.
        wrapper = f'exec "$0" "$@" 3<&{commands_read} 4>&{replies_write}'
        self.process = subprocess.Popen(
            [
                "sh",
                "-c",
                wrapper,
                executable,
                *CHROMIUM_FLAGS,
                f"--user-data-dir={self.profile}",
                "--remote-debugging-pipe",
                "about:blank",
            ],
            pass_fds=(commands_read, replies_write),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(commands_read)
        os.close(replies_write)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        for domain in ("Page", "Runtime", "Log", "DOM"):
            self.send(f"{domain}.enable")

    def call(self, method: str, session: str | None = None, timeout: float = 30.0, **params):
        """Send one command and return its result (events seen meanwhile are kept)."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._receive(deadline, f"{method} got no reply")
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def send(self, method: str, timeout: float = 30.0, **params):
        """A command to the page's session."""
        return self.call(method, session=self.session, timeout=timeout, **params)

    def wait_for_event(self, method: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        seen = len(self.events)
        while not any(event["method"] == method for event in self.events[seen:]):
            self.events.append(self._receive(deadline, f"no {method} event"))

    def _receive(self, deadline: float, what: str) -> dict:
        while b"\0" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.process.poll() is not None:
                raise TimeoutError(f"chromium: {what} within the time allowed")
            ready, _, _ = select.select([self._replies], [], [], remaining)
            if ready:
                chunk = os.read(self._replies, 1 << 16)
                if not chunk:
                    raise RuntimeError("chromium closed its DevTools pipe")
                self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def open(self, url: str) -> None:
        """Navigate to `url` and wait for its load event."""
        self.events.clear()
        self.send("Page.navigate", url=url)
        self.wait_for_event("Page.loadEventFired", PAGE_TIMEOUT)

    def evaluate(self, expression: str):
        result = self.send(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"evaluating in the page failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_until(self, expression: str, timeout: float) -> bool:
        """Poll a JavaScript condition until it holds or `timeout` passes."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.evaluate(expression):
                return True
            time.sleep(0.1)
        return False

    def mermaid_svgs(self) -> list[str]:
        """The roles of the SVGs drawn in Mermaid hosts, closed shadow roots included.

        A diagram mermaid could not parse is drawn as an SVG with the role
        "error".
        """
        root = self.send("DOM.getDocument", depth=-1, pierce=True)["root"]
        roles = []

        def walk(node, in_mermaid):
            attributes = dict(
                zip(node.get("attributes", [])[::2], node.get("attributes", [])[1::2])
            )
            if in_mermaid and node.get("localName") == "svg":
                roles.append(attributes.get("aria-roledescription", ""))
                return
            in_mermaid = in_mermaid or "mermaid" in attributes.get("class", "").split()
            for child in node.get("children", []) + node.get("shadowRoots", []):
                walk(child, in_mermaid)

        walk(root, False)
        return roles

    def problems(self) -> list[str]:
        """Console errors, uncaught exceptions and failed loads since the last `open`."""
        found = []
        for event in self.events:
            params = event.get("params", {})
            if event["method"] == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                text = details.get("exception", {}).get("description") or details.get("text")
                found.append(f"uncaught exception: {text}")
            elif event["method"] == "Runtime.consoleAPICalled" and params["type"] in (
                "error",
                "assert",
            ):
                text = " ".join(
                    str(arg.get("value", arg.get("description", "")))
                    for arg in params.get("args", [])
                )
                found.append(f"console.{params['type']}: {text}")
            elif event["method"] == "Log.entryAdded" and params["entry"]["level"] == "error":
                entry = params["entry"]
                found.append(f"console error: {entry['text']} {entry.get('url', '')}".rstrip())
        return found

    def screenshot(self, path: Path, dark: bool = False, viewport: str = "desktop") -> None:
        size = site_reading.VIEWPORTS[viewport]
        site_reading.reopen(self, viewport, "dark" if dark else "light")
        self.wait_until(_mermaid_drawn(), PAGE_TIMEOUT)
        # The whole page, as tall as its content.
        height = self.send("Page.getLayoutMetrics")["cssContentSize"]["height"]
        self.send(
            "Emulation.setDeviceMetricsOverride",
            width=size["width"],
            height=int(height),
            deviceScaleFactor=1,
            mobile=size["mobile"],
        )
        data = self.send("Page.captureScreenshot", format="png")["data"]
        site_reading.set_viewport(self, "desktop")
        path.write_bytes(base64.b64decode(data))
        self.send("Emulation.setEmulatedMedia", features=[])

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=5.0)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._commands)
        os.close(self._replies)
        shutil.rmtree(self.profile, ignore_errors=True)


def _mermaid_drawn() -> str:
    # Material replaces each pre.mermaid with a div.mermaid holding the drawing.
    return "document.querySelectorAll('pre.mermaid').length === 0"


def page_url(markdown: Path) -> str:
    """The site path of a page (mkdocs' use_directory_urls)."""
    relative = markdown.relative_to(DOCS).with_suffix("")
    if relative.name == "index":
        relative = relative.parent
    return "/" if relative == Path(".") else f"/{relative.as_posix()}/"


def expected_blocks(markdown: Path) -> dict:
    """What the page's markdown says the reader must see."""
    sys.path.insert(0, str(ROOT))
    from rune.literate import read_page

    page = read_page(markdown)
    text = markdown.read_text(encoding="utf-8")
    return {
        # pycon sessions render as pycon, not python (their output is inside them).
        "python": sum(block.session is None for block in page.python_blocks),
        # An out block marked `<!-- literate: out -->` may be a mermaid fence,
        # which renders as a diagram (counted below), not as an out block.
        "out": sum(block.out is not None and block.out.language not in ("mermaid", "svg")
                   for block in page.python_blocks),
        # Boxes-and-arrows flowcharts are drawn at build time (scripts/mkdocs_diagrams.py).
        "mermaid": count_mermaid_fences(mkdocs_diagrams.draw_static_flowcharts(text)),
    }


def count_mermaid_fences(text: str) -> int:
    """The mermaid fences that render as diagrams: not those shown as source
    inside a longer fence (writing-tested-docs.md shows one)."""
    count, opened = 0, None
    for line in text.splitlines():
        match = FENCE_LINE.fullmatch(line)
        if match is None or (match["marker"][0] == "`" and "`" in match["info"]):
            continue  # not a fence (a backtick fence's info holds no backtick: inline code)
        marker, info = match["marker"], match["info"].strip()
        if opened is None:
            opened = marker
            count += info == "mermaid"
        elif marker[0] == opened[0] and len(marker) >= len(opened) and not info:
            opened = None
    return count


def check_page(browser: Browser, base: str, markdown: Path, learn: bool) -> list[str]:
    url = page_url(markdown)
    site_reading.set_viewport(browser, "desktop")
    browser.open(base + url)
    expected = expected_blocks(markdown)
    failures = []
    if expected["mermaid"] and not browser.wait_until(_mermaid_drawn(), PAGE_TIMEOUT):
        failures.append("its Mermaid diagrams were not drawn in time")
    time.sleep(0.2)  # errors logged just after drawing still count
    seen = browser.evaluate(MEASURE_PAGE)
    for kind in ("python", "out", "mermaid"):
        if seen[kind] != expected[kind]:
            failures.append(
                f"{expected[kind]} {kind} blocks in the markdown, {seen[kind]} rendered"
            )
    if seen["out_unstyled"]:
        failures.append(
            f"{seen['out_unstyled']} out blocks lack the 'out' label or show a copy button "
            "(is the rune-literate MkDocs plugin in mkdocs.yml?)"
        )
    if seen["empty"]:
        failures.append(f"{seen['empty']} code or out blocks render empty")
    if seen["directive_text"]:
        failures.append("a directive comment (<!-- literate: ...) shows in the page's text")
    if seen["doctest_as_text"]:
        failures.append("a docstring's >>> example renders as text or block quotes, not code")
    roles = browser.mermaid_svgs()
    if len(roles) != expected["mermaid"]:
        failures.append(f"{expected['mermaid']} Mermaid diagrams, {len(roles)} drawn as SVG")
    if "error" in roles:
        failures.append("mermaid drew an error instead of a diagram (a syntax error?)")
    failures += browser.problems()
    failures += site_reading.check_reading(browser, base, url, markdown, learn)
    failures += site_course.check_checked_with(browser, markdown)
    if learn:
        notebook = markdown.relative_to(DOCS).with_suffix(".ipynb").name
        failures += site_course.check_notebook(f"{base}/downloads/{notebook}")
    failures += site_figures.check_figures(browser, _mermaid_drawn())
    palettes = ("light", "dark") if "#only-" in markdown.read_text(encoding="utf-8") else ("light",)
    for viewport in site_reading.VIEWPORTS:
        for palette in palettes:
            failures += site_reading.check_layout(browser, viewport, palette)
        failures += site_course.check_out_blocks(browser, viewport)
    browser.send("Emulation.setEmulatedMedia", features=[])
    site_reading.set_viewport(browser, "desktop")
    return [f"{url} ({markdown.relative_to(ROOT)}): {failure}" for failure in failures]


def check_search(browser: Browser, base: str) -> list[str]:
    browser.open(f"{base}/?q={SEARCH_TERM}")
    found = browser.wait_until(
        "document.querySelectorAll('.md-search-result__item').length > 0", PAGE_TIMEOUT
    )
    results = browser.evaluate(SEARCH_RESULTS) if found else []
    failures = [f"search: {problem}" for problem in browser.problems()]
    if not any(SEARCH_TERM in result.lower() for result in results):
        failures.append(
            f"search: ?q={SEARCH_TERM} listed no result mentioning it (results: {results[:3]})"
        )
    return failures


def serve(directory: Path) -> http.server.ThreadingHTTPServer:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def build_site() -> None:
    environment = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    command = [
        sys.executable,
        "-m",
        "mkdocs",
        "build",
        "--strict",
        "--quiet",
        "--site-dir",
        str(SITE),
    ]
    completed = subprocess.run(command, cwd=ROOT, env=environment)
    if completed.returncode:
        sys.exit(f"site_check: `{' '.join(command[1:])}` failed")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-build", action="store_true", help="check site/ as it is")
    parser.add_argument(
        "--screenshots",
        type=Path,
        default=ROOT / "site-check",
        help="where to save screenshots (default: site-check/)",
    )
    parser.add_argument(
        "--chromium",
        default=shutil.which("chromium"),
        help="the Chromium executable (default: chromium on PATH)",
    )
    options = parser.parse_args(argv)
    if not options.chromium:
        sys.exit("site_check: chromium not found (on Debian: apt-get install chromium)")
    if not options.no_build:
        build_site()
    if not (SITE / "index.html").exists():
        sys.exit(f"site_check: no built site in {SITE}; build it or drop --no-build")
    # Not the snippets mkdocs.yml excludes from the build (docs/assets/*.md).
    built = site_built.built_pages(SITE)
    pages = [page for page in sorted(DOCS.rglob("*.md")) if page_url(page) in built]
    learn = {DOCS / name for name in site_reading.learn_pages()}
    options.screenshots.mkdir(parents=True, exist_ok=True)

    server = serve(SITE)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    browser = Browser(options.chromium)
    failures: list[str] = []
    try:
        for markdown in pages:
            failures += check_page(browser, base, markdown, markdown in learn)
        failures += check_search(browser, base)
        failures += site_course.check_coming_from_search(browser, base)
        failures += site_course.check_notebook_runs(base)
        failures += site_reading.check_search_index(SITE, pages)
        failures += site_built.check_orphan_pages(SITE)
        failures += site_built.check_api_entries(SITE)
        failures += site_built.check_taught_on(SITE)
        shots = [(name, viewport, dark) for name in SCREENSHOT_PAGES
                 for viewport, dark in (("desktop", False), ("desktop", True))]
        shots += [(name, "phone", dark) for name in PHONE_SCREENSHOT_PAGES
                  for dark in (False, True)]
        for name, viewport, dark in shots:
            markdown = DOCS / f"{name}.md"
            if markdown.exists():
                browser.open(base + page_url(markdown))
                phone = "-phone" if viewport == "phone" else ""
                palette = "dark" if dark else "light"
                path = options.screenshots / f"{name.replace('/', '-')}{phone}-{palette}.png"
                browser.screenshot(path, dark=dark, viewport=viewport)
    finally:
        browser.close()
        server.shutdown()
        server.server_close()

    for failure in failures:
        print(f"site_check: {failure}")
    print(
        f"site_check: {len(pages)} pages and the search checked, "
        f"{len(failures)} problems; screenshots in {options.screenshots}"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
