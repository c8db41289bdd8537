"""``python -m rune.literate migrate --from TOOL PATHS``: other tools' pages into rune's.

Each tool has one small function that turns a page written for that tool
into a page rune runs the same way: its skip comments become ``<!-- literate:
... -->`` directives, its output conventions become out blocks. Every line a
converter does not convert is kept byte for byte (line endings included); new
lines take the line ending of the line they are written beside.

A convention with no rune equivalent is an error naming its line, never
dropped silently: the page is then left as it was.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass

from .paths import find_pages
from .scanner import is_output_caption

PYTHON_INFO = {"python", "py", "python3", "py3"}
FENCE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<marker>`{3,}|~{3,})(?P<info>[^\n\r]*?)(?P<eol>\r?\n|\r|)$")


class MigrationError(Exception):
    """A convention of the page that cannot be converted, with its 1-based line."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass
class Fence:
    """A fenced block: lines ``start`` (the opening fence) to ``end`` (the closing one)."""

    start: int
    end: int
    indent: str
    marker: str
    info: str
    eol: str

    @property
    def language(self) -> str:
        words = self.info.strip().strip("{}").split()
        return words[0].lstrip(".") if words else ""


def find_fences(lines: list[str]) -> list[Fence]:
    """The page's fenced blocks, outermost only (a longer fence may hold shorter ones)."""
    fences, index = [], 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening or (opening["marker"][0] == "`" and "`" in opening["info"]):
            index += 1
            continue
        marker = opening["marker"]
        end = index + 1
        while end < len(lines):
            closing = FENCE.match(lines[end])
            if (closing and closing["marker"][0] == marker[0]
                    and len(closing["marker"]) >= len(marker) and not closing["info"].strip()):
                break
            end += 1
        if end == len(lines):
            raise MigrationError(index + 1, f"the fence {marker} opened here is never closed")
        fences.append(Fence(index, end, opening["indent"], marker, opening["info"],
                            opening["eol"] or "\n"))
        index = end + 1
    return fences


def line_ending(line: str) -> str:
    stripped = line.rstrip("\r\n")
    return line[len(stripped):] or "\n"


def directive(indent: str, text: str, eol: str) -> str:
    return f"{indent}<!-- literate: {text} -->{eol}"


def apply_edits(lines: list[str], edits: list[tuple[int, int, list[str]]]) -> list[str]:
    """Replace ``lines[start:end]`` by each edit's lines (edits may not overlap)."""
    result = list(lines)
    for start, end, replacement in sorted(edits, key=lambda edit: edit[0], reverse=True):
        result[start:end] = replacement
    return result


def inside_fence(fences: list[Fence], index: int) -> bool:
    return any(fence.start <= index <= fence.end for fence in fences)


# --- mktestdocs -------------------------------------------------------------------------


def from_mktestdocs(lines: list[str]) -> list[str]:
    """mktestdocs runs ```python blocks and checks nothing they print: rune's format already.

    A block that prints has no out block yet; ``promote`` writes it.
    """
    find_fences(lines)  # an unclosed fence is still an error
    return lines


# --- pytest-markdown-docs ---------------------------------------------------------------

PMD_DROPPED = {"continuation"}  # rune's blocks always share the page namespace


def from_pytest_markdown_docs(lines: list[str]) -> list[str]:
    """Fence options: ``notest`` becomes a skip directive, ``continuation`` goes."""
    edits = []
    for fence in find_fences(lines):
        words = fence.info.strip().strip("{}").split()
        if not words or words[0].lstrip(".") not in PYTHON_INFO:
            continue
        options = words[1:]
        for option in options:
            if option.startswith(("fixture:", "runner:", "retry:")):
                raise MigrationError(
                    fence.start + 1,
                    f"the fence option {option!r} has no rune equivalent (rune passes no pytest "
                    f"fixtures and retries nothing): make what the block needs in a "
                    f"<!-- literate: setup --> block or, for every page of a directory, "
                    f"its literate_prelude.py; remove the option, and migrate again")
        kept = [option for option in options if option not in PMD_DROPPED | {"notest"}]
        if kept == options:
            continue
        info = _rewrite_info(fence.info, words[0], kept)
        replacement = [f"{fence.indent}{fence.marker}{info}{line_ending(lines[fence.start])}"]
        if "notest" in options:
            replacement.insert(0, directive(fence.indent, "skip", fence.eol))
        edits.append((fence.start, fence.start + 1, replacement))
    return apply_edits(lines, edits)


def _rewrite_info(info: str, language: str, options: list[str]) -> str:
    """The info string with only ``options`` after the language, braces kept if it had them."""
    text = " ".join([language, *options])
    return "{" + text + "}" if info.strip().startswith("{") else text


# --- Sybil (markdown and MyST) ----------------------------------------------------------

HTML_DIRECTIVE = re.compile(
    r"^(?P<indent>[ \t]*)<!--+\s*(?P<name>skip|clear-namespace|invisible-code-block)"
    r"(?::\s*(?P<arguments>.*?))?\s*(?P<close>--+>)?\s*$")
PERCENT_DIRECTIVE = re.compile(
    r"^(?P<indent>[ \t]*)%\s*(?P<name>skip|clear-namespace|invisible-code-block)"
    r"(?::\s*(?P<arguments>.*?))?\s*$")


def from_sybil(lines: list[str]) -> list[str]:
    """Sybil's markdown and MyST comments: ``skip``, ``clear-namespace``,
    ``invisible-code-block: python``; a python block of ``>>>`` lines is a session."""
    fences = find_fences(lines)
    edits = []
    index = 0
    while index < len(lines):
        if inside_fence(fences, index):
            index += 1
            continue
        match = (HTML_DIRECTIVE.match(lines[index].rstrip("\r\n"))
                 or PERCENT_DIRECTIVE.match(lines[index].rstrip("\r\n")))
        if not match:
            index += 1
            continue
        end, replacement = _sybil_directive(lines, index, match)
        edits.append((index, end, replacement))
        index = end
    for fence in fences:
        code_block = _myst_code_block(lines, fence)
        if code_block:
            edits.append((fence.start, fence.start + 1, code_block))
            fence = Fence(fence.start, fence.end, fence.indent, fence.marker, "python", fence.eol)
        if fence.language in PYTHON_INFO and _is_session(lines[fence.start + 1:fence.end]):
            info = fence.info.replace(fence.language, "pycon", 1)
            edits = [edit for edit in edits if edit[0] != fence.start]
            edits.append((fence.start, fence.start + 1,
                          [f"{fence.indent}{fence.marker}{info}{line_ending(lines[fence.start])}"]))
    return apply_edits(lines, edits)


def _is_session(body: list[str]) -> bool:
    """Sybil reads a python block whose first code line is a ``>>>`` prompt as doctest."""
    code = [line.strip() for line in body if line.strip()]
    return bool(code) and code[0].startswith(">>>")


def _sybil_directive(lines: list[str], index: int, match: re.Match) -> tuple[int, list[str]]:
    """(the line after the directive, its rune replacement)."""
    indent, name, eol = match["indent"], match["name"], line_ending(lines[index])
    arguments = (match["arguments"] or "").strip()
    percent = lines[index].lstrip().startswith("%")
    if name == "clear-namespace":
        return index + 1, [directive(indent, "clear", eol)]
    if name == "skip":
        return index + 1, [directive(indent, _sybil_skip(arguments, index + 1), eol)]
    if arguments != "python":
        raise MigrationError(index + 1, f"invisible-code-block: {arguments!r} is not python; "
                                        f"rune runs only python setup blocks")
    end, code = (_percent_code(lines, index) if percent else _html_code(lines, index, match))
    fence = "```"
    return end, [f"{indent}<!-- literate: setup{eol}", f"{indent}{fence}python{eol}", *code,
                 f"{indent}{fence}{eol}", f"{indent}-->{eol}"]


def _html_code(lines: list[str], index: int, match: re.Match) -> tuple[int, list[str]]:
    """The code of ``<!-- invisible-code-block: python`` up to its ``-->`` line."""
    if match["close"]:
        raise MigrationError(index + 1, "invisible-code-block holds no code")
    for end in range(index + 1, len(lines)):
        if re.fullmatch(r"[ \t]*--+>[ \t]*", lines[end].rstrip("\r\n")):
            return end + 1, _trim_blank(lines[index + 1:end])
    raise MigrationError(index + 1, "invisible-code-block is never closed with -->")


def _percent_code(lines: list[str], index: int) -> tuple[int, list[str]]:
    """The ``%`` comment lines after ``% invisible-code-block: python``, without the ``%``."""
    end = index + 1
    while end < len(lines) and lines[end].lstrip().startswith("%"):
        end += 1
    code = []
    for line in lines[index + 1:end]:
        indent = line[:len(line) - len(line.lstrip())]
        body = line.lstrip()[1:]
        code.append(indent + (body[1:] if body.startswith(" ") else body))
    return end, _trim_blank(code)


def _trim_blank(code: list[str]) -> list[str]:
    while code and not code[0].strip():
        code = code[1:]
    while code and not code[-1].strip():
        code = code[:-1]
    return code


def _sybil_skip(arguments: str, line: int) -> str:
    """Sybil's ``next``, ``start``, ``end``, ``next "REASON"`` and
    ``next if(CONDITION, reason=...)``."""
    action, _, rest = arguments.partition(" ")
    rest = rest.strip()
    if action not in ("next", "start", "end") or (rest and action != "next"):
        raise MigrationError(line, f"skip: {arguments!r} is not a skip rune knows (next, start, "
                                   f"end, next \"REASON\", next if(CONDITION, reason=...))")
    if not rest:
        return {"next": "skip", "start": "skip start", "end": "skip end"}[action]
    try:
        if not rest.startswith("if"):
            return f"skip because {ast.literal_eval(rest)}"
        call = ast.parse("f" + rest[2:].strip(), mode="eval").body
        condition = ast.unparse(call.args[0])
        reasons = call.args[1:] + [keyword.value for keyword in call.keywords
                                   if keyword.arg == "reason"]
        reason = ast.literal_eval(reasons[0]) if reasons else None
    except (SyntaxError, IndexError, ValueError, AttributeError):
        raise MigrationError(line, f"cannot read the skip arguments {rest!r}") from None
    return f"skip if {condition}" + (f" because {reason}" if reason else "")


def _myst_code_block(lines: list[str], fence: Fence) -> list[str] | None:
    """A MyST ``{code-block} python`` fence as a ```python fence (rune runs only those)."""
    match = re.fullmatch(r"\s*\{(code-block|code|sourcecode|code-cell)\}\s+(python|py|python3)\s*",
                         fence.info)
    if not match:
        return None
    if fence.end > fence.start + 1 and re.match(r"\s*:[\w-]*:", lines[fence.start + 1]):
        raise MigrationError(fence.start + 2, f"the {{{match[1]}}} options cannot stay on a "
                                              f"```python fence: remove them, then migrate")
    return [f"{fence.indent}{fence.marker}python{line_ending(lines[fence.start])}"]


# --- phmdoctest and phmutest ------------------------------------------------------------

# phmdoctest's <!--phmdoctest-NAME-->, phmutest's <!--phmutest-NAME-->; a NAME such as
# mark.skipif<3.8 holds a '<' (so that it is refused by name, not left as a comment)
PHM_DIRECTIVE = re.compile(
    r"^(?P<indent>[ \t]*)<!--+\s*phm(?:doc|u)?test-(?P<name>[\w.<-]+)"
    r"(?:\s+(?P<argument>.*?))?\s*--+>\s*$")
PHM_NO_OPS = {"setup", "teardown", "share-names", "share-across-files", "setup-across-files"}
OUTPUT_INFO = {"", "expected-output", "text"}
HTML_COMMENT_LINE = re.compile(r"<!--.*-->")  # rune allows comments there too


def from_phmdoctest(lines: list[str]) -> list[str]:
    """An expected-output fence after a python block becomes its out block;
    ``<!--phmdoctest-...-->`` directives become rune's (phmutest's too)."""
    fences = find_fences(lines)
    edits = []
    for index, line in enumerate(lines):
        match = PHM_DIRECTIVE.match(line.rstrip("\r\n"))
        if match and not inside_fence(fences, index):
            edits.append((index, index + 1, _phm_directive(match, lines, index, fences)))
    for fence in fences:
        if fence.language in PYTHON_INFO:
            _refuse_inline_annotations(lines, fence)
    for before, after in zip(fences, fences[1:]):
        if before.language in PYTHON_INFO and after.info.strip() in OUTPUT_INFO:
            _expect_caption_at_most(lines[before.end + 1:after.start], before.end + 2)
            edits.append((after.start, after.start + 1,
                          [f"{after.indent}{after.marker}out{line_ending(lines[after.start])}"]))
    return apply_edits(lines, edits)


def _expect_caption_at_most(between: list[str], first_line: int) -> None:
    """phmdoctest takes the fence after a python block as its output whatever
    stands between; rune, blank lines, comments and one caption line (as "sample output:")."""
    prose = [(first_line + offset, line.strip()) for offset, line in enumerate(between)
             if line.strip() and not HTML_COMMENT_LINE.fullmatch(line.strip())]
    if len(prose) > 1 or (prose and not is_output_caption(prose[0][1])):
        raise MigrationError(prose[-1][0] if len(prose) > 1 else prose[0][0], (
            "phmdoctest takes the next fence as this python block's output, but rune "
            "allows only one caption line between them (ending in ':', as 'Output:', or "
            "in emphasis, as '*Listing 1*'): shorten the text to one such line, then migrate"))


def _refuse_inline_annotations(lines: list[str], fence: Fence) -> None:
    """phmdoctest's inline annotations change the code that runs; rune runs what readers see."""
    for index in range(fence.start + 1, fence.end):
        if re.search(r"#\s*phmdoctest:|#\s*<-\s*$", lines[index]):
            raise MigrationError(index + 1, "phmdoctest's inline annotations (# <-, "
                                            "# phmdoctest:omit, # phmdoctest:pass) have no rune "
                                            "equivalent: rune runs the code as shown")


def _phm_directive(match: re.Match, lines: list[str], index: int,
                   fences: list[Fence]) -> list[str]:
    name, indent, eol = match["name"], match["indent"], line_ending(lines[index])
    if name in ("skip", "mark.skip"):
        return [directive(indent, "skip", eol)]
    if name in ("clear-names", "clear"):
        return [directive(indent, "clear", eol)]
    if name in PHM_NO_OPS:
        return []  # rune runs blocks in page order, in one namespace: nothing to say
    if name == "label" and match["argument"]:
        following = [fence for fence in fences if fence.start > index]
        if following and following[0].language in PYTHON_INFO:
            return [directive(indent, f"name {match['argument']}", eol)]
        return [lines[index]]  # a label on another fence: an ordinary comment to rune
    raise MigrationError(index + 1, f"the directive {match.group(0).strip()} has no rune "
                                    f"equivalent: remove it or write rune's directive by hand")


# --- pytest-examples --------------------------------------------------------------------

OUTPUT_COMMENT = re.compile(r"^[ \t]*#>(?: (?P<text>.*?)|)(?P<eol>\r?\n|\r|)$")
TRIPLE_QUOTES = '"' * 3
PREFIX_SETTING = re.compile(r'\s*\b(?P<key>test|requires)="(?P<value>[^"]*)"')


def from_pytest_examples(lines: list[str]) -> list[str]:
    """``#>`` output comments become the block's out block; the fence settings
    ``test="skip"`` and ``requires="3.10"`` become skip directives."""
    edits = []
    for fence in find_fences(lines):
        if fence.language not in PYTHON_INFO:
            continue
        code, output = _split_output(lines[fence.start + 1:fence.end])
        settings = {m["key"]: m["value"] for m in PREFIX_SETTING.finditer(fence.info)}
        head = [directive(fence.indent, text, fence.eol) for text in _skips(settings, fence)]
        info = PREFIX_SETTING.sub("", fence.info)
        head.append(f"{fence.indent}{fence.marker}{info}{line_ending(lines[fence.start])}")
        if not output:
            if settings:
                edits.append((fence.start, fence.start + 1, head))
            continue
        close = lines[fence.end]
        last_eol = line_ending(close) if close.endswith(("\n", "\r")) else ""
        out = [f"{fence.indent}{text}".rstrip() + fence.eol for text in output]
        edits.append((fence.start, fence.end + 1, [
            *head, *code, close.rstrip("\r\n") + fence.eol, fence.eol,
            f"{fence.indent}{fence.marker}out{fence.eol}", *out,
            f"{fence.indent}{fence.marker}{last_eol}",
        ]))
    return apply_edits(lines, edits)


def _split_output(body: list[str]) -> tuple[list[str], list[str]]:
    """(the code, the output lines): pytest-examples writes output as ``#>`` comments,
    or, when long, as a triple-quoted string right after the ``print`` call."""
    code: list[str] = []
    output: list[str] = []
    index = 0
    while index < len(body):
        comment = OUTPUT_COMMENT.match(body[index])
        if comment:
            output.append(comment["text"] or "")
            index += 1
            continue
        if body[index].strip() == TRIPLE_QUOTES and code and "print(" in code[-1]:
            end = next((end for end in range(index + 1, len(body))
                        if body[end].strip() == TRIPLE_QUOTES), None)
            if end is not None:
                margin = len(body[index]) - len(body[index].lstrip())
                output.extend(line.rstrip("\r\n")[margin:] for line in body[index + 1:end])
                index = end + 1
                continue
        code.append(body[index])
        index += 1
    return code, output


def _skips(settings: dict[str, str], fence: Fence) -> list[str]:
    skips = []
    if settings.get("test") == "skip":
        skips.append("skip")
    if "requires" in settings:
        version = settings["requires"]
        if not re.fullmatch(r"\d+\.\d+", version):
            raise MigrationError(fence.start + 1, f'requires="{version}" is not a Python '
                                                  f'version such as requires="3.10"')
        major, minor = version.split(".")
        skips.append(f'skip if __import__("sys").version_info < ({major}, {minor}) '
                     f"because it needs Python {version}")
    return skips


# --- the command ------------------------------------------------------------------------

CONVERTERS: dict[str, Callable[[list[str]], list[str]]] = {
    "mktestdocs": from_mktestdocs,
    "phmdoctest": from_phmdoctest,
    "phmutest": from_phmdoctest,
    "pytest-examples": from_pytest_examples,
    "pytest-markdown-docs": from_pytest_markdown_docs,
    "sybil": from_sybil,
}


def migrate_text(text: str, tool: str) -> str:
    """``text``, a page written for ``tool``, as a rune page."""
    if tool not in CONVERTERS:
        raise ValueError(f"migrate: tool must be one of {', '.join(CONVERTERS)}, got {tool!r}")
    return "".join(CONVERTERS[tool](text.splitlines(keepends=True)))


def add_command(commands) -> None:
    """Add ``migrate`` to the command line's subcommands."""
    migrate = commands.add_parser("migrate", help="convert pages written for another tool")
    migrate.add_argument("--from", dest="tool", required=True, choices=sorted(CONVERTERS),
                         help="the tool the pages were written for")
    migrate.add_argument("paths", nargs="+", help="pages or directories of pages")
    mode = migrate.add_mutually_exclusive_group()
    mode.add_argument("--check", dest="mode", action="store_const", const="check",
                      help="write nothing; exit 1 if any page would change")
    mode.add_argument("--diff", dest="mode", action="store_const", const="diff",
                      help="write nothing; only print the diff of what would change")


def run_migrate(arguments: argparse.Namespace) -> int:
    """Convert the pages as the command line asked; return the exit status."""
    try:
        pages = find_pages(arguments.paths)
    except FileNotFoundError as error:
        print(f"migrate: {error}", file=sys.stderr)
        return 2
    mode = arguments.mode or "write"
    changed = failed = 0
    for page in pages:
        try:
            before = page.read_bytes().decode("utf-8")
            after = migrate_text(before, arguments.tool)
        except (MigrationError, UnicodeDecodeError, OSError) as error:
            print(f"{page.as_posix()}: {error}; left unchanged")
            failed += 1
            continue
        if after == before:
            continue
        changed += 1
        sys.stdout.writelines(difflib.unified_diff(
            before.splitlines(keepends=True), after.splitlines(keepends=True),
            f"a/{page.as_posix()}", f"b/{page.as_posix()}"))
        if mode == "write":
            page.write_bytes(after.encode("utf-8"))
    verb = "changed" if mode == "write" else "would change"
    print(f"migrate --from {arguments.tool}: {changed} of {len(pages)} "
          f"page{'s' if len(pages) != 1 else ''} {verb}"
          + (f"; {failed} not converted because of errors" if failed else ""))
    return 1 if failed or (mode == "check" and changed) else 0
