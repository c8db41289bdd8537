"""Functional indexed updates `x.at[index].<op>(v)`: values against numpy's
in-place assignment and ufunc.at, derivatives in x and v (both modes, order
2), vmap (batched x, v and indices), jit (traced indices), errors."""

import numpy as np
import pytest

import rune
from rune import nx
from tests.util import assert_vmap_matches_loop

RNG = np.random.default_rng(20)
X = RNG.standard_normal((3, 4, 5))
_ = slice(None)

INDICES = [
    # basic
    1, -1, (0, 2), (_, 1), (..., 2), (slice(1, None, 2),), slice(None, None, -1), (1, _, -2),
    ..., (), (0, 0, 0), (_, slice(3, 0, -2), slice(None, None, 3)), (None, 1), (0, None, 2),
    # integer arrays, with repeats
    [0, 2], [2, 2, 0], [[0, 1], [1, 0]], np.array([-1, 0, 2]), (_, [1, 3, 1]),
    ([0, 2, 0], [1, 3, 1]), ([0, 2], _, [1, 3]), (1, _, [0, 4, 4]), (_, [0, 0], [2, 2]),
    (..., [0, 0, 1]), (slice(None, None, -1), [0, 0]), (2, [1, 1], slice(1, 4)),
    # boolean masks
    np.array([True, False, True]), X[..., 0] > 0, X > 0.5,
]

UFUNCS = {"add": np.add, "multiply": np.multiply, "min": np.minimum, "max": np.maximum}


def _ids(index):
    return repr(index).replace(" ", "")[:40]


def numpy_update(x, index, v, kind):
    """What numpy does in place, on a copy: `x[index] = v` or `ufunc.at`."""
    out = np.array(x, copy=True)
    if kind == "set":
        out[index] = v
    elif kind == "divide":
        np.divide.at(out, index, v)
    else:
        UFUNCS[kind].at(out, index, v)
    return out


def _values_for(index):
    """Values of the shape of X[index] (random: each repeat gets its own)."""
    return RNG.standard_normal(X[index].shape) + 2.0


KINDS = ("set", "add", "multiply", "divide", "min", "max")


@pytest.mark.parametrize("index", INDICES, ids=_ids)
@pytest.mark.parametrize("kind", KINDS)
def test_updates_match_numpy(index, kind):
    v = _values_for(index)
    # ufunc.at takes no None in an index; None adds an axis but picks the same elements
    plain = tuple(e for e in index if e is not None) if type(index) is tuple else index
    expected = numpy_update(X, plain, v.reshape(X[plain].shape), kind)
    got = getattr(nx.array(X).at[index], kind)(nx.array(v))
    assert got.shape == X.shape and got.dtype == X.dtype
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-14)


def test_values_broadcast_and_scalars_work():
    x = nx.zeros((2, 3))
    print_ = str(x.at[:, [0, 2]].set(nx.array([1.0, 2.0])))
    assert print_ == "float64 [2, 3]\n[[1, 0, 2],\n [1, 0, 2]]"
    assert x.at[0].add(1).tolist() == [[1, 1, 1], [0, 0, 0]]
    # leading axes of size 1 beyond x[index]'s rank are dropped, as numpy's assignment does
    assert x.at[0].set(nx.ones((1, 3))).tolist() == [[1, 1, 1], [0, 0, 0]]


def test_the_original_tensor_does_not_change():
    x = nx.array([1.0, 2.0])
    y = x.at[0].set(5.0)
    assert x.tolist() == [1, 2] and y.tolist() == [5, 2]


def test_get_is_getitem():
    x = nx.array(X)
    np.testing.assert_array_equal(x.at[1, [0, 0]].get().numpy(), X[1, [0, 0]])


def test_values_take_the_tensors_dtype_as_numpy_assignment_does():
    x = nx.array([1, 2, 3])
    y = x.at[0].set(2.7)
    assert y.dtype == x.dtype and y.tolist() == [2, 2, 3]
    x32 = nx.zeros(2, dtype=nx.float32)
    assert x32.at[[1, 1]].add(nx.array([1.0, 2.0])).dtype == nx.float32


def test_integer_and_infinite_tensors():
    x = nx.array([1, 5, 3])
    assert x.at[[0, 0]].max(nx.array([4, 2])).tolist() == [4, 5, 3]
    assert x.at[[1, 1]].min(nx.array([4, 2])).tolist() == [1, 2, 3]
    assert x.at[[2, 2]].multiply(nx.array([2, 3])).tolist() == [1, 5, 18]
    inf = nx.array([np.inf, 1.0])
    assert inf.at[1].set(2.0).tolist() == [np.inf, 2.0]
    assert inf.at[[1]].set(2.0).tolist() == [np.inf, 2.0]


# ------------------------------------------------------------ derivatives

DERIVATIVE_CASES = [
    ((1, slice(1, 3)), (2,)),
    ((_, 2), (3,)),
    (([0, 2, 0], [1, 1, 1]), (3,)),  # one place written twice, one once
    (([1, 1, 1, 0], 2), (4,)),       # three times
    ((X[:, :, 0] > 0.3), None),
]


@pytest.mark.parametrize("index, v_shape", DERIVATIVE_CASES, ids=_ids)
@pytest.mark.parametrize("kind", KINDS)
def test_derivatives_in_x_and_in_values_agree_with_differences(index, v_shape, kind):
    x = nx.array(X[:, :, 0])
    if v_shape is None:
        v_shape = X[:, :, 0][index].shape
    v = nx.array(np.abs(RNG.standard_normal(v_shape)) + 1.0)
    if kind in ("min", "max"):  # keep away from the kinks, where differences straddle
        v = nx.array(np.linspace(-3.0, 3.0, v.size).reshape(v.shape) + 0.05)

    def f(x, v):
        return nx.sin(getattr(x.at[index], kind)(v))

    rune.check_grads(f, (x, v), order=2)


def test_multiply_derivative_is_exact_with_zeros_among_repeats():
    index = [0, 0, 0, 1]
    x = nx.array([2.0, 3.0])
    for v in ([0.0, 4.0, 5.0, 0.0], [0.0, 0.0, 5.0, 1.0], [1.5, 4.0, 5.0, 2.0]):
        v = nx.array(v)
        g = rune.grad(lambda v: nx.sum(x.at[index].multiply(v)), argnums=0)(v)
        a = v.numpy()
        expected = [2 * a[1] * a[2], 2 * a[0] * a[2], 2 * a[0] * a[1], 3.0]
        np.testing.assert_allclose(g.numpy(), expected)
        rune.check_grads(lambda x, v: x.at[index].multiply(v), (x, v), order=2)


def test_set_passes_the_derivative_of_the_last_value_written():
    g = rune.grad(lambda v: nx.sum(nx.zeros(2).at[[1, 1, 0]].set(v) * nx.array([1.0, 10.0])))(
        nx.array([1.0, 2.0, 3.0]))
    assert g.tolist() == [0, 10, 1]
    gx = rune.grad(lambda x: nx.sum(x.at[[1, 1]].set(5.0)))(nx.array([1.0, 2.0, 3.0]))
    assert gx.tolist() == [1, 0, 1]


def test_max_ties_split_the_derivative():
    v = nx.array([2.0, 2.0, 1.0])
    g = rune.grad(lambda v: nx.sum(nx.zeros(1).at[[0, 0, 0]].max(v)))(v)
    assert g.tolist() == [0.5, 0.5, 0]


# ------------------------------------------------------------- vmap, jit


@pytest.mark.parametrize("kind", KINDS)
def test_vmap_over_x_values_and_indices_matches_a_loop(kind):
    xs = nx.array(RNG.standard_normal((4, 5)))
    vs = nx.array(RNG.standard_normal((4, 3)) + 2.0)
    idx = nx.array(RNG.integers(0, 5, (4, 3)))
    update = lambda x, i, v: getattr(x.at[i], kind)(v)  # noqa: E731
    assert_vmap_matches_loop(update, xs, idx, vs)
    assert_vmap_matches_loop(update, xs, idx, vs, in_axes=(0, None, 0))
    assert_vmap_matches_loop(update, xs[0], idx, vs[0], in_axes=(None, 0, None))
    assert_vmap_matches_loop(lambda x, v: getattr(x.at[1:3], kind)(v), xs, vs[:, :2])
    assert_vmap_matches_loop(lambda x, v: getattr(x.at[1:3], kind)(v), xs[0], vs[:, :2],
                             in_axes=(None, 0))


@pytest.mark.parametrize("kind", KINDS)
def test_jit_with_traced_indices_matches_eager(kind):
    x = nx.array(RNG.standard_normal((3, 4)))
    v = nx.array(RNG.standard_normal(3) + 2.0)
    f = lambda x, i, v: getattr(x.at[i, 1], kind)(v)  # noqa: E731
    for i in ([0, 2, 2], [1, 1, 1]):
        i = nx.array(i)
        np.testing.assert_allclose(rune.jit(f)(x, i, v).numpy(), f(x, i, v).numpy())
    grads = rune.jit(rune.grad(lambda x, v: nx.sum(f(x, nx.array([0, 0, 2]), v) ** 2),
                               argnums=(0, 1)))(x, v)
    eager = rune.grad(lambda x, v: nx.sum(f(x, nx.array([0, 0, 2]), v) ** 2),
                      argnums=(0, 1))(x, v)
    for a, b in zip(grads, eager):
        np.testing.assert_allclose(a.numpy(), b.numpy())


@pytest.mark.parametrize("kind", KINDS)
def test_derivatives_of_a_batched_update_with_batched_indices(kind):
    # grad outside vmap differentiates the batched scatters (the rules see
    # index arrays for the batch axis too); inside, the rules get batched.
    xs = nx.array(RNG.standard_normal((2, 3)))
    vs = nx.array(np.abs(RNG.standard_normal((2, 4))) + 0.5)
    idx = nx.array([[0, 2, 0, 0], [1, 1, 2, 1]])
    update = lambda x, i, v: nx.sin(getattr(x.at[i], kind)(v))  # noqa: E731
    rune.check_grads(lambda xs, vs: rune.vmap(update)(xs, idx, vs), (xs, vs), order=2)
    loss = lambda x, i, v: nx.sum(update(x, i, v))  # noqa: E731
    inside = rune.vmap(rune.grad(loss, argnums=(0, 2)))(xs, idx, vs)
    for b in range(2):
        one = rune.grad(loss, argnums=(0, 2))(xs[b], idx[b], vs[b])
        for got, expected in zip(inside, one):
            np.testing.assert_allclose(got[b].numpy(), expected.numpy(), rtol=1e-12)


def test_grad_of_a_scatter_loss_under_vmap():
    # Per-example histograms of weights: a scatter-style loss, batched.
    bins = nx.array([[0, 1, 1], [2, 2, 2]])
    w = nx.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    loss = lambda w, b: nx.sum(nx.zeros(3).at[b].add(w) ** 2)  # noqa: E731
    g = rune.vmap(rune.grad(loss))(w, bins)
    assert g.tolist() == [[2, 10, 10], [30, 30, 30]]


# ---------------------------------------------------------------- errors


def test_errors_name_what_is_wrong():
    x = nx.zeros((2, 3))
    with pytest.raises(ValueError, match=r"values of shape \(2,\) do not broadcast to the "
                                         r"shape of x\[index\], \(3,\)"):
        x.at[0].set(nx.ones(2))
    with pytest.raises(IndexError, match="index 5 is out of range for axis 1 with size 3"):
        x.at[0, [5]].add(1.0)
    with pytest.raises(TypeError, match="complex numbers are not ordered"):
        nx.zeros(2, dtype=nx.complex128).at[0].max(1.0)
    with pytest.raises(rune.TracedValueError, match="boolean mask"):
        rune.jit(lambda x: x.at[x > 0].set(0.0))(nx.ones(2))


# --------------------------------------------------------------- properties

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@st.composite
def updates(draw):
    """A tensor, an index of integer arrays (repeats likely) or slices, values, a kind."""
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    index = []
    for n in shape[:draw(st.integers(1, len(shape)))]:
        if draw(st.booleans()):
            index.append(np.array(draw(st.lists(st.integers(-n, n - 1), min_size=1,
                                                max_size=5))))
        else:
            index.append(slice(draw(st.integers(0, n - 1)), None, draw(st.sampled_from([1, 2]))))
    arrays = [i for i in index if isinstance(i, np.ndarray)]
    if arrays:  # integer arrays must broadcast together: give them one length
        length = min(len(i) for i in arrays)
        index = [i[:length] if isinstance(i, np.ndarray) else i for i in index]
    index = tuple(index)
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    v = rng.standard_normal(x[index].shape) + 2.0
    return x, index, v, draw(st.sampled_from(KINDS))


@given(updates())
def test_updates_match_numpy_and_their_pullback_is_the_transpose_of_their_jvp(case):
    x, index, v, kind = case
    update = lambda x, v: getattr(x.at[index], kind)(v)  # noqa: E731
    np.testing.assert_allclose(update(nx.array(x), nx.array(v)).numpy(),
                               numpy_update(x, index, v, kind), rtol=1e-13)
    rng = np.random.default_rng(0)
    tx, tv, u = (nx.array(rng.standard_normal(s)) for s in (x.shape, v.shape, x.shape))
    out, jv = rune.jvp(update, (nx.array(x), nx.array(v)), (tx, tv))
    _, pullback = rune.vjp(update, nx.array(x), nx.array(v))
    gx, gv = pullback(u)
    left = float(nx.sum(gx * tx) + nx.sum(gv * tv))
    right = float(nx.sum(u * jv))
    assert abs(left - right) <= 1e-10 * (1 + abs(left)), (left, right)
