"""Griffe extensions for the API reference (loaded by mkdocstrings from mkdocs.yml).

`DoctestFences`: docstring `>>>` examples render as Python console code. Our
docstrings put their examples after the description, as doctest does,
not under a Google-style "Examples:" heading. Markdown would read `>>>` as
three nested block quotes, so this extension wraps each run of example lines
(from a `>>>` line to the next blank line) in a ```` ```pycon ```` fence before
mkdocstrings renders the docstring; the fence is longer than any run of
backticks the example holds (an example may print a markdown page).
Examples under an "Examples:" heading are left to the Google parser, which
handles them itself; so are fenced blocks.

`ExportsOverSubmodules`: `rune.vmap` is documented as the function, not as
the submodule rune/vmap.py that griffe keeps under that name.
"""

from __future__ import annotations

import re

import griffe

# A backtick fence's info string has no backticks (CommonMark), which tells
# "```python" from a line that starts with inline code such as "```` ``` ````".
_FENCE = re.compile(r"^\s*(?:(`{3,})[^`]*|(~{3,}).*)$")
_SECTION = re.compile(r"^(\s*)Examples?:\s*$")


def fence_doctests(text: str) -> str:
    """`text` with each run of `>>>` example lines wrapped in a pycon fence.

    Example lines run from a `>>>` line to the next blank line; the fence
    takes their indentation.
    """
    lines = text.split("\n")
    out: list[str] = []
    fence = None  # the open fence's marker, while inside a fenced block
    section_indent = None  # the indentation of an open "Examples:" heading
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if section_indent is not None and stripped and indent <= section_indent:
            section_indent = None
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
        elif (opening := _FENCE.match(line)) is not None:
            fence = opening.group(1) or opening.group(2)
        elif (heading := _SECTION.match(line)) is not None:
            section_indent = len(heading.group(1))
        elif stripped.startswith(">>>") and section_indent is None:
            end = i
            while end < len(lines) and lines[end].strip():
                end += 1
            if out and out[-1].strip():
                out.append("")
            margin = line[:indent]
            marker = _fence_around(lines[i:end])
            out += [margin + marker + "pycon", *lines[i:end], margin + marker]
            i = end
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


def _fence_around(lines: list[str]) -> str:
    """A backtick fence longer than any the example prints: an output line
    of three backticks would otherwise close the fence and split the example."""
    inner = [len(run) for line in lines for run in re.findall(r"`{3,}", line)]
    return "`" * max([3, *(length + 1 for length in inner)])


class DoctestFences(griffe.Extension):
    """Fences the `>>>` examples of every docstring (see the module's docstring)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)


class ExportsOverSubmodules(griffe.Extension):
    """`rune.vmap` is the function, as Python sees it, not the submodule rune/vmap.py.

    `from .vmap import vmap` in a package's `__init__.py` rebinds the name to
    the function, but griffe's static analysis keeps the submodule under that
    name (a known limitation), so the function would vanish from the API
    reference. For each exported name that a submodule shadows, this puts the
    submodule's object of that name in its place; aliases that pointed into
    the submodule are first bound to their targets, so they still resolve.
    """

    def on_package(self, *, pkg: griffe.Module, **kwargs) -> None:
        for name in [str(export) for export in pkg.exports or ()]:
            submodule = pkg.members.get(name)
            if submodule is None or submodule.is_alias or not submodule.is_module:
                continue
            if name not in submodule.members:
                continue
            prefix = submodule.path + "."
            for member in pkg.members.values():
                if member.is_alias and member.target_path.startswith(prefix):
                    member.target = submodule.get_member(member.target_path[len(prefix) :])
            shadowing = submodule.members[name]
            pkg.members[name] = shadowing
            shadowing.parent = pkg
