"""rune.ptree: structures of tensors."""

import dataclasses
from collections import namedtuple

import pytest

from rune import ptree

Point = namedtuple("Point", "x y")


@dataclasses.dataclass
class Layer:
    w: float
    b: float


def test_flatten_orders_dict_keys_and_keeps_containers():
    tree = {"b": (1, [2, 3]), "a": None, "c": Point(4, 5), "d": Layer(6, 7)}
    leaves, structure = ptree.flatten(tree)
    assert leaves == [1, 2, 3, 4, 5, 6, 7]
    assert repr(structure) == "{'a': None, 'b': (*, [*, *]), 'c': Point(x=*, y=*), 'd': Layer(w=*, b=*)}"
    rebuilt = ptree.unflatten(structure, leaves)
    assert rebuilt == tree
    assert type(rebuilt["c"]) is Point and type(rebuilt["d"]) is Layer


def test_structures_compare_and_hash():
    assert ptree.structure((1, [2])) == ptree.structure((5, [6]))
    assert ptree.structure((1, [2])) != ptree.structure((1, (2,)))
    assert hash(ptree.structure({"a": 1})) == hash(ptree.structure({"a": 2}))


def test_map_over_several_trees_and_mismatch_message():
    assert ptree.map(lambda a, b: a * b, [1, (2,)], [3, (4,)]) == [3, (8,)]
    with pytest.raises(ValueError, match=r"argument 1 has structure \[\*, \*\], expected \(\*, \*\)"):
        ptree.map(lambda a, b: a, (1, 2), [1, 2])


def test_unflatten_checks_the_number_of_leaves():
    with pytest.raises(ValueError, match=r"has 2 leaves, got 3"):
        ptree.unflatten(ptree.structure((1, 2)), [1, 2, 3])


@pytest.mark.parametrize("call, message", [
    (lambda: ptree.flatten([1], is_leaf=5), "flatten: is_leaf must be a function or None, got 5"),
    (lambda: ptree.leaves([1], "x"), "flatten: is_leaf must be a function or None, got 'x'"),
    (lambda: ptree.map(5, [1]), "map: fn must be a function, got 5"),
    (lambda: ptree.unflatten([1], [1]), r"unflatten: structure must be a Structure \(from "
                                        r"ptree.flatten\), got list"),
    (lambda: ptree.unflatten(ptree.structure([1]), 5), "unflatten: leaves must be a sequence, "
                                                       "got int"),
    (lambda: ptree.paths("a"), "paths: structure must be a Structure"),
    (lambda: ptree.Structure(list, None, (1,)), r"Structure: children must be Structures, "
                                                r"got \['int'\]"),
    (lambda: ptree.register(type("Box", (), {}), 1, None), "register: to_children must be a "
                                                           "function, got 1"),
])
def test_bad_arguments_raise_naming_them(call, message):
    # They were AttributeErrors and "'int' object is not callable"; register
    # made the class a container whose flatten would fail later.
    with pytest.raises(TypeError, match=message):
        call()


def test_register_a_user_class_and_paths():
    class Pair:
        def __init__(self, a, b):
            self.a, self.b = a, b

    ptree.register(Pair, lambda p: ((p.a, p.b), None), lambda aux, ch: Pair(*ch))
    out = ptree.map(lambda v: v + 1, Pair(1, [2]))
    assert (out.a, out.b) == (2, [3])
    with pytest.raises(TypeError, match="registered already"):
        ptree.register(Pair, lambda p: ((), None), lambda aux, ch: Pair())
    assert ptree.paths(ptree.structure({"w": [1, Point(2, 3)]}), "p") == [
        "p['w'][0]", "p['w'][1].x", "p['w'][1].y"]


def test_is_leaf_stops_descent():
    leaves = ptree.leaves([(1, 2), (3, 4)], is_leaf=lambda n: isinstance(n, tuple))
    assert leaves == [(1, 2), (3, 4)]


# ------------------------------------------------------------------ ravel


def test_ravel_joins_leaves_in_order_and_unravel_rebuilds_them():
    import numpy as np

    from rune import nx

    tree = {"w": nx.array([[1.0, 2.0], [3.0, 4.0]]), "b": (nx.array(5.0, dtype=nx.float32), 6)}
    vector, unravel = ptree.ravel(tree)
    assert str(vector) == "float64 [6] [5, 6, 1, 2, 3, 4]"  # leaves by sorted key
    back = unravel(vector)
    assert ptree.structure(back) == ptree.structure(tree)
    assert back["b"][0].dtype == nx.float32 and back["b"][1].dtype == nx.int64
    np.testing.assert_array_equal(back["w"].numpy(), tree["w"].numpy())
    empty, unravel_empty = ptree.ravel({"a": None})
    assert empty.shape == (0,) and unravel_empty(empty) == {"a": None}


def test_ravel_is_differentiable_both_ways_and_transforms():
    import numpy as np

    import rune
    from rune import nx

    tree = {"w": nx.array([[1.0, -2.0], [0.5, 4.0]]), "b": nx.array([0.25, 3.0])}

    def loss_of_tree(tree):
        vector, _ = ptree.ravel(tree)
        return nx.sum(nx.sin(vector) * nx.arange(6.0))

    rune.check_grads(loss_of_tree, (tree,), order=2)
    _, unravel = ptree.ravel(tree)

    def loss_of_vector(v):
        t = unravel(v)
        return nx.sum(t["w"] @ t["b"]) ** 2

    v = ptree.ravel(tree)[0]
    rune.check_grads(loss_of_vector, (v,), order=2)
    np.testing.assert_allclose(rune.jit(loss_of_vector)(v).numpy(), loss_of_vector(v).numpy())
    batched = rune.vmap(lambda v: unravel(v)["w"])(nx.stack([v, 2 * v]))
    np.testing.assert_array_equal(batched.numpy()[1], 2 * tree["w"].numpy())


def test_unravel_of_a_wrong_vector_says_the_length():
    from rune import nx

    _, unravel = ptree.ravel([nx.ones(3)])
    with pytest.raises(ValueError, match=r"expected a vector of shape \(3,\).*got shape \(4,\)"):
        unravel(nx.ones(4))
    with pytest.raises(TypeError, match="ptree.ravel"):
        ptree.ravel(["a"])
