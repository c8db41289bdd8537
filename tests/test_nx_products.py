"""Products: matmul, dot, inner, outer, tensordot, einsum.

Values against numpy (float64, float32, complex128), derivatives of order 2
in both modes, Jacobians, abstract rules, vmap against a loop, bad inputs.
"""

import numpy as np
import pytest

import rune
from rune import nx
from rune.primitives import linalg as _l
from tests.util import (assert_abstract_matches, assert_vmap_matches_loop, random_value,
                        squared_size)

RNG = np.random.default_rng(0)


def rand(shape, dtype=np.float64):
    return random_value(RNG, shape, dtype)


# (name, rune function, numpy function, operand shapes)
CASES = [
    ("matmul 2x2", nx.matmul, np.matmul, [(3, 4), (4, 5)]),
    ("matmul vec@mat", nx.matmul, np.matmul, [(4,), (4, 5)]),
    ("matmul mat@vec", nx.matmul, np.matmul, [(3, 4), (4,)]),
    ("matmul vec@vec", nx.matmul, np.matmul, [(4,), (4,)]),
    ("matmul broadcast batch", nx.matmul, np.matmul, [(2, 1, 3, 4), (5, 4, 2)]),
    ("matmul batch@vec", nx.matmul, np.matmul, [(2, 3, 4), (4,)]),
    ("matmul vec@batch", nx.matmul, np.matmul, [(4,), (2, 4, 3)]),
    ("matmul operator", lambda a, b: a @ b, lambda a, b: a @ b, [(2, 3), (3, 2)]),
    ("dot scalar", nx.dot, np.dot, [(), (3,)]),
    ("dot vec", nx.dot, np.dot, [(3,), (3,)]),
    ("dot mat", nx.dot, np.dot, [(2, 3), (3, 4)]),
    ("dot nd", nx.dot, np.dot, [(2, 3, 4), (5, 4, 2)]),
    ("dot vec@nd", nx.dot, np.dot, [(3,), (2, 3, 4)]),
    ("inner vec", nx.inner, np.inner, [(3,), (3,)]),
    ("inner mat", nx.inner, np.inner, [(2, 3), (4, 3)]),
    ("inner nd@vec", nx.inner, np.inner, [(2, 3, 4), (4,)]),
    ("outer", nx.outer, np.outer, [(3,), (2, 2)]),
    ("tensordot 2", nx.tensordot, np.tensordot, [(2, 3, 4), (3, 4, 5)]),
    ("tensordot 0", lambda a, b: nx.tensordot(a, b, 0), lambda a, b: np.tensordot(a, b, 0),
     [(2,), (3,)]),
    ("tensordot pairs", lambda a, b: nx.tensordot(a, b, ([0, 2], [2, 0])),
     lambda a, b: np.tensordot(a, b, ([0, 2], [2, 0])), [(2, 3, 4), (4, 5, 2)]),
]

EINSUMS = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("ii", [(3, 3)]),
    ("ii->i", [(3, 3)]),
    ("iij->j", [(2, 2, 3)]),
    ("ij->", [(3, 4)]),
    ("ij->j", [(3, 4)]),
    ("i,i", [(4,), (4,)]),
    ("i,j->ij", [(2,), (3,)]),
    ("ji", [(2, 3)]),
    ("bA,bc", [(2, 3), (2, 4)]),  # implicit output in ASCII order: 'A' before 'c'
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("...ij,...jk", [(2, 1, 3, 4), (5, 4, 2)]),
    ("...ij->...ji", [(2, 3, 4)]),
    ("i...,i...", [(3, 2), (3, 2)]),
    ("ijk,jl,l->ik", [(2, 3, 4), (3, 5), (5,)]),
    ("ij,j->ij", [(2, 1), (5,)]),  # a size-1 axis broadcasts
    ("ij,ij->ij", [(3, 4), (3, 4)]),
]

for spec, shapes in EINSUMS:
    CASES.append((f"einsum {spec}", lambda *ops, s=spec: nx.einsum(s, *ops),
                  lambda *ops, s=spec: np.einsum(s, *ops), shapes))

IDS = [c[0] for c in CASES]
DTYPES = [np.float64, np.float32, np.complex128]


@pytest.mark.parametrize("name,fn,np_fn,shapes", CASES, ids=IDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_values_match_numpy(name, fn, np_fn, shapes, dtype):
    args = [rand(s, dtype) for s in shapes]
    out = fn(*[nx.array(a) for a in args])
    expected = np_fn(*args)
    assert out.dtype == expected.dtype
    assert out.shape == expected.shape
    tol = 1e-5 if np.dtype(dtype) == np.float32 else 1e-12
    np.testing.assert_allclose(out.numpy(), expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("name,fn,np_fn,shapes", CASES, ids=IDS)
def test_abstract_rule_matches_eager(name, fn, np_fn, shapes):
    assert_abstract_matches(fn, *[nx.array(rand(s)) for s in shapes])


@pytest.mark.parametrize("name,fn,np_fn,shapes", CASES, ids=IDS)
def test_derivatives_float64(name, fn, np_fn, shapes):
    args = tuple(nx.array(rand(s)) for s in shapes)
    rune.check_grads(fn, args, order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("name,fn,np_fn,shapes", CASES, ids=IDS)
def test_derivatives_complex128(name, fn, np_fn, shapes):
    args = tuple(nx.array(rand(s, np.complex128)) for s in shapes)
    rune.check_grads(squared_size(fn), args, order=2, modes=("fwd", "rev"))


def test_complex_cotangents_are_not_conjugated():
    # The transpose of x -> x @ y is ct -> ct @ y^T (JAX's convention). For
    # f = Re sum(x @ y) = Re sum(x * s) the gradient df/dRe x - i df/dIm x is s.
    x, y = nx.array(rand((2, 3), np.complex128)), nx.array(rand((3, 2), np.complex128))
    g = rune.grad(lambda x: nx.real(nx.sum(x @ y)))(x)
    np.testing.assert_allclose(g.numpy(), np.ones((2, 2)) @ y.numpy().T)
    _, pullback = rune.vjp(lambda x: x @ y, x)
    ct = rand((2, 2), np.complex128)
    np.testing.assert_allclose(pullback(nx.array(ct))[0].numpy(), ct @ y.numpy().T)


def test_jacobians_of_a_layer_match_the_formula():
    w, x = nx.array(rand((3, 4))), nx.array(rand((4,)))
    layer = lambda w, x: nx.tanh(w @ x)
    slope = 1 - np.tanh(w.numpy() @ x.numpy()) ** 2
    by_x = slope[:, None] * w.numpy()
    by_w = np.einsum("i,ij,k->ijk", slope, np.eye(3), x.numpy())
    for jac in (rune.jacrev, rune.jacfwd):
        np.testing.assert_allclose(jac(layer, argnums=1)(w, x).numpy(), by_x, atol=1e-12)
        np.testing.assert_allclose(jac(layer, argnums=0)(w, x).numpy(), by_w, atol=1e-12)


def test_hessian_of_a_layer_matches_the_formula():
    w, x = rand((3, 4)), rand((4,))
    y = np.tanh(w @ x)
    expected = w.T @ np.diag(-2 * y * (1 - y * y)) @ w
    h = rune.hessian(lambda x: nx.sum(nx.tanh(nx.array(w) @ x)))(nx.array(x))
    np.testing.assert_allclose(h.numpy(), expected, atol=1e-12)


def test_per_example_gradients_by_vmap_of_grad():
    w = nx.array(rand((4, 3)))
    loss = lambda w, x: nx.sum(nx.tanh(x @ w) * nx.tanh(x @ w))
    assert_vmap_matches_loop(lambda x: rune.grad(loss)(w, x), rand((5, 2, 4)))


@pytest.mark.parametrize("spec,shape", [("ii->i", (3, 3)), ("ii", (3, 3)), ("ij->j", (2, 3)),
                                        ("iij->ji", (2, 2, 3)), ("ij->ji", (2, 3))])
def test_einsum_jacobians_agree_in_both_modes(spec, shape):
    a = nx.array(rand(shape))
    f = lambda a: nx.einsum(spec, a)
    by_rev, by_fwd = rune.jacrev(f)(a), rune.jacfwd(f)(a)
    np.testing.assert_allclose(by_rev.numpy(), by_fwd.numpy(), atol=1e-12)
    assert by_rev.shape == f(a).shape + shape


def test_gradients_keep_each_operand_dtype():
    x32, w64 = nx.array(rand((2, 3), np.float32)), nx.array(rand((3, 4)))
    gx, gw = rune.grad(lambda x, w: nx.sum(x @ w), argnums=(0, 1))(x32, w64)
    assert (gx.dtype, gw.dtype) == (nx.float32, nx.float64)
    gx, gw = rune.grad(lambda x, w: nx.real(nx.sum(x @ w)), argnums=(0, 1))(
        x32, nx.array(rand((3, 4), np.complex128)))
    assert (gx.dtype, gw.dtype) == (nx.float32, nx.complex128)
    g = rune.grad(lambda a: nx.sum(nx.einsum("ij,jk->ik", a, a)))(nx.array(rand((3, 3),
                                                                                 np.float32)))
    assert g.dtype == nx.float32


def test_matmul_records_one_equation_per_product():
    # The record of x @ w is the two jvp products, nothing else: the rule adds
    # no reshape or copy for 2-d operands.
    w = nx.array(rand((4, 3)))
    _, pullback = rune.vjp(lambda x, w: x @ w, nx.array(rand((2, 4))), w)
    assert [eq[0].name for eq in pullback.record.equations] == ["matmul", "matmul", "add"]


def test_operators_mix_with_numpy_arrays():
    a, b = rand((2, 3)), rand((3,))
    np.testing.assert_allclose((nx.array(a) @ b).numpy(), a @ b)
    np.testing.assert_allclose((a @ nx.array(rand((3, 3)))).shape, (2, 3))


# (name, function, batched operand shapes, unbatched extra operands)
VMAPS = [
    ("matmul both", nx.matmul, [(5, 3, 4), (5, 4, 2)]),
    ("matmul vec per example", nx.matmul, [(5, 4), (5, 4)]),
    ("matmul vec@mat", nx.matmul, [(5, 4), (5, 4, 2)]),
    ("matmul mat@vec", nx.matmul, [(5, 3, 4), (5, 4)]),
    ("matmul x only", lambda x: nx.matmul(x, W34), [(5, 2, 3)]),
    ("matmul x only, stack of w", lambda x: nx.matmul(x, W234), [(5, 3)]),
    ("matmul y only", lambda y: nx.matmul(W34, y), [(5, 4, 2)]),
    ("matmul y only, vec", lambda y: nx.matmul(W34, y), [(5, 4)]),
    ("matmul y only, vec x", lambda y: nx.matmul(V3, y), [(5, 3, 2)]),
    ("matmul batched y under stack x", lambda y: nx.matmul(W234, y), [(5, 4, 2)]),
    ("dot nd", lambda a: nx.dot(a, W234), [(5, 2, 3)]),
    ("inner", nx.inner, [(5, 2, 3), (5, 3)]),
    ("outer", nx.outer, [(5, 2), (5, 3)]),
    ("tensordot", lambda a, b: nx.tensordot(a, b, 1), [(5, 2, 3), (5, 3, 4)]),
    ("einsum matmul", lambda a, b: nx.einsum("ij,jk->ik", a, b), [(5, 2, 3), (5, 3, 4)]),
    ("einsum one batched", lambda a: nx.einsum("ij,jk->ik", a, W34), [(5, 2, 3)]),
    ("einsum trace", lambda a: nx.einsum("ii", a), [(5, 3, 3)]),
    ("einsum ellipsis", lambda a: nx.einsum("...ij->...ji", a), [(5, 2, 3, 4)]),
]
W34 = rand((3, 4))
W234 = rand((2, 3, 4))
V3 = rand((3,))


@pytest.mark.parametrize("name,fn,shapes", VMAPS, ids=[v[0] for v in VMAPS])
def test_vmap_matches_loop(name, fn, shapes):
    assert_vmap_matches_loop(fn, *[rand(s) for s in shapes])


@pytest.mark.parametrize("in_axes,x_shape,y_shape", [
    ((1, None), (3, 5, 4), (4, 2)),
    ((None, 2), (3, 2, 4), (4, 2, 5)),
    ((2, 0), (3, 4, 5), (5, 4, 2)),
])
def test_vmap_of_matmul_on_other_axes(in_axes, x_shape, y_shape):
    x, y = rand(x_shape), rand(y_shape)
    out = rune.vmap(nx.matmul, in_axes=in_axes)(x, y)
    xs = [x if in_axes[0] is None else np.take(x, i, in_axes[0]) for i in range(5)]
    ys = [y if in_axes[1] is None else np.take(y, i, in_axes[1]) for i in range(5)]
    np.testing.assert_allclose(out.numpy(), np.stack([a @ b for a, b in zip(xs, ys)]))


def test_jacobian_of_einsum_transposes_through_vmap():
    a = nx.array(rand((3, 3)))
    jac = rune.jacrev(lambda a: nx.einsum("ij,jk->ik", a, a))(a)
    np.testing.assert_allclose(jac.numpy(), rune.jacfwd(lambda a: a @ a)(a).numpy(),
                               atol=1e-12)


# ------------------------------------------------------------------ errors

ERRORS = [
    (lambda: nx.matmul(nx.array(rand((2, 3))), nx.array(rand((4, 5)))), ValueError,
     r"nx.matmul: shapes \(2, 3\) and \(4, 5\) do not match: the last axis of x1 has size 3 "
     r"but the second-to-last axis of x2 has size 4"),
    (lambda: nx.matmul(nx.array(rand((2, 3))), nx.array(rand((4,)))), ValueError,
     r"shapes \(2, 3\) and \(4,\) do not match: .* the only axis of x2 has size 4"),
    (lambda: nx.matmul(nx.array(rand((2, 2, 3))), nx.array(rand((3, 3, 1)))), ValueError,
     r"leading \(batch\) axes \(2,\) and \(3,\) do not broadcast"),
    (lambda: nx.matmul(nx.array(2.0), nx.array(rand((3,)))), ValueError,
     r"nx.matmul: x1 is 0-d"),
    (lambda: nx.dot(nx.array(rand((2, 3))), nx.array(rand((4, 5)))), ValueError,
     r"nx.dot: shapes \(2, 3\) and \(4, 5\)"),
    (lambda: nx.inner(nx.array(rand((2, 3))), nx.array(rand((4,)))), ValueError,
     r"nx.inner: shapes \(2, 3\) and \(4,\) do not match: axis 1 of a has size 3 but axis 0 "
     r"of b has size 4"),
    (lambda: nx.tensordot(nx.array(rand((2, 3))), nx.array(rand((2, 3))), 3), ValueError,
     r"nx.tensordot: axes=3 must be between 0 and"),
    (lambda: nx.tensordot(nx.array(rand((2, 3))), nx.array(rand((2, 3))), ([0], [0, 1])),
     ValueError, r"1 axes of a \(0,\) but 2 axes of b"),
    (lambda: nx.tensordot(nx.array(rand((2, 3))), nx.array(rand((2, 3))), ([5], [0])),
     ValueError, r"axis 5 of a is out of range"),
    (lambda: nx.einsum("ij,jk->ik", nx.array(rand((2, 3)))), ValueError,
     r"nx.einsum: the subscripts 'ij,jk->ik' name 2 operand\(s\) but 1 were given"),
    (lambda: nx.einsum("ij", nx.array(rand((2, 3, 4)))), ValueError,
     r"operand 0 has 3 axes \(shape \(2, 3, 4\)\) but its subscripts 'ij' name 2"),
    (lambda: nx.einsum("ij,jk", nx.array(rand((2, 3))), nx.array(rand((4, 5)))), ValueError,
     r"index 'j' has size 3 in operand 0 but size 4 in operand 1"),
    (lambda: nx.einsum("ij->k", nx.array(rand((2, 3)))), ValueError,
     r"the output index 'k' of 'ij->k' is not in any input"),
    (lambda: nx.einsum("ij->ii", nx.array(rand((2, 3)))), ValueError, r"repeats the index 'i'"),
    (lambda: nx.einsum("i1", nx.array(rand((2, 3)))), ValueError, r"invalid subscripts"),
    (lambda: nx.einsum("...i->i", nx.array(rand((2, 3)))), ValueError,
     r"must place them with '...' too"),
    (lambda: nx.einsum("ii", nx.array(rand((2, 3)))), ValueError,
     r"index 'i' repeats in operand 0 with sizes 2 and 3"),
    (lambda: nx.einsum(3, nx.array(rand((2, 3)))), TypeError, r"subscripts must be a string"),
    (lambda: nx.matmul(None, nx.array(rand((2,)))), TypeError,
     r"nx.matmul: expected numbers, got NoneType"),  # was "x1 is 0-d"
    (lambda: nx.outer("ab", nx.array(rand((2,)))), TypeError, r"nx.outer: expected numbers"),
    (lambda: nx.tensordot(nx.array(rand((2,))), nx.array(rand((2,))), 1.5), TypeError,
     r"nx.tensordot: axes must be an int or a pair \(axes of a, axes of b\), got 1.5"),
    (lambda: nx.tensordot(nx.array(rand((2,))), nx.array(rand((2,))), (["a"], [0])), TypeError,
     r"nx.tensordot: the axes of a must be ints, got \('a',\)"),
]


@pytest.mark.parametrize("call,error,message", ERRORS)
def test_bad_inputs_raise_with_a_message(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_shape_errors_are_raised_when_traced_too():
    with pytest.raises(ValueError, match=r"nx.matmul: shapes \(3,\) and \(2, 2\)"):
        rune.grad(lambda x: nx.sum(x @ nx.array(rand((2, 2)))))(nx.array(rand((3,))))


def test_einsum_picks_a_blas_path_for_large_contractions():
    assert _l._einsum_plan("ij,jk->ik", ((3, 3), (3, 3))) is False
    assert _l._einsum_plan("ij,jk->ik", ((64, 64), (64, 64)))[0] == "einsum_path"
    a, b = rand((64, 64)), rand((64, 64))
    np.testing.assert_allclose(nx.einsum("ij,jk", a, b).numpy(), a @ b, rtol=1e-12)
