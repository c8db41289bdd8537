"""The site's build-time flowcharts (scripts/mkdocs_diagrams.py) and what
scripts/site_figures.py finds wrong in a page's maths and scripts, without a
browser (scripts/site_check.py runs both on the built site)."""

import importlib.util
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
sys.path.insert(0, str(SCRIPTS))


def load(name):
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


diagrams = load("mkdocs_diagrams")
figures = load("site_figures")
F = "```"
HOME = f"""# Home

{F}mermaid
flowchart TD
  nx["rune.nx: tensors"] --> primitives["primitives: rules"]
  primitives --> forward["forward mode"]
  primitives --> reverse["reverse mode"]
{F}
"""


def test_a_boxes_and_arrows_flowchart_is_drawn_at_build_time():
    page = diagrams.draw_static_flowcharts(HOME)
    assert f"{F}mermaid" not in page and f"\n{F}svg\n<svg " in page
    for label in ("rune.nx: tensors", "primitives: rules", "forward mode", "reverse mode"):
        assert f">{label}</text>" in page
    assert page.count('marker-end="url(#rp-arrow)"') == 3


def test_labels_of_chained_arrows_and_bare_names():
    labels, edges = diagrams.parse_flowchart("graph TB\n  a --> b[\"B\"] --> c\n")
    assert labels == {"a": "a", "b": "B", "c": "c"}
    assert edges == [("a", "b"), ("b", "c")]


def test_what_mermaid_must_draw_stays_mermaid():
    others = [
        "flowchart LR\n  x --> y",  # sideways
        'flowchart TD\n  a[/"input"/] --> b',  # another shape
        "flowchart TD\n  a -->|label| b",  # a label on an arrow
        'flowchart TD\n  a["x<br/>y"] --> b',  # markup in a label
        "flowchart TD\n  subgraph s\n  a --> b\n  end",
        "flowchart TD\n  a --> b\n  b --> a",  # a cycle: parsed, but not drawable
    ]
    for source in others[:-1]:
        assert diagrams.parse_flowchart(source) is None, source
    for source in others:
        page = f"{F}mermaid\n{source}\n{F}\n"
        try:
            assert diagrams.draw_static_flowcharts(page) == page
        except ValueError as error:  # the cycle
            assert "cycle" in str(error)


def test_out_blocks_and_diagrams_shown_as_source_stay():
    out_block = f"{F}python\nprint(chart)\n{F}\n\n<!-- literate: out -->\n{HOME[8:]}"
    assert diagrams.draw_static_flowcharts(out_block) == out_block
    shown = f"{F}{F[:2]}markdown\n{HOME[8:]}{F}{F[:2]}\n"
    assert diagrams.draw_static_flowcharts(shown) == shown


def seen(prose="", diagrams=0, maths=0, mermaid=False, katex=False, docstrings=""):
    return {"prose": prose + docstrings, "pages_prose": prose, "diagrams": diagrams, "maths": maths,
            "mermaid_loaded": mermaid, "katex_loaded": katex}


def test_maths_left_raw_or_written_in_unicode_is_found():
    assert figures.check_maths_and_scripts(seen("The gradient of x is 2x.")) == []
    for prose in ("it is $x^2$ here", r"it is \(x^2\)", r"\[ J^\top \]"):
        (failure,) = figures.check_maths_and_scripts(seen(prose))
        assert failure.startswith("maths left as text"), prose
    for prose in ("x̄ = Jᵀ ȳ", "Σ sin(xᵢ)", "sin′(0.5)", "the square x²", "e₀ moves x₀"):
        (failure,) = figures.check_maths_and_scripts(seen(prose))
        assert failure.startswith("maths written in Unicode"), prose
    # a docstring may write x² (help() shows it as text), not $x^2$
    assert figures.check_maths_and_scripts(seen(docstrings="hypot: sqrt(x₁² + x₂²)")) == []
    assert figures.check_maths_and_scripts(seen(docstrings="hypot: $x^2$"))
    # prices and shell prompts are not maths
    assert figures.check_maths_and_scripts(seen("costs $5 or more; $ pip install")) == []


def test_mermaid_and_katex_load_only_where_they_are_used():
    assert figures.check_maths_and_scripts(seen(mermaid=True, diagrams=1)) == []
    assert figures.check_maths_and_scripts(seen(mermaid=True)) == [
        "the page loads the Mermaid script but has no diagram"]
    assert figures.check_maths_and_scripts(seen(katex=True)) == [
        "the page loads KaTeX but has no maths"]
