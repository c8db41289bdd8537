"""The ``rune-literate`` MkDocs plugin: literate pages on a Material for MkDocs site.

In ``mkdocs.yml``::

    plugins:
      - search
      - rune-literate:
          check: true   # optional: fail the build when an out block is stale

It gives out blocks their own look (an "out" label, a tint, no copy button,
in the light and the dark palette) by adding its stylesheet to the site and
making ``pymdownx.highlight`` mark every code block with its language
(``language-out``); it removes ``<!-- literate: ... -->`` directive comments
from the rendered pages, where an indented one (in a list, an admonition or
a tab) would otherwise open a stray paragraph; and with ``check: true`` it
runs every page as ``promote --check`` does (the directory of ``mkdocs.yml``
importable, as the current directory is for ``python -m rune.literate``) and
fails the build, naming each stale page with its diff.

Only MkDocs imports this module (through the ``mkdocs.plugins`` entry point).
"""

from __future__ import annotations

import os
import re
import sys
from importlib.resources import files

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File

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


class LiteratePluginConfig(Config):
    check = config_options.Type(bool, default=False)


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
        return markdown

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
        return _DIRECTIVE.sub("", _WRAPPED_DIRECTIVE.sub(r"\1", html))

    def on_env(self, env, config, files):
        if self.stale:
            raise PluginError(
                f"rune-literate: {len(self.stale)} page(s) have stale out blocks or failing "
                "blocks; run `python -m rune.literate promote` and read the diff:\n\n"
                + "\n\n".join(self.stale)
            )
        return env
