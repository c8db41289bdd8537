r"""rune.literate: markdown pages whose code runs as tests, with a promote step.

A page's ```` ```python ```` blocks run in order in one namespace; the
```` ```out ```` block after each holds exactly what it prints. pytest runs the
pages through Sybil (`rune.literate.pytest_plugin`), ``python -m
rune.literate check`` runs them without pytest, and ``python -m rune.literate
promote`` writes the actual output back into the out blocks. All three run
each page in a worker process ([`IsolatedPageRunner`][rune.literate.IsolatedPageRunner]), lent by a
[`WorkerPool`][rune.literate.WorkerPool] that reuses workers from page to page.

This package imports only the standard library (Sybil and pytest are needed
by the pytest plugin alone), and nothing of the rune engine.

>>> page = parse_page("```python\nprint(2 + 2)\n```\n\n```out\n4\n```\n")
>>> [result.outcome.name for result in PageRunner(page).run_all()]
['PASSED']
"""

from .compare import diff_outputs, normalize_output, output_matches
from .isolation import IsolatedPageRunner
from .pool import WorkerPool
from .parser import (
    DIRECTIVES,
    LiterateSyntaxError,
    Page,
    PythonBlock,
    parse_page,
    read_page,
)
from .promote import PromotedPage, PromoteError, promote_page, promote_text, write_atomically
from .runner import BlockResult, Outcome, PageRunner, exception_summary

__all__ = [
    "DIRECTIVES",
    "BlockResult",
    "IsolatedPageRunner",
    "LiterateSyntaxError",
    "Outcome",
    "Page",
    "PageRunner",
    "PromoteError",
    "PromotedPage",
    "PythonBlock",
    "WorkerPool",
    "diff_outputs",
    "exception_summary",
    "normalize_output",
    "output_matches",
    "parse_page",
    "promote_page",
    "promote_text",
    "read_page",
    "write_atomically",
]
