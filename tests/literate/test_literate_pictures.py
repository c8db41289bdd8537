"""```svg out blocks on a MkDocs site: the rune-literate plugin shows the
drawing itself, and the block is compared like any other out block."""

from test_literate_mkdocs_plugin import build

F = "```"


def test_an_svg_out_block_shows_as_its_picture_and_is_checked(tmp_path):
    drawing = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>7</text></svg>'
    page = (f"# Picture\n\n{F}python\nprint({drawing!r})\n{F}\n\n"
            f"<!-- literate: out -->\n{F}svg\n{drawing}\n{F}\n")
    result = build(tmp_path, page, options=":\n      check: true")
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site" / "index.html").read_text()
    # The drawing itself, inline (its colours follow the page), out of the search.
    assert f'<div class="literate-picture" data-search-exclude>{drawing}</div>' in html
    css = (tmp_path / "site" / "assets" / "rune-literate" / "literate.css").read_text()
    assert ".md-typeset .literate-picture svg" in css
    # It is an out block like any other: a different drawing is stale.
    stale = page.replace("<text>7</text></svg>\n", "<text>8</text></svg>\n")
    assert build(tmp_path, stale, options=":\n      check: true").returncode != 0


def test_an_svg_fence_that_holds_no_single_drawing_shows_as_text(tmp_path):
    result = build(tmp_path, f"# Not a picture\n\n{F}svg\nTraceback: <b>oops</b>\n{F}\n")
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site" / "index.html").read_text()
    assert "Traceback: &lt;b&gt;oops&lt;/b&gt;" in html and "<b>oops</b>" not in html
