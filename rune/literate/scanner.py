r"""The parser's first pass: a page's lines read as fences, directives, hidden
(setup, teardown) blocks and prose, with the vocabulary of the format.

`rune.literate.parser` assembles these tokens into steps (the second pass);
together they are the one parser behind pytest collection, ``check`` and
``promote``. Offsets are those of the page text as it was read (see there).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from .page import Fence, Line, LiterateSyntaxError, SetupBlock, TeardownBlock, split_lines
from .session import PYCON_LANGUAGES

PYTHON_LANGUAGES = frozenset({"python", "py", "python3", "py3"})
# Fences that name a Python the runner cannot run: an error, never a silent non-test.
UNRUNNABLE_PYTHON = frozenset({"python2", "py2", "ipython", "ipython3"})
OUT_LANGUAGE = "out"
# Fences that run (shell ones only after a `shell` directive, which the
# scanner does not know of): one shown as text must be text beyond doubt.
_RUNNABLE = PYTHON_LANGUAGES | PYCON_LANGUAGES
BYTE_ORDER_MARK = "\ufeff"

DIRECTIVE_PREFIX = "literate:"
DIRECTIVES = (
    "skip", "skip start", "skip end", "nondeterministic", "raises", "clear", "setup", "out",
    "timeout", "page timeout", "teardown", "name", "shell", "fresh process",
)
# Directives holding a hidden python block, up to a --> line of its own.
_HIDDEN_BLOCK_DIRECTIVES = ("setup", "teardown")
# Directives followed by a number of seconds.
_TIMEOUT_DIRECTIVES = frozenset({"timeout", "page timeout"})
# Directives that modify the next python block (the others are steps of their own).
BLOCK_DIRECTIVES = frozenset({"skip", "nondeterministic", "raises", "timeout", "name"})
# `skip if CONDITION because REASON`: both parts optional, in that order.
_SKIP_WITH = re.compile(r"skip(?:\s+if\s+(?P<condition>.+?))?(?:\s+because\s+(?P<reason>.+))?",
                        re.DOTALL)
_BLOCK_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
# Directives that may also stand between a python block and its out block.
# `out` must stand right before a fence: it makes that fence the out block,
# whatever its language (a ```mermaid diagram, say).
BETWEEN_DIRECTIVES = frozenset({"nondeterministic", "raises", "out"})

# A fence may sit inside block quotes (">"), be indented (list items,
# admonitions, content tabs) or follow a list bullet on the same line.
_FENCE_OPEN = re.compile(
    r"(?P<quote>(?:[ \t]*>)*)(?P<indent>[ \t]*)(?P<bullet>(?:[-*+]|\d{1,9}[.)])[ \t]+)?"
    r"(?P<marker>`{3,}|~{3,})(?P<info>.*)"
)
_FENCE_CLOSE = re.compile(r"(?P<quote>(?:[ \t]*>)*)(?P<indent>[ \t]*)(?P<marker>`{3,}|~{3,})[ \t]*")
_COMMENT_START = re.compile(r"(?:[ \t]*>)*[ \t]*<!--(?P<rest>.*)")
_DIRECTIVE_BODY = re.compile(r"\s*literate\s*:(?P<body>.*)")
# A comment that was meant as a directive but is not written as one:
# `<!-- literate skip -->`, `<!-- Literate: skip -->`, `<!--- literate: skip --->`,
# and with the prefix misspelled, `<!-- literat: skip -->`.
_DIRECTIVE_LOOKALIKE = re.compile(
    r"-*\s*(?P<prefix>[a-z]+)\s*(?P<separator>[:=]?)\s*(?P<body>(?P<word>[a-z]*).*)",
    re.IGNORECASE | re.DOTALL,
)
_PREFIX_WORD = DIRECTIVE_PREFIX.rstrip(":")
_DIRECTIVE_WORDS = frozenset(name.split()[0] for name in DIRECTIVES)
# Lines that open a container whose content is indented (list items, mkdocs
# admonitions and content tabs, definitions, footnotes): a fence indented
# under one of them is still a fence.
# A bullet alone on its line opens an item too, unless a blank line follows it.
_CONTAINER_OPENER = re.compile(
    r"[ \t]*(?:(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)|!!!|\?\?\?|===|:[ \t]|\[\^)")
_BARE_BULLET = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]*")
_COMMENT_END_LINE = re.compile(r"(?:[ \t]*>)*[ \t]*-->[ \t]*")
_COMMENT_END = re.compile(r".*-->[ \t]*")
# MyST directives whose content is markdown: a fence inside one is a fence of
# the page. As a colon fence (`:::{note}`, its content is read line by line
# anyway) or a backtick or tilde fence (````{note}`, whose body would otherwise
# be one code block). Code-like directives ({code-block}, {eval-rst}, Quarto's
# {r}) hold text that is not markdown, and are not on this list.
MYST_MARKDOWN_DIRECTIVES = frozenset({
    "admonition", "attention", "caution", "danger", "error", "hint", "important", "note",
    "seealso", "tip", "todo", "warning", "versionadded", "versionchanged", "versionremoved",
    "deprecated", "dropdown", "tab-set", "tab-item", "card", "card-carousel", "grid",
    "grid-item", "grid-item-card", "glossary", "topic", "sidebar", "margin", "div",
    "container", "epigraph", "pull-quote", "highlights", "compound", "only", "figure", "table",
})
_MYST_DIRECTIVE = re.compile(r"\{(?P<name>[\w:-]+)\}(?:[ \t].*)?")
_COLON_FENCE_OPEN = re.compile(r"[ \t]*(?P<colons>:{3,})\{(?P<name>[\w:-]+)\}.*")
_COLON_FENCE_CLOSE = re.compile(r"[ \t]*(?P<colons>:{3,})[ \t]*")
# What may stand between a python block and its out block, and stays with the
# block when promote adds an out block (besides a line ending in a colon, as
# "Output:", which may only stand before an out block): a caption (pymdownx.blocks' `/// caption`
# block, or a line of its own in emphasis, as `*Listing 1: ...*`) and Material
# for MkDocs' code-annotation list (an ordered list right after a block whose
# code's comments hold markers as `# (1)!`).
_CAPTION_BLOCK_OPEN = re.compile(r"[ \t]*///[ \t]*(?:figure-)?caption\b.*")
_CAPTION_BLOCK_CLOSE = re.compile(r"[ \t]*///[ \t]*")
_EMPHASIZED_LINE = re.compile(r"[ \t]*(?P<mark>\*{1,2}|_{1,2})(?!\s).*(?<!\s)(?P=mark)[ \t]*")
_INTRODUCTION = re.compile(r".*:[ \t]*")  # "Output:", "sample output:"
_ANNOTATION_MARKER = re.compile(r"#.*\(\d+\)")
_LIST_ITEM = re.compile(r"[ \t]*\d{1,9}[.)][ \t]")
# A Sphinx glossary's terms are lines of their own; each term's definition is
# indented under it, as a list item's content is under its bullet.
_GLOSSARY = "glossary"


@dataclass(frozen=True)
class Directive:
    name: str
    line: Line
    seconds: float | None = None  # the argument of a timeout directive
    argument: str | None = None  # a name directive's name
    condition: str | None = None  # skip if CONDITION
    reason: str | None = None  # skip because REASON


@dataclass(frozen=True)
class Other:
    """Prose or an ordinary HTML comment: anything that separates blocks.

    Each line of prose is one; an HTML comment is one (``comment``), from its
    ``line`` to its ``last`` line.
    """

    line: Line
    comment: bool = False
    last: Line | None = None  # a comment's last line (None: ``line`` alone)

    @property
    def end(self) -> int:
        """The offset just before the ending of its last line."""
        return (self.last or self.line).content_end


def is_prose(token: object) -> bool:
    """Whether a token is a line of prose (not a directive, a fence or a comment)."""
    return isinstance(token, Other) and not token.comment


def paragraph_end(tokens: list, index: int) -> int:
    """The index past the paragraph of prose starting at ``tokens[index]``:
    its lines follow each other with no blank line between."""
    index += 1
    while (index < len(tokens) and is_prose(tokens[index])
           and tokens[index].line.number == tokens[index - 1].line.number + 1):
        index += 1
    return index


def caption_end(tokens: list, index: int) -> int | None:
    """The index past a caption starting at ``tokens[index]`` (a `/// caption`
    block, or a paragraph of one line in emphasis), or None."""
    text = tokens[index].line.text
    if _CAPTION_BLOCK_OPEN.fullmatch(text):
        for position in range(index + 1, len(tokens)):
            if is_prose(tokens[position]) and _CAPTION_BLOCK_CLOSE.fullmatch(
                    tokens[position].line.text):
                return position + 1
        return None
    if _EMPHASIZED_LINE.fullmatch(text) and paragraph_end(tokens, index) == index + 1:
        return index + 1
    return None


def introduction_end(tokens: list, index: int) -> int | None:
    """The index past a line introducing an out block (a paragraph of one line
    ending in a colon, as "Output:") starting at ``tokens[index]``, or None."""
    one_line = paragraph_end(tokens, index) == index + 1
    return index + 1 if one_line and _INTRODUCTION.fullmatch(tokens[index].line.text) else None


def is_output_caption(text: str) -> bool:
    """Whether a line, a paragraph of its own, may stand between a python block
    and its out block: a caption in emphasis, or a line ending in a colon."""
    return bool(_EMPHASIZED_LINE.fullmatch(text) or _INTRODUCTION.fullmatch(text))


def annotations_end(tokens: list, index: int, fence: Fence) -> int | None:
    """The index past the code-annotation list of ``fence`` starting at
    ``tokens[index]`` (its items, their indented or wrapped lines), or None."""
    if not (_LIST_ITEM.match(tokens[index].line.text)
            and any(_ANNOTATION_MARKER.search(line) for line in fence.body_lines)):
        return None
    margin = _indent_columns(tokens[index].line.text)
    index += 1
    while index < len(tokens) and is_prose(tokens[index]):
        line, previous = tokens[index].line, tokens[index - 1].line
        indent = _indent_columns(line.text)
        item = _LIST_ITEM.match(line.text) and indent == margin
        if not (item or indent > margin or line.number == previous.number + 1):
            break
        index += 1
    return index


def attached_end(tokens: list, index: int, fence: Fence) -> int:
    """The index past the captions and annotation list right after ``fence``
    (at ``tokens[index]``): they belong to it, and an out block goes after them."""
    while index < len(tokens) and is_prose(tokens[index]):
        end = caption_end(tokens, index) or annotations_end(tokens, index, fence)
        if end is None:
            break
        index = end
    return index


def fence_language(info: str) -> str:
    """The language named by a fence's info string, lower-cased.

    Attributes after the language are allowed, and so is the attribute-list
    form ``{ .python title="x" }`` of pymdownx superfences.

    >>> fence_language('python title="x.py"')
    'python'
    >>> fence_language('{ .py linenums="1" }')
    'py'
    >>> fence_language('{python}')
    'python'
    """
    info = info.strip()
    if info.startswith("{"):
        # `{ .python }` (pymdownx) or `{python}` (Quarto, R Markdown).
        match = re.search(r"\.([\w+-]+)", info) or re.match(r"\{\s*([\w+-]+)", info)
        return match.group(1).lower() if match else ""
    return info.split(maxsplit=1)[0].lower() if info else ""


# A fence that every markdown engine shows as text (see Scanner.shown_as_text).
_TEXT = "text"


def _is_blank(text: str) -> bool:
    # A line holding only block-quote markers is blank inside its quote.
    return not text.strip(" \t>")


class Scanner:
    """First pass: turn lines into fences, directives, setup blocks and prose."""

    def __init__(self, text: str, path: str) -> None:
        self.path = path
        self.lines = split_lines(text)
        if text.startswith(BYTE_ORDER_MARK) and self.lines:
            # The mark is kept in the text (promote writes it back) but is no
            # part of the first line, as for MkDocs: a fence may open the page.
            first = self.lines[0]
            self.lines[0] = Line(1, 1, first.content_end, first.end, first.text[1:], first.eol)
        # The MyST directives open at the line being read: (name, the index of a
        # backtick directive's closing fence line, or the colons closing a colon fence).
        self.containers: list[tuple[str, int | str]] = []
        # Line index -> the line it is indented under and whether a blank line
        # stands between (see parent_line).
        self.parents: dict[int, tuple[int | None, bool]] = {}

    def error(self, line: int, message: str) -> LiterateSyntaxError:
        return LiterateSyntaxError(self.path, line, message)

    def tokens(self) -> list:
        tokens: list = []
        index = 0
        while index < len(self.lines):
            line = self.lines[index]
            if self.container_edge(index):
                tokens.append(Other(line))
                index += 1
                continue
            opening = _match_fence_open(line.text)
            shown_as_text = opening and self.shown_as_text(index, opening)
            if opening and not shown_as_text:
                if self.opens_markdown_directive(index, opening):
                    tokens.append(Other(line))
                    index += 1
                    continue
                fence, index = self.read_fence(index, opening)
                tokens.append(fence)
                continue
            if opening:  # an indented code block: markdown shows the fence as text
                if shown_as_text is not _TEXT and fence_language(opening["info"]) in _RUNNABLE:
                    raise self.unclear_fence(index, opening, shown_as_text)
                tokens.append(Other(line))
                index = self.skip_shown_fence(index, opening)
                continue
            comment = _COMMENT_START.fullmatch(line.text)
            if comment:
                token, index = self.read_comment(index, comment["rest"])
                tokens.append(token)
                continue
            if not _is_blank(line.text):
                tokens.append(Other(line))
            index += 1
        return tokens

    def container_edge(self, index: int) -> bool:
        """Whether line ``index`` opens or closes a MyST directive (kept in
        ``containers``): a colon fence's opening or closing line, the closing
        fence of a backtick one."""
        text = self.lines[index].text
        closes = self.containers[-1][1] if self.containers else None
        if isinstance(closes, str):  # a colon fence: closed by as many colons or more
            close = _COLON_FENCE_CLOSE.fullmatch(text)
            closes = index if close and len(close["colons"]) >= len(closes) else None
        if closes == index:
            self.containers.pop()
            return True
        colon = _COLON_FENCE_OPEN.fullmatch(text)
        if colon:
            self.containers.append((colon["name"].lower(), colon["colons"]))
            return True
        return False

    def opens_markdown_directive(self, index: int, opening: re.Match) -> bool:
        """Whether the fence opened at ``index`` is a MyST directive whose
        content is markdown (````{note}`); then its fences are the page's."""
        directive = _MYST_DIRECTIVE.fullmatch(opening["info"].strip())
        if directive is None or directive["name"].lower() not in MYST_MARKDOWN_DIRECTIVES:
            return False
        closing = self.closing_line(index, opening)
        if closing is None:
            self.read_fence(index, opening)  # raises: never closed
        self.containers.append((directive["name"].lower(), closing))
        return True

    def in_glossary(self) -> bool:
        return bool(self.containers) and self.containers[-1][0] == _GLOSSARY

    def shown_as_text(self, index: int, opening: re.Match) -> str | None:
        """Whether a fence indented four columns past its container is text.

        Markdown shows it as an indented code block (after a blank line) or as
        part of the paragraph above it, so it is not run: a fence under a list
        item, admonition or content tab only counts as indented by the
        columns past that container's content. None: it is a fence. `_TEXT`:
        text to CommonMark and to MkDocs alike (an indented code block at the
        top level of the page). Anything else says why the engines may
        differ: MkDocs (Python-Markdown) shows a fence right under a paragraph
        as code, and reads lists around indented code its own way.
        """
        if opening["quote"] or opening["bullet"]:
            return None
        column = _indent_columns(opening["indent"])
        if column < 4:
            return None
        position, after_blank = self.parent_line(index, column)
        if position is None:
            return _TEXT  # indented code from the top of the page on
        start, earlier = position, self.lines[position].text
        if after_blank and not self.opens_container(position):
            # A paragraph ended above the blank line; the container it
            # belongs to (a list item wrapping onto lines indented less
            # than this fence) is opened by the paragraph's first line.
            start = self.paragraph_start(position)
            earlier = self.lines[start].text
        opener = self.opens_container(start) or self.in_glossary()
        past = column - _indent_columns(earlier)
        if opener and past < 8:
            return None
        if not after_blank:
            return f"it follows the text at line {position + 1} with no blank line between"
        if opener:
            return f"it is {past} columns past the container opened at line {start + 1}"
        if _indent_columns(earlier) > 0:
            return f"the paragraph above it (line {start + 1}) is itself indented"
        return _TEXT

    def parent_line(self, index: int, column: int) -> tuple[int | None, bool]:
        """The nearest line above line ``index`` (indented ``column`` columns)
        indented less, comments left out, or None; and whether a blank line
        stands between. Remembered per line, so that fences one under another
        in a long list item each look up to the previous one only."""
        after_blank = False
        position = index
        while position > 0:
            position -= 1
            text = self.lines[position].text
            if _is_blank(text):
                after_blank = True
                continue
            indent = _indent_columns(text)
            if indent == column and position in self.parents:
                parent, blank_above = self.parents[position]
                position, after_blank = parent, after_blank or blank_above
                break
            if indent >= column:
                continue
            # A comment (a directive, a setup block) is neither text nor a
            # container: the fence belongs to what stands above it.
            comment = self.comment_start(position)
            if comment is not None:
                position = comment
            elif not _COMMENT_START.fullmatch(text):  # (one that ends further down)
                break
        else:
            position = None
        self.parents[index] = (position, after_blank)
        return position, after_blank

    def comment_start(self, index: int) -> int | None:
        """The index of the line opening the HTML comment that ends on line
        ``index``, if one does and nothing but white space stands around it."""
        if not _COMMENT_END.fullmatch(self.lines[index].text):
            return None
        for position in range(index, max(-1, index - 200), -1):
            text = self.lines[position].text
            if _COMMENT_START.fullmatch(text):
                return position
            if position < index and "-->" in text:
                return None  # the end of another comment: this -->, not one
        return None

    def unclear_fence(self, index: int, opening: re.Match, why: str) -> LiterateSyntaxError:
        """The error for a python fence rune cannot place: markdown engines may
        show it as code (a block a reader takes as tested) or as text."""
        fence = opening["marker"] + opening["info"].strip()
        column = _indent_columns(opening["indent"])
        return self.error(
            self.lines[index].number,
            f"this {fence} fence is indented {column} columns and {why}, so markdown "
            f"may show it as code or as text (CommonMark and MkDocs differ here): rune.literate "
            f"cannot tell whether to run it. To run it, indent it less than 4 columns past the "
            f"text it belongs to (none at the top level, a list item's text, 4 columns past an "
            f"admonition's or tab's line); to show fence syntax as text, put it inside a longer "
            f"fence (````markdown)",
        )

    def opens_container(self, index: int) -> bool:
        """Whether line ``index`` opens a container whose content is indented."""
        text = self.lines[index].text
        if _BARE_BULLET.fullmatch(text) and (index + 1 == len(self.lines)
                                             or _is_blank(self.lines[index + 1].text)):
            return False  # an empty item: an item starts with one blank line at most
        return bool(_CONTAINER_OPENER.match(text))

    def paragraph_start(self, index: int) -> int:
        """The index of the first line of the paragraph holding line ``index``."""
        while index > 0 and not _is_blank(self.lines[index - 1].text):
            index -= 1
        return index

    def skip_shown_fence(self, index: int, opening: re.Match) -> int:
        """The index after a fence that markdown shows as text (or after its first line)."""
        closing = self.closing_line(index, opening)
        return index + 1 if closing is None else closing + 1

    def closing_line(self, index: int, opening: re.Match) -> int | None:
        """The index of the line closing the fence opened at ``index``, or None."""
        marker = opening["marker"]
        quote_depth = opening["quote"].count(">")
        # CommonMark lets a closing fence be indented up to three spaces more.
        max_close_indent = len((opening["indent"] + (opening["bullet"] or "")).expandtabs(4)) + 3
        for position in range(index + 1, len(self.lines)):
            match = _FENCE_CLOSE.fullmatch(self.lines[position].text)
            if (
                match
                and match["marker"][0] == marker[0]
                and len(match["marker"]) >= len(marker)
                and match["quote"].count(">") == quote_depth
                and len(match["indent"].expandtabs(4)) <= max_close_indent
            ):
                return position
        return None

    def read_fence(self, index: int, opening: re.Match) -> tuple[Fence, int]:
        first = self.lines[index]
        marker = opening["marker"]
        bullet = opening["bullet"] or ""
        prefix = opening["quote"] + opening["indent"] + " " * len(bullet)
        end = self.closing_line(index, opening)
        if end is None:
            raise self.error(
                first.number,
                f"the {marker}{opening['info'].strip()} fence opened here is never closed: "
                f"expected a closing {marker} line before the end of the file",
            )
        body = [self.dedent(line, prefix, first.number) for line in self.lines[index + 1 : end]]
        closing = self.lines[end]
        fence = Fence(
            line=first.number,
            end_line=closing.number,
            info=opening["info"].strip(),
            language=fence_language(opening["info"]),
            marker=marker,
            prefix=prefix,
            start=first.start,
            body_start=first.end,
            body_end=closing.start,
            end=closing.content_end,
            eol=first.eol,
            body_lines=tuple(body),
        )
        return fence, closing.number  # the index of the line after the closing fence

    def dedent(self, line: Line, prefix: str, opened_at: int) -> str:
        if line.text.startswith(prefix):
            return line.text[len(prefix) :]
        if _is_blank(line.text):
            return ""
        raise self.error(
            line.number,
            f"this line does not start with {prefix!r} like the code block opened at line "
            f"{opened_at}, so markdown would end that block here; indent it like the block "
            f"or close the block before it",
        )

    def read_comment(self, index: int, rest: str) -> tuple[object, int]:
        line = self.lines[index]
        directive = _DIRECTIVE_BODY.match(rest)
        if directive is None:
            self.check_not_lookalike(rest, line.number)
            after = self.skip_comment(index, rest)
            return Other(line, comment=True, last=self.lines[after - 1]), after
        body = directive["body"]
        if "-->" not in body:
            name = " ".join(body.split())
            if name in _HIDDEN_BLOCK_DIRECTIVES:
                return self.read_setup(index, name)
            self.check_known(name, line.number)
            raise self.error(
                line.number,
                f"the `{name}` directive must be on one line: close it with --> on this line "
                f"(only `setup` and `teardown` span several lines)",
            )
        name, after = body.split("-->", 1)
        name = " ".join(name.split())
        if after.strip():
            raise self.error(
                line.number,
                f"expected nothing after the `{name}` directive's -->, found {after.strip()!r}; "
                f"put the directive on a line of its own",
            )
        with_argument = self.directive_with_argument(name, line)
        if with_argument is not None:
            return with_argument, index + 1
        name, seconds = self.split_argument(name, line.number)
        self.check_known(name, line.number)
        if name in _HIDDEN_BLOCK_DIRECTIVES:
            raise self.error(
                line.number,
                f"`{name}` needs a python block inside it: write <!-- literate: {name} on one "
                f"line, then a ```python block, then --> on a line of its own",
            )
        return Directive(name, line, seconds), index + 1

    def directive_with_argument(self, text: str, line: Line) -> Directive | None:
        """``skip if CONDITION because REASON`` or ``name NAME``, checked; else None."""
        skip = _SKIP_WITH.fullmatch(text)
        if skip and (skip["condition"] or skip["reason"]):
            condition = skip["condition"]
            if condition is not None:
                try:
                    compile(condition, self.path, "eval")
                except SyntaxError as error:
                    raise self.error(
                        line.number,
                        f"the skip condition {condition!r} is not a Python expression "
                        f"({error.msg}); write "
                        f"<!-- literate: skip if EXPRESSION because REASON -->",
                    ) from None
            return Directive("skip", line, condition=condition, reason=skip["reason"])
        if text == "name" or text.startswith("name "):
            name = text[len("name"):].strip()
            if not _BLOCK_NAME.fullmatch(name):
                raise self.error(
                    line.number,
                    f"a block name may hold only letters, digits, '_', '-' and '.' (it becomes "
                    f"the test id page.md::NAME); found {name or 'nothing'!r}",
                )
            return Directive("name", line, argument=name)
        return None

    def split_argument(self, name: str, line: int) -> tuple[str, float | None]:
        """``timeout 30`` -> ("timeout", 30.0); other directives take no argument."""
        for directive in _TIMEOUT_DIRECTIVES:
            if name == directive or name.startswith(directive + " "):
                argument = name[len(directive) :].strip()
                try:
                    seconds = float(argument)
                except ValueError:
                    seconds = float("nan")
                if not 0 < seconds < float("inf"):
                    raise self.error(
                        line,
                        f"`{directive}` needs a positive number of seconds, as in "
                        f"<!-- literate: {directive} 30 -->; found {argument or 'nothing'!r}",
                    )
                return directive, seconds
        return name, None

    def check_known(self, name: str, line: int) -> None:
        if name not in DIRECTIVES:
            raise self.error(
                line,
                f"unknown directive {name!r} after `{DIRECTIVE_PREFIX}`;{_did_you_mean(name)} "
                f"expected one of: {_known_directives()}",
            )

    def check_not_lookalike(self, rest: str, line: int) -> None:
        """A comment written almost like a directive is an error, never silently ignored:
        the prefix in another case or misspelled, no colon, three dashes."""
        lookalike = _DIRECTIVE_LOOKALIKE.match(rest)
        if lookalike is None:
            return
        body = lookalike["body"].split("-->")[0].rstrip(" \t-")
        known_word = lookalike["word"].lower() in _DIRECTIVE_WORDS
        if lookalike["prefix"].lower() == _PREFIX_WORD:
            meant = lookalike["separator"] or known_word
        else:  # misspelled: only when what follows reads as a directive
            meant = difflib.get_close_matches(lookalike["prefix"].lower(), [_PREFIX_WORD],
                                              cutoff=0.8) and (
                known_word or (lookalike["separator"] and _meant_directive(body)))
        if meant:
            raise self.error(
                line,
                f"this comment looks like a literate directive but is not written as one, so it "
                f"would be ignored;{_did_you_mean(body)} write <!-- {DIRECTIVE_PREFIX} NAME --> "
                f"(lower case, a colon, two dashes at each end) with NAME one of: "
                f"{_known_directives()}",
            )

    def skip_comment(self, index: int, rest: str) -> int:
        if "-->" in rest:
            return index + 1
        for position in range(index + 1, len(self.lines)):
            if "-->" in self.lines[position].text:
                return position + 1
        raise self.error(
            self.lines[index].number,
            "this HTML comment is never closed with -->, which would hide the rest of the page",
        )

    def read_setup(self, index: int, kind: str) -> tuple[SetupBlock | TeardownBlock, int]:
        opened_at = self.lines[index].number
        index = self.skip_blank(index + 1)
        opening = _match_fence_open(self.lines[index].text) if index < len(self.lines) else None
        if opening is None or fence_language(opening["info"]) not in PYTHON_LANGUAGES:
            found = (
                repr(self.lines[index].text) if index < len(self.lines) else "the end of the file"
            )
            raise self.error(
                self.lines[index].number if index < len(self.lines) else opened_at,
                f"expected a ```python block inside the {kind} comment opened at line {opened_at}, "
                f"found {found}",
            )
        fence, index = self.read_fence(index, opening)
        index = self.skip_blank(index)
        if index >= len(self.lines):
            raise self.error(
                opened_at,
                f"this {kind} comment is never closed: expected --> on a "
                "line of its own after its python block",
            )
        if not _COMMENT_END_LINE.fullmatch(self.lines[index].text):
            raise self.error(
                self.lines[index].number,
                f"expected --> to close the {kind} comment opened at line {opened_at}, "
                f"found {self.lines[index].text!r}",
            )
        hidden = SetupBlock if kind == "setup" else TeardownBlock
        return hidden(fence=fence, line=opened_at, skip=False), index + 1

    def skip_blank(self, index: int) -> int:
        while index < len(self.lines) and _is_blank(self.lines[index].text):
            index += 1
        return index


def _meant_directive(body: str) -> str | None:
    """The directive a misspelled one probably meant, arguments kept (``skpi`` ->
    ``skip``, ``page timout 30`` -> ``page timeout 30``), or None."""
    words = body.split()
    if not words:
        return None
    two_words = [name for name in DIRECTIVES if " " in name]
    whole = difflib.get_close_matches(" ".join(words[:2]).lower(), two_words, 1, 0.8)
    if whole:
        return " ".join([whole[0], *words[2:]])
    first = difflib.get_close_matches(words[0].lower(), _DIRECTIVE_WORDS, 1, 0.7)
    return " ".join([first[0], *words[1:]]) if first else None


def _did_you_mean(body: str) -> str:
    meant = _meant_directive(body)
    return f" did you mean <!-- {DIRECTIVE_PREFIX} {meant} -->?" if meant else ""


def _known_directives() -> str:
    names = ", ".join(name + " SECONDS" if name in _TIMEOUT_DIRECTIVES
                      else "name NAME" if name == "name" else name for name in DIRECTIVES)
    return names + " (skip may add `if CONDITION` and `because REASON`)"


def _indent_columns(text: str) -> int:
    """How many columns of white space ``text`` starts with (tabs to 4)."""
    return len(text[: len(text) - len(text.lstrip(" \t"))].expandtabs(4))


def _match_fence_open(text: str) -> re.Match | None:
    match = _FENCE_OPEN.fullmatch(text)
    # A backtick "fence" whose info string holds a backtick is inline code.
    if match is None or (match["marker"][0] == "`" and "`" in match["info"]):
        return None
    return match
