"""Creating tensors: from data, filled, ranges, random; dtype arguments; and
the `*_like` functions under every transformation."""

import numpy as np
import pytest

import rune
from rune import nx
from rune.core import new_trace
from rune.graph import GraphTrace

DTYPE_NAMES = ("bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, "
               "float32, float64, complex64, complex128")


# ------------------------------------------------------------ array, asarray, create


@pytest.mark.parametrize("obj, text", [
    ([1.0, 2.0], "float64 [2] [1, 2]"),
    ([1, 2], "int64 [2] [1, 2]"),
    ([True, False], "bool [2] [True, False]"),
    ([1, 2.5], "float64 [2] [1, 2.5]"),
    ([1, 1j], "complex128 [2] [1+0i, 0+1i]"),
    (3.5, "float64 [] 3.5"),
    ((1, 2), "int64 [2] [1, 2]"),
    ([[1.0], [2.0]], "float64 [2, 1]\n[[1],\n [2]]"),
    (np.array([1, 2], dtype=np.float32), "float32 [2] [1, 2]"),
    (nx.array([1, 2], dtype=nx.int32), "int32 [2] [1, 2]"),
    ([], "float64 [0] []"),
])
def test_array_infers_dtypes_as_numpy(obj, text):
    assert str(nx.array(obj)) == text


def test_array_dtype_argument_forms():
    for dtype in (nx.float32, "float32", np.float32, np.dtype("float32")):
        assert nx.array([1, 2], dtype=dtype).dtype == nx.float32
    assert nx.array([1, 2], dtype=float).dtype == nx.float64
    assert nx.array([1, 2], dtype=complex).dtype == nx.complex128
    assert nx.array([0, 2], dtype=bool).dtype == nx.bool_
    assert nx.array([1, 2], dtype=int).dtype == nx.int64
    assert str(nx.array([1.7, -1.7], dtype=nx.int32)) == "int32 [2] [1, -1]"


def test_array_copies_and_asarray_does_not_copy_tensors():
    source = np.array([1.0, 2.0])
    a = nx.array(source)
    source[0] = 9.0
    assert a.tolist() == [1.0, 2.0]
    assert nx.array(a) is not a and nx.array(a).tolist() == a.tolist()
    assert nx.asarray(a) is a
    assert nx.asarray(a, dtype=nx.float64) is a
    assert nx.asarray(a, dtype=nx.float32).dtype == nx.float32
    b = nx.asarray(source)
    source[1] = 9.0  # asarray of an array copies too: a tensor never changes
    assert b.tolist() == [9.0, 2.0]
    assert str(nx.asarray([1, 2])) == "int64 [2] [1, 2]"


@pytest.mark.parametrize("obj, where", [
    ([[1, 2], [3]], r"\[1\] has length 1, but \[0\] has length 2"),
    ([[1, 2], 3], r"\[1\] is a number, but \[0\] has length 2"),
    ([[[1], [2]], [[3], [4, 5]]], r"\[1\]\[1\] has length 2, but \[1\]\[0\] has length 1"),
])
def test_ragged_lists_raise_naming_where(obj, where):
    with pytest.raises(ValueError, match=rf"nx.array: ragged nested sequence: {where} \(the "
                                         r"lists at one depth must all have the same length\)"):
        nx.array(obj)


@pytest.mark.parametrize("obj, got", [
    ("abc", r"str data of numpy dtype <U3"),
    (None, r"NoneType data of numpy dtype object"),
    ([1, "a"], r"list data of numpy dtype <U21"),
])
def test_non_numbers_raise(obj, got):
    with pytest.raises(TypeError, match=rf"nx.array: expected numbers, got {got}"):
        nx.array(obj)


@pytest.mark.parametrize("fn", [
    lambda d: nx.array([1], dtype=d), lambda d: nx.asarray([1], dtype=d),
    lambda d: nx.zeros(2, dtype=d), lambda d: nx.ones(2, dtype=d),
    lambda d: nx.full(2, 1, dtype=d), lambda d: nx.zeros_like(nx.ones(2), dtype=d),
    lambda d: nx.arange(3, dtype=d), lambda d: nx.linspace(0, 1, 3, dtype=d),
    lambda d: nx.eye(2, dtype=d), lambda d: nx.create(d, [1], [1]),
    lambda d: nx.astype(nx.ones(2), d), lambda d: nx.ones(2).astype(d),
])
@pytest.mark.parametrize("bad, shown", [
    ("float8", "'float8'"), ("U3", "'U3'"), (object, "<class 'object'>"), (3, "3"),
])
def test_unknown_dtypes_raise_everywhere(fn, bad, shown):
    with pytest.raises(TypeError, match=rf"nx\.[a-z_]+: unknown dtype {shown}; expected one of "
                                        rf"{DTYPE_NAMES}"):
        fn(bad)


def test_create():
    assert str(nx.create(nx.float64, [2], [1.0, 2.0])) == "float64 [2] [1, 2]"
    assert str(nx.create(nx.int32, (2, 2), range(4))) == "int32 [2, 2]\n[[0, 1],\n [2, 3]]"
    assert str(nx.create(nx.complex128, 1, np.array([2j]))) == "complex128 [1] [0+2i]"
    assert str(nx.create(nx.float32, [], [7])) == "float32 [] 7"
    with pytest.raises(ValueError, match=r"nx.create: shape \[2, 2\] holds 4 values, but 3 "
                                         r"were given"):
        nx.create(nx.float64, [2, 2], [1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match=r"nx.create: shape must be an int or a sequence of "
                                        r"ints, got \[2.0\]"):
        nx.create(nx.float64, [2.0], [1.0, 2.0])


# ------------------------------------------------------------ filled tensors and ranges


def test_filled():
    assert str(nx.zeros(2)) == "float64 [2] [0, 0]"
    assert str(nx.zeros((1, 2), nx.int32)) == "int32 [1, 2]\n[[0, 0]]"
    assert str(nx.ones([2], dtype=nx.bool_)) == "bool [2] [True, True]"
    assert str(nx.zeros(())) == "float64 [] 0"
    assert str(nx.full((2,), 7)) == "int64 [2] [7, 7]"
    assert str(nx.full(2, 0.5, dtype=nx.float32)) == "float32 [2] [0.5, 0.5]"
    assert str(nx.full(2, nx.array(1j))) == "complex128 [2] [0+1i, 0+1i]"
    x = nx.array([[1.5, 2.0]], dtype=nx.float32)
    assert str(nx.zeros_like(x)) == "float32 [1, 2]\n[[0, 0]]"
    assert str(nx.ones_like(x, dtype=nx.int64)) == "int64 [1, 2]\n[[1, 1]]"
    assert str(nx.full_like(x, 3)) == "float32 [1, 2]\n[[3, 3]]"
    assert str(nx.zeros_like(np.ones(2, np.int32))) == "int32 [2] [0, 0]"
    assert str(nx.ones_like(2.5)) == "float64 [] 1"


@pytest.mark.parametrize("fn, message", [
    (lambda: nx.zeros(-1), r"nx.zeros: shape \[-1\] has a negative size"),
    (lambda: nx.ones((2, -3)), r"nx.ones: shape \[2, -3\] has a negative size"),
    (lambda: nx.full(-1, 0.0), r"nx.full: shape \[-1\] has a negative size"),
    (lambda: nx.linspace(0, 1, -1), "nx.linspace: num must not be negative, got -1"),
    (lambda: nx.eye(-2), "nx.eye: N must not be negative, got -2"),
    (lambda: nx.arange(0, 1, 0), "nx.arange: step must not be zero"),
])
def test_bad_sizes_raise_value_errors(fn, message):
    with pytest.raises(ValueError, match=message):
        fn()


@pytest.mark.parametrize("fn, message", [
    (lambda: nx.zeros((2, 1.5)), r"nx.zeros: shape must be an int or a sequence of ints, "
                                 r"got \(2, 1.5\)"),
    (lambda: nx.ones("ab"), "nx.ones: shape must be an int or a sequence of ints, got 'ab'"),
    (lambda: nx.linspace(0, 1, 2.5), "nx.linspace: num must be an int, got 2.5"),
    (lambda: nx.eye(2, 1.5), "nx.eye: M must be an int, got 1.5"),
    (lambda: nx.full(2, "a"), "nx.full: expected numbers, got str data"),
    (lambda: nx.zeros_like(None), "nx.zeros_like: expected numbers, got NoneType data"),
    (lambda: nx.ones_like(nx.ones(2), "x"), "nx.ones_like: unknown dtype 'x'"),
    (lambda: nx.arange(None), "nx.arange: start, stop and step must be real numbers, got 0, "
                              "None and None"),
    (lambda: nx.arange(0, "a"), "nx.arange: start, stop and step must be real numbers"),
    (lambda: nx.linspace(0, "a"), "nx.linspace: start and stop must be numbers, got 0 and 'a'"),
    (lambda: nx.eye(2, k=1.5), "nx.eye: k must be an int, got 1.5"),
    (lambda: nx.create(nx.float64, [2], 5), "nx.create: values must be a sequence of numbers, "
                                            "got int"),
    (lambda: nx.array(["a"], dtype=nx.float64), r"nx.array: expected numbers, got list data "
                                                r"that numpy cannot read as float64 \(could "
                                                r"not convert string to float: 'a'\)"),
])
def test_bad_types_raise_type_errors(fn, message):
    with pytest.raises(TypeError, match=message):
        fn()


def test_ranges_and_eye_match_numpy():
    cases = [
        (nx.arange(5), np.arange(5)), (nx.arange(2, 5), np.arange(2, 5)),
        (nx.arange(0.0, 1.0, 0.25), np.arange(0.0, 1.0, 0.25)),
        (nx.arange(5, 0, -2), np.arange(5, 0, -2)),
        (nx.arange(3, dtype=nx.float32), np.arange(3, dtype=np.float32)),
        (nx.linspace(0, 1, 5), np.linspace(0, 1, 5)),
        (nx.linspace(0, 1, 4, endpoint=False), np.linspace(0, 1, 4, endpoint=False)),
        (nx.linspace(0, 1, 3, dtype=nx.float32), np.linspace(0, 1, 3, dtype=np.float32)),
        (nx.eye(3), np.eye(3)), (nx.eye(2, 3, k=1), np.eye(2, 3, k=1)),
        (nx.eye(2, dtype=nx.int32), np.eye(2, dtype=np.int32)),
    ]
    for ours, theirs in cases:
        assert ours.dtype == theirs.dtype
        np.testing.assert_array_equal(ours.numpy(), theirs)
    assert str(nx.linspace(0, 1, 5)) == "float64 [5] [0, 0.25, 0.5, 0.75, 1]"


# ------------------------------------------------------------ under transformations


def test_like_functions_are_constants_under_every_transformation():
    seen = []

    def f(x):
        zeros, ones, full = nx.zeros_like(x), nx.ones_like(x), nx.full_like(x, 2.0)
        seen.append((type(zeros), zeros.shape, zeros.dtype, ones.dtype, full.dtype))
        return x * ones + zeros + full

    x = nx.array([[1.0, 2.0], [3.0, 4.0]], dtype=nx.float32)
    assert str(rune.grad(lambda x: nx.sum(f(x)))(x)) == "float32 [2, 2]\n[[1, 1],\n [1, 1]]"
    rune.jvp(f, (x,), (nx.ones_like(x),))
    rune.vmap(f)(x)
    with new_trace(GraphTrace) as trace:
        f(trace.new_var((2, 2), np.float32))
    expected = [((2, 2), nx.float32)] * 2 + [((2,), nx.float32), ((2, 2), nx.float32)]
    assert len(seen) == len(expected)
    for (kind, shape, *dtypes), (want_shape, want_dtype) in zip(seen, expected):
        assert kind is nx.Tensor and shape == want_shape
        assert all(d == want_dtype for d in dtypes)


def test_array_of_traced_values():
    def f(x):
        assert nx.array(x) is x and nx.asarray(x) is x  # traced tensors pass through
        assert nx.array(x, dtype=nx.float32).dtype == nx.float32
        return nx.sum(x)

    rune.grad(f)(nx.array([1.0, 2.0]))
    # Nested lists holding traced values are stacked, differentiably (as in JAX).
    g = rune.grad(lambda x: nx.sum(nx.array([[1.0, 2.0], [x, x]]) ** 2))(nx.array(1.0))
    assert float(g) == 4.0
    with pytest.raises(ValueError, match=r"nx.array: ragged nested sequence"):
        rune.grad(lambda x: nx.sum(nx.array([[1.0, 2.0], [x]])))(nx.array(1.0))


# ------------------------------------------------------------ random


def test_random_is_reproducible_by_seed():
    a, b = nx.random.default_rng(42), nx.random.default_rng(42)
    for draw in (lambda r: r.normal(size=(2, 3)), lambda r: r.uniform(-1, 1, size=4),
                 lambda r: r.integers(0, 100, size=5)):
        x, y = draw(a), draw(b)
        assert isinstance(x, nx.Tensor) and x.tolist() == y.tolist()
    assert nx.random.default_rng(1).normal(size=3).tolist() != \
        nx.random.default_rng(2).normal(size=3).tolist()
    rng = np.random.default_rng(7)
    assert nx.random.default_rng(7).normal(size=3).tolist() == rng.standard_normal(3).tolist()


def test_random_shapes_dtypes_and_ranges():
    rng = nx.random.default_rng(0)
    assert rng.normal().shape == () and rng.normal().dtype == nx.float64
    assert rng.normal(size=3, dtype=nx.float32).dtype == nx.float32
    assert rng.normal(loc=nx.zeros((2, 1)), scale=nx.ones(3)).shape == (2, 3)
    u = rng.uniform(2.0, 3.0, size=1000)
    assert u.dtype == nx.float64 and 2.0 <= u.numpy().min() and u.numpy().max() < 3.0
    assert rng.uniform(size=(2,), dtype="float32").dtype == nx.float32
    n = rng.integers(5, size=1000)
    assert n.dtype == nx.int64 and set(n.tolist()) == {0, 1, 2, 3, 4}
    assert rng.integers(-3, -1, size=2, dtype=nx.int32).dtype == nx.int32
    assert rng.integers(10).shape == ()
    z = rng.normal(loc=5.0, scale=2.0, size=20000).numpy()
    assert abs(z.mean() - 5.0) < 0.1 and abs(z.std() - 2.0) < 0.1
    # a float32 draw is the float64 draw rounded
    assert nx.random.default_rng(3).normal(size=4, dtype=nx.float32).tolist() == \
        nx.random.default_rng(3).normal(size=4).astype(nx.float32).tolist()


def test_random_draws_are_differentiable_in_their_parameters():
    def sample_mean(loc, scale):
        return nx.sum(nx.random.default_rng(0).normal(loc, scale, size=4)) / 4

    g_loc, g_scale = rune.grad(sample_mean, argnums=(0, 1))(nx.array(1.0), nx.array(2.0))
    z = np.random.default_rng(0).standard_normal(4)
    assert g_loc.item() == pytest.approx(1.0)
    assert g_scale.item() == pytest.approx(z.mean())
    g = rune.grad(lambda high: nx.sum(nx.random.default_rng(0).uniform(0.0, high, size=3)))(
        nx.array(2.0))
    assert g.item() == pytest.approx(np.random.default_rng(0).random(3).sum())


def test_random_errors():
    rng = nx.random.default_rng(0)
    with pytest.raises(TypeError, match="Generator.normal: dtype must be a float dtype, got "
                                        "int64"):
        rng.normal(size=2, dtype=nx.int64)
    with pytest.raises(TypeError, match="Generator.uniform: dtype must be a float dtype, got "
                                        "complex128"):
        rng.uniform(size=2, dtype=nx.complex128)
    with pytest.raises(TypeError, match="Generator.integers: dtype must be an integer dtype, "
                                        "got float64"):
        rng.integers(3, dtype=nx.float64)
    with pytest.raises(TypeError, match="Generator.normal: unknown dtype 'float8'"):
        rng.normal(dtype="float8")
    with pytest.raises(ValueError, match=r"Generator.integers: the range \[5, 5\) is empty"):
        rng.integers(5, 5)
    with pytest.raises(ValueError, match=r"Generator.normal: shape \[-2\] has a negative size"):
        rng.normal(size=-2)
    with pytest.raises(TypeError, match=r"nx.random.default_rng: seed must be None, a "
                                        r"non-negative int or a sequence of them, got 1.5"):
        nx.random.default_rng(1.5)
    with pytest.raises(ValueError, match=r"nx.random.default_rng: seed .* got -1"):
        nx.random.default_rng(-1)
    with pytest.raises(TypeError, match=r"nx.random.Generator: rng must be a "
                                        r"numpy.random.Generator, got int"):
        nx.random.Generator(0)
