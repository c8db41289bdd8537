"""A page as a Jupyter notebook or a Python script, so readers can run what they read.

    python -m rune.literate export page.md --to ipynb    # page.ipynb beside it
    python -m rune.literate export page.md --to py -o -  # the script on stdout

Both come from the same blocks the tests run, in page order:

- prose becomes markdown cells (in the script, `# %% [markdown]` comment
  cells, the "percent" format that Jupytext, VS Code and Spyder read), with
  the `<!-- literate: ... -->` directives taken out;
- a python block becomes a code cell; its out block becomes the cell's output
  (a stream; for a block marked `raises`, the exception's last line becomes an
  error output, and the cell is tagged `raises-exception` so that "run all"
  goes on). In the script the out block follows as a comment, and a block
  that raises runs inside `try`, printing that line, so the script prints
  what the out blocks hold;
- the page's preludes (`rune.literate.prelude`) come first, a code cell
  tagged `prelude` each (in the script, run with their printing discarded);
- a setup block (invisible on the page) becomes a code cell tagged `setup`
  (in the script, run with its printing discarded, as the page does);
- a pycon session runs too, each example a cell of its own (in the script,
  an expression's value is shown as the interpreter shows it, and the
  expected output follows as a comment), so the blocks after it find the
  names it defines; a shell session is shown, not run;
- a skipped block is shown, not run: a markdown code fence, a comment; a
  block skipped only when a condition holds (`skip if`) is a code cell whose
  first line says when the page skips it (in the script, it runs under
  `if not (condition):`);
- a `clear` directive empties the namespace (`%reset -f`; in the script, a
  loop deleting the page's names), then runs the preludes again (the page's
  `clear` keeps what they define).

A page published on a site can be exported to stand alone, away from the
site and its repository ([`Standalone`][rune.literate.export.Standalone]):
an install cell comes first, links to other pages lead to the site rather
than to `.md` files, and a Mermaid diagram, which a notebook may not draw,
becomes a link to the picture on the site.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .parser import (
    ClearNamespace,
    LiterateSyntaxError,
    Page,
    Prelude,
    PythonBlock,
    SetupBlock,
    TeardownBlock,
    read_page,
)
from .prelude import with_preludes
from .session import SHELL_LANGUAGES

FORMATS = ("ipynb", "py")
_DIRECTIVE = re.compile(r"[ \t]*<!--\s*literate\s*:.*?-->[ \t]*\n?", re.DOTALL)
_CLEAR_SCRIPT = (
    "# The page starts a fresh namespace here.\n"
    "for _name in [name for name in globals() if not name.startswith('__')]:\n"
    "    del globals()[_name]\n"
)
_PERCENT_CELL = "# %%"
# A markdown link or image to a page of the site: [text](other.md#part).
_PAGE_LINK = re.compile(r"(?P<head>!?\[[^\]]*\]\()(?P<target>(?![a-z][a-z0-9+.-]*:|/|#)"
                        r"[^)\s#]+\.md)(?P<fragment>#[^)\s]*)?\)")
_FENCE_LINE = re.compile(r"[ \t>]*(`{3,}|~{3,})(.*)")
_MERMAID_FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})[ \t]*mermaid[ \t]*\n.*?^(?P=fence)[ \t]*$",
                            re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Standalone:
    """What a page published on a site needs to be read and run away from it.

    Attributes:
      site_url: the address of the site's root, such as
        `"https://example.org/project/"`; a link to `other.md#part` becomes
        `site_url + "other/#part"` (MkDocs' directory URLs), and a Mermaid
        diagram a link to the page where it is drawn.
      page_uri: the page's path under the docs directory (`"guide/intro.md"`),
        which links are relative to.
      install: the shell command that installs what the page imports (a
        notebook runs it first as `%pip install ...`; a script says it in a
        comment), or None.

    >>> standalone = Standalone("https://example.org/p/", "guide/intro.md")
    >>> standalone.url("../index.md", "#install")
    'https://example.org/p/#install'
    """

    site_url: str
    page_uri: str
    install: str | None = None

    def url(self, target: str, fragment: str = "") -> str:
        """The site's address of a page, by its path relative to this page."""
        path = PurePosixPath(os.path.normpath(PurePosixPath(self.page_uri).parent / target))
        page = path.with_suffix("")
        directory = page.parent if page.name == "index" else page
        relative = "" if str(directory) in (".", "") else f"{directory.as_posix()}/"
        return f"{self.site_url.rstrip('/')}/{relative}{fragment}"


def export_page(page: Page, to: str, standalone: Standalone | None = None) -> str:
    """The text of `page` as a notebook (`to="ipynb"`) or a script (`to="py"`).

    Args:
      page: a parsed page (from [`read_page`][rune.literate.read_page]).
      to: `"ipynb"` or `"py"`.
      standalone: where the page is published and how to install what it
        needs, for an export that stands alone; None exports the page as it is.

    Raises:
      ValueError: `to` is neither.

    >>> from rune.literate import parse_page
    >>> page = parse_page("# Sum\\n\\n```python\\nprint(1 + 1)\\n```\\n\\n```out\\n2\\n```\\n")
    >>> print(export_page(page, "py").replace("\\n\\n", "\\n"), end="")
    # %% [markdown]
    # # Sum
    # %%
    print(1 + 1)
    # out:
    # 2
    """
    if to == "ipynb":
        return json.dumps(notebook(page, standalone), indent=1, ensure_ascii=False) + "\n"
    if to == "py":
        return script(page, standalone)
    raise ValueError(f"export: to must be one of {', '.join(FORMATS)}, got {to!r}")


def pieces(page: Page) -> list[tuple[str, object]]:
    """The page in order: ("prose", text) between the steps, ("step", step)."""
    lines = page.text.splitlines(keepends=True)
    line_start = [0]
    for line in lines:
        line_start.append(line_start[-1] + len(line))
    found, cursor = [], 0
    for step in page.steps:
        start, end = _span(page.text, line_start, step)
        found.append(("prose", page.text[cursor:start]))
        found.append(("step", step))
        if isinstance(step, PythonBlock) and step.out is not None:
            # A caption or an annotation list between the block and its out block.
            found.append(("prose", page.text[step.fence.end:step.out.start]))
        cursor = end
    found.append(("prose", page.text[cursor:]))
    return [(kind, value) for kind, value in found if kind == "step" or _prose(value)]


def _span(text: str, line_start: list[int], step) -> tuple[int, int]:
    """Where a step starts and ends in the page's text (its out block included)."""
    if isinstance(step, PythonBlock):
        return step.fence.start, (step.out or step.fence).end
    start = line_start[step.line - 1]
    if isinstance(step, (SetupBlock, TeardownBlock)):
        return start, text.index("-->", step.fence.end) + len("-->")
    return start, start  # a clear directive: its comment goes with the prose


def _prose(text: str, standalone: Standalone | None = None, page_text: str = "") -> str:
    text = _DIRECTIVE.sub("", text).strip("\n")
    return text if standalone is None else _away_from_the_site(text, standalone, page_text)


def _away_from_the_site(text: str, standalone: Standalone, page_text: str) -> str:
    """Prose whose page links and diagrams lead to the site."""
    text = _PAGE_LINK.sub(
        lambda link: f"{link['head']}{standalone.url(link['target'], link['fragment'] or '')})",
        text)
    return _MERMAID_FENCE.sub(
        lambda fence: _diagram_link(page_text, page_text.find(fence.group()), standalone), text)


def _diagram_link(page_text: str, at: int, standalone: Standalone) -> str:
    """A link to where the site draws the diagram at offset `at` of the page: its section."""
    section = _section_at(page_text, at)
    url = standalone.url(PurePosixPath(standalone.page_uri).name, f"#{section}" if section else "")
    return f"*A diagram: [see it drawn on the site]({url}).*"


def _section_at(page_text: str, at: int) -> str | None:
    """The anchor of the last heading (## or deeper) before offset `at`, outside fences."""
    section, fence, offset = None, None, 0
    for line in page_text.splitlines(keepends=True):
        if offset >= at:
            break
        offset += len(line)
        marker = _FENCE_LINE.match(line)
        if marker and marker[1][0] == "`" and "`" in marker[2]:
            marker = None  # inline code at the start of a line, not a fence
        if fence is not None:
            closes = marker and marker[1][0] == fence[0] and len(marker[1]) >= len(fence)
            fence = None if closes and not marker[2].strip() else fence
        elif marker:
            fence = marker[1]
        elif re.match(r"#{2,6}[ \t]", line):
            section = _slug(line.lstrip("#").strip().rstrip("#").strip())
    return section


def _slug(heading: str) -> str:
    """A heading's anchor as Python-Markdown's toc extension makes it."""
    words = re.sub(r"[^\w\s-]", "", heading).strip().lower()
    return re.sub(r"[-\s]+", "-", words)


def _out_parts(block: PythonBlock) -> tuple[str, str | None]:
    """What the block prints, and for a `raises` block the exception's line."""
    body = block.out.body if block.out is not None else ""
    if not block.raises:
        return body, None
    printed, _, error = body.rpartition("\n")
    return printed, error


def notebook(page: Page, standalone: Standalone | None = None) -> dict:
    """The page as an nbformat 4 notebook (a JSON-ready dict)."""
    preludes = [_code_cell(_prelude_note(prelude) + prelude.code, tags=["prelude"])
                for prelude in page.preludes]
    cells = []
    if standalone is not None and standalone.install:
        cells.append(_code_cell(f"%{standalone.install}", tags=["install"]))
    cells += preludes
    for kind, value in pieces(page):
        if kind == "prose":
            cells.append(_markdown_cell(_prose(value, standalone, page.text)))
        elif isinstance(value, ClearNamespace):  # the page keeps what its preludes define
            cells += [_code_cell("%reset -f", tags=["clear"]), *preludes]
        elif isinstance(value, (SetupBlock, TeardownBlock)):
            tag = "setup" if isinstance(value, SetupBlock) else "teardown"
            cells.append(_code_cell(value.fence.code, tags=[tag]))
        elif value.session is not None and value.fence.language in SHELL_LANGUAGES:
            # Shell commands do not run in a notebook's kernel: shown as they are.
            cells.append(_markdown_cell(f"```{value.fence.language}\n{value.fence.code}```"))
        elif value.session is not None:
            cells += [_example_cell(example) for example in value.session]
        elif value.skip and value.skip_condition is None:
            cells.append(_markdown_cell(f"```python\n{value.fence.code}```"))
        else:
            cells.append(_block_cell(value))
            if standalone is not None and _draws_a_diagram(value):
                cells.append(_markdown_cell(_diagram_link(page.text, value.fence.start,
                                                          standalone)))
    for number, cell in enumerate(cells):
        cell["id"] = f"cell-{number}"  # nbformat 4.5 wants an id on each cell
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _draws_a_diagram(block: PythonBlock) -> bool:
    """Whether the block's out block is a diagram the site draws (Mermaid, or an svg picture)."""
    return block.out is not None and block.out.language in ("mermaid", "svg")


def _block_cell(block: PythonBlock) -> dict:
    printed, error = _out_parts(block)
    outputs = []
    if printed:
        outputs.append({"output_type": "stream", "name": "stdout",
                        "text": _source_lines(printed + "\n")})
    if error is not None:
        name, _, message = error.partition(": ")
        outputs.append({"output_type": "error", "ename": name, "evalue": message,
                        "traceback": [error]})
    code = block.fence.code
    if block.skip_condition is not None:
        code = f"{_skip_comment(block)}\n{code}"
    return _code_cell(code, outputs=outputs,
                      tags=["raises-exception"] if block.raises else [])


def _example_cell(example) -> dict:
    """A cell of one ``>>>`` example: its code, and its expected output as the
    cell's output (a notebook shows an expression's value as the session does)."""
    if example.skipped:
        return _markdown_cell(f"```python\n{example.source}```")
    outputs = []
    if example.want_lines:
        outputs.append({"output_type": "stream", "name": "stdout",
                        "text": _source_lines(example.want + "\n")})
    return _code_cell(example.source, outputs=outputs,
                      tags=["raises-exception"] if example.expects_exception else [])


def _skip_comment(block: PythonBlock) -> str:
    """What a `skip if` directive says, as a comment."""
    because = f" ({block.skip_reason})" if block.skip_reason else ""
    return f"# The page skips this block if {block.skip_condition}{because}."


def _markdown_cell(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": _source_lines(text)}


def _code_cell(code: str, outputs: list | None = None, tags: list[str] = ()) -> dict:
    return {"cell_type": "code", "execution_count": None,
            "metadata": {"tags": list(tags)} if tags else {},
            "outputs": outputs or [], "source": _source_lines(code.rstrip("\n"))}


def _source_lines(text: str) -> list[str]:
    """Notebook text as a list of lines, each keeping its newline."""
    return text.splitlines(keepends=True)


def script(page: Page, standalone: Standalone | None = None) -> str:
    """The page as a Python script in the percent format."""
    preludes = [f"{_PERCENT_CELL}\n{_script_prelude(prelude)}" for prelude in page.preludes]
    cells = []
    if standalone is not None and standalone.install:
        cells.append(f"# Needs: {standalone.install}\n")
    cells += preludes
    for kind, value in pieces(page):
        if kind == "prose":
            cells.append(f"{_PERCENT_CELL} [markdown]\n"
                         + _comment(_prose(value, standalone, page.text)))
        elif isinstance(value, ClearNamespace):  # the page keeps what its preludes define
            cells += [f"{_PERCENT_CELL}\n{_CLEAR_SCRIPT}", *preludes]
        elif isinstance(value, (SetupBlock, TeardownBlock)):
            cells.append(f"{_PERCENT_CELL}\n{_script_setup(value)}")
        elif value.session is not None and value.fence.language in SHELL_LANGUAGES:
            cells.append(f"{_PERCENT_CELL}\n# A {value.kind}, not run here:\n"
                         + _comment(value.fence.code))
        elif value.session is not None:
            cells.append(f"{_PERCENT_CELL}\n{_script_session(value)}")
        elif value.skip and value.skip_condition is None:
            cells.append(f"{_PERCENT_CELL}\n# Not run (the page skips it):\n"
                         + _comment(value.fence.code))
        else:
            cells.append(f"{_PERCENT_CELL}\n{_script_block(value)}")
    return "\n".join(cells)


def _prelude_note(prelude: Prelude) -> str:
    return (f"# The prelude {prelude.path}, which runs before the page "
            f"(rune.literate.prelude).\n")


def _script_prelude(prelude: Prelude) -> str:
    return _prelude_note(prelude) + _quietly("# What it prints is not shown.\n", prelude.code)


def _script_setup(setup: SetupBlock) -> str:
    return _quietly("# Setup, not shown on the page; what it prints is not shown either.\n",
                    setup.fence.code)


def _quietly(note: str, code: str) -> str:
    """``code`` run with what it prints discarded, as the page runs it."""
    return (note + "import contextlib\nimport io\n\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n" + textwrap.indent(code, "    "))


def _script_block(block: PythonBlock) -> str:
    code = block.fence.code
    if block.raises:
        code = _catching(code, "the page shows this block raising")
    if block.skip_condition is not None:
        code = (f"{_skip_comment(block)}\nif not ({block.skip_condition}):\n"
                + textwrap.indent(code, "    "))
    if block.out is None:
        return code
    return code + "# out:\n" + _comment(block.out.body)


def _script_session(block: PythonBlock) -> str:
    """A pycon session as script lines: each example runs (the names it defines
    are there for the blocks below, as on the page), an expression's value is
    shown as the interpreter shows it, and its expected output follows as a
    comment."""
    parts = ["# A pycon session: each example, then what it shows.\n"]
    for example in block.session:
        if example.skipped:
            parts.append("# Not run (doctest: +SKIP):\n" + _comment(example.source.rstrip("\n")))
            continue
        code = _shown(example.source)
        if example.expects_exception:
            code = _catching(code, "the session shows this example raising")
        parts.append(code + ("# out:\n" + _comment(example.want) if example.want_lines else ""))
    return "".join(parts)


def _shown(source: str) -> str:
    """An example's code, an expression's value displayed as the interpreter
    displays it (sys.displayhook: its repr, nothing for None)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    if len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr) and not _is_print(
            tree.body[0].value):
        expression = ast.get_source_segment(source, tree.body[0].value)
        return f"__import__('sys').displayhook({expression})\n"
    return source


def _is_print(expression: ast.expr) -> bool:
    """A call of print, whose value (None) the interpreter does not show."""
    return (isinstance(expression, ast.Call) and isinstance(expression.func, ast.Name)
            and expression.func.id == "print")


def _catching(code: str, why: str) -> str:
    """``code`` run inside ``try``, printing the exception's last line as a page shows it."""
    return ("import traceback\n\ntry:\n" + textwrap.indent(code, "    ")
            + f"except Exception as error:  # {why}\n"
            + "    print(''.join(traceback.format_exception_only(error)), end='')\n")


def _comment(text: str) -> str:
    return "".join(f"# {line}".rstrip() + "\n" for line in text.split("\n"))


def add_command(commands) -> None:
    """Add `export` to the command line's subcommands."""
    export = commands.add_parser("export", help="write a page as a notebook or a script")
    export.add_argument("page", help="the markdown page")
    export.add_argument("--to", choices=FORMATS, required=True, help="the format")
    export.add_argument("-o", "--output",
                        help="where to write it (default: beside the page; - for stdout)")
    export.add_argument("--force", action="store_true",
                        help="write over the output file if it exists (never over the page)")


def run_export(arguments: argparse.Namespace) -> int:
    """Export one page as the command line asked; return the exit status."""
    try:
        page = with_preludes(read_page(arguments.page), arguments.page)
    except (LiterateSyntaxError, OSError, UnicodeDecodeError) as error:
        print(f"export: cannot read {arguments.page}: {error}", file=sys.stderr)
        return 1
    text = export_page(page, arguments.to)
    if arguments.output == "-":
        sys.stdout.write(text)
        return 0
    output = Path(arguments.output or Path(arguments.page).with_suffix(f".{arguments.to}"))
    refused = _refuse_output(Path(arguments.page), output, arguments.force)
    if refused:
        print(f"export: {refused}; nothing written", file=sys.stderr)
        return 1
    try:
        # Exclusive creation unless --force: a file that appears meanwhile is kept too.
        with open(output, "w" if arguments.force else "x", encoding="utf-8") as file:
            file.write(text)
    except OSError as error:
        print(f"export: cannot write {output}: {error}", file=sys.stderr)
        return 1
    print(f"export: wrote {output}")
    return 0


def _refuse_output(page: Path, output: Path, force: bool) -> str | None:
    """Why export must not write ``output``, or None.

    Never the page itself (``export mod.py --to py`` once replaced the module
    with its export), by any name or link; an existing file only with --force.
    """
    if not output.exists():
        return None
    if os.path.samefile(page, output):
        return f"{output} is the page being exported; choose another output (-o)"
    if not force:
        return f"{output} exists; pass --force to write over it, or choose another output (-o)"
    return None
