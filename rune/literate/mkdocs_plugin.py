"""The ``rune-literate`` MkDocs plugin: literate pages on a Material for MkDocs site.

In ``mkdocs.yml``::

    plugins:
      - search
      - rune-literate:
          check: true   # optional: fail the build when an out block is stale
          checked_with: [rune-autodiff, numpy]   # optional: say which versions
          wrap: true    # the default: long output lines wrap

It gives out blocks their own look (an "out" label, a tint, no copy button,
in the light and the dark palette) by adding its stylesheet to the site,
making ``pymdownx.highlight`` mark every code block with its language
(``language-out``) and giving each out block the class ``literate-out``
(and ``literate-wrap`` unless ``wrap: false``: its lines wrap at the column's
edge rather than scroll sideways, on a phone too). An out block written in a
code language (``<!-- literate: out -->`` before a ```` ```python ```` fence,
for a block that prints source code) is highlighted in that language, with
the out block's label and tint. With ``checked_with``, each page that has
tested blocks ends with a line naming the versions of those distributions
its outputs were checked with (those installed where the site is built). It
removes ``<!-- literate: ... -->`` directive comments
from the rendered pages, where an indented one (in a list, an admonition or
a tab) would otherwise open a stray paragraph; and with ``check: true`` it
runs every page as ``promote --check`` does (the directory of ``mkdocs.yml``
importable, as the current directory is for ``python -m rune.literate``) and
fails the build, naming each stale page with its diff.

Only MkDocs imports this module (through the ``mkdocs.plugins`` entry point).
"""

from __future__ import annotations

import html
import importlib.metadata
import os
import re
import sys
from importlib.resources import files

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File

from .parser import LiterateSyntaxError, parse_page
from .pictures import add_svg_fence
from .promote import promote_page

STYLESHEET = "assets/rune-literate/literate.css"
# An out block's language: pygments has no such lexer, so it is highlighted as text.
OUT_LEXER = {"name": "out", "lang": "text"}

# A directive comment as Python-Markdown passes it through. Code blocks escape
# "<!--", so a comment shown inside one is never matched. An indented directive
# right before a fence lands in a paragraph with the code block: unwrap it.
_WRAPPED_DIRECTIVE = re.compile(r"<p><!--\s*literate\s*:.*?-->\s*(<div\b.*?</div>)\s*</p>", re.S)
_DIRECTIVE = re.compile(r"[ \t]*<!--\s*literate\s*:.*?-->[ \t]*\n?", re.S)


OUT_CLASS = "literate-out"
WRAP_CLASS = "literate-wrap"
CHECKED_CLASS = "literate-checked-with"


class LiteratePluginConfig(Config):
    check = config_options.Type(bool, default=False)
    checked_with = config_options.ListOfItems(config_options.Type(str), default=[])
    wrap = config_options.Type(bool, default=True)


class LiteratePlugin(BasePlugin[LiteratePluginConfig]):
    """Out blocks styled apart from code, directives hidden, stale pages fail the build."""

    def on_config(self, config):
        config.extra_css.insert(0, STYLESHEET)
        extensions = config.markdown_extensions
        if "pymdownx.highlight" not in extensions and "pymdownx.superfences" in extensions:
            extensions.append("pymdownx.highlight")  # superfences highlights through it
        if "pymdownx.highlight" in extensions:
            highlight = config.mdx_configs.setdefault("pymdownx.highlight", {})
            highlight["pygments_lang_class"] = True
            lexers = highlight.setdefault("extend_pygments_lang", [])
            if not any(lexer.get("name") == OUT_LEXER["name"] for lexer in lexers):
                lexers.append(dict(OUT_LEXER))
        add_svg_fence(config)  # ```svg out blocks show as pictures
        self.stale: list[str] = []
        if self.config.check:
            # Pages import the project as under `python -m rune.literate check`,
            # run from the directory of mkdocs.yml.
            project = os.path.dirname(os.path.abspath(config.config_file_path or "mkdocs.yml"))
            if project not in sys.path:
                sys.path.insert(0, project)
        return config

    def on_files(self, files_, config):
        css = files("rune.literate").joinpath("literate.css").read_text(encoding="utf-8")
        files_.append(File.generated(config, STYLESHEET, content=css))
        return files_

    def on_page_markdown(self, markdown, page, config, files):
        if self.config.check and page.file.abs_src_path:
            self.check_page(page.file.abs_src_path, config)
        try:
            parsed = parse_page(markdown, page.file.src_uri)
        except LiterateSyntaxError:
            return markdown  # not a literate page: `check` reports it, the site shows it
        page.meta["literate_tested"] = any(
            block.out is not None and not block.skip for block in parsed.python_blocks)
        return self.mark_out_blocks(markdown, parsed, config)

    def mark_out_blocks(self, markdown: str, parsed, config) -> str:
        """Give each out fence the plugin's classes (pymdownx's ``{.lang .class}``
        form), except fences drawn as pictures (superfences' custom fences: mermaid)."""
        drawn = {fence.get("name") for fence in
                 config.mdx_configs.get("pymdownx.superfences", {}).get("custom_fences", [])}
        classes = f".{OUT_CLASS}" + (f" .{WRAP_CLASS}" if self.config.wrap else "")
        edits = []
        for block in parsed.python_blocks:
            out = block.out
            if out is None or out.language in drawn or not out.language:
                continue
            opening = markdown.index(out.marker, out.start) + len(out.marker)
            line_end = markdown.index("\n", opening)
            edits.append((opening, line_end, f"{{.{out.language} {classes}}}"))
        for start, end, info in reversed(edits):
            markdown = markdown[:start] + info + markdown[end:].lstrip(" ")
        return markdown

    def checked_with(self) -> str:
        """The line naming the versions the outputs were checked with."""
        versions = []
        for name in self.config.checked_with:
            try:
                versions.append(f"{name} {importlib.metadata.version(name)}")
            except importlib.metadata.PackageNotFoundError as error:
                raise PluginError(f"rune-literate: checked_with names {name!r}, which is not "
                                  "installed (give distribution names, as pip shows them)"
                                  ) from error
        return (f'<p class="{CHECKED_CLASS}">The outputs on this page were checked with '
                f"{html.escape(', '.join(versions))}.</p>")

    def check_page(self, path: str, config) -> None:
        """Run the page; remember why it is stale, if it is."""
        name = os.path.relpath(path, os.path.dirname(config.config_file_path or path))
        promoted = promote_page(path, name.replace(os.sep, "/"))
        reports = [promoted.error] if promoted.error else []
        reports += [result.report() for result in promoted.failures]
        if not reports and promoted.changed:
            reports.append(promoted.diff())
        if reports:
            self.stale.append("\n".join(reports))

    def on_page_content(self, html, page, config, files):
        html = _DIRECTIVE.sub("", _WRAPPED_DIRECTIVE.sub(r"\1", html))
        if self.config.checked_with and page.meta.get("literate_tested"):
            html += "\n" + self.checked_with()
        return html

    def on_env(self, env, config, files):
        if self.stale:
            raise PluginError(
                f"rune-literate: {len(self.stale)} page(s) have stale out blocks or failing "
                "blocks; run `python -m rune.literate promote` and read the diff:\n\n"
                + "\n\n".join(self.stale)
            )
        return env
