"""How tensors print: `float64 [2] [3, 4]`, exactly."""

import numpy as np
import pytest

from rune import nx
from rune.nx.printing import format_number


@pytest.mark.parametrize("value, text", [
    (nx.array([3.0, 4.0]), "float64 [2] [3, 4]"),  # whole floats without .0
    (nx.array(3.0), "float64 [] 3"),
    (nx.array([0.5403023058681397]), "float64 [1] [0.5403023058681397]"),  # shortest round trip
    (nx.array([0.1, 1 / 3]), "float64 [2] [0.1, 0.3333333333333333]"),
    (nx.array([0.1, 1 / 3], dtype=nx.float32), "float32 [2] [0.1, 0.33333334]"),
    (nx.array([1 + 2j, -3 + 0.5j]).conj() * 2, "complex128 [2] [2-4i, -6-1i]"),
    (nx.array([1j, -1.5 + 0j], dtype=nx.complex64), "complex64 [2] [0+1i, -1.5+0i]"),
    (nx.array([True, False]), "bool [2] [True, False]"),
    (nx.array([1, -20], dtype=nx.int32), "int32 [2] [1, -20]"),
    (nx.array([np.nan, np.inf, -np.inf]), "float64 [3] [nan, inf, -inf]"),
    (nx.array([1e20, 1e-7, -0.0]), "float64 [3] [1e+20, 1e-07, -0]"),
    (nx.array(123456789.0), "float64 [] 123456789"),
    (nx.zeros(0), "float64 [0] []"),
])
def test_vectors_and_scalars(value, text):
    assert str(value) == text
    assert repr(value) == f"Tensor({text})"


def test_the_issue_examples():
    assert str(nx.create(nx.float64, [2], [3.0, 4.0])) == "float64 [2] [3, 4]"
    z = nx.array([1 + 2j, -3 + 0.5j])
    assert str(2 * nx.conj(z)) == "complex128 [2] [2-4i, -6-1i]"
    assert format_number(np.float64(0.5403023058681397)) == "0.5403023058681397"


def test_matrices_print_one_row_per_line_aligned_right():
    m = nx.array([[1.0, -2.5], [300.0, 4.0]])
    assert str(m) == "float64 [2, 2]\n[[   1, -2.5],\n [ 300,    4]]"
    assert repr(m) == "Tensor(float64 [2, 2]\n[[   1, -2.5],\n [ 300,    4]])"
    assert str(nx.array([[True], [False]])) == "bool [2, 1]\n[[ True],\n [False]]"


def test_higher_dimensions_separate_blocks_with_blank_lines():
    t = nx.arange(8).reshape(2, 2, 2)
    assert str(t) == (
        "int64 [2, 2, 2]\n"
        "[[[0, 1],\n"
        "  [2, 3]],\n"
        "\n"
        " [[4, 5],\n"
        "  [6, 7]]]"
    )


def test_large_tensors_are_summarized():
    assert str(nx.arange(2000)) == "int64 [2000] [0, 1, 2, ..., 1997, 1998, 1999]"
    assert str(nx.arange(1000)).count("...") == 0  # up to 1000 elements print whole
    big = nx.arange(3000).reshape(30, 100)
    assert str(big) == (
        "int64 [30, 100]\n"
        "[[   0,    1,    2, ...,   97,   98,   99],\n"
        " [ 100,  101,  102, ...,  197,  198,  199],\n"
        " [ 200,  201,  202, ...,  297,  298,  299],\n"
        " ...,\n"
        " [2700, 2701, 2702, ..., 2797, 2798, 2799],\n"
        " [2800, 2801, 2802, ..., 2897, 2898, 2899],\n"
        " [2900, 2901, 2902, ..., 2997, 2998, 2999]]"
    )


def test_empty_matrices():
    assert str(nx.zeros((2, 0))) == "float64 [2, 0]\n[[],\n []]"
    assert str(nx.zeros((0, 3))) == "float64 [0, 3]\n[]"


def test_dtypes_print_as_their_names():
    assert [str(d) for d in (nx.bool_, nx.int32, nx.int64, nx.float32, nx.float64,
                             nx.complex64, nx.complex128)] == \
        ["bool", "int32", "int64", "float32", "float64", "complex64", "complex128"]
    assert nx.bool is nx.bool_
