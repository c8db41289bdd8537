"""Pictures of arrays: the shapes of a Jacobian, of jvp and of vjp, and what
vmap does to axes. Every number in them is computed by rune."""

from __future__ import annotations

import numpy as np

import rune
from rune import nx

from .svg import CHAR, FONT, Canvas, array_text, number

MARGIN = 8
CELL_H = 24
OPERATOR = 22  # room for a "·" or "=" between two arrays
PANEL_GAP = 22
EXAMPLES = 4  # colours of batch examples (e0 to e3 in the stylesheet)


def _values(x) -> np.ndarray:
    return np.asarray(getattr(x, "_value", x))


class Grid:
    """A 2-d array drawn as cells, each holding its number, any cell coloured."""

    def __init__(self, values, cell_w: float, css=None):
        self.values = np.atleast_2d(_values(values))
        self.cell_w = cell_w
        self.css = css or (lambda i, j: "cell")

    @property
    def width(self) -> float:
        return self.values.shape[1] * self.cell_w

    @property
    def height(self) -> float:
        return self.values.shape[0] * CELL_H

    def draw(self, canvas: Canvas, x: float, y: float) -> None:
        rows, columns = self.values.shape
        for i in range(rows):
            for j in range(columns):
                canvas.rect(x + j * self.cell_w, y + i * CELL_H, self.cell_w, CELL_H,
                            css=self.css(i, j))
                canvas.text(x + (j + 0.5) * self.cell_w, y + i * CELL_H + 17,
                            number(self.values[i, j]), anchor="middle")


def _cell_width(*arrays) -> float:
    longest = max(len(number(v)) for a in arrays for v in _values(a).reshape(-1))
    return max(30.0, longest * CHAR + 12)


def _equation(canvas: Canvas, y: float, grids_and_operators) -> float:
    """Arrays side by side with operators between, centred vertically; the bottom."""
    height = max(g.height for g in grids_and_operators if isinstance(g, Grid))
    x = MARGIN
    for item in grids_and_operators:
        if isinstance(item, Grid):
            item.draw(canvas, x, y + (height - item.height) / 2)
            x += item.width
        else:
            canvas.text(x + OPERATOR / 2, y + height / 2 + FONT * 0.35, item, anchor="middle")
            x += OPERATOR
    if x > canvas.width:
        raise ValueError(f"rune._pictures: arrays {x:.0f} units wide, over {canvas.width}")
    return y + height


def jacobian_shapes(f, x, column: int = 0, row: int = 0) -> str:
    """f's Jacobian at x (m outputs by n inputs, f from a vector to a vector),
    then the one column a jvp gives (along the basis vector e_column) and
    the one row a vjp gives (for the cotangent e_row)."""
    jacobian = rune.jacfwd(f)(x)
    if jacobian.ndim != 2:
        raise ValueError("rune._pictures.jacobian_shapes: f must map a vector to a vector, "
                         f"got a Jacobian of shape {tuple(jacobian.shape)}")
    m, n = jacobian.shape
    v = nx.eye(n, dtype=x.dtype)[column]
    u = nx.eye(m, dtype=x.dtype)[row]
    pushed = rune.jvp(f, (x,), (v,))[1]
    y, pullback = rune.vjp(f, x)
    pulled = pullback(u)[0]
    w = _cell_width(jacobian, pushed, pulled)
    canvas = Canvas("The Jacobian, a jvp gives one column of it, a vjp one row")
    canvas.text(MARGIN, 16, f"J: {m} outputs \u00d7 {n} inputs")
    bottom = _equation(canvas, 26, [Grid(jacobian, w)])
    y = bottom + PANEL_GAP + 8
    canvas.text(MARGIN, y, f"jvp: J v = one column ({n} passes for J)", "tan")
    tan_column = lambda i, j: "hl-tan" if j == column else "cell"  # noqa: E731
    tan = lambda i, j: "hl-tan"  # noqa: E731
    bottom = _equation(canvas, y + 10, [
        Grid(jacobian, w, tan_column), "\u00b7", Grid(_values(v)[:, None], w, tan),
        "=", Grid(_values(pushed)[:, None], w, tan)])
    y = bottom + PANEL_GAP + 8
    canvas.text(MARGIN, y, f"vjp: u\u1d40 J = one row ({m} passes for J)", "cot")
    cot_row = lambda i, j: "hl-cot" if i == row else "cell"  # noqa: E731
    _equation(canvas, y + 10, [
        Grid(_values(u)[None, :], w, lambda i, j: "hl-cot"), "\u00b7", Grid(jacobian, w, cot_row),
        "=", Grid(_values(pulled)[None, :], w, lambda i, j: "hl-cot")])
    return canvas.svg()


def vmap_axes(f, x, in_axes: int = 0, out_axes: int = 0) -> str:
    """What `rune.vmap(f, in_axes, out_axes)` does to a 2-d x: the examples
    along x's axis in_axes (one colour each), f of each, and where their
    results lie in the output (along out_axes)."""
    values = _values(x)
    if values.ndim != 2:
        raise ValueError(f"rune._pictures.vmap_axes: x must be 2-d, got shape {values.shape}")
    axis = in_axes % 2
    count = values.shape[axis]
    if count > EXAMPLES:
        raise ValueError(f"rune._pictures.vmap_axes: at most {EXAMPLES} examples, got {count}")
    out = rune.vmap(f, in_axes=in_axes, out_axes=out_axes)(x)
    out_values = _values(out)
    examples = [np.take(values, k, axis=axis) for k in range(count)]
    results = [f(nx.array(e)) for e in examples]
    w = _cell_width(values, out_values)
    colour = lambda k: f"e{k} example"  # noqa: E731
    canvas = Canvas(f"vmap maps f over axis {in_axes} of x and stacks the results "
                    f"along axis {out_axes}")
    canvas.text(MARGIN, 16, f"x: {list(values.shape)}, in_axes={in_axes}: {count} examples")
    bottom = _equation(canvas, 26, [Grid(values, w, lambda i, j: colour((i, j)[axis]))])
    y = bottom + PANEL_GAP
    for k, (example, result) in enumerate(zip(examples, results)):
        canvas.text(MARGIN, y, f"f({array_text(example)}) = {array_text(result)}", colour(k))
        y += FONT + 7
    y += PANEL_GAP - 8
    canvas.text(MARGIN, y, f"vmap(f, in_axes={in_axes}, out_axes={out_axes})(x): "
                f"{list(out_values.shape)}")
    out_axis = out_axes % max(out_values.ndim, 1)
    if out_values.ndim == 1:
        grid = Grid(out_values[None, :], w, lambda i, j: colour(j))
    else:
        grid = Grid(out_values, w, lambda i, j: colour((i, j)[out_axis]))
    _equation(canvas, y + 10, [grid])
    return canvas.svg()
