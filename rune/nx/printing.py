"""How tensors print: `float64 [2] [3, 4]`.

A header (dtype, then the shape as a list) and the values. Numbers print in
their shortest round-trip form, so a printed value reads back to the same
number at its precision: `0.5403023058681397` in float64, `0.1` in float32
(not `0.100000001`). Whole floats drop the `.0` (`3`, not `3.0`); nan and
infinities print as `nan`, `inf`, `-inf`. Complex numbers print as `2-4i`
(`0+1i`, `-6-1i`); booleans as `True` and `False`, as Python spells them.

A 0-d tensor prints its value after the header (`float64 [] 3`), a vector
on the header's line; two and more dimensions print one row per line, all
elements aligned on the right to one width, blocks of higher dimensions
separated by blank lines, as numpy does. Tensors with more than
`SUMMARY_THRESHOLD` elements show the first and last `EDGE_ITEMS` of each
long axis around `...`.

>>> from rune import nx
>>> print(nx.array([[1.0, -2.5], [300.0, 4.0]]))
float64 [2, 2]
[[   1, -2.5],
 [ 300,    4]]
"""

from __future__ import annotations

import numpy as np

SUMMARY_THRESHOLD = 1000
EDGE_ITEMS = 3


def format_number(x) -> str:
    """One element in shortest round-trip form: `3`, `0.5`, `2-4i`, `True`."""
    return _formatter(np.asarray(x).dtype.kind)(x)


def _format_real(x) -> str:
    # numpy's str of a float scalar is the shortest string that reads back to
    # the same value at that precision (float32 prints as 0.1, not 0.100000001).
    text = str(x) if isinstance(x, np.floating) else repr(float(x))
    return text[:-2] if text.endswith(".0") else text


def _format_complex(x) -> str:
    sign = "-" if np.signbit(x.imag) else "+"
    return f"{_format_real(x.real)}{sign}{_format_real(np.abs(x.imag))}i"


def _format_bool(x) -> str:
    return "True" if x else "False"


def _formatter(kind):
    return {"f": _format_real, "c": _format_complex, "b": _format_bool}.get(kind, str)


def format_tensor(value: np.ndarray) -> str:
    """The full printed form of an array: header, then values."""
    value = np.asarray(value)
    header = f"{value.dtype} {list(value.shape)}"
    fmt = _formatter(value.dtype.kind)
    if value.ndim == 0:
        return f"{header} {fmt(value[()])}"
    cells = _cells(value, value.size > SUMMARY_THRESHOLD, fmt)
    if value.ndim == 1:
        return f"{header} {_layout(cells, 0, indent=1)}"
    width = max((len(c) for c in _flatten(cells)), default=0)
    return f"{header}\n{_layout(cells, width, indent=1)}"


def _cells(value, summarize, fmt):
    """Nested lists of element strings; `None` stands for an elided run."""
    n = value.shape[0]
    if summarize and n > 2 * EDGE_ITEMS:
        indices = [*range(EDGE_ITEMS), None, *range(n - EDGE_ITEMS, n)]
    else:
        indices = range(n)
    if value.ndim == 1:
        return [None if i is None else fmt(value[i]) for i in indices]
    return [None if i is None else _cells(value[i], summarize, fmt) for i in indices]


def _flatten(cells):
    for c in cells:
        if isinstance(c, str):
            yield c
        elif c is not None:
            yield from _flatten(c)


def _layout(cells, width, indent):
    if not any(isinstance(c, list) for c in cells):  # a row of numbers (or empty)
        return "[" + ", ".join("..." if c is None else c.rjust(width) for c in cells) + "]"
    depth = _depth(cells)
    # Rows of a matrix end with ",\n"; blocks of higher tensors add blank lines.
    separator = "," + "\n" * (depth - 1) + " " * indent
    rows = ["..." if c is None else _layout(c, width, indent + 1) for c in cells]
    return "[" + separator.join(rows) + "]"


def _depth(cells):
    depth = 0
    while isinstance(cells, list):
        cells = next((c for c in cells if c is not None), None)
        depth += 1
    return depth
