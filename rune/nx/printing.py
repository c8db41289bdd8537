"""How tensors print: `float64 [2] [3, 4]`.

A header (dtype, then the shape as a list) and the values. Numbers print in
their shortest round-trip form, so a printed value reads back to the same
float: `0.5403023058681397`, and whole floats drop the `.0` (`3`, not `3.0`).
Complex numbers print as `2-4i`; booleans as `True` and `False`, as Python
spells them. A vector prints on the header's line; two and more dimensions
print one row per line, aligned on the right, numpy-style. Tensors with more
than `SUMMARY_THRESHOLD` elements show the first and last `EDGE_ITEMS` of each
long axis around `...`.
"""

from __future__ import annotations

import numpy as np

SUMMARY_THRESHOLD = 1000
EDGE_ITEMS = 3


def format_number(x) -> str:
    """One element in shortest round-trip form: `3`, `0.5`, `2-4i`, `True`."""
    kind = np.asarray(x).dtype.kind
    if kind == "c":
        re, im = _format_real(x.real), _format_real(abs(x.imag))
        sign = "-" if np.signbit(x.imag) else "+"
        return f"{re}{sign}{im}i"
    if kind == "f":
        return _format_real(x)
    if kind == "b":
        return "True" if x else "False"
    return str(x)


def _format_real(x) -> str:
    # numpy's str of a float scalar is the shortest string that reads back to
    # the same value at that precision (float32 prints as 0.1, not 0.100000001).
    text = str(x) if isinstance(x, np.floating) else repr(float(x))
    return text[:-2] if text.endswith(".0") else text


def format_tensor(value: np.ndarray) -> str:
    """The full printed form of an array: header, then values."""
    value = np.asarray(value)
    header = f"{value.dtype} {list(value.shape)}"
    if value.ndim == 0:
        return f"{header} {format_number(value[()])}"
    summarize = value.size > SUMMARY_THRESHOLD
    cells = _cells(value, summarize)
    if value.ndim == 1:
        return f"{header} {_layout(cells, 0, indent=1)}"
    width = max((len(c) for c in _flatten(cells)), default=0)
    return f"{header}\n{_layout(cells, width, indent=1)}"


def _cells(value, summarize):
    """Nested lists of element strings; `None` stands for an elided run."""
    if value.ndim == 0:
        return format_number(value[()])
    n = value.shape[0]
    if summarize and n > 2 * EDGE_ITEMS:
        head = [_cells(value[i], summarize) for i in range(EDGE_ITEMS)]
        tail = [_cells(value[i], summarize) for i in range(n - EDGE_ITEMS, n)]
        return head + [None] + tail
    return [_cells(value[i], summarize) for i in range(n)]


def _flatten(cells):
    if isinstance(cells, str):
        yield cells
    elif cells is not None:
        for c in cells:
            yield from _flatten(c)


def _layout(cells, width, indent):
    if not cells or isinstance(cells[0], str) or (cells[0] is None and len(cells) == 1):
        items = ["..." if c is None else c.rjust(width) for c in cells]
        return "[" + ", ".join(items) + "]"
    depth = _depth(cells)
    # Rows of a matrix end with ",\n"; blocks of higher tensors add blank lines.
    separator = "," + "\n" * (depth - 1) + " " * indent
    rows = ["..." if c is None else _layout(c, width, indent + 1) for c in cells]
    return "[" + separator.join(rows) + "]"


def _depth(cells):
    depth = 0
    while isinstance(cells, list):
        cells = next(c for c in cells if c is not None) if cells else None
        depth += 1
    return depth
