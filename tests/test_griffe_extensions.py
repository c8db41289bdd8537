"""The griffe extension that renders docstring examples (scripts/griffe_extensions.py).

scripts/site_check.py checks the built API pages; these check the fencing
itself, on docstring text.
"""

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("griffe")
_path = Path(__file__).resolve().parent.parent / "scripts" / "griffe_extensions.py"
_spec = importlib.util.spec_from_file_location("griffe_extensions", _path)
extensions = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("griffe_extensions", extensions)
_spec.loader.exec_module(extensions)


def test_an_example_runs_to_the_next_blank_line_in_a_pycon_fence():
    text = "Sums.\n\n>>> 1 + 1\n2\n>>> 2 + 2\n4\n\nAfter."
    assert extensions.fence_doctests(text) == (
        "Sums.\n\n```pycon\n>>> 1 + 1\n2\n>>> 2 + 2\n4\n```\n\nAfter.")


def test_an_example_printing_a_fence_gets_a_longer_fence():
    # promote_text's example prints a markdown page: a ``` fence of its own
    # closed the pycon fence early, splitting the example apart.
    text = ">>> print(page)\n```python\nprint('hi')\n```\n<BLANKLINE>\n````out\nhi\n````"
    fenced = extensions.fence_doctests(text).split("\n")
    assert fenced[0] == "`````pycon" and fenced[-1] == "`````"
    assert fenced[1:-1] == text.split("\n")
