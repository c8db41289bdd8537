"""`python -m rune.literate export`: a page as a notebook or a script.

The notebook must be one Jupyter opens (nbformat's own validator, a test
dependency only) with the out blocks as the cells' outputs; the script, run,
must print what the out blocks hold.
"""

import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from rune.literate import parse_page, read_page
from rune.literate.cli import main
from rune.literate.export import export_page, notebook

ROOT = Path(__file__).resolve().parents[2]
# Pages whose every block runs and prints the same each time.
DETERMINISTIC = ["passing.md", "raises.md", "skip.md", "mermaid.md"]


def outputs_held(page) -> str:
    """What the page's out blocks hold, in order, for the blocks that run."""
    return "".join(block.out.body + "\n" for block in page.python_blocks
                   if block.out is not None and not block.skip)


def run_script(text: str, tmp_path: Path) -> subprocess.CompletedProcess:
    path = tmp_path / "page.py"
    path.write_text(text, encoding="utf-8")
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)


def learn_pages() -> list[Path]:
    return sorted((ROOT / "docs").glob("*.md"))


@pytest.mark.parametrize("name", DETERMINISTIC + ["directives.md"])
def test_the_notebook_is_valid_nbformat(fixtures_dir, name):
    text = export_page(read_page(fixtures_dir / name), "ipynb")
    nbformat.validate(nbformat.reads(text, as_version=4))


@pytest.mark.parametrize("path", learn_pages(), ids=lambda path: path.name)
def test_every_docs_page_exports_as_a_valid_notebook(path):
    nbformat.validate(nbformat.reads(export_page(read_page(path), "ipynb"), as_version=4))


@pytest.mark.parametrize("name", DETERMINISTIC)
def test_the_notebook_outputs_are_the_out_blocks(fixtures_dir, name):
    page = read_page(fixtures_dir / name)
    shown = ""
    for cell in notebook(page)["cells"]:
        for output in cell.get("outputs", []):
            shown += ("".join(output["text"]) if output["output_type"] == "stream"
                      else output["traceback"][-1] + "\n")
    assert shown == outputs_held(page)


def test_a_raising_cell_has_an_error_output_and_lets_run_all_go_on(fixtures_dir):
    [cell] = [c for c in notebook(read_page(fixtures_dir / "raises.md"))["cells"]
              if c["cell_type"] == "code"]
    assert cell["metadata"]["tags"] == ["raises-exception"]
    assert cell["outputs"][1] == {
        "output_type": "error", "ename": "ValueError",
        "evalue": "invalid literal for int() with base 10: 'seven'",
        "traceback": ["ValueError: invalid literal for int() with base 10: 'seven'"]}


def test_prose_becomes_markdown_without_directives_and_setup_is_a_tagged_cell(fixtures_dir):
    cells = notebook(read_page(fixtures_dir / "directives.md"))["cells"]
    markdown = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    assert "literate" not in markdown
    assert markdown.startswith("# Setup, nondeterministic and clear")
    setup = cells[1]
    assert setup["metadata"] == {"tags": ["setup"]}
    assert "".join(setup["source"]).startswith("secret = 42")


@pytest.mark.parametrize("name", DETERMINISTIC)
def test_running_the_script_prints_what_the_out_blocks_hold(fixtures_dir, tmp_path, name):
    page = read_page(fixtures_dir / name)
    completed = run_script(export_page(page, "py"), tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == outputs_held(page)


def test_a_docs_page_script_prints_its_out_blocks(tmp_path):
    page = read_page(ROOT / "docs" / "derivatives.md")
    completed = run_script(export_page(page, "py"), tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == outputs_held(page)


def test_the_script_clears_the_namespace_where_the_page_does(fixtures_dir, tmp_path):
    completed = run_script(export_page(read_page(fixtures_dir / "directives.md"), "py"),
                           tmp_path)
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[0] == "42" and lines[-1] == "False"


def test_a_skipped_block_is_shown_but_not_run(fixtures_dir):
    page = read_page(fixtures_dir / "skip.md")
    script = export_page(page, "py")
    assert '# raise RuntimeError("skipped, never runs")' in script
    cells = notebook(page)["cells"]
    assert any(c["cell_type"] == "markdown" and "```python\nraise RuntimeError"
               in "".join(c["source"]) for c in cells)


def test_export_rejects_an_unknown_format():
    with pytest.raises(ValueError, match="to must be one of ipynb, py, got 'pdf'"):
        export_page(parse_page("text\n"), "pdf")


def test_the_command_writes_beside_the_page_or_to_stdout(copy_fixture, capsys):
    page = copy_fixture("passing.md")
    assert main(["export", str(page), "--to", "ipynb"]) == 0
    assert json.loads(page.with_suffix(".ipynb").read_text())["nbformat"] == 4
    assert main(["export", str(page), "--to", "py", "-o", "-"]) == 0
    assert capsys.readouterr().out.count("# %%") >= 2


def test_the_command_names_a_page_it_cannot_read(tmp_path, capsys):
    assert main(["export", str(tmp_path / "missing.md"), "--to", "py"]) == 1
    assert "export: cannot read" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit:
        main(["export", str(tmp_path / "missing.md"), "--to", "pdf"])
    assert exit.value.code == 2


def test_export_never_writes_over_its_source(tmp_path, capsys):
    # `export mod.py --to py` replaced the module with its export, and
    # `export page.md -o page.md` the page; --force does not allow it either.
    module = tmp_path / "mod.py"
    module.write_text('"""A module."""\nX = 1\n')
    page = tmp_path / "page.md"
    page.write_text("```python\nprint(1)\n```\n")
    for argv in (["export", str(module), "--to", "py"],
                 ["export", str(page), "--to", "py", "-o", str(page)],
                 ["export", str(page), "--to", "py", "-o", str(tmp_path / "." / "page.md"),
                  "--force"]):
        assert main(argv) == 1
        assert "is the page being exported" in capsys.readouterr().err
    assert module.read_text() == '"""A module."""\nX = 1\n'
    assert page.read_text() == "```python\nprint(1)\n```\n"


def test_export_writes_over_an_existing_file_only_with_force(copy_fixture, capsys):
    page = copy_fixture("passing.md")
    notebook_path = page.with_suffix(".ipynb")
    notebook_path.write_text("my notes\n")
    assert main(["export", str(page), "--to", "ipynb"]) == 1
    assert f"{notebook_path} exists; pass --force" in capsys.readouterr().err
    assert notebook_path.read_text() == "my notes\n"
    assert main(["export", str(page), "--to", "ipynb", "--force"]) == 0
    assert json.loads(notebook_path.read_text())["nbformat"] == 4


STANDALONE_PAGE = """# Guide

See [the start](../index.md#install), [a page](other.md) and [away](https://a.org/x.md),
[a link over
two lines](other.md#part).

## A diagram

```mermaid
flowchart LR
  a --> b
```

```python
print("flowchart LR")
```

<!-- literate: out -->
```mermaid
flowchart LR
```
"""


def standalone_notebook():
    from rune.literate.export import Standalone

    standalone = Standalone("https://example.org/site/", "guide/page.md", "pip install thing")
    return notebook(parse_page(STANDALONE_PAGE, "guide/page.md"), standalone)


def test_a_standalone_notebook_installs_first():
    first = standalone_notebook()["cells"][0]
    assert first["cell_type"] == "code" and "".join(first["source"]) == "%pip install thing"
    assert first["metadata"] == {"tags": ["install"]}


def test_a_standalone_notebook_links_to_the_site_not_to_markdown_files():
    prose = "".join("".join(cell["source"]) for cell in standalone_notebook()["cells"]
                    if cell["cell_type"] == "markdown")
    assert "[the start](https://example.org/site/#install)" in prose
    assert "[a page](https://example.org/site/guide/other/)" in prose
    assert "[away](https://a.org/x.md)" in prose  # another site's link stays
    assert "[a link over\ntwo lines](https://example.org/site/guide/other/#part)" in prose


def test_a_standalone_notebook_links_diagrams_to_the_site_instead_of_their_source():
    cells = standalone_notebook()["cells"]
    prose = "".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")
    assert "```mermaid" not in prose and "a --> b" not in prose
    link = "(https://example.org/site/guide/page/#a-diagram)"
    assert prose.count(link) == 2  # the diagram in the prose, the one a block prints


def test_a_standalone_script_says_what_to_install():
    from rune.literate.export import Standalone

    page = parse_page(STANDALONE_PAGE, "guide/page.md")
    text = export_page(page, "py", Standalone("https://example.org/site/", "guide/page.md",
                                              "pip install thing"))
    assert text.startswith("# Needs: pip install thing\n")
    assert "https://example.org/site/guide/other/" in text


SKIP_IF_PAGE = """```python
import sys
```

<!-- literate: skip if sys.maxsize {op} 0 because a reason -->
```python
print("ran")
```

```out
ran
```
"""


@pytest.mark.parametrize("op, printed", [("<", "ran\n"), (">", "")])
def test_a_block_skipped_if_a_condition_holds_runs_where_it_does_not(tmp_path, op, printed):
    page = parse_page(SKIP_IF_PAGE.format(op=op))
    completed = run_script(export_page(page, "py"), tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == printed
    [_, cell] = [cell for cell in notebook(page)["cells"] if cell["cell_type"] == "code"]
    assert "".join(cell["source"]) == (
        f"# The page skips this block if sys.maxsize {op} 0 (a reason).\nprint(\"ran\")")
