"""rune._pictures: the docs' SVG pictures, drawn from the engine's own data.

The pages compare each picture's text with what rune draws now; these check
that what is drawn is rune's numbers, that the drawing is deterministic and
fits the site's column, and that bad input gets a clear error.
"""

import re

import numpy as np
import pytest

import rune
from rune import _pictures, nx
from rune._pictures.svg import FONT, WIDTH

SMALLEST_READABLE = 11  # px, as scripts/site_check.py asks
PHONE_COLUMN = 358  # px: the content column at 390 px


def f(x):
    return nx.sum(nx.sin(x) * x)


def g(x):
    return nx.stack([x[0] * x[1] * x[2], x[0] + 2 * x[1]])


X = nx.array([1.0, 2.0])


def texts(svg):
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def test_forward_flow_shows_each_value_and_the_tangent_jvp_gives():
    svg = _pictures.flow(f, X, tangent=nx.array([1.0, 1.0]))
    _, tangent = rune.jvp(f, (X,), (nx.array([1.0, 1.0]),))
    lines = texts(svg)
    assert ["a: input", "b = sin a", "c = b \u00d7 a", "d = sum c"] == lines[1::3]
    assert lines[-1] == f"tangent {float(tangent):.3g}"  # 1.46
    assert 'marker-end="url(#rp-arrow-tan)"' in svg and "marker-start" not in svg


def test_reverse_flow_ends_at_the_gradient_with_arrows_pointing_back():
    svg = _pictures.flow(f, X)
    gradient = rune.grad(f)(X)
    lines = texts(svg)
    assert lines[3] == "cotangent [" + ", ".join(f"{v:.3g}" for v in gradient) + "]"
    assert lines[-1] == "cotangent 1"
    assert 'marker-start="url(#rp-arrow-cot)"' in svg and "marker-end" not in svg


def test_pictures_are_deterministic_and_fit_a_phone():
    drawings = [
        _pictures.flow(f, X),
        _pictures.program(rune.linearize(f, X)[1].graph, "tangents", "tan"),
        _pictures.linearize_then_transpose(f, X),
        _pictures.jacobian_shapes(g, nx.array([1.0, 2.0, 3.0])),
        _pictures.vmap_axes(lambda r: r * 2, nx.array([[1.0, 2.0], [3.0, 4.0]]), out_axes=1),
    ]
    again = _pictures.flow(f, X)
    assert drawings[0] == again
    for svg in drawings:
        width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg)[1])
        assert width <= WIDTH
        assert FONT * min(1, PHONE_COLUMN / width) >= SMALLEST_READABLE
        assert "font:13px" in svg and not re.search(r"font-size", svg)
        # both palettes: text in the page's colour, colours as CSS variables
        assert "fill:currentColor" in svg and "[data-md-color-scheme=slate]" in svg
        assert not re.search(r'(fill|stroke)="#', svg)


def test_the_jacobian_picture_shows_jacfwd_with_the_column_of_a_jvp_and_the_row_of_a_vjp():
    x = nx.array([1.0, 2.0, 3.0])
    svg = _pictures.jacobian_shapes(g, x, column=1, row=1)
    numbers = texts(svg)
    jacobian = np.asarray(rune.jacfwd(g)(x)._value)
    assert numbers[1:7] == [f"{v:g}" for v in jacobian.reshape(-1)]
    assert svg.count('class="hl-tan"') == 2 + 3 + 2  # J's column 1, v, J v
    assert svg.count('class="hl-cot"') == 2 + 3 + 3  # u, J's row 1, u^T J
    assert "jvp: J v = one column (3 passes for J)" in numbers
    assert "vjp: u\u1d40 J = one row (2 passes for J)" in numbers


def test_the_vmap_picture_colours_each_example_where_it_goes():
    rows = nx.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    svg = _pictures.vmap_axes(lambda row: nx.sum(row * row), rows, in_axes=1)
    assert "f([1, 3, 5]) = 35" in texts(svg) and "f([2, 4, 6]) = 56" in texts(svg)
    # x's columns in two colours, then the results in the same two
    cells = re.findall(r'<rect class="(e\d) example"', svg)
    assert cells == ["e0", "e1"] * 3 + ["e0", "e1"]


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="must take one array and return one number"):
        _pictures.flow(lambda x: x * 2, X)
    with pytest.raises(ValueError, match=r"x must be 2-d, got shape \(2,\)"):
        _pictures.vmap_axes(lambda r: r, X)
    with pytest.raises(ValueError, match="at most 4 examples, got 5"):
        _pictures.vmap_axes(lambda r: r, nx.ones((5, 2)))
    with pytest.raises(ValueError, match=r"must map a vector to a vector, got a Jacobian of shape \(2,\)"):
        _pictures.jacobian_shapes(f, X)


def test_a_label_too_long_for_its_box_raises_instead_of_spilling_out():
    def long_names(x):
        return nx.sum(nx.broadcast_to(nx.reshape(x, (1, 2)), (3, 2)) * nx.arange(6.0).reshape(3, 2)
                      + nx.broadcast_to(nx.reshape(x, (1, 2)), (3, 2)) * x)

    graph = rune.make_graph(long_names)(X)
    wide = rune.make_graph(lambda x: [nx.sin(x + k) for k in range(8)])(X)
    with pytest.raises(ValueError, match="too long for a box"):
        _pictures.program(wide, "eight at once")
    assert "<svg" in _pictures.program(graph, "fits")


def test_long_values_are_cut_to_fit_their_box():
    x = nx.array([-0.0123, -0.0456, -0.0789, -0.0111])
    svg = _pictures.flow(lambda x: nx.sum(nx.sin(x) + nx.cos(x)), x)  # two boxes in a row
    lines = texts(svg)
    assert "value [\u22120.0123, \u2026]" in lines  # the first box, 160 units wide
    assert "cotangent [1.01, \u2026]" in lines
