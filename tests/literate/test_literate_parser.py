"""The parser: which fences are blocks, what belongs to what, and clear errors."""

import pytest

from rune.literate.parser import (
    ClearNamespace,
    LiterateSyntaxError,
    SetupBlock,
    fence_language,
    parse_page,
    split_lines,
)

F = "```"


def blocks(text):
    return parse_page(text, "page.md").python_blocks


def test_blocks_in_order_with_their_out_blocks(fixture_text):
    page = parse_page(fixture_text("passing.md"), "passing.md")
    found = [(b.line, b.fence.code, b.out.line if b.out else None) for b in page.python_blocks]
    assert found == [
        (5, 'greeting = "hello"\nprint(greeting)\n', 10),
        (16, 'print(greeting.upper())\nprint("  indented")\n', 21),
        (26, "total = 1 + 2  # prints nothing, so it needs no out block\n", None),
    ]
    assert page.python_blocks[1].out.body == "HELLO\n  indented"


def test_fences_inside_list_items_admonitions_tabs_and_block_quotes(fixture_text):
    found = [
        (b.fence.prefix, b.fence.code, b.out.body) for b in blocks(fixture_text("containers.md"))
    ]
    assert found == [
        ("    ", "items = [1, 2, 3]\nprint(sum(items))\n", "6"),
        ("    ", 'print("inside an admonition")\n', "inside an admonition"),
        ("    ", 'print("inside a tab")\n', "inside a tab"),
        ("> ", 'print("quoted")\n', "quoted"),
    ]


def test_fence_on_a_list_bullet_line_takes_the_item_indentation():
    (block,) = blocks(f"- {F}python\n  print(1)\n  {F}\n\n  {F}out\n  1\n  {F}\n")
    assert (block.fence.prefix, block.fence.code, block.out.body) == ("  ", "print(1)\n", "1")


def test_tilde_fences_and_a_shorter_fence_inside_a_longer_one(fixture_text):
    first, second = blocks(fixture_text("tildes.md"))
    assert first.fence.marker == "~~~" and first.out.body == "tildes"
    assert second.fence.marker == "~~~~"
    assert second.out.body == "four tildes; three do not close it:\n~~~"


def test_a_python_block_inside_a_longer_markdown_fence_is_not_a_block(fixture_text):
    (block,) = blocks(fixture_text("nested_fence.md"))
    assert block.fence.code == 'print("only this block runs")\n'


def test_attributes_after_the_language_keep_the_block(fixture_text):
    first, second = blocks(fixture_text("attributes.md"))
    assert first.fence.info == 'python title="example.py" linenums="1"'
    assert second.fence.language == "python"
    assert fence_language("Python") == "python"
    assert fence_language("pycon") == "pycon"


def test_crlf_offsets_line_numbers_and_bodies(fixture_text):
    text = fixture_text("crlf.md")
    first, second = parse_page(text, "crlf.md").python_blocks
    assert (first.line, second.line) == (3, 13)
    assert first.fence.eol == "\r\n" and first.out.body == "first"
    assert second.fence.code == 'print("second")\n'
    assert text[first.out.body_start : first.out.body_end] == "first\r\n"
    assert (
        text[second.fence.start : second.fence.end]
        == '    ```python\r\n    print("second")\r\n    ```'
    )


def test_no_final_newline(fixture_text):
    text = fixture_text("no_final_newline.md")
    (block,) = blocks(text)
    assert block.out.end == len(text) and block.out.body == "last"


def test_split_lines_keeps_exact_offsets():
    lines = split_lines("a\r\n\nb")
    assert [(line.text, line.eol, line.start, line.end) for line in lines] == [
        ("a", "\r\n", 0, 3),
        ("", "\n", 3, 4),
        ("b", "", 4, 5),
    ]


def test_directives_attach_to_the_next_python_block(fixture_text):
    skipped, region_one, region_two, after = blocks(fixture_text("skip.md"))
    assert skipped.skipped_by == 3 and skipped.out is not None
    assert region_one.skipped_by == region_two.skipped_by == 12
    assert not after.skip
    (raising,) = blocks(fixture_text("raises.md"))
    assert raising.raises and not raising.nondeterministic


def test_setup_and_clear_are_steps_of_their_own(fixture_text):
    page = parse_page(fixture_text("directives.md"), "directives.md")
    kinds = [type(step).__name__ for step in page.steps]
    assert kinds == ["SetupBlock", "PythonBlock", "PythonBlock", "ClearNamespace", "PythonBlock"]
    setup = page.steps[0]
    assert isinstance(setup, SetupBlock) and setup.line == 3 and setup.fence.line == 4
    assert isinstance(page.steps[3], ClearNamespace) and page.steps[3].line == 28
    assert page.steps[2].nondeterministic


def test_directive_between_a_block_and_its_out_block_belongs_to_the_block():
    text = f"{F}python\nprint(1)\n{F}\n<!-- literate: nondeterministic -->\n{F}out\n2\n{F}\n"
    (block,) = blocks(text)
    assert block.nondeterministic and block.out.body == "2"
    assert block.gap_start == text.index("-->") + 3


def test_a_directive_not_followed_by_an_out_block_waits_for_the_next_python_block():
    first, second = blocks(
        f"{F}python\nx = 1\n{F}\n\n<!-- literate: skip -->\n\n{F}python\nraise X\n{F}\n"
    )
    assert not first.skip and second.skip


def test_ordinary_html_comments_hide_their_content():
    (block,) = blocks(
        f"<!--\n{F}python\nraise X\n{F}\n-->\n\n{F}python\nprint(1)\n{F}\n\n{F}out\n1\n{F}\n"
    )
    assert block.line == 7


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (f"# Title\n\n{F}python\nprint(1)\n", 3, "never closed"),
        ("~~~~python\nx\n~~~\n", 1, "never closed"),
        (
            f"{F}python\nprint(1)\n{F}\n\nProse, of a paragraph\nof two lines.\n\n{F}out\n1\n{F}\n",
            8,
            "does not follow a python block (it comes after text at line 6)",
        ),
        (f"{F}out\n1\n{F}\n", 1, "(it comes after the start of the page)"),
        (
            f"{F}python\nprint(1)\n{F}\n\n{F}out\n1\n{F}\n\n{F}out\n1\n{F}\n",
            9,
            "(it comes after a ```out block at line 5)",
        ),
        (f"<!-- literate: skp -->\n{F}python\nx\n{F}\n", 1, "unknown directive 'skp'"),
        ("<!-- literate: -->\n", 1, "unknown directive ''"),
        ("<!-- literate: skip end -->\n", 1, "`skip end` without a `skip start`"),
        ("<!-- literate: skip start -->\n\ntext\n", 1, "no matching `skip end`"),
        (
            "<!-- literate: skip start -->\n<!-- literate: skip start -->\n",
            2,
            "inside the skip region",
        ),
        (f"<!-- literate: skip -->\nProse.\n{F}python\nx\n{F}\n", 1, "next comes text at line 2"),
        (f"<!-- literate: raises -->\n{F}text\nx\n{F}\n", 1, "next comes a ```text block"),
        ("<!-- literate: raises -->\n", 1, "not followed by any python block"),
        (
            f"{F}python\nx\n{F}\n<!-- literate: clear -->\n{F}out\n1\n{F}\n",
            4,
            "cannot stand between",
        ),
        ("<!-- literate: skip\n-->\n", 1, "must be on one line"),
        ("<!-- literate: skip --> trailing\n", 1, "expected nothing after"),
        ("<!-- literate: setup -->\n", 1, "needs a python block inside"),
        ("<!-- literate: setup\nimport os\n-->\n", 2, "expected a ```python block inside"),
        (f"<!-- literate: setup\n{F}python\nx = 1\n{F}\n", 1, "setup comment is never closed"),
        (f"<!-- literate: setup\n{F}python\nx = 1\n{F}\ntext\n-->\n", 5, "expected --> to close"),
        ("<!-- an ordinary comment\nthat never ends\n", 1, "never closed with -->"),
        (
            f"1. item\n\n    {F}python\n    x = 1\nnot indented\n    {F}\n",
            5,
            "does not start with '    '",
        ),
    ],
)
def test_bad_pages_raise_an_error_naming_the_line(text, line, message):
    with pytest.raises(LiterateSyntaxError) as caught:
        parse_page(text, "bad.md")
    assert caught.value.line == line
    assert message in caught.value.message
    assert str(caught.value).startswith(f"bad.md:{line}: ")


@pytest.mark.parametrize(
    ("name", "line", "message"),
    [
        ("unterminated.md", 5, "the ```python fence opened here is never closed"),
        ("orphan_out.md", 9, "this out block does not follow a python block"),
        ("unknown_directive.md", 3, "unknown directive 'skp'"),
        ("skip_end_without_start.md", 7, "`skip end` without a `skip start` before it"),
    ],
)
def test_bad_fixture_pages(fixture_text, name, line, message):
    with pytest.raises(LiterateSyntaxError, match=message) as caught:
        parse_page(fixture_text(name), name)
    assert caught.value.line == line


def test_inline_code_with_three_backticks_is_not_a_fence():
    assert blocks("```python x``` is inline code\n") == []


@pytest.mark.parametrize(
    ("comment", "suggestion"),
    [
        ("<!-- literat: skip -->", "did you mean <!-- literate: skip -->?"),
        ("<!-- litterate: timeout 30 -->", "did you mean <!-- literate: timeout 30 -->?"),
        ("<!-- Literat skip -->", "did you mean <!-- literate: skip -->?"),
        ("<!-- literate: skpi -->", "did you mean <!-- literate: skip -->?"),
        ("<!-- literate: nondeterminstic -->", "did you mean <!-- literate: nondeterministic -->?"),
        ("<!-- literate skip -->", "did you mean <!-- literate: skip -->?"),
    ],
)
def test_a_misspelled_directive_is_an_error_suggesting_the_right_one(comment, suggestion):
    # `<!-- literat: skip -->` was an ordinary comment: the block ran.
    with pytest.raises(LiterateSyntaxError) as caught:
        parse_page(f"Prose.\n\n{comment}\n{F}python\nraise SystemExit\n{F}\n", "bad.md")
    assert caught.value.line == 3
    assert suggestion in caught.value.message


@pytest.mark.parametrize("comment", ["<!-- literal: a note -->", "<!-- literature: see below -->",
                                     "<!-- literally the best -->", "<!-- iterate: twice -->"])
def test_comments_that_only_resemble_the_prefix_are_left_alone(comment):
    assert len(parse_page(f"{comment}\n{F}python\nx = 1\n{F}\n").python_blocks) == 1
