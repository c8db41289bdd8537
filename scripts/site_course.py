"""What scripts/site_check.py checks of the site as a course (issue 29).

- Output that fits: no out block scrolls sideways, at 1280 px nor at 390 px
  (the rune-literate plugin wraps their lines).
- Every page with tested blocks names the rune-autodiff version its outputs
  were checked with (the plugin's `checked_with`), the installed one.
- A downloaded notebook stands alone: its first cell installs rune, and no
  link of its prose leads to a `.md` file.
- A notebook from the site runs: Getting started's, executed by nbclient in
  a Jupyter kernel of this Python (its install cell left out: rune is
  installed here, and the cell would fetch it from the network), prints
  what its out blocks hold.
- Search finds the names that "Coming from JAX, PyTorch or autograd" maps,
  on that page.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import sys
import tempfile
import urllib.request
from pathlib import Path

import site_reading

ROOT = Path(__file__).resolve().parent.parent
DISTRIBUTION = "rune-autodiff"
EXECUTED_NOTEBOOK = "downloads/getting-started.ipynb"
COMING_FROM = "/coming-from/"
# Names a reader coming from JAX, PyTorch or autograd searches for.
COMING_FROM_NAMES = ("stop_gradient", "requires_grad", "elementwise_grad", "jacrev",
                     "linear_transpose", "custom_vjp", "make_jaxpr")
_MARKDOWN_FILE_LINK = re.compile(r"\]\((?![a-z][a-z0-9+.-]*://)[^)\s]*\.md(#[^)\s]*)?\)")

# Out blocks (the plugin's class literate-out) whose text is wider than their box.
MEASURE_OUT_BLOCKS = r"""(() => {
  const content = document.querySelector("article.md-content__inner") || document.body;
  return [...content.querySelectorAll(".literate-out pre > code, .language-out pre > code")]
    .filter((code) => code.scrollWidth > code.clientWidth + 1)
    .map((code) => code.textContent.split("\n").reduce(
      (a, b) => (b.length > a.length ? b : a), "").slice(0, 60));
})()"""

CHECKED_WITH = r"""(() => {
  const line = document.querySelector("article .literate-checked-with");
  return line ? line.textContent : null;
})()"""

SEARCH_LINKS = """(() => [...document.querySelectorAll(".md-search-result__item a")]
  .map((a) => a.getAttribute("href")))()"""


def check_out_blocks(browser, viewport: str) -> list[str]:
    """No out block of the open page scrolls sideways at the viewport."""
    at = f"at {site_reading.VIEWPORTS[viewport]['width']} px"
    return [f"an out block scrolls sideways {at}: {line!r}"
            for line in browser.evaluate(MEASURE_OUT_BLOCKS)]


def tested(markdown: Path) -> bool:
    """Whether the page has a python block with an out block that runs."""
    sys.path.insert(0, str(ROOT))
    from rune.literate import read_page

    return any(block.out is not None and not block.skip
               for block in read_page(markdown).python_blocks)


def check_checked_with(browser, markdown: Path) -> list[str]:
    """A page with tested blocks names the installed rune-autodiff's version."""
    if not tested(markdown):
        return []
    line = browser.evaluate(CHECKED_WITH)
    expected = f"{DISTRIBUTION} {importlib.metadata.version(DISTRIBUTION)}"
    if line is None or expected not in line:
        return [f"the page does not say its outputs were checked with {expected} "
                f"(found: {line!r})"]
    return []


def check_notebook(link: str) -> list[str]:
    """A downloaded notebook installs rune first and links no .md file."""
    with urllib.request.urlopen(link, timeout=10) as response:
        notebook = json.loads(response.read().decode("utf-8"))
    first = notebook["cells"][0]
    source = "".join(first["source"])
    failures = []
    if first["cell_type"] != "code" or not (source.startswith("%pip install")
                                            and DISTRIBUTION in source):
        failures.append(f"download {link}: the first cell does not install {DISTRIBUTION} "
                        f"(it is {source[:60]!r})")
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            found = _MARKDOWN_FILE_LINK.search("".join(cell["source"]))
            if found:
                failures.append(f"download {link}: a link to a markdown file: {found.group()}")
                break
    return failures


def check_notebook_runs(base: str) -> list[str]:
    """Getting started's notebook, run by nbclient, prints its out blocks."""
    import nbclient
    import nbformat

    link = f"{base}/{EXECUTED_NOTEBOOK}"
    with urllib.request.urlopen(link, timeout=10) as response:
        notebook = nbformat.reads(response.read().decode("utf-8"), as_version=4)
    notebook.cells = [cell for cell in notebook.cells
                      if "install" not in cell.get("metadata", {}).get("tags", [])]
    expected = [_shown(cell) for cell in notebook.cells]
    with tempfile.TemporaryDirectory(prefix="site-check-kernel-") as kernels:
        _kernel_of_this_python(Path(kernels))
        client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="site-check",
                                         resources={"metadata": {"path": str(ROOT)}})
        try:
            client.execute()
        except Exception as error:  # nbclient raises CellExecutionError and kernel errors
            return [f"{link} does not run under nbclient: {str(error)[:300]}"]
    failures = []
    for number, (cell, wanted) in enumerate(zip(notebook.cells, expected)):
        if _shown(cell) != wanted:
            failures.append(f"{link}: cell {number} printed {_shown(cell)!r}, "
                            f"its out block holds {wanted!r}")
    return failures


def _shown(cell) -> str:
    """What a code cell's outputs show: its streams, an error's last line."""
    shown = ""
    for output in cell.get("outputs", []):
        if output["output_type"] == "stream" and output["name"] == "stdout":
            shown += "".join(output["text"])
        elif output["output_type"] == "error":
            shown += f"{output['ename']}: {output['evalue']}\n"
    return shown


def _kernel_of_this_python(directory: Path) -> None:
    """A Jupyter kernel named site-check that runs this Python (this venv's rune)."""
    spec = directory / "kernels" / "site-check"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "site-check", "language": "python"}))
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        [str(directory), os.environ.get("JUPYTER_PATH", "")])


def check_coming_from_search(browser, base: str) -> list[str]:
    """Search lists the Coming from page for each name it maps."""
    failures = []
    for name in COMING_FROM_NAMES:
        browser.open(f"{base}/?q={name}")
        browser.wait_until(
            "document.querySelectorAll('.md-search-result__item').length > 0", 30.0)
        links = browser.evaluate(SEARCH_LINKS) or []
        if not any(COMING_FROM in (link or "") for link in links):
            failures.append(f"search: ?q={name} does not list {COMING_FROM} "
                            f"(results: {links[:4]})")
    return failures
