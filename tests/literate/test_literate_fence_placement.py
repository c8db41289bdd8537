"""Where a fence sits decides whether it is code: no python fence a reader sees
as code is silently left unrun.

A fence under a list item, an admonition or a tab is code; indented four
columns past its container it is text to CommonMark (an indented code block,
or part of the paragraph above it). Python-Markdown (MkDocs) does not always
agree: it shows a fence right under a paragraph as code, and reads a list item
that follows an indented code block as a nested list. Where the two engines
could differ about a python fence, the page fails naming the line; the
differential tests in test_literate_engines.py check the rule against both.
"""

import pytest

from rune.literate.parser import LiterateSyntaxError, parse_page

F = "```"


def codes(text):
    return [block.fence.code for block in parse_page(text, "page.md").python_blocks]


def error_of(text):
    with pytest.raises(LiterateSyntaxError) as error:
        parse_page(text, "page.md")
    return str(error.value)


def item(marker, indent, number, text=True):
    pad = " " * indent
    head = f"{marker} Item {number}:\n\n" if text else f"{marker}\n"
    return (f"{head}{pad}{F}python\n{pad}print({number})\n{pad}{F}\n\n"
            f"{pad}{F}out\n{pad}{number}\n{pad}{F}\n")


@pytest.mark.parametrize(("markers", "indent"), [
    (markers, indent) for markers in [("-", "-"), ("*", "*"), ("1.", "2."), ("1)", "2)")]
    for indent in [2, 3, 4] if indent > len(markers[0])  # content past the marker
])
def test_an_item_starting_right_after_the_last_items_closing_fence_runs(markers, indent):
    # Item 2 starts on the line after item 1's closing fence: both blocks run.
    text = item(markers[0], indent, 1) + item(markers[1], indent, 2)
    assert codes(text) == ["print(1)\n", "print(2)\n"]


@pytest.mark.parametrize("marker", ["-", "*", "+", "1.", "1)"])
def test_a_fence_under_a_bullet_with_no_text_runs(marker):
    # `-` alone on its line opens an item all the same (CommonMark and MkDocs
    # both show the fence as code); it was taken for an indented code block.
    text = f"{marker}\n    {F}python\n    print(1)\n    {F}\n"
    assert codes(text) == ["print(1)\n"]


@pytest.mark.parametrize("between", [
    "   <!-- literate: name first -->\n",
    "\n   <!-- literate: name first -->\n",
    "   <!-- a comment\n   over two lines -->\n",
    "   <!-- a comment\n        indented more -->\n",
    f"   <!-- literate: setup\n   {F}python\n   x = 0\n   {F}\n   -->\n",
])
def test_a_fence_under_a_comment_in_a_list_item_belongs_to_the_item(between):
    # The comment, indented less than the fence, is neither text nor a
    # container: the fence is the item's (both engines show it as code).
    text = f"1. Item:\n\n{between}    {F}python\n    print(1)\n    {F}\n"
    assert codes(text) == ["print(1)\n"]


def test_a_fence_far_down_a_long_list_item_runs():
    # The item's line is 300 lines up; the scanner used to look 200 lines up
    # only, and took the fence for indented code.
    body = "".join(f"    Paragraph {number} of a long item.\n\n" for number in range(150))
    assert codes(f"1. Step:\n\n{body}    {F}python\n    print(1)\n    {F}\n") == ["print(1)\n"]


def test_a_bullet_alone_then_a_blank_line_is_an_empty_item():
    # CommonMark and MkDocs alike: the fence below is top-level indented code.
    assert codes(f"-\n\n    {F}python\n    print(1)\n    {F}\n") == []


@pytest.mark.parametrize(("text", "line"), [
    # Right under a paragraph: CommonMark reads the fence into the paragraph,
    # MkDocs shows it as code.
    (f"Text:\n    {F}python\n    print(1)\n    {F}\n", 2),
    (f"Some text\n        {F}python\n        raise SystemExit\n        {F}\n", 2),
    (f"1. Item:\n        {F}python\n        print(1)\n        {F}\n", 2),
    (f"!!! note\n    Text\n        {F}python\n        print(1)\n        {F}\n", 3),
    # MkDocs reads item 2, right after item 1's indented code block, as a
    # nested list, and shows its fence as code; CommonMark as text.
    (f"1. Item 1:\n\n        {F}python\n        print(1)\n        {F}\n"
     f"2. Item 2:\n\n        {F}python\n        print(2)\n        {F}\n", 3),
    # Eight columns past a list item, after a blank line: text to both
    # engines here, but a list around it is read differently by each.
    (f"- Item:\n\n          {F}py\n          print(1)\n          {F}\n", 3),
    (f"Text:\n    {F}pycon\n    >>> print(1)\n    1\n    {F}\n", 2),
])
def test_a_python_fence_the_engines_may_show_as_code_or_text_fails_naming_its_line(text, line):
    message = error_of(text)
    assert message.startswith(f"page.md:{line}: ")
    assert "may show it as code or as text" in message


@pytest.mark.parametrize("text", [
    f"Some text\n\n    {F}python\n    raise SystemExit\n    {F}\n",
    f"Some text that wraps\n  onto an indented line.\n\n    {F}python\n    x = 1\n    {F}\n",
    f"    {F}python\n    x = 1\n    {F}\n",
    # Inside an indented code block that shows a page's source.
    f"Source:\n\n    # Title\n    {F}python\n    x = 1\n    {F}\n",
])
def test_an_indented_code_block_at_the_top_level_is_text_to_every_engine(text):
    assert codes(text) == []


def test_a_fence_of_another_language_in_an_unclear_place_stays_text():
    # Only a fence rune would run must be placed beyond doubt.
    text = f"Text:\n    {F}text\n    print(1)\n    {F}\n\n{F}python\nprint(2)\n{F}\n"
    assert codes(text) == ["print(2)\n"]
