"""Shape functions: values against numpy, check_grads to order 2 (float64 and
complex128), abstract rules, vmap against a loop, and the errors."""

import numpy as np
import pytest

import rune
from rune import nx
from tests.util import assert_abstract_matches, assert_vmap_matches_loop

RNG = np.random.default_rng(1)

# (id, input shape, f(module, x)): nx and numpy share the signatures, so one
# lambda runs both ways.
UNARY = [
    ("reshape", (2, 3, 4), lambda m, x: m.reshape(x, (4, -1))),
    ("reshape flat", (2, 3, 4), lambda m, x: m.reshape(x, -1)),
    ("reshape empty", (0, 3), lambda m, x: m.reshape(x, (3, 0))),
    ("ravel", (2, 3, 4), lambda m, x: m.ravel(x)),
    ("transpose", (2, 3, 4), lambda m, x: m.transpose(x)),
    ("transpose axes", (2, 3, 4), lambda m, x: m.transpose(x, (-1, 0, 1))),
    ("swapaxes", (2, 3, 4), lambda m, x: m.swapaxes(x, 0, -1)),
    ("moveaxis", (2, 3, 4), lambda m, x: m.moveaxis(x, 0, -1)),
    ("moveaxis many", (2, 3, 4), lambda m, x: m.moveaxis(x, (0, 1), (-1, 0))),
    ("expand_dims", (2, 3), lambda m, x: m.expand_dims(x, 1)),
    ("expand_dims many", (2, 3), lambda m, x: m.expand_dims(x, (0, -1))),
    ("squeeze", (1, 3, 1, 2), lambda m, x: m.squeeze(x)),
    ("squeeze axis", (1, 3, 1, 2), lambda m, x: m.squeeze(x, 2)),
    ("squeeze axes", (1, 3, 1, 2), lambda m, x: m.squeeze(x, (0, -2))),
    ("broadcast_to", (3, 1), lambda m, x: m.broadcast_to(x, (2, 3, 4))),
    ("split sections", (4, 3), lambda m, x: m.split(x, 2)),
    ("split indices", (4, 3), lambda m, x: m.split(x, [1, 3], axis=0)),
    ("split clipped", (4, 3), lambda m, x: m.split(x, [-1, 10], axis=1)),
    ("split unsorted", (4, 3), lambda m, x: m.split(x, [3, 1])),
    ("tile", (2, 3), lambda m, x: m.tile(x, 2)),
    ("tile more axes", (2, 3), lambda m, x: m.tile(x, (2, 1, 3))),
    ("tile zero", (2, 3), lambda m, x: m.tile(x, (0, 1))),
    ("repeat", (2, 3), lambda m, x: m.repeat(x, 2)),
    ("repeat axis", (2, 3), lambda m, x: m.repeat(x, 2, axis=1)),
    ("repeat counts", (2, 3), lambda m, x: m.repeat(x, [1, 0, 2], axis=-1)),
    ("flip", (2, 3, 4), lambda m, x: m.flip(x)),
    ("flip axis", (2, 3, 4), lambda m, x: m.flip(x, 1)),
    ("flip axes", (2, 3, 4), lambda m, x: m.flip(x, (0, 2))),
    ("pad int", (2, 3), lambda m, x: m.pad(x, 1)),
    ("pad pair", (2, 3), lambda m, x: m.pad(x, (1, 2))),
    ("pad per axis", (2, 3), lambda m, x: m.pad(x, ((1, 0), (0, 2)))),
    ("pad one", (2, 3), lambda m, x: m.pad(x, ((1,),))),
    ("pad value", (2, 3), lambda m, x: m.pad(x, 1, constant_values=5)),
    ("pad values", (2, 3), lambda m, x: m.pad(x, 1, constant_values=((1, 2), (3, 4)))),
    ("pad edge", (2, 3), lambda m, x: m.pad(x, ((1, 2), (2, 1)), mode="edge")),
    ("pad wrap", (2, 3), lambda m, x: m.pad(x, ((2, 1), (3, 0)), mode="wrap")),
    ("pad reflect", (2, 3), lambda m, x: m.pad(x, ((1, 1), (2, 1)), mode="reflect")),
    ("pad symmetric", (2, 3), lambda m, x: m.pad(x, ((2, 1), (1, 3)), mode="symmetric")),
    ("pad empty", (0, 3), lambda m, x: m.pad(x, 1)),
    ("tril", (3, 4), lambda m, x: m.tril(x)),
    ("tril k", (2, 3, 4), lambda m, x: m.tril(x, -1)),
    ("tril vector", (3,), lambda m, x: m.tril(x)),
    ("triu", (3, 4), lambda m, x: m.triu(x, 1)),
    ("triu stack", (2, 4, 3), lambda m, x: m.triu(x)),
]
IDS = [case[0] for case in UNARY]


def _random(shape, dtype):
    x = RNG.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(dtype)


def _assert_same(got, expected):
    if isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected)
        for g, e in zip(got, expected):
            _assert_same(g, e)
        return
    got = np.asarray(got)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("name, shape, f", UNARY, ids=IDS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.int64])
def test_values_match_numpy(name, shape, f, dtype):
    x = _random(shape, dtype) if dtype != np.int64 else np.arange(np.prod(shape)).reshape(shape)
    _assert_same(f(nx, nx.array(x)), f(np, x))


def _squared_modulus(g):
    def real_valued(*zs):
        out = g(*zs)
        outs = out if isinstance(out, list) else [out]
        return sum(nx.sum(nx.real(o * nx.conj(o))) for o in outs)
    return real_valued


@pytest.mark.parametrize("name, shape, f", UNARY, ids=IDS)
def test_check_grads(name, shape, f):
    x = nx.array(_random(shape, np.float64))
    rune.check_grads(lambda x: f(nx, x), (x,), order=2)
    z = nx.array(_random(shape, np.complex128))
    rune.check_grads(_squared_modulus(lambda z: f(nx, z)), (z,), order=2)


@pytest.mark.parametrize("name, shape, f", UNARY, ids=IDS)
def test_abstract_rules_match_eager(name, shape, f):
    for dtype in (np.float64, np.complex128):
        assert_abstract_matches(lambda x: f(nx, x), nx.array(_random(shape, dtype)))


@pytest.mark.parametrize("name, shape, f", UNARY, ids=IDS)
@pytest.mark.parametrize("in_axes", [0, 1, -1])
def test_vmap_matches_loop(name, shape, f, in_axes):
    at = in_axes % (len(shape) + 1)
    batched = _random(shape[:at] + (3,) + shape[at:], np.float64)
    assert_vmap_matches_loop(lambda x: f(nx, x), nx.array(batched), in_axes=in_axes)


# ------------------------------------------------------ concatenate, stack

JOINS = [
    ("concatenate", [(2, 3), (1, 3), (4, 3)], lambda m, *xs: m.concatenate(xs)),
    ("concatenate axis", [(2, 3), (2, 1)], lambda m, *xs: m.concatenate(xs, axis=-1)),
    ("concatenate flat", [(2, 3), (4,)], lambda m, *xs: m.concatenate(xs, axis=None)),
    ("concatenate empty", [(2, 0), (2, 2)], lambda m, *xs: m.concatenate(xs, axis=1)),
    ("stack", [(2, 3), (2, 3)], lambda m, *xs: m.stack(xs)),
    ("stack axis", [(2, 3), (2, 3), (2, 3)], lambda m, *xs: m.stack(xs, axis=-1)),
]
JOIN_IDS = [case[0] for case in JOINS]


@pytest.mark.parametrize("name, shapes, f", JOINS, ids=JOIN_IDS)
def test_joins(name, shapes, f):
    for dtype in (np.float64, np.float32, np.complex128):
        xs = [_random(s, dtype) for s in shapes]
        _assert_same(f(nx, *[nx.array(x) for x in xs]), f(np, *xs))
    xs = [nx.array(_random(s, np.float64)) for s in shapes]
    rune.check_grads(lambda *xs: f(nx, *xs), xs, order=2)
    zs = [nx.array(_random(s, np.complex128)) for s in shapes]
    rune.check_grads(_squared_modulus(lambda *zs: f(nx, *zs)), zs, order=2)
    assert_abstract_matches(lambda *xs: f(nx, *xs), *xs)


def test_concatenate_promotes_dtypes_and_its_transpose_casts_back():
    a, b = nx.array(np.ones(2, np.float32)), nx.array([1.0, 2.0])
    out, pullback = rune.vjp(lambda a, b: nx.concatenate([a, b]), a, b)
    assert out.dtype == nx.float64
    ga, gb = pullback(nx.array([1.0, 2.0, 3.0, 4.0]))
    assert str(ga) == "float32 [2] [1, 2]" and str(gb) == "float64 [2] [3, 4]"
    # An integer piece carries no tangent: zeros stand for it.
    _, t = rune.jvp(lambda b: nx.concatenate([nx.array([7]), b]), (b,), (nx.array([1.0, 1.0]),))
    assert str(t) == "float64 [3] [0, 1, 1]"


@pytest.mark.parametrize("in_axes", [(0, 0), (1, None), (None, -1), (-1, 0)])
def test_vmap_of_joins_with_unbatched_arguments(in_axes):
    def shape_for(ax):
        return (2, 3) if ax is None else (2, 3)[: ax % 3] + (4,) + (2, 3)[ax % 3:]

    a, b = (nx.array(_random(shape_for(ax), np.float64)) for ax in in_axes)
    for f in (lambda a, b: nx.concatenate([a, b], axis=1), lambda a, b: nx.stack([b, a]),
              lambda a, b: nx.concatenate([a, nx.array(np.ones((2, 1))), b], axis=-1)):
        assert_vmap_matches_loop(f, a, b, in_axes=in_axes)


def test_gradients_of_linear_ops_are_their_transposes():
    # tile's gradient sums the copies; flip's flips back; pad's slices.
    x = nx.array([[1.0, 2.0], [3.0, 4.0]])
    w = nx.array(np.arange(16.0).reshape(4, 4))
    grad_tile = rune.grad(lambda x: nx.sum(nx.tile(x, (2, 2)) * w))(x)
    assert str(grad_tile) == "float64 [2, 2]\n[[20, 24],\n [36, 40]]"
    grad_pad = rune.grad(lambda x: nx.sum(nx.pad(x, 1, constant_values=9.0) * w))(x)
    assert str(grad_pad) == "float64 [2, 2]\n[[ 5,  6],\n [ 9, 10]]"
    grad_edge = rune.grad(lambda x: nx.sum(nx.pad(x, ((0, 0), (1, 1)), mode="edge") * w[:2]))(x)
    assert str(grad_edge) == "float64 [2, 2]\n[[ 1,  5],\n [ 9, 13]]"
    grad_repeat = rune.grad(lambda x: nx.sum(nx.repeat(x, [3, 1], axis=0) * w[:, :2]))(x)
    assert str(grad_repeat) == "float64 [2, 2]\n[[12, 15],\n [12, 13]]"


def test_returns_the_input_when_nothing_changes():
    x = nx.array([[1.0, 2.0]])
    for same in (nx.reshape(x, (1, 2)), nx.transpose(x, (0, 1)), nx.broadcast_to(x, (1, 2)),
                 nx.squeeze(x, ()), nx.pad(x, 0), nx.concatenate([x]), nx.flip(x, ())):
        assert same is x


def test_tensor_methods_reach_these_functions():
    x = nx.array([[1.0], [2.0]])
    assert str(x.reshape(1, 2)) == "float64 [1, 2]\n[[1, 2]]"
    assert str(x.T) == "float64 [1, 2]\n[[1, 2]]"
    assert str(x.transpose(1, 0)) == "float64 [1, 2]\n[[1, 2]]"
    assert str(x.squeeze()) == "float64 [2] [1, 2]"
    assert str(x.flatten()) == "float64 [2] [1, 2]"
    assert [str(row) for row in x] == ["float64 [1] [1]", "float64 [1] [2]"]


# -------------------------------------------------------------------- errors

ERRORS = [
    (lambda: nx.reshape(nx.array(np.ones((2, 3))), (4,)), ValueError,
     r"nx.reshape: cannot reshape a tensor of shape \(2, 3\) \(6 elements\) into shape \(4,\)"),
    (lambda: nx.reshape(nx.array(np.ones((2, 3))), (4, -1)), ValueError,
     r"cannot reshape a tensor of shape \(2, 3\) \(6 elements\) into shape \(4, -1\)"),
    (lambda: nx.reshape(nx.array(np.ones(6)), (-1, -1)), ValueError,
     r"nx.reshape: shape \(-1, -1\) has more than one -1"),
    (lambda: nx.broadcast_to(nx.array(np.ones((2, 3))), (4, 3)), ValueError,
     r"nx.broadcast_to: cannot broadcast a tensor of shape \(2, 3\) to shape \(4, 3\)"),
    (lambda: nx.broadcast_to(nx.array(np.ones((2, 3))), (3,)), ValueError,
     r"cannot broadcast a tensor of shape \(2, 3\) to shape \(3,\)"),
    (lambda: nx.concatenate([nx.array(np.ones((2, 3))), nx.array(np.ones((2, 2)))]), ValueError,
     r"nx.concatenate: the tensors must have the same shape except along axis 0, but tensor "
     r"1 has shape \(2, 2\) and tensor 0 has shape \(2, 3\)"),
    (lambda: nx.concatenate([nx.array(np.ones(2)), nx.array(np.ones((2, 2)))]), ValueError,
     r"tensor 1 has shape \(2, 2\) and tensor 0 has shape \(2,\)"),
    (lambda: nx.concatenate([nx.array(1.0), nx.array(2.0)]), ValueError,
     r"nx.concatenate: 0-d tensors cannot be concatenated"),
    (lambda: nx.concatenate([]), ValueError, r"nx.concatenate: need at least one tensor"),
    (lambda: nx.concatenate([nx.array([1.0])], axis=1), ValueError,
     r"nx.concatenate: axis 1 is out of range for a tensor with 1 axes"),
    (lambda: nx.stack([nx.array([1.0]), nx.array([1.0, 2.0])]), ValueError,
     r"nx.stack: the tensors must have the same shape, but tensor 1 has shape \(2,\) and "
     r"tensor 0 has shape \(1,\)"),
    (lambda: nx.squeeze(nx.array(np.ones((1, 3))), 1), ValueError,
     r"nx.squeeze: axis 1 has size 3 \(shape \(1, 3\)\); only axes of size 1 can be squeezed"),
    (lambda: nx.squeeze(nx.array(np.ones((1, 3))), 2), ValueError,
     r"nx.squeeze: axis 2 is out of range for a tensor with 2 axes"),
    (lambda: nx.transpose(nx.array(np.ones((1, 3))), (0, 0)), ValueError,
     r"nx.transpose: axes \(0, 0\) is not a permutation of the 2 axes"),
    (lambda: nx.transpose(nx.array(np.ones((1, 3))), (0, 2)), ValueError,
     r"nx.transpose: axis 2 is out of range"),
    (lambda: nx.moveaxis(nx.array(np.ones((1, 3))), (0, 1), 0), ValueError,
     r"nx.moveaxis: source \(0, 1\) and destination 0 must have the same number of axes"),
    (lambda: nx.expand_dims(nx.array(np.ones(3)), 2), ValueError,
     r"nx.expand_dims: axis 2 is out of range for a tensor with 2 axes"),
    (lambda: nx.split(nx.array(np.ones(5)), 2), ValueError,
     r"nx.split: axis 0 of size 5 cannot be split into 2 equal sections"),
    (lambda: nx.tile(nx.array(np.ones(5)), -1), ValueError, r"nx.tile: reps must be non-negative"),
    (lambda: nx.repeat(nx.array(np.ones(3)), [1, 2]), ValueError,
     r"nx.repeat: repeats has shape \(2,\), but axis 0 has size 3"),
    (lambda: nx.repeat(nx.array(np.ones(3)), -1), ValueError,
     r"nx.repeat: repeats must be non-negative ints, got -1"),
    (lambda: nx.pad(nx.array(np.ones(3)), -1), ValueError,
     r"nx.pad: pad_width must be non-negative, got -1"),
    (lambda: nx.pad(nx.array(np.ones((3, 3))), (1, 2, 3)), ValueError,
     r"nx.pad: pad_width \(1, 2, 3\) does not fit a tensor with 2 axes"),
    (lambda: nx.pad(nx.array(np.ones(3)), 1, mode="median"), ValueError,
     r"nx.pad: unknown mode 'median'"),
    (lambda: nx.pad(nx.array(np.ones(3)), 3, mode="reflect"), ValueError,
     r"nx.pad: mode 'reflect' pads axis 0 \(size 3\) by at most 2 on each side, got \(3, 3\)"),
    (lambda: nx.tril(nx.array(1.0)), ValueError, r"nx.tril: the tensor is 0-d"),
    (lambda: nx.reshape(None, 1), TypeError, r"nx.reshape: expected numbers, got NoneType"),
    (lambda: nx.transpose("ab"), TypeError, r"nx.transpose: expected numbers, got str"),
    (lambda: nx.reshape(nx.array(np.ones(2)), 1.5), TypeError,
     r"nx.reshape: shape must be an int or a sequence of ints, got 1.5"),
    (lambda: nx.tile(nx.array(np.ones(2)), 1.5), TypeError,
     r"nx.tile: reps must be an int or a sequence of ints, got 1.5"),
    (lambda: nx.split(nx.array(np.ones(2)), 1.5), TypeError,
     r"nx.split: indices_or_sections must be an int or a sequence of ints, got 1.5"),
    (lambda: nx.pad(nx.array(np.ones(2)), 1, constant_values="a"), TypeError,
     r"nx.pad: constant_values must be numbers, got 'a'"),
    (lambda: nx.triu(nx.array(np.ones((2, 2))), k=1.5), TypeError,
     r"nx.triu: k must be an int, got 1.5"),
    (lambda: nx.concatenate(5), TypeError,
     r"nx.concatenate: arrays must be a sequence of tensors, got int"),
    (lambda: nx.stack([nx.array([1.0]), None]), TypeError,
     r"nx.stack: expected numbers, got NoneType"),
]


@pytest.mark.parametrize("call, error, message", ERRORS)
def test_bad_inputs_raise_with_messages(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ------------------------------------- all families: batched rules, by jacobians

JACOBIAN_OPS = {
    "getitem": lambda x: x[[0, 0, 2], 1:],
    "getitem mask": lambda x: x[np.array([True, False, True])],
    "getitem basic": lambda x: x[::-1, 1],
    "take": lambda x: nx.take(x, [[1, 1], [3, 0]], axis=1),
    "diagonal": lambda x: nx.diagonal(x, 1),
    "prod": lambda x: nx.prod(x, axis=0),
    "max": lambda x: nx.max(x, axis=1),
    "cumsum": lambda x: nx.cumsum(x, axis=0),
    "logsumexp": lambda x: nx.logsumexp(x, axis=1),
    "var": lambda x: nx.var(x, axis=0, ddof=1),
    "pad": lambda x: nx.pad(x, ((1, 0), (2, 1)), constant_values=3.0),
    "pad reflect": lambda x: nx.pad(x, 1, mode="reflect"),
    "concatenate": lambda x: nx.concatenate([x, x * x], axis=1),
    "tril": lambda x: nx.tril(x),
    "repeat": lambda x: nx.repeat(x, [1, 2, 0], axis=0),
}


@pytest.mark.parametrize("name", JACOBIAN_OPS)
def test_jacobians_by_forward_and_reverse_mode_agree(name):
    # jacfwd maps jvps, and jacrev pullbacks, over a batch of basis vectors:
    # the batch rules of the primitives the rules and transposes apply.
    f = JACOBIAN_OPS[name]
    x = nx.array(_random((3, 4), np.float64))
    np.testing.assert_allclose(rune.jacfwd(f)(x).numpy(), rune.jacrev(f)(x).numpy(),
                               rtol=1e-13, atol=1e-15)
    h = rune.hessian(lambda x: nx.sum(f(x) * f(x)))(x).numpy().reshape(12, 12)
    np.testing.assert_allclose(h, h.T, rtol=1e-12, atol=1e-13)


def test_ndim_counts_axes_as_numpy_does():
    for x in (np.ones((2, 3, 1)), [[1.0, 2.0]], 3.0, np.float32(1.0), [nx.ones(2), nx.ones(2)]):
        assert nx.ndim(x) == np.ndim(np.asarray(x)) and type(nx.ndim(x)) is int
    assert nx.ndim(nx.ones((2, 3))) == 2 and nx.ndim(nx.array(1.0)) == 0
    # a traced tensor's axes are known: under vmap, the example's own
    assert rune.jit(lambda x: x * nx.ndim(x))(nx.ones((2, 2))).tolist() == [[2, 2], [2, 2]]
    assert rune.vmap(lambda x: x * nx.ndim(x))(nx.ones((3, 2))).tolist() == [[1, 1]] * 3
    with pytest.raises(TypeError, match="nx.ndim"):
        nx.ndim(None)
