"""Pictures of recorded programs (`rune.graph.Graph`): one box per input and
per equation, in layers from the inputs down, with arrows where values go.

`program` draws any graph (a linear program of `rune.linearize`, the
transposed program of a pullback). `flow` draws a function's own graph
with, in each box, the value and either its tangent (forward mode: arrows
down, with the values) or its cotangent (reverse mode: arrows up, against
them), all computed by rune.
"""

from __future__ import annotations

import rune
from rune import nx
from rune.graph import Graph, Var, _Naming, results

from .svg import CHAR, LINE, WIDTH, Canvas, array_text

MARGIN = 8
GAP = 12  # between boxes of a layer
ROW_GAP = 26  # between layers
LANE = 12  # between the lanes of arrows that skip layers
SYMBOLS = {"multiply": "\u00d7", "add": "+", "subtract": "\u2212", "divide": "/"}


def equation_label(eq, names: _Naming) -> str:
    """`c = b × a`, `b = sin a`: an equation in a few characters (no params)."""
    prim, args, _, out = eq
    made = ", ".join(names.arg(o) for o in results(out))
    operands = [names.arg(a) for a in args]
    if prim.name in SYMBOLS and len(operands) == 2:
        return f"{made} = {operands[0]} {SYMBOLS[prim.name]} {operands[1]}"
    return f"{made} = {prim.name} {' '.join(operands)}"


def graph_nodes(graph: Graph):
    """A graph's boxes (its inputs, then its equations) and, for each box's
    `id`, the boxes that make its arguments, once each."""
    nodes = list(graph.inputs) + list(graph.equations)
    made_by = {id(var): var for var in graph.inputs}  # id of a Var -> its box
    sources = {}
    for eq in graph.equations:
        found = []
        for arg in eq[1]:
            node = made_by.get(id(arg))
            if node is not None and all(node is not s for s in found):
                found.append(node)
        sources[id(eq)] = found
        for var in results(eq[3]):
            made_by[id(var)] = eq
    return nodes, sources


class Layout:
    """Boxes in layers: a box with no sources in layer 0, any other one layer
    below the lowest of its sources; the widest layer sets the box width,
    the box with the most lines of a layer its height (`lines(node, box_w)`).
    `nodes` come in an order where each box's sources come before it."""

    def __init__(self, nodes, sources: dict, lines, top: float, width: float = WIDTH,
                 uniform: bool = True):
        self.nodes = list(nodes)
        self.sources = sources
        layer = {}
        for node in self.nodes:  # sources come first
            layer[id(node)] = 1 + max((layer[id(s)] for s in sources.get(id(node), ())),
                                      default=-1)
        self.layer = layer
        rows = max(layer.values()) + 1
        per_row = [[n for n in self.nodes if layer[id(n)] == r] for r in range(rows)]
        self.column = {id(n): (i, len(row)) for row in per_row for i, n in enumerate(row)}
        # Arrows that skip layers go down a lane beside the boxes: on the left
        # from the first box of a row of several, else on the right.
        self.skips = [(s, n) for n in self.nodes for s in sources.get(id(n), ())
                      if layer[id(n)] - layer[id(s)] > 1]
        left = sum(self.side(s) == "left" for s, _ in self.skips)
        right = len(self.skips) - left
        self.left_lanes = LANE * left + 6 if left else 0
        right_lanes = LANE * right + 6 if right else 0
        widest = max(len(row) for row in per_row)
        room = width - 2 * MARGIN - self.left_lanes - right_lanes - GAP * (widest - 1)
        self.position = {}
        self.row_height = {}
        self.box_width = {}  # boxes of a row are as wide; all are, if uniform
        middle = MARGIN + self.left_lanes + (room + GAP * (widest - 1)) / 2
        y = top
        for row in per_row:
            fits = (room + GAP * (widest - len(row))) / len(row)
            box_w = min(250.0, room / widest if uniform else fits)
            height = max(lines(node, box_w) for node in row) * LINE + 8
            total = len(row) * box_w + (len(row) - 1) * GAP
            for i, node in enumerate(row):
                self.position[id(node)] = (middle - total / 2 + i * (box_w + GAP), y)
                self.row_height[id(node)] = height
                self.box_width[id(node)] = box_w
            y += height + ROW_GAP
        self.bottom = y - ROW_GAP

    @classmethod
    def of_graph(cls, graph: Graph, lines: int, top: float) -> Layout:
        """A graph's boxes, each `lines` lines tall, labelled by `label`."""
        nodes, sources = graph_nodes(graph)
        layout = cls(nodes, sources, lambda node, box_w: lines, top)
        layout.names = _Naming(graph)
        return layout

    def side(self, source) -> str:
        index, count = self.column[id(source)]
        return "left" if index == 0 and count > 1 else "right"

    def label(self, node) -> str:
        if isinstance(node, Var):
            return f"{self.names.arg(node)}: input"
        return equation_label(node, self.names)

    def label_line(self, node) -> list:
        return [(self.label(node), "")]

    def draw(self, canvas: Canvas, lines_of, head: str, colour: str) -> None:
        """Boxes (each with the text lines `lines_of(node)`) and arrows."""
        for node in self.nodes:
            x, y = self.position[id(node)]
            box_w = self.box_width[id(node)]
            canvas.rect(x, y, box_w, self.row_height[id(node)], rounded=5)
            for i, (text, css) in enumerate(lines_of(node)):
                if len(text) * CHAR > box_w - 8:  # it would spill out of its box
                    raise ValueError(f"rune._pictures: {text!r} is too long for a box "
                                     f"{box_w:.0f} units wide")
                canvas.text(x + 6, y + 4 + (i + 1) * LINE - 4, text, css)
        for node in self.nodes:
            sources = self.sources.get(id(node), ())
            tx, ty = self.position[id(node)]
            for k, source in enumerate(sources):
                if self.layer[id(node)] - self.layer[id(source)] > 1:
                    continue
                sx, sy = self.position[id(source)]
                bottom = sy + self.row_height[id(source)]
                # into the top of the box, spread along it by argument
                into = tx + self.box_width[id(node)] * (k + 1) / (len(sources) + 1)
                start = sx + self.box_width[id(source)] / 2
                below = bottom + ROW_GAP / 2
                points = [(start, bottom), (start, below), (into, below), (into, ty)]
                canvas.path(points, head=head, colour=colour)
        lanes = {"left": 0, "right": 0}
        for source, node in self.skips:
            side = self.side(source)
            lanes[side] += 1
            (sx, sy), (tx, ty) = self.position[id(source)], self.position[id(node)]
            if side == "right":
                out_x = sx + self.box_width[id(source)]
                in_x = tx + self.box_width[id(node)]
                x_lane = max(out_x, in_x) + LANE * lanes[side]
            else:
                x_lane = min(sx, tx) - LANE * lanes[side]
                out_x, in_x = sx, tx
            out_y = sy + self.row_height[id(source)] / 2
            in_y = ty + self.row_height[id(node)] / 2
            points = [(out_x, out_y), (x_lane, out_y), (x_lane, in_y), (in_x, in_y)]
            canvas.path(points, head=head, colour=colour)


def program(graph: Graph, title: str, colour: str = "") -> str:
    """A recorded program as boxes and arrows, one box per input and equation.

    `colour` is "tan" for a tangent program, "cot" for a cotangent one.
    """
    canvas = Canvas(f"{title}: the program as boxes and arrows")
    canvas.text(MARGIN, 16, title, colour)
    layout = Layout.of_graph(graph, lines=1, top=28)
    layout.draw(canvas, layout.label_line, "end", colour)
    return canvas.svg()


def _all_values(graph: Graph, x):
    """Every input's and equation's value, running the graph on x."""
    env = {id(graph.inputs[0]): x}
    values = [x]
    for prim, args, params, out in graph.equations:
        if type(out) is tuple:
            raise ValueError("rune._pictures.flow: an equation with several results")
        env[id(out)] = prim.bind(*[env.get(id(a), a) for a in args], **params)
        values.append(env[id(out)])
    return values


def _cotangents(graph: Graph, x):
    """The cotangent of every input and equation result, when the output's is 1:
    rune.vjp of the graph with a zero added to each result."""
    def perturbed(x, *zeros):
        env = {id(graph.inputs[0]): x}
        for (prim, args, params, out), zero in zip(graph.equations, zeros):
            env[id(out)] = prim.bind(*[env.get(id(a), a) for a in args], **params) + zero
        return env[id(graph.outputs[0])]

    zeros = [nx.zeros(out.shape, dtype=out.dtype) for _, _, _, out in graph.equations]
    y, pullback = rune.vjp(perturbed, x, *zeros)
    return list(pullback(nx.ones_like(y)))


def flow(f, x, tangent=None) -> str:
    """f's graph at x with each value's tangent along `tangent` (forward
    mode) or, with no tangent, each value's cotangent for the cotangent 1 of
    f's output (reverse mode). f takes one array and returns one number."""
    graph = rune.make_graph(f)(x)
    if len(graph.inputs) != 1 or len(graph.outputs) != 1 or graph.outputs[0].shape != ():
        raise ValueError("rune._pictures.flow: f must take one array and return one number")
    if tangent is None:
        title, word, colour, head = "reverse: cotangents flow back", "cotangent", "cot", "start"
        values = _all_values(graph, x)
        carried = _cotangents(graph, x)
    else:
        title, word, colour, head = "forward: tangents flow with values", "tangent", "tan", "end"
        values, carried = rune.jvp(lambda x: tuple(_all_values(graph, x)), (x,), (tangent,))
    pairs = {id(node): (value, other)
             for node, value, other in zip([*graph.inputs, *graph.equations], values, carried)}
    canvas = Canvas(f"{title}: the graph of f, each value with its {word}")
    canvas.text(MARGIN, 16, title, colour)
    layout = Layout.of_graph(graph, lines=3, top=28)

    def lines_of(node):
        value, other = pairs[id(node)]
        room = layout.box_width[id(node)] - 8
        return [(layout.label(node), ""),
                (fitting("value " + " " * (len(word) - 5), value, room), "muted"),
                (fitting(f"{word} ", other, room), colour)]

    layout.draw(canvas, lines_of, head, colour)
    return canvas.svg()


def fitting(prefix: str, value, room: float) -> str:
    """`prefix` and as many of value's entries, to as many digits, as fit in
    `room` units (the prefix's padding goes first)."""
    for start in (prefix, prefix.rstrip() + " "):
        for most, digits in ((3, 3), (2, 3), (1, 3), (2, 2), (1, 2)):
            text = start + array_text(value, digits=digits, most=most)
            if len(text) * CHAR <= room:
                return text
    return prefix.rstrip() + " \u2026"


def programs(panels, label: str) -> str:
    """Programs one above the other: `panels` holds (graph, title, colour)
    triples. Under each title, the constants the program keeps (the
    residuals of a linearization), since they are what it costs in memory."""
    canvas = Canvas(label)
    top = 16
    for graph, title, colour in panels:
        canvas.text(MARGIN, top, title, colour)
        layout = Layout.of_graph(graph, lines=1, top=top + 34)
        kept = [layout.names.arg(k) for k in layout.names.constants]
        canvas.text(MARGIN, top + 20, "constants kept: " + (", ".join(kept) or "none"), "muted")
        layout.draw(canvas, layout.label_line, "end", colour)
        top = layout.bottom + 34
    return canvas.svg()


def linearize_then_transpose(f, x) -> str:
    """f's tangent program (`rune.linearize`) above its transpose (the
    program of `rune.vjp`'s pullback, traced by `rune.make_graph`): the two
    steps of reverse mode. f takes one array and returns one number."""
    y, tangent_map = rune.linearize(f, x)
    _, pullback = rune.vjp(f, x)
    transposed = rune.make_graph(pullback)(nx.ones_like(y))
    return programs([
        (tangent_map.graph, "1. linearize: tangent in, tangent out", "tan"),
        (transposed, "2. transpose: cotangent in, cotangents out", "cot"),
    ], "linearize, then transpose: the tangent program and its transpose")
