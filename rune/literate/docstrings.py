r"""The ``>>>`` examples of a Python module's docstrings, as a page of sessions.

``check`` and ``promote`` accept ``.py`` files: each run of ``>>>`` examples in
a docstring (up to a blank line that no prompt follows, or a less indented
line) becomes a pycon session (`rune.literate.session`) whose lines are
the module's own, so the shared runner runs them and promote rewrites their
expected output in place, every other byte kept. The examples run in one
namespace holding the module's globals (as the pytest plugin's docstring
tests do), after a hidden setup step imports the module by its dotted name.
The doctest flags the project configures (``doctest_optionflags`` of
``[tool.rune-literate]``, or the older ``literate_doctest_optionflags`` of its
pytest configuration) apply to them, as under pytest.
"""

from __future__ import annotations

import ast
import configparser
import doctest
import os
import tomllib

from .parser import (
    Fence,
    Line,
    LiterateSyntaxError,
    Page,
    PythonBlock,
    SetupBlock,
    check_path,
    parse_page,
    split_lines,
)
from .session import SessionSyntaxError, is_prompt, parse_session
from .settings import SettingsError, read_table

_DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def parse_source(text: str, path: str, optionflags: int | None = None) -> Page:
    """A markdown page, or for a path ending in ``.py`` the module's docstring examples.

    ``optionflags``: a page's doctest flags for its pycon sessions; None reads
    the ones configured above ``path`` (a module's examples always read them).
    """
    if path.endswith(".py"):
        return parse_module_page(text, path)
    if optionflags is None:
        optionflags = configured_optionflags(path)
    return parse_page(text, path, optionflags)


def read_source(path, display_path: str | None = None) -> Page:
    """Read the page or module at ``path`` (UTF-8, line endings kept) and parse it,
    with the doctest flags configured above ``path``."""
    check_path("read_source", path)
    with open(path, encoding="utf-8", newline="") as file:
        text = file.read()
    return parse_source(text, display_path or str(path), configured_optionflags(str(path)))


def parse_module_page(text: str, path: str) -> Page:
    r"""The docstring examples of the module ``text`` as a `Page`.

    Raises:
      LiterateSyntaxError: the module is not valid Python, or a session sits
        in a docstring that is not a raw string and holds a backslash (its
        source lines are not what doctest reads, so promote cannot edit them).

    >>> page = parse_module_page("def f():\n    '''\n    >>> f()\n    1\n    '''\n", "m.py")
    >>> [(block.line, block.session[0].source) for block in page.python_blocks]
    [(2, 'f()\n')]
    """
    try:
        tree = ast.parse(text, path)
    except SyntaxError as error:
        raise LiterateSyntaxError(path, error.lineno or 1,
                                  f"not valid Python: {error.msg}") from None
    lines = split_lines(text)
    flags = configured_optionflags(path)
    blocks = []
    for node in ast.walk(tree):
        if isinstance(node, _DOCUMENTED) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                blocks += _sessions(lines, first.value, path, flags)
    blocks.sort(key=lambda block: block.line)
    return Page(path=path, text=text, steps=(_import_module(path), *blocks))


def configured_optionflags(path: str) -> int:
    """The doctest flags configured nearest above ``path``, as the pytest plugin
    applies them to docstring examples and to pages' pycon sessions:
    ``doctest_optionflags`` of a ``[tool.rune-literate]`` table, or
    ``literate_doctest_optionflags`` of the first of pytest.ini, .pytest.ini,
    pyproject.toml, tox.ini, setup.cfg holding a pytest section.

    Raises:
      LiterateSyntaxError: a name there is not a doctest flag, or the table is malformed.
    """
    directory = os.path.dirname(os.path.abspath(path))
    while True:
        pyproject = os.path.join(directory, "pyproject.toml")
        try:
            table = read_table(pyproject)
        except SettingsError as error:
            raise LiterateSyntaxError(pyproject, 1, str(error)) from None
        if "doctest_optionflags" in table:
            return _flags(table["doctest_optionflags"], pyproject)
        for name in ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"):
            config = os.path.join(directory, name)
            names = _pytest_setting(config, "literate_doctest_optionflags")
            if names is not None:
                return _flags(names, config)
        parent = os.path.dirname(directory)
        if parent == directory:
            return 0
        directory = parent


def _pytest_setting(config: str, key: str) -> list[str] | None:
    """A setting's names in a pytest configuration file ([] when it has a pytest
    section without it), or None when the file has no pytest section."""
    if not os.path.isfile(config):
        return None
    if config.endswith(".toml"):
        with open(config, "rb") as file:
            section = tomllib.load(file).get("tool", {}).get("pytest", {}).get("ini_options")
        if section is None:
            return None
        value = section.get(key, [])
        return value.split() if isinstance(value, str) else list(value)
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(config, encoding="utf-8")
    section_name = "tool:pytest" if config.endswith("setup.cfg") else "pytest"
    if not parser.has_section(section_name):
        return None
    return parser.get(section_name, key, fallback="").split()


def _flags(names: list[str], config: str) -> int:
    flags = 0
    for name in names:
        if name not in doctest.OPTIONFLAGS_BY_NAME:
            raise LiterateSyntaxError(config, 1, f"doctest_optionflags: unknown "
                                                 f"doctest flag {name!r}")
        flags |= doctest.OPTIONFLAGS_BY_NAME[name]
    return flags


def _sessions(lines: list[Line], literal: ast.Constant, path: str,
              flags: int) -> list[PythonBlock]:
    """The sessions in a docstring: its lines between the quotes' lines."""
    blocks = []
    index, stop = literal.lineno, literal.end_lineno - 1  # 0-based: after the opening line
    while index < stop:
        text = lines[index].text
        stripped = text.lstrip(" \t")
        if not is_prompt(stripped):
            index += 1
            continue
        indent = text[: len(text) - len(stripped)]
        end = _session_end(lines, index, stop, indent)
        blocks.append(_session_block(lines[index:end], indent, literal, lines, path, flags))
        index = end
    return blocks


def _session_end(lines: list[Line], index: int, stop: int, indent: str) -> int:
    end = index + 1
    while end < stop:
        if lines[end].text.strip():
            if not lines[end].text.startswith(indent):
                break
            end += 1
            continue
        following = end
        while following < stop and not lines[following].text.strip():
            following += 1
        text = lines[following].text if following < stop else ""
        if not (text.startswith(indent) and is_prompt(text[len(indent):])):
            break
        end = following
    return end


def _session_block(session, indent, literal, lines, path, flags) -> PythonBlock:
    body = tuple(line.text[len(indent):] if line.text.strip() else "" for line in session)
    opening = lines[literal.lineno - 1].text[literal.col_offset :]
    if any("\\" in line for line in body) and "r" not in opening[:2].lower():
        raise LiterateSyntaxError(
            path, session[0].number,
            f"this docstring holds a backslash in its examples but is not a raw string, so "
            f"its source is not the text doctest reads; make it r\"\"\"...\"\"\" (line "
            f"{literal.lineno})",
        )
    try:
        examples, _ = parse_session(body, optionflags=flags)
    except SessionSyntaxError as error:
        raise LiterateSyntaxError(path, session[0].number + error.index,
                                  f"doctest cannot read this line: it {error.reason}") from None
    first, last = session[0], session[-1]
    fence = Fence(
        line=first.number - 1, end_line=last.number + 1, info="pycon", language="pycon",
        marker="```", prefix=indent, start=first.start, body_start=first.start,
        body_end=last.end, end=last.end, eol=first.eol, body_lines=body,
    )
    return PythonBlock(fence=fence, out=None, skipped_by=None, nondeterministic=False,
                       raises=False, gap_start=last.end, session=examples)


def _import_module(path: str) -> SetupBlock:
    """A hidden step filling the namespace with the module's globals.

    The module is imported by its dotted name (its packages are the
    directories above it holding ``__init__.py``), so relative imports work.
    """
    directory, name = os.path.split(os.path.abspath(path)[: -len(".py")])
    parts = [] if name == "__init__" else [name]
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        directory, package = os.path.split(directory)
        parts.insert(0, package)
    code = (f"(__import__('sys').path.insert(0, {directory!r}) if {directory!r} not in "
            f"__import__('sys').path else None); globals().update(vars(__import__('importlib')"
            f".import_module({'.'.join(parts)!r})))")
    fence = Fence(line=0, end_line=0, info="python", language="python", marker="```", prefix="",
                  start=0, body_start=0, body_end=0, end=0, eol="\n", body_lines=(code,))
    return SetupBlock(fence=fence, line=1, skip=False)
