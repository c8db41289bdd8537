"""Batching rules: regressions, then the sweep over every primitive.

The regressions are the cases differential testing against JAX found (issue
19): matmul's batching rule reached with a batch axis other than 0, directly
through vmap or through jacfwd and hessian, which batch the tangents.
"""

import numpy as np
import pytest

import rune
from rune import nx
from tests.programs import assert_close

# --------------------------------------------------------- matmul regressions

C = np.array([[-0.2322980698725971, -1.7397586091233566],
              [0.36469376522309327, 1.3262161791944642]])


def test_jacfwd_of_a_quadratic_form_is_its_gradient():
    # jacfwd batches the tangent of x on an axis that matmul met as axis 1.
    x = np.array([0.41750111581567617, -1.8969636682435198])
    expected = (C + C.T) @ x  # [2.414479, -5.605659], as JAX and finite differences give
    assert_close(rune.jacfwd(lambda x: nx.dot(x, C @ x))(x), expected, rtol=1e-14)
    assert_close(rune.grad(lambda x: nx.dot(x, C @ x))(x), expected, rtol=1e-14)


def test_vmap_of_matmul_over_axis_0_and_axis_1():
    a = np.arange(9.0).reshape(3, 3)
    b = np.arange(9.0).reshape(3, 3) * 0.5 + 1
    expected = [a[i] @ b[:, i] for i in range(3)]  # [10.5, 39, 76.5]
    assert_close(rune.vmap(lambda u, v: u @ v, in_axes=(0, 1))(a, b), expected, rtol=1e-14)


def test_jacfwd_through_the_stacked_outputs_of_a_scan():
    # scan's stacked ys come out batched on axis 1 and meet matmul there.
    def f(x):
        ys = rune.scan(lambda c, _: (c * 0.9 + nx.sin(c), nx.cos(c)), nx.sum(x), length=3)[1]
        return x @ ys

    x = np.array([0.3, -0.2, 0.5])
    expected = rune.grad(f)(x)  # [-0.142049, -0.517931, -1.278803], as JAX gives
    assert_close(expected, [-0.142049, -0.517931, -1.278803], rtol=1e-5)
    assert_close(rune.jacfwd(f)(x), expected, rtol=1e-13)


def test_vmap_of_a_dot_of_vectors_mapped_over_their_last_axis():
    x = np.arange(9.0).reshape(3, 3)
    expected = [x[:, i] @ x[:, i] for i in range(3)]
    assert_close(rune.vmap(lambda v: nx.dot(v, v), in_axes=1)(x), expected, rtol=1e-14)


def test_hessian_of_a_squared_matrix_vector_product():
    b = np.arange(6.0).reshape(2, 3)
    assert_close(rune.hessian(lambda x: (b @ x) @ (b @ x))(np.ones(3)), 2 * b.T @ b,
                 rtol=1e-14)
