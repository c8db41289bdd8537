"""Issue 14's shapes and building names (now in rune/nx/manipulation/, linalg/products.py,
creation.py and indexing.py; one-argument where, einsum's sublists, Tensor.ravel): each
against numpy over several shapes and dtypes, under jit and vmap. Their
order-2 derivatives run in the census sweep (tests/sweep.py)."""

from __future__ import annotations

import numpy as np
import pytest

import rune
from rune import nx
from tests.test_nx_names import _assert_same, _stacked, _tensors

RNG = np.random.default_rng(14)
DTYPES = (np.float64, np.float32, np.int64, np.complex128)


def _draw(shape, dtype):
    x = RNG.uniform(-3, 3, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.uniform(-3, 3, shape)
    return x.astype(dtype)


# (name, f, reference, shapes): f and reference take the same arguments
# (tensors and numpy arrays); each case runs for every dtype of DTYPES.
CASES = [
    ("atleast_1d", nx.atleast_1d, np.atleast_1d, [((),), ((3,),), ((2, 3),)]),
    ("atleast_2d", nx.atleast_2d, np.atleast_2d, [((),), ((3,),), ((2, 3, 1),)]),
    ("atleast_3d", nx.atleast_3d, np.atleast_3d, [((),), ((3,),), ((2, 3),), ((1, 2, 3, 2),)]),
    ("atleast_2d many", lambda a, b: nx.atleast_2d(a, b), lambda a, b: np.atleast_2d(a, b),
     [((3,), (2, 2))]),
    ("vstack", lambda a, b: nx.vstack([a, b]), lambda a, b: np.vstack([a, b]),
     [((3,), (3,)), ((2, 3), (3,)), ((1, 2, 2), (3, 2, 2))]),
    ("row_stack", lambda a, b: nx.row_stack((a, b)), lambda a, b: np.vstack((a, b)),
     [((3,), (2, 3))]),
    ("hstack", lambda a, b: nx.hstack([a, b]), lambda a, b: np.hstack([a, b]),
     [((), (3,)), ((2, 3), (2, 1)), ((2, 1, 2), (2, 3, 2))]),
    ("dstack", lambda a, b: nx.dstack([a, b]), lambda a, b: np.dstack([a, b]),
     [((3,), (3,)), ((2, 3), (2, 3)), ((2, 3, 1), (2, 3))]),
    ("column_stack", lambda a, b: nx.column_stack([a, b]), lambda a, b: np.column_stack([a, b]),
     [((3,), (3,)), ((3,), (3, 2)), ((), ())]),
    # one array: numpy joins the entries along its first axis
    *[(f"{name} one array", getattr(nx, name), getattr(np, name if name != "row_stack"
                                                         else "vstack"),
       [((3,),), ((2, 3),), ((2, 1, 3),)]) for name in (
        "vstack", "row_stack", "hstack", "dstack", "column_stack")],
    ("array_split", lambda a: nx.array_split(a, 3), lambda a: np.array_split(a, 3),
     [((7,),), ((2,),), ((5, 2),)]),
    ("array_split axis", lambda a: nx.array_split(a, [1, 5], axis=1),
     lambda a: np.array_split(a, [1, 5], axis=1), [((2, 4),)]),
    ("hsplit", lambda a: nx.hsplit(a, 2), lambda a: np.hsplit(a, 2), [((4,),), ((3, 4),)]),
    ("vsplit", lambda a: nx.vsplit(a, [1]), lambda a: np.vsplit(a, [1]), [((3, 2),)]),
    ("dsplit", lambda a: nx.dsplit(a, 2), lambda a: np.dsplit(a, 2), [((1, 2, 4),)]),
    ("append", nx.append, np.append, [((3,), (2, 2)), ((), ())]),
    ("append axis", lambda a, b: nx.append(a, b, axis=0), lambda a, b: np.append(a, b, axis=0),
     [((2, 3), (1, 3))]),
    ("insert", lambda a, b: nx.insert(a, 1, b), lambda a, b: np.insert(a, 1, b),
     [((4,), ()), ((4,), (2,)), ((2, 2), (3,))]),
    ("insert axis", lambda a, b: nx.insert(a, -1, b, axis=1),
     lambda a, b: np.insert(a, -1, b, axis=1), [((2, 3), ()), ((2, 3), (2,)), ((2, 3), (2, 1))]),
    ("insert many", lambda a, b: nx.insert(a, [3, 0, 3], b, axis=0),
     lambda a, b: np.insert(a, [3, 0, 3], b, axis=0), [((3,), (3,)), ((3, 2), (3, 1))]),
    ("insert list of one", lambda a, b: nx.insert(a, [1], b, axis=1),
     lambda a, b: np.insert(a, [1], b, axis=1), [((2, 3), (2,)), ((2, 3), (2, 1))]),
    ("insert slice", lambda a, b: nx.insert(a, slice(0, 3, 2), b),
     lambda a, b: np.insert(a, slice(0, 3, 2), b), [((4,), (2,))]),
    ("delete", lambda a: nx.delete(a, [0, -1]), lambda a: np.delete(a, [0, -1]),
     [((5,),), ((2, 3),)]),
    ("delete axis", lambda a: nx.delete(a, 1, axis=-1), lambda a: np.delete(a, 1, axis=-1),
     [((2, 3),), ((2, 2, 2),)]),
    ("delete slice", lambda a: nx.delete(a, slice(None, None, 2), 0),
     lambda a: np.delete(a, slice(None, None, 2), 0), [((5, 2),)]),
    ("delete mask", lambda a: nx.delete(a, np.array([True, False, True]), 0),
     lambda a: np.delete(a, np.array([True, False, True]), 0), [((3, 2),)]),
    ("roll", lambda a: nx.roll(a, 2), lambda a: np.roll(a, 2), [((5,),), ((2, 3),)]),
    ("roll axes", lambda a: nx.roll(a, (1, -4, 1), (0, 1, 0)),
     lambda a: np.roll(a, (1, -4, 1), (0, 1, 0)), [((3, 3),), ((3, 5, 2),)]),
    ("roll shift broadcast", lambda a: nx.roll(a, 1, (0, 1)), lambda a: np.roll(a, 1, (0, 1)),
     [((2, 3),)]),
    ("rollaxis", lambda a: nx.rollaxis(a, 2), lambda a: np.rollaxis(a, 2), [((2, 3, 4),)]),
    ("rollaxis start", lambda a: nx.rollaxis(a, 0, 3), lambda a: np.rollaxis(a, 0, 3),
     [((2, 3, 4),)]),
    ("rollaxis negative", lambda a: nx.rollaxis(a, -1, -2), lambda a: np.rollaxis(a, -1, -2),
     [((2, 3, 4),)]),
    *[(f"rot90 k={k}", lambda a, k=k: nx.rot90(a, k), lambda a, k=k: np.rot90(a, k),
       [((2, 3),), ((2, 3, 2),)]) for k in (-1, 0, 1, 2, 3, 5)],
    ("rot90 axes", lambda a: nx.rot90(a, 1, (2, 0)), lambda a: np.rot90(a, 1, (2, 0)),
     [((2, 3, 4),)]),
    ("flipud", nx.flipud, np.flipud, [((3,),), ((2, 3),)]),
    ("fliplr", nx.fliplr, np.fliplr, [((2, 3),), ((2, 3, 2),)]),
    *[(f"diag k={k}", lambda a, k=k: nx.diag(a, k), lambda a, k=k: np.diag(a, k),
       [((3,),), ((3, 4),), ((1,),)]) for k in (-2, 0, 1)],
    ("diagflat", lambda a: nx.diagflat(a, -1), lambda a: np.diagflat(a, -1),
     [((2, 2),), ((3,),)]),
    ("kron", nx.kron, np.kron, [((2, 2), (3, 1)), ((3,), (2, 2)), ((), (2,)), ((2, 1, 2), (2, 3))]),
    ("select", lambda a, b: nx.select([a.real > 0, b.real > 1], [a, b], default=-1),
     lambda a, b: np.select([a.real > 0, b.real > 1], [a, b], default=-1),
     [((2, 3), (2, 3)), ((2, 3), (3,))]),
    ("put_along_axis", lambda a, v: nx.put_along_axis(a, np.array([[2], [0]]), v, axis=1),
     lambda a, v: _put(a, np.array([[2], [0]]), v, 1), [((2, 3), ()), ((2, 3), (2, 1))]),
    ("put_along_axis axis 0", lambda a, v: nx.put_along_axis(a, np.array([[1, 0, 1]]), v, 0),
     lambda a, v: _put(a, np.array([[1, 0, 1]]), v, 0), [((2, 3), (1, 3))]),
    ("put_along_axis None", lambda a, v: nx.put_along_axis(a, np.array([4, 1]), v, None),
     lambda a, v: _put(a, np.array([4, 1]), v, None), [((2, 3), (2,))]),
    ("where one argument", lambda a: nx.where(a.real > 0), lambda a: np.where(a.real > 0),
     [((5,),), ((2, 3),)]),
    ("einsum sublists", lambda a, b: nx.einsum(a, [0, 1], b, [1, 2], [0, 2]),
     lambda a, b: np.einsum(a, [0, 1], b, [1, 2], [0, 2]), [((2, 3), (3, 2))]),
    ("einsum sublists implicit", lambda a, b: nx.einsum(a, [Ellipsis, 1], b, [1]),
     lambda a, b: np.einsum(a, [Ellipsis, 1], b, [1]), [((2, 2, 3), (3,))]),
    ("Tensor.ravel", lambda a: a.ravel(), np.ravel, [((2, 3),), ((),)]),
]


def _put(a, indices, values, axis):
    a = a.copy()
    np.put_along_axis(a, indices, values, axis)
    return a


PARAMS = [pytest.param(f, ref, shapes, dtype, id=f"{name}-{shapes}-{np.dtype(dtype)}")
          for name, f, ref, all_shapes in CASES for shapes in all_shapes for dtype in DTYPES]
NOT_TRACEABLE = ("where one argument",)  # its output's shape depends on the values
TRACEABLE = [p for p in PARAMS if not p.id.startswith(NOT_TRACEABLE)]


def _args(shapes, dtype):
    return [_draw(shape, dtype) for shape in shapes]


@pytest.mark.parametrize("f, reference, shapes, dtype", PARAMS)
def test_matches_numpy(f, reference, shapes, dtype):
    args = _args(shapes, dtype)
    _assert_same(f(*_tensors(args)), reference(*args))


@pytest.mark.parametrize("f, reference, shapes, dtype", TRACEABLE)
def test_jit_matches_eager(f, reference, shapes, dtype):
    args = _tensors(_args(shapes, dtype))
    _assert_same(rune.jit(f)(*args), f(*args))


@pytest.mark.parametrize("f, reference, shapes, dtype",
                         [p for p in TRACEABLE if p.values[3] is np.float64])
def test_vmap_matches_a_loop(f, reference, shapes, dtype):
    batched = _stacked(_args(shapes, dtype))
    out = rune.vmap(f)(*_tensors(batched))
    for i in range(2):
        one = f(*_tensors([b[i] for b in batched]))
        _assert_same(rune.ptree.map(lambda o, i=i: o[i], out), one)


def test_r_and_c_match_numpy():
    a, b = np.array([1.0, 2.0]), np.array([[3.0, 4.0], [5.0, 6.0]])
    _assert_same(nx.r_[nx.array(a), 0.0, 4:7, -1:1:5j], np.r_[a, 0.0, 4:7, -1:1:5j])
    _assert_same(nx.r_[nx.array(b), nx.array(b)], np.r_[b, b])
    _assert_same(nx.r_[3], np.r_[3])
    _assert_same(nx.c_[nx.array(a), a], np.c_[a, a])
    _assert_same(nx.c_[nx.array(b), a], np.c_[b, a])
    _assert_same(nx.c_[1.0, 2.0], np.c_[1.0, 2.0])
    _assert_same(nx.c_[0:2, nx.array(b)], np.c_[0:2, b])


def test_r_and_c_are_differentiable_and_trace():
    x = nx.array([1.0, 2.0])
    rune.check_grads(lambda x: nx.r_[x, 0.0, x * x], (x,), order=2, modes=("fwd", "rev"))
    rune.check_grads(lambda x: nx.c_[x, x * x], (x,), order=2, modes=("fwd", "rev"))
    _assert_same(rune.jit(lambda x: nx.r_[x, 0:2])(x), nx.r_[x, 0:2])
    _assert_same(rune.vmap(lambda x: nx.r_[x, 0.0])(nx.ones((3, 2))), np.ones((3, 3)) -
                 np.eye(3)[2])


@pytest.mark.parametrize("name", ["vstack", "row_stack", "hstack", "dstack", "column_stack"])
def test_one_numpy_array_joins_its_entries_and_is_differentiable(name):
    x = _draw((2, 3), np.float64)
    reference = getattr(np, name if name != "row_stack" else "vstack")
    _assert_same(getattr(nx, name)(x), reference(x))
    rune.check_grads(getattr(nx, name), (nx.array(x),), order=2)


def test_insert_and_delete_positions_are_fixed_under_jit():
    x = nx.arange(4.0)
    _assert_same(rune.jit(lambda x: nx.insert(nx.delete(x, 0), 2, x[:1]))(x),
                 np.array([1.0, 2.0, 0.0, 3.0]))


@pytest.mark.parametrize("call, error, message", [
    (lambda: nx.vstack(nx.array(1.0)), TypeError,
     "nx.vstack: expected a list or tuple of tensors, or a tensor with at least one axis, "
     "got a 0-d tensor"),
    (lambda: nx.column_stack(np.float64(1.0)), TypeError, "nx.column_stack: expected a list"),
    (lambda: nx.hstack("ab"), TypeError, "nx.hstack: expected a list or tuple of tensors"),
    (lambda: nx.hstack([]), ValueError, "nx.hstack: needs at least one"),
    (lambda: nx.array_split(nx.ones(3), 0), ValueError, "nx.array_split: the number of sect"),
    (lambda: nx.vsplit(nx.ones(3), 3), ValueError, "nx.vsplit: needs a tensor with at least 2"),
    (lambda: nx.hsplit(nx.array(1.0), 1), ValueError, "nx.hsplit: needs a tensor with at least"),
    (lambda: nx.delete(nx.ones(3), 3), IndexError, "nx.delete: an index in 3 is out"),
    (lambda: nx.delete(nx.ones(3), [True]), ValueError, "nx.delete: a boolean obj"),
    (lambda: nx.insert(nx.ones(3), 5, 1.0), IndexError, "nx.insert: a position"),
    (lambda: nx.insert(nx.ones(3), 1.5, 1.0), TypeError, "nx.insert: obj must be"),
    (lambda: nx.roll(nx.ones(3), (1, 2), (0, 0, 0)), ValueError, "nx.roll: shift"),
    (lambda: nx.roll(nx.ones(3), 1, 1), ValueError, "nx.roll: axis 1 is out of range"),
    (lambda: nx.rollaxis(nx.ones((2, 2)), 0, 3), ValueError, "nx.rollaxis: start 3"),
    (lambda: nx.rot90(nx.ones((2, 2)), 1, (0, -2)), ValueError, "nx.rot90: axes must be diff"),
    (lambda: nx.rot90(nx.ones((2, 2)), 1, (0,)), ValueError, "nx.rot90: axes must be two"),
    (lambda: nx.flipud(nx.array(1.0)), ValueError, "nx.flipud: needs a tensor"),
    (lambda: nx.fliplr(nx.ones(2)), ValueError, "nx.fliplr: needs a tensor with at least 2"),
    (lambda: nx.diag(nx.ones((2, 2, 2))), ValueError, "nx.diag: v must be 1-d or 2-d"),
    (lambda: nx.select([nx.ones(2)], [nx.ones(2)]), TypeError, "nx.select: condition 0"),
    (lambda: nx.select([], [nx.ones(2)]), ValueError, "nx.select: condlist and choicelist"),
    (lambda: nx.put_along_axis(nx.ones((2, 2)), nx.ones((2, 1)), 1.0, 1), TypeError,
     "nx.put_along_axis: indices must be integers"),
    (lambda: nx.put_along_axis(nx.ones((2, 2)), nx.array([0]), 1.0, 1), ValueError,
     "nx.put_along_axis: indices must have"),
    (lambda: nx.where(nx.ones(2) > 0, 1.0), ValueError, "nx.where: give both x and y"),
    (lambda: nx.einsum(nx.ones(2), "i"), TypeError, "nx.einsum: subscripts must be a string"),
    (lambda: nx.einsum(nx.ones(2), [-1]), ValueError, "nx.einsum: axis numbers"),
    (lambda: nx.r_["0,2", nx.ones(2)], ValueError, "nx.r_: string directives"),
])
def test_errors_name_the_function_and_the_problem(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_diag_of_a_vector_is_one_scatter_and_its_pullback_one_gather():
    """nx.diag(v) costs about numpy's: one scatter of v into zeros, not the shifted
    copies, reshapes and pads (each an n^2 array) it was built from before, which
    cost 10-20x numpy's np.diag at n = 1000 eagerly and 2-3x under grad."""
    def names(graph):
        return [eq[0].name for eq in graph.equations]

    for k in (0, 2, -1):
        v = nx.array([1.0, 2.0, 3.0])
        assert names(rune.make_graph(lambda v, k=k: nx.diag(v, k))(v)) == ["scatter_add"]
        pullback = rune.make_graph(lambda v, ct, k=k: rune.vjp(lambda v: nx.diag(v, k), v)[1](ct))
        assert names(pullback(v, nx.ones((3 + abs(k),) * 2))) == ["scatter_add", "gather"]
