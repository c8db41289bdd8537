"""Pages as people write them (issue 27): captions and code-annotation lists between
a block and its out block, comments after a directive, fences inside MyST
directives, a per-directory prelude, export of pages mixing sessions and blocks."""

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import nbformat
import pytest
import yaml
from packaging.requirements import Requirement

from rune.literate.cli import main as cli
from rune.literate.export import export_page, notebook
from rune.literate.isolation import IsolatedPageRunner
from rune.literate.migrate import MigrationError, migrate_text
from rune.literate.parser import LiterateSyntaxError, parse_page, read_page
from rune.literate.prelude import find_preludes, with_preludes
from rune.literate.promote import promote_text
from rune.literate.runner import Outcome, PageRunner

REPO = Path(__file__).resolve().parents[2]

F = "```"


def promoted(text: str) -> str:
    page = parse_page(text, "page.md")
    return promote_text(page, PageRunner(page).run_all())


def outcomes(text: str) -> list[str]:
    return [result.outcome.name for result in PageRunner(parse_page(text, "page.md")).run_all()]


# --- captions and code-annotation lists between a block and its out block ---------------

ANNOTATED = (
    f"{F}python\nsquares = [n * n for n in range(4)]  # (1)!\nprint(squares)\n{F}\n\n"
    "1.  A list comprehension.\n    It runs once.\n\n2.  Another note.\n\n"
)
CAPTIONS = {
    "emphasis": "*Listing 1: the squares*\n\n",
    "pymdownx caption block": "/// caption\nThe squares\n///\n\n",
    "annotation list": ANNOTATED[ANNOTATED.index("1.  "):],
    "a line introducing the output": "Output:\n\n",
}


def code_then(between: str, out: str = "[0, 1, 4, 9]") -> str:
    code = ANNOTATED[: ANNOTATED.index("1.  ")]
    return f"{code}{between}{F}out\n{out}\n{F}\n"


@pytest.mark.parametrize("between", CAPTIONS.values(), ids=CAPTIONS)
def test_the_out_block_after_a_caption_or_annotation_list_belongs_to_the_block(between):
    text = code_then(between)
    [block] = parse_page(text, "page.md").python_blocks
    assert block.out is not None and block.out.body == "[0, 1, 4, 9]"
    assert outcomes(text) == ["PASSED"]


@pytest.mark.parametrize("between", CAPTIONS.values(), ids=CAPTIONS)
def test_promote_rewrites_a_stale_out_block_and_leaves_the_caption_where_it_is(between):
    assert promoted(code_then(between, out="stale")) == code_then(between)


def test_promote_adds_the_out_block_after_the_annotation_list_never_between_it_and_its_code():
    out = f"{F}out\n[0, 1, 4, 9]\n{F}\n"
    assert promoted(ANNOTATED + "Prose after.\n") == ANNOTATED[:-1] + "\n" + out + "\nProse after.\n"


@pytest.mark.parametrize("caption", ["*Listing 1: the squares*\n", "/// caption\nThe squares\n///\n"])
def test_promote_adds_the_out_block_after_a_caption_of_the_block(caption):
    code = f"{F}python\nprint([n * n for n in range(4)])\n{F}\n"
    assert promoted(f"{code}{caption}") == f"{code}{caption}\n{F}out\n[0, 1, 4, 9]\n{F}\n"


def test_an_ordered_list_after_a_block_without_markers_is_prose():
    code = f"{F}python\nprint(1)\n{F}\n"
    assert promoted(f"{code}\n1. A step.\n") == f"{code}\n{F}out\n1\n{F}\n\n1. A step.\n"


def test_a_line_before_the_out_block_stays_when_the_block_prints_nothing_any_more():
    text = f"{F}python\nx = 1\n{F}\n\nOutput:\n\n{F}out\n1\n{F}\n"
    assert promoted(text) == f"{F}python\nx = 1\n{F}\n\nOutput:\n"


@pytest.mark.parametrize("between", ["Prose in between.\n\n", "*A caption*\n\nOutput:\n\nMore:\n\n"])
def test_other_prose_between_a_block_and_an_out_block_is_still_an_error(between):
    with pytest.raises(LiterateSyntaxError, match="does not follow a python block"):
        parse_page(f"{F}python\nprint(1)\n{F}\n\n{between}{F}out\n1\n{F}\n", "page.md")


# --- HTML comments between a directive and its block -------------------------------------

def test_html_comments_may_stand_between_a_directive_and_its_block():
    text = (f"<!-- literate: skip -->\n<!-- a note for the page's editors -->\n\n"
            f"<!--\n  several lines\n-->\n{F}python\nraise SystemExit\n{F}\n")
    [block] = parse_page(text, "page.md").python_blocks
    assert block.skip


def test_html_comments_may_stand_between_a_block_its_directives_and_its_out_block():
    text = (f"{F}python\nimport random\nprint(random.random())\n{F}\n\n<!-- why: -->\n"
            f"<!-- literate: nondeterministic -->\n<!-- it varies -->\n\n{F}out\n0.5\n{F}\n")
    [block] = parse_page(text, "page.md").python_blocks
    assert block.nondeterministic and block.out.body == "0.5"
    assert promoted(text) == text


def test_removing_an_out_block_keeps_a_comment_before_it():
    text = f"{F}python\nx = 1\n{F}\n<!-- a comment -->\n\n{F}out\n1\n{F}\n"
    assert promoted(text) == f"{F}python\nx = 1\n{F}\n<!-- a comment -->\n"


def test_a_comment_between_the_out_directive_and_its_fence_is_an_error():
    text = f"{F}python\nprint(1)\n{F}\n<!-- literate: out -->\n<!-- no -->\n{F}text\n1\n{F}\n"
    with pytest.raises(LiterateSyntaxError, match="an HTML comment at line 5 comes between"):
        parse_page(text, "page.md")


# --- fences inside MyST directives --------------------------------------------------------

MYST = {
    "colon note": ":::{note}\nText.\n\n```python\nprint(1)\n```\n\n```out\n1\n```\n:::\n",
    "colon tab-set": ("::::{tab-set}\n:::{tab-item} One\n```python\nprint(1)\n```\n\n"
                      "```out\n1\n```\n:::\n::::\n"),
    "colon glossary": (":::{glossary}\nterm\n    Its definition.\n\n    ```python\n    print(1)\n"
                       "    ```\n\n    ```out\n    1\n    ```\n:::\n"),
    "directive fence note": "````{note}\nText.\n\n```python\nprint(1)\n```\n\n```out\n1\n```\n````\n",
    "directive fence admonition": ("```{admonition} A title\n:class: tip\n\n~~~python\nprint(1)\n~~~"
                                   "\n\n~~~out\n1\n~~~\n```\n"),
    "nested directive fences": ("`````{tab-set}\n````{tab-item} One\n```python\nprint(1)\n```\n\n"
                                "```out\n1\n```\n````\n`````\n"),
    "glossary directive fence": ("````{glossary}\nterm\n    Its definition.\n\n    ```python\n"
                                 "    print(1)\n    ```\n\n    ```out\n    1\n    ```\n````\n"),
}


@pytest.mark.parametrize("text", MYST.values(), ids=MYST)
def test_fences_inside_myst_directives_are_collected_and_run(text):
    [block] = parse_page(text, "page.md").python_blocks
    assert block.out is not None
    assert outcomes(text) == ["PASSED"]
    assert outcomes(text.replace("print(1)", "print(2)")) == ["MISMATCH"]


@pytest.mark.parametrize("text", [
    "````{code-block} markdown\n```python\nprint(1)\n```\n````\n",
    "```{r}\nx <- 1\n```\n",
    "````{eval-rst}\n```python\nprint(1)\n```\n````\n",
], ids=["code-block", "quarto chunk", "eval-rst"])
def test_directives_holding_code_or_other_markup_are_not_read_as_markdown(text):
    assert parse_page(text, "page.md").python_blocks == []


def test_a_myst_directive_fence_never_closed_is_an_error():
    with pytest.raises(LiterateSyntaxError, match="never closed"):
        parse_page("````{note}\n```python\nprint(1)\n```\n", "page.md")


def test_a_glossary_definition_is_a_container_only_inside_a_glossary():
    text = "term\n    Its definition.\n\n    ```python\n    print(1)\n    ```\n"
    assert parse_page(text, "page.md").python_blocks == []


# --- phmdoctest's captions, migrated ------------------------------------------------------

@pytest.mark.parametrize("comment", ["", "<!-- the squares -->\n"])
def test_migrate_from_phmdoctest_keeps_a_caption_before_the_expected_output(comment):
    text = f"{F}python\nprint([1, 4, 9])\n{F}\n{comment}expected output:\n{F}\n[1, 4, 9]\n{F}\n"
    migrated = migrate_text(text, "phmdoctest")
    assert migrated == text.replace(f"output:\n{F}\n", f"output:\n{F}out\n")
    assert outcomes(migrated) == ["PASSED"]


def test_migrate_from_phmdoctest_refuses_prose_that_rune_would_not_accept_there():
    text = f"{F}python\nprint(1)\n{F}\n\nA paragraph\nof two lines.\n\n{F}\n1\n{F}\n"
    with pytest.raises(MigrationError) as caught:
        migrate_text(text, "phmdoctest")
    assert caught.value.line == 6 and "one caption line" in str(caught.value)


# --- export of a page mixing sessions and blocks ------------------------------------------

MIXED = f"""# Mixed

{F}pycon
>>> data = [3, 1, 2]
>>> sorted(data)
[1, 2, 3]
>>> print("x")
x
>>> int("x")
Traceback (most recent call last):
ValueError: invalid literal for int() with base 10: 'x'
>>> data.sort()
>>> data.pop()  # doctest: +SKIP
3
>>> data
[1, 2, 3]
{F}

{F}python
print(max(data))
{F}

{F}out
3
{F}
"""


def test_the_script_of_a_page_mixing_sessions_and_blocks_runs_as_check_does(tmp_path):
    page = parse_page(MIXED, "mixed.md")
    assert outcomes(MIXED) == ["PASSED", "PASSED"]
    script = tmp_path / "mixed.py"
    script.write_text(export_page(page, "py"), encoding="utf-8")
    completed = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                               cwd=tmp_path, timeout=120)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == ("[1, 2, 3]\nx\nValueError: invalid literal for int() with base "
                                "10: 'x'\n[1, 2, 3]\n3\n")


def test_the_notebook_of_a_page_mixing_sessions_and_blocks_runs_its_cells_in_order():
    cells = notebook(parse_page(MIXED, "mixed.md"))["cells"]
    nbformat.validate(nbformat.from_dict(notebook(parse_page(MIXED, "mixed.md"))))
    namespace: dict = {}
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        try:
            exec("".join(cell["source"]), namespace)  # noqa: S102
        except ValueError:
            assert cell["metadata"] == {"tags": ["raises-exception"]}
    assert namespace["data"] == [1, 2, 3]  # the skipped pop() did not run
    assert [c["outputs"][0]["text"] for c in cells if c.get("outputs")] == [
        ["[1, 2, 3]\n"], ["x\n"],
        ["Traceback (most recent call last):\n",
         "ValueError: invalid literal for int() with base 10: 'x'\n"],
        ["[1, 2, 3]\n"], ["3\n"]]


# --- a per-directory prelude ---------------------------------------------------------------

PRELUDE = ('import os\n\nos.environ["AREA_UNITS"] = "cm"\nunits = os.environ["AREA_UNITS"]\n'
           'print("the prelude prints nothing the page shows")\n')
PRELUDE_PAGE = (f"# Units\n\n{F}python\nimport os\n\nprint(units, os.environ['AREA_UNITS'])\n{F}\n\n"
                f"{F}out\ncm cm\n{F}\n\n<!-- literate: clear -->\n\n{F}python\nprint(units)\n{F}\n\n"
                f"{F}out\ncm\n{F}\n")


@pytest.fixture
def prelude_project(tmp_path, monkeypatch):
    """A project whose docs/literate_prelude.py sets the pages' environment up."""
    project = tmp_path / "units"
    (project / "docs" / "guide").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[project]\nname = "units"\n')
    (project / "docs" / "literate_prelude.py").write_text(PRELUDE)
    (project / "docs" / "guide" / "units.md").write_text(PRELUDE_PAGE)
    monkeypatch.chdir(project)
    return project


def test_check_runs_the_prelude_of_a_directory_above_the_page_before_its_first_block(
        prelude_project, capsys):
    assert cli(["check", "docs"]) == 0
    assert "2 passed, 0 failed" in capsys.readouterr().out


def test_preludes_run_the_outermost_first_and_none_above_the_project_root(prelude_project):
    (prelude_project.parent / "literate_prelude.py").write_text("raise SystemExit('not mine')\n")
    (prelude_project / "docs" / "guide" / "literate_prelude.py").write_text("units += '^2'\n")
    page = prelude_project / "docs" / "guide" / "units.md"
    assert [prelude.path for prelude in find_preludes(page)] == [
        "docs/literate_prelude.py", "docs/guide/literate_prelude.py"]
    [first, second] = IsolatedPageRunner(with_preludes(read_page(page), page)).run_all()
    assert first.output == "cm^2 cm\n" and second.output == "cm^2\n"


def test_without_a_project_root_a_page_takes_its_own_directory_s_prelude_alone(tmp_path):
    (tmp_path / "literate_prelude.py").write_text("outer = 1\n")
    (tmp_path / "pages").mkdir()
    assert find_preludes(tmp_path / "pages" / "page.md") == ()
    (tmp_path / "pages" / "literate_prelude.py").write_text("inner = 1\n")
    [prelude] = find_preludes(tmp_path / "pages" / "page.md")
    assert prelude.code == "inner = 1\n"


def test_a_run_looks_for_each_directory_s_preludes_once(prelude_project, monkeypatch):
    from rune.literate import prelude

    (prelude_project / "docs" / "guide" / "more.md").write_text(PRELUDE_PAGE)
    (prelude_project / "docs" / "other").mkdir()
    (prelude_project / "docs" / "other" / "literate_prelude.py").write_text("units = 'mm'\n")
    (prelude_project / "docs" / "other" / "units.md").write_text(PRELUDE_PAGE)
    searched = []
    monkeypatch.setattr(prelude, "find_preludes",
                        lambda path: searched.append(path) or find_preludes(path))
    found = {}
    pages = [prelude_project / "docs" / name for name in
             ("guide/units.md", "guide/more.md", "other/units.md")]
    preludes = [prelude.with_preludes(read_page(page), page, found).preludes for page in pages]
    assert searched == [pages[0], pages[2]]
    assert preludes[0] == preludes[1] != preludes[2]
    assert preludes[2][-1].code == "units = 'mm'\n"


def test_a_prelude_that_raises_fails_every_block_naming_its_line(prelude_project):
    (prelude_project / "docs" / "literate_prelude.py").write_text("x = 1\nunits = 1 / 0\n")
    page = prelude_project / "docs" / "guide" / "units.md"
    results = IsolatedPageRunner(with_preludes(read_page(page), page)).run_all()
    assert [result.outcome for result in results] == [Outcome.SETUP_FAILED] * 2
    assert "was not run because the prelude docs/literate_prelude.py raised" in results[0].report()
    assert 'File "docs/literate_prelude.py", line 2' in results[0].traceback
    assert "units = 1 / 0" in results[0].traceback


def test_promote_runs_the_prelude(prelude_project):
    page = prelude_project / "docs" / "guide" / "units.md"
    page.write_text(PRELUDE_PAGE.replace("cm cm", "stale"))
    assert cli(["promote", "-q", "docs"]) == 0
    assert page.read_text() == PRELUDE_PAGE


def test_pytest_runs_the_prelude(prelude_project):
    (prelude_project / "pyproject.toml").write_text(
        '[project]\nname = "units"\n\n[tool.rune-literate]\npaths = ["docs"]\n')
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    env["PYTHONPATH"] = str(REPO)
    completed = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q"],
                               cwd=prelude_project, env=env, capture_output=True, text=True,
                               timeout=300, check=False)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "2 passed" in completed.stdout


def test_export_puts_the_prelude_first_and_the_script_runs(prelude_project, capsys):
    assert cli(["export", "docs/guide/units.md", "--to", "py", "-o", "-"]) == 0
    script = capsys.readouterr().out
    assert script.startswith("# %%\n# The prelude docs/literate_prelude.py, which runs before")
    path = prelude_project / "units.py"
    path.write_text(script)
    completed = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                               timeout=120, check=False)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == "cm cm\ncm\n"
    cells = notebook(with_preludes(read_page("docs/guide/units.md"), "docs/guide/units.md"))
    assert cells["cells"][0]["metadata"] == {"tags": ["prelude"]}


# --- the install snippets ------------------------------------------------------------------

INSTALL_PAGES = ["docs/another-project.md", "README.md", "docs/getting-started.md"]
# A requirement naming rune in a snippet: "rune-autodiff[literate] @ git+URL", or a clone's path.
RUNE_REQUIREMENT = re.compile(r'(?:"|\s)(?P<requirement>(?:rune-autodiff|/path/to/rune)\b[^"`\s]*'
                              r'(?: @ [^"`\s]+)?)')


def rune_requirements(text: str) -> list[str]:
    return [match["requirement"] for match in RUNE_REQUIREMENT.finditer(text)
            if "@" in match["requirement"] or match["requirement"].startswith("/path/to/rune")
            or "[" in match["requirement"]]


def test_the_install_snippets_name_rune_s_distribution_its_extras_and_its_repository():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    mkdocs = (REPO / "mkdocs.yml").read_text()
    repository = re.search(r'repo_url: !ENV \[RUNE_REPO_URL, "(?P<url>[^"]+)"\]', mkdocs)["url"]
    seen = set()
    for name in INSTALL_PAGES:
        for text in rune_requirements((REPO / name).read_text()):
            if text.startswith("/path/to/rune"):  # a path install: only its extras to check
                text = "rune-autodiff" + text[len("/path/to/rune"):]
            requirement = Requirement(text)
            seen.add((name, bool(requirement.url)))
            assert requirement.name == project["name"], (name, text)
            assert requirement.extras <= set(project["optional-dependencies"]), (name, text)
            if requirement.url:  # no release on the package index: a git URL
                assert requirement.url == f"git+{repository}.git", (name, text)
    # Each page shows both ways: the repository, and a clone.
    assert seen == {(name, url) for name in INSTALL_PAGES for url in (True, False)}


def test_the_walkthrough_s_project_installs_rune_from_its_repository_and_names_its_plugin():
    text = (REPO / "docs" / "another-project.md").read_text()
    files = dict(re.findall(r'^`{3,}\w+ title="([^"]+)"\n(.*?)^`{3,}\n', text, re.M | re.S))
    extras = tomllib.loads(files["pyproject.toml"])["project"]["optional-dependencies"]
    [rune] = [Requirement(text) for text in extras["docs"] if text.startswith("rune-autodiff")]
    assert rune.url and "literate" in rune.extras
    plugins = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["entry-points"][
        "mkdocs.plugins"]
    site = yaml.safe_load(files["mkdocs.yml"])
    named = [next(iter(entry)) if isinstance(entry, dict) else entry for entry in site["plugins"]]
    assert "rune-literate" in named and set(named) - {"search"} <= set(plugins)
    assert "- rune-literate" in (REPO / "mkdocs.yml").read_text()


def test_an_annotation_list_in_a_list_item_ends_where_the_item_s_prose_goes_on():
    item = ("1. A step:\n\n    ```python\n    print(1)  # (1)!\n    ```\n\n"
            "    1.  The note.\n        Its second line.\n\n")
    out = "    ```out\n    1\n    ```\n"
    text = item + "    The step goes on.\n"
    assert promoted(text) == item[:-1] + "\n" + out + "\n    The step goes on.\n"


def test_export_keeps_the_caption_and_annotation_list_between_a_block_and_its_out_block():
    page = parse_page(code_then(CAPTIONS["annotation list"] + CAPTIONS["emphasis"]), "page.md")
    script = export_page(page, "py")
    assert "# %% [markdown]\n# 1.  A list comprehension." in script
    assert "# *Listing 1: the squares*\n" in script
    markdown = ["".join(cell["source"]) for cell in notebook(page)["cells"]
                if cell["cell_type"] == "markdown"]
    assert markdown == [CAPTIONS["annotation list"] + CAPTIONS["emphasis"].rstrip("\n")]
