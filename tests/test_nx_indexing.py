"""Indexing: x[index] against numpy (basic, advanced, masks), take, diagonal,
trace; derivatives (scatter-add of repeated indices), gather/scatter_add as
a transpose pair, traced indices, vmap (and its fallback loop), errors."""

import numpy as np
import pytest

import rune
from rune import nx
from rune.core import Primitive, binder, new_trace
from rune.graph import GraphTrace
from rune.primitives import indexing as ix
from rune.primitives import shape as sh
from tests.util import assert_abstract_matches, assert_vmap_matches_loop

RNG = np.random.default_rng(2)
X = RNG.standard_normal((3, 4, 5))
Z = X + 1j * RNG.standard_normal((3, 4, 5))
MASK0 = np.array([True, False, True])
MASK01 = RNG.standard_normal((3, 4)) > 0
_ = slice(None)

INDICES = [
    # basic
    1, -1, (0, 2), (_, 1), (..., 2), (None, 1), (slice(1, None, 2),), slice(None, None, -1),
    slice(-10, None, -1), (slice(2, 0, -1), ..., None), slice(5, 10), (1, _, -2), ..., (),
    (None, ..., None), (0, 0, 0), (_, slice(3, 0, -2), slice(None, None, 3)),
    # advanced
    [0, 2], [[0, 1], [2, 0]], np.array([-1, 0]), (_, [1, 3]), ([0, 2], [1, 3]),
    ([0, 2], _, [1, 3]), (1, _, [0, 4]), (_, [0, 1], [2, 3]), (_, [[0], [1]], [2, 3]),
    (None, [0, 1], ..., [1, 2]), ([0, 1], None, [1, 2]), (..., [0, 0, 1]),
    (slice(None, None, -1), [0, 0]), [], ([0, 2], 1), (2, [1, 1], slice(1, 4)),
    (_, _, np.array([[4, 0], [1, -5]])),
    # boolean masks
    MASK0, MASK01, X > 0, (_, np.array([True, False, True, True])), (MASK0, _, [0, 1]),
    (MASK01, slice(None, None, 2)), (None, MASK0),
]


def _ids(index):
    return repr(index).replace(" ", "")[:40]


def _as_tensors(index):
    """The same index with its arrays given as tensors."""
    items = index if type(index) is tuple else (index,)
    out = tuple(nx.array(i) if isinstance(i, (list, np.ndarray)) and np.size(i) else i
                for i in items)
    return out if type(index) is tuple else out[0]


@pytest.mark.parametrize("index", INDICES, ids=_ids)
def test_getitem_matches_numpy(index):
    for data in (X, Z, X.astype(np.float32)):
        expected = data[index]
        for idx in (index, _as_tensors(index)):
            got = nx.array(data)[idx]
            assert got.shape == expected.shape and got.dtype == expected.dtype
            np.testing.assert_array_equal(got.numpy(), expected)


DIFFERENTIABLE = [i for i in INDICES if not isinstance(i, np.ndarray) or i.dtype != bool][::2] + [
    MASK01, (MASK0, _, [0, 1])]


def _squared_modulus(g):
    return lambda z: nx.sum(nx.real(g(z) * nx.conj(g(z))))


@pytest.mark.parametrize("index", DIFFERENTIABLE, ids=_ids)
def test_getitem_check_grads(index):
    rune.check_grads(lambda x: x[index], (nx.array(X),), order=2)
    rune.check_grads(_squared_modulus(lambda z: z[index]), (nx.array(Z),), order=2)


@pytest.mark.parametrize("index", [None, (None, None), (..., None), (None, ...), (), ...],
                         ids=_ids)
def test_a_0d_tensor_takes_new_axes(index):
    # nx.array(1.0)[None] raised IndexError: the trailing-axes trim read shape[-1] of ()
    expected = np.float64(1.5)[index]
    got = nx.array(1.5)[index]
    assert got.shape == np.shape(expected)
    np.testing.assert_array_equal(got.numpy(), expected)
    assert rune.grad(lambda x: nx.sum(x[index] * 3.0))(nx.array(1.5)).item() == 3.0


@pytest.mark.parametrize("index", INDICES, ids=_ids)
def test_getitem_abstract_rule_matches_eager(index):
    if not any(isinstance(i, np.ndarray) and i.dtype == bool
               for i in (index if type(index) is tuple else (index,))):
        assert_abstract_matches(lambda x: x[index], nx.array(X))


@pytest.mark.parametrize("index", DIFFERENTIABLE, ids=_ids)
@pytest.mark.parametrize("in_axes", [0, 1, -1])
def test_getitem_vmap_matches_loop(index, in_axes):
    if any(isinstance(i, np.ndarray) and i.dtype == bool
           for i in (index if type(index) is tuple else (index,))):
        return  # a constant mask is fine under vmap, but the examples below are 4-d
    at = in_axes % 4
    batched = RNG.standard_normal(X.shape[:at] + (2,) + X.shape[at:])
    assert_vmap_matches_loop(lambda x: x[index], nx.array(batched), in_axes=in_axes)


def test_repeated_indices_accumulate_in_the_gradient():
    x = nx.array([1.0, 2.0, 3.0])
    assert str(rune.grad(lambda x: nx.sum(x[[0, 0, 2, 0]]))(x)) == "float64 [3] [3, 0, 1]"
    m = nx.array(np.ones((2, 2)))
    g = rune.grad(lambda m: nx.sum(m[[0, 0], [1, 1]] * nx.array([2.0, 5.0])))(m)
    assert str(g) == "float64 [2, 2]\n[[0, 7],\n [0, 0]]"
    # basic indexing transposes to a pad: strided and reversed slices place back
    g = rune.grad(lambda x: nx.sum(x[::-2] * nx.array([10.0, 1.0])))(x)
    assert str(g) == "float64 [3] [1, 0, 10]"


def test_gather_and_scatter_add_are_a_transpose_pair():
    x = nx.array([1.0, 2.0, 3.0])
    idx = nx.array([2, 0, 2])
    assert str(ix.scatter_add(x, idx, shape=(4,))) == "float64 [4] [2, 0, 4, 0]"
    gather_t = rune.linear_transpose(lambda x: ix.gather(x, idx), nx.array(np.zeros(3)))
    assert str(gather_t(nx.array([1.0, 10.0, 100.0]))[0]) == "float64 [3] [10, 0, 101]"
    scatter_t = rune.linear_transpose(lambda c: ix.scatter_add(c, idx, shape=(3,)),
                                      nx.array(np.zeros(3)))
    assert str(scatter_t(nx.array([1.0, 10.0, 100.0]))[0]) == "float64 [3] [100, 1, 100]"
    rune.check_grads(lambda c: ix.scatter_add(c * c, idx, shape=(4,)), (x,), order=2)
    assert_abstract_matches(lambda c, i: ix.scatter_add(c, i, i, shape=(3, 3)), x, idx)


def test_slice_and_pad_are_a_transpose_pair():
    index = ((3, None, -2),)
    x = nx.array([1.0, 2.0, 3.0, 4.0])
    pad_t = rune.linear_transpose(lambda c: ix.pad(c, shape=(4,), index=index, value=0),
                                  nx.array([0.0, 0.0]))
    assert str(pad_t(x)[0]) == "float64 [2] [4, 2]"
    # A pad that fills with 1 is affine: its derivative pads with 0, and
    # transposing the affine one itself (a mistake in some rule) raises.
    assert str(rune.linear_transpose(lambda c: ix.pad(c, shape=(4,), index=index, value=1),
                                     nx.array([0.0, 0.0]))(x)[0]) == "float64 [2] [4, 2]"
    with pytest.raises(TypeError, match="pad with the value 1 is affine, not linear"):
        ix.pad_p.transpose_rules[0](x, nx.array([0.0, 0.0]), shape=(4,), index=index, value=1)


# ------------------------------------------------------------ traced indices


@pytest.mark.parametrize("in_axes", [(None, 0), (0, 0), (1, 0), (0, None), (-1, 1)])
@pytest.mark.parametrize("name, f", [
    ("x[i]", lambda x, i: x[i]),
    ("x[:, i]", lambda x, i: x[:, i]),
    ("x[i, :, i]", lambda x, i: x[i, :, i]),
    ("x[1:, i, None]", lambda x, i: x[1:, i, None]),
    ("x[i, i] * 2", lambda x, i: x[i, nx.array([0, 1])] * 2.0),
    ("take", lambda x, i: nx.take(x, i, axis=-1)),
])
def test_vmap_with_batched_integer_indices(name, f, in_axes):
    x_axis, i_axis = in_axes
    x = X[:, :3, :3] if x_axis is None else np.moveaxis(
        RNG.standard_normal((2, 3, 3, 3)), 0, x_axis)
    i = np.array([[0, -1], [2, 1]]) if i_axis is not None else np.array([1, 0])
    if i_axis == 1:
        i = i.T
    assert_vmap_matches_loop(f, nx.array(x), nx.array(i), in_axes=in_axes)


def test_gradient_through_a_traced_index_under_vmap():
    xs = nx.array(RNG.standard_normal((2, 4)))
    idx = nx.array([[0, 0], [3, 1]])
    per_example = rune.vmap(rune.grad(lambda x, i: nx.sum(x[i] * x[i])))(xs, idx)
    expected = np.zeros((2, 4))
    for b in range(2):
        np.add.at(expected[b], idx.numpy()[b], 2 * xs.numpy()[b][idx.numpy()[b]])
    np.testing.assert_allclose(per_example.numpy(), expected, rtol=1e-14)


def test_integer_index_traced_by_a_graph_becomes_an_operand():
    x = nx.array(X)
    assert_abstract_matches(lambda x, i: x[:, i], x, nx.array([[0, 1], [2, 3]]))
    assert_abstract_matches(lambda x, i: x[i, 1:, i], x, nx.array([0, -1]))
    assert_abstract_matches(lambda x, i: x[i], x, nx.array(1))


def test_boolean_masks_need_values():
    x = nx.array([1.0, -2.0, 3.0])
    mask = nx.array([True, False, True])
    assert str(rune.grad(lambda x: nx.sum(x[mask] * x[mask]))(x)) == "float64 [3] [2, 0, 6]"
    with pytest.raises(rune.TracedValueError, match=r"nx.getitem: a boolean mask index: the "
                       r"value is traced by rune.vmap .* The shape of x\[mask\] depends on the "
                       r"mask's values.* use nx.where\(mask, x, 0\)"):
        rune.vmap(lambda x, m: x[m])(nx.array(np.ones((2, 3))),
                                      nx.array([[True, False, True]] * 2))
    with new_trace(GraphTrace) as trace:
        traced_mask = trace.new_var((3,), np.bool_)
        with pytest.raises(rune.TracedValueError, match="traced by rune.make_graph"):
            x[traced_mask]


# --------------------------------------------------------- take, diagonal, trace

TAKES = [(1, None), ([0, 5, -1], None), ([[1, 2]], 0), (np.array([3, -4, 0]), 1),
         ([0, 0], -1), (2, 2), ([], 1)]


@pytest.mark.parametrize("indices, axis", TAKES)
def test_take(indices, axis):
    for data in (X, Z):
        expected = np.take(data, indices, axis=axis)
        got = nx.take(nx.array(data), indices, axis=axis)
        assert got.shape == expected.shape
        np.testing.assert_array_equal(got.numpy(), expected)
    rune.check_grads(lambda x: nx.take(x, indices, axis=axis), (nx.array(X),), order=2)
    assert_abstract_matches(lambda x: nx.take(x, indices, axis=axis), nx.array(X))
    assert_vmap_matches_loop(lambda x: nx.take(x, indices, axis=axis),
                             nx.array(RNG.standard_normal((4, 3, 4, 5))), in_axes=1)


DIAGONALS = [(0, 0, 1), (1, 0, 1), (-2, 0, 1), (7, 0, 1), (1, 1, 2), (-1, 2, 0), (0, -1, -2)]


@pytest.mark.parametrize("offset, axis1, axis2", DIAGONALS)
def test_diagonal_and_trace(offset, axis1, axis2):
    for data in (X, Z, X[0]):
        if data.ndim == 2 and max(axis1, axis2) > 1:
            continue
        for fn in ("diagonal", "trace"):
            expected = getattr(np, fn)(data, offset=offset, axis1=axis1, axis2=axis2)
            got = getattr(nx, fn)(nx.array(data), offset=offset, axis1=axis1, axis2=axis2)
            assert got.shape == expected.shape
            np.testing.assert_allclose(got.numpy(), expected, rtol=1e-14)

    def f(x):
        return nx.diagonal(x, offset=offset, axis1=axis1, axis2=axis2)

    def g(x):
        return nx.trace(x, offset=offset, axis1=axis1, axis2=axis2)

    for fn in (f, g):
        rune.check_grads(fn, (nx.array(X),), order=2)
        rune.check_grads(_squared_modulus(fn), (nx.array(Z),), order=2)
        assert_abstract_matches(fn, nx.array(X))
        assert_vmap_matches_loop(fn, nx.array(RNG.standard_normal((3, 4, 2, 5))), in_axes=2)


def test_trace_gradient_is_the_identity():
    assert str(rune.grad(nx.trace)(nx.array(np.ones((2, 3))))) == (
        "float64 [2, 3]\n[[1, 0, 0],\n [0, 1, 0]]")


# ------------------------------------------------- vmap's fallback loop


def _no_batch_rule_primitive():
    prim = Primitive("cumprod_rows", lambda x: np.cumprod(x, axis=-1),
                     lambda x: (tuple(x.shape), x.dtype))
    return binder(prim, 1)


def test_vmap_falls_back_to_a_loop_for_a_primitive_without_batch_rule():
    cumprod_rows = _no_batch_rule_primitive()
    assert cumprod_rows.primitive.batch is None
    batch = nx.array(RNG.standard_normal((3, 2, 4)))
    for in_axes in (0, 1, -1):
        assert_vmap_matches_loop(cumprod_rows, batch, in_axes=in_axes)
    # nested: the inner loop's take_along and stack_examples run under the outer vmap
    nested = rune.vmap(rune.vmap(cumprod_rows))(batch)
    np.testing.assert_allclose(nested.numpy(), np.cumprod(batch.numpy(), axis=-1), rtol=1e-14)
    mixed = rune.vmap(lambda x, y: cumprod_rows(x * y), in_axes=(1, None))(batch, 2.0)
    np.testing.assert_allclose(mixed.numpy(), np.moveaxis(np.cumprod(batch.numpy() * 2, -1),
                                                          1, 0), rtol=1e-14)


def test_take_along_and_stack_examples():
    v = nx.array(X)
    for dim in range(3):
        np.testing.assert_array_equal(sh.take_along(v, 1, dim).numpy(), np.take(X, 1, axis=dim))
    stacked = sh.stack_examples([v[0], v[1], v[2]])
    np.testing.assert_array_equal(stacked.numpy(), X)
    rune.check_grads(lambda v: sh.stack_examples([sh.take_along(v, 2, 1), v[:, 0]]), (v,),
                     order=2)


# -------------------------------------------------------------------- errors

ERRORS = [
    (lambda x: x[3], r"^nx.getitem: index 3 is out of range for axis 0 with size 3$"),
    (lambda x: x[:, -5], r"nx.getitem: index -5 is out of range for axis 1 with size 4"),
    (lambda x: x[..., 5], r"nx.getitem: index 5 is out of range for axis 2 with size 5"),
    (lambda x: x[[0, 7]], r"nx.getitem: index 7 is out of range for axis 0 with size 3"),
    (lambda x: x[0, nx.array([[0], [-9]])],
     r"nx.getitem: index -9 is out of range for axis 1 with size 4"),
    (lambda x: x[0, 0, 0, 0], r"nx.getitem: too many indices: the tensor has 3 axes, but 4 "
                              r"were indexed"),
    (lambda x: x[MASK01, 0, 0], r"too many indices: the tensor has 3 axes, but 4 were indexed"),
    (lambda x: x[1.5], r"nx.getitem: only integers, slices .* are valid indices; got float"),
    (lambda x: x[[0.5]], r"valid indices; got an array of dtype float64"),
    (lambda x: x[nx.array([0.5])], r"valid indices; got a tensor of dtype float64"),
    (lambda x: x[..., 0, ...], r"nx.getitem: an index can only have a single ellipsis"),
    (lambda x: x[np.array([True, False])], r"nx.getitem: the boolean index has shape \(2,\), "
                                            r"but the axes it indexes \(from axis 0\) have "
                                            r"shape \(3,\)"),
    (lambda x: x[[0, 1], True], r"nx.getitem: a boolean scalar index together with integer "
                                r"arrays or masks is not supported"),
    (lambda x: x.at[True].set(0.0), r"Tensor.at\[...\].set: a boolean scalar index is not "
                                    r"supported"),
    (lambda x: nx.take(x, [0, 9], axis=1), r"nx.take: index 9 is out of range for axis 1 with "
                                           r"size 4"),
    (lambda x: nx.take(x, 60), r"nx.take: index 60 is out of range for axis 0 with size 60"),
]


@pytest.mark.parametrize("call, message", ERRORS)
def test_bad_indices_raise_index_errors(call, message):
    with pytest.raises(IndexError, match=message):
        call(nx.array(X))


def test_other_bad_arguments():
    x = nx.array(X)
    with pytest.raises(ValueError, match="nx.take: axis 3 is out of range for a tensor with 3"):
        nx.take(x, 0, axis=3)
    with pytest.raises(TypeError, match="nx.take: indices must be integers, got booleans"):
        nx.take(x, [True, False])
    with pytest.raises(TypeError, match="nx.diagonal: expected numbers, got NoneType"):
        nx.diagonal(None)
    with pytest.raises(TypeError, match="nx.trace: offset must be an int, got 'a'"):
        nx.trace(nx.array(np.ones((2, 2))), offset="a")  # was int()'s ValueError
    with pytest.raises(ValueError, match="nx.diagonal: the tensor has 1 axes; it needs at "
                                         "least 2"):
        nx.diagonal(nx.array([1.0]))
    with pytest.raises(ValueError, match="nx.diagonal: axis1 and axis2 must differ, both are 2"):
        nx.diagonal(x, axis1=2, axis2=-1)
    with pytest.raises(ValueError, match="nx.trace: axis 3 is out of range"):
        nx.trace(x, axis1=3)


def test_vmap_with_one_traced_integer_per_example():
    xs = nx.array(RNG.standard_normal((3, 4)))
    picks = rune.vmap(lambda x, i: x[i])(xs, nx.array([3, 0, -1]))
    assert picks.tolist() == [xs.numpy()[0, 3], xs.numpy()[1, 0], xs.numpy()[2, -1]]
    rows = rune.vmap(lambda i: xs[i], in_axes=0)(nx.array([2, 2]))
    np.testing.assert_array_equal(rows.numpy(), xs.numpy()[[2, 2]])
