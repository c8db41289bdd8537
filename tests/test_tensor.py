"""The Tensor API: attributes, reading values, immutability, operators mixing
with numbers and numpy arrays, and reads under transformations."""

import operator

import numpy as np
import pytest

import rune
from rune import nx
from rune.nx import Tensor


@pytest.fixture
def m():
    return nx.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])


def test_attributes(m):
    assert m.shape == (2, 3) and m.ndim == 2 and m.size == 6
    assert m.dtype == nx.float64
    assert str(m.T) == "float64 [3, 2]\n[[1, 4],\n [2, 5],\n [3, 6]]"
    z = nx.array([1 + 2j, 3 - 4j])
    assert str(z.real) == "float64 [2] [1, 3]"
    assert str(z.imag) == "float64 [2] [2, -4]"
    assert str(z.conj()) == str(z.conjugate()) == "complex128 [2] [1-2i, 3+4i]"
    assert nx.array(3.0).shape == () and nx.array(3.0).size == 1
    assert nx.zeros((2, 0)).size == 0


def test_reading_values(m):
    assert m.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert type(m.tolist()[0][0]) is float
    assert nx.array([[7]]).item() == 7 and type(nx.array([[7]]).item()) is int
    assert float(nx.array([2.5])) == 2.5
    assert int(nx.array(3.9)) == 3
    assert complex(nx.array(1 + 2j)) == 1 + 2j
    assert bool(nx.array([True])) is True and bool(nx.array(0.0)) is False
    assert [10, 20, 30][nx.array(1)] == 20  # integer tensors index lists
    assert f"{nx.array(2.0) / 3:.3f}" == "0.667"
    assert f"{nx.array([1.0, 2.0])}" == "float64 [2] [1, 2]"


@pytest.mark.parametrize("read, name", [
    (lambda t: t.item(), r"Tensor.item\(\)"),
    (float, r"float\(Tensor\)"),
    (int, r"int\(Tensor\)"),
    (bool, r"bool\(Tensor\)"),
    (complex, r"complex\(Tensor\)"),
])
def test_reading_one_number_from_many_raises(m, read, name):
    with pytest.raises(ValueError, match=rf"{name}: expected a tensor with one element, got "
                                         rf"shape \(2, 3\) \(6 elements\)"):
        read(m)


def test_bad_reads():
    with pytest.raises(TypeError, match="only integer tensors can be used as an index, got "
                                        "float64"):
        operator.index(nx.array(1.0))
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(nx.array(1.0))
    with pytest.raises(TypeError, match="iteration over a 0-d tensor"):
        iter(nx.array(1.0))
    with pytest.raises(TypeError, match="unhashable"):
        hash(nx.array(1.0))


def test_the_constructor_takes_numbers_only():
    with pytest.raises(TypeError, match=r"^Tensor: expected numbers, got NoneType data of "
                                        r"numpy dtype object \(use nx.array"):
        Tensor(None)  # was a tensor of objects
    with pytest.raises(TypeError, match="Tensor: expected numbers, got ndarray data of numpy "
                                        "dtype <U1"):
        Tensor(np.array(["a"]))


def test_tensors_are_immutable(m):
    copy = m.numpy()
    copy[0, 0] = 100.0
    assert m.tolist()[0][0] == 1.0
    view = np.asarray(m)
    assert not view.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        view[0, 0] = 100.0
    assert m.tolist()[0][0] == 1.0
    assert np.asarray(m, dtype=np.float32).dtype == np.float32
    assert np.array(m).flags.writeable  # np.array copies, and the copy is the caller's
    source = np.array([1.0, 2.0])
    t = nx.array(source)
    source[0] = 100.0  # nx.array copied it
    assert t.tolist() == [1.0, 2.0]
    row = next(iter(m))
    with pytest.raises(ValueError, match="read-only"):
        np.asarray(row)[0] = 100.0


def test_a_0d_result_converts_like_an_array():
    # numpy's ufuncs give a numpy scalar for a 0-d input, and eager `bind`
    # stores what `impl` returns: every numpy conversion must still give an array.
    t = nx.sin(nx.array(1.0))
    for converted in (np.asarray(t), np.asarray(t, dtype=np.float32), np.array(t),
                      np.array(t, dtype=np.float32), t.numpy()):
        assert type(converted) is np.ndarray and converted.shape == ()
        assert converted == np.sin(1.0).astype(converted.dtype)
    assert np.asarray(t, dtype=np.float32).dtype == np.float32


def test_len_and_iteration(m):
    assert len(m) == 2
    rows = list(m)
    assert [str(r) for r in rows] == ["float64 [3] [1, 2, 3]", "float64 [3] [4, 5, 6]"]
    assert [x.item() for x in nx.array([1, 2])] == [1, 2]


def test_operators_mix_with_numbers_and_arrays_on_both_sides():
    t = nx.array([1.0, 2.0, 4.0])
    ones = np.ones(3)
    for out, expected in [
        (2 * t, [2, 4, 8]), (t * 2, [2, 4, 8]), (t + ones, [2, 3, 5]), (ones + t, [2, 3, 5]),
        (ones - t, [0, -1, -3]), (t / 2, [0.5, 1, 2]), (8 / t, [8, 4, 2]), (t ** 2, [1, 4, 16]),
        (2 ** t, [2, 4, 16]), (t // 3, [0, 0, 1]), (7 // t, [7, 3, 1]), (t % 3, [1, 2, 1]),
        (5 % t, [0, 1, 1]), (-t, [-1, -2, -4]), (abs(-t), [1, 2, 4]),
    ]:
        assert type(out) is nx.Tensor
        np.testing.assert_array_equal(out.numpy(), expected)
    t32 = t.astype(nx.float32)
    assert (2 * t32).dtype == (t32 + 0.5).dtype == (1 / t32).dtype == nx.float32
    assert (t32 + np.ones(3)).dtype == nx.float64  # a float64 array promotes, as in numpy
    assert (np.float32(2) * t32).dtype == nx.float32


def test_comparisons_return_bool_tensors():
    t = nx.array([1.0, 2.0, 3.0])
    assert str(t == 2) == "bool [3] [False, True, False]"
    assert str(t != 2) == "bool [3] [True, False, True]"
    assert str(t < 2) == "bool [3] [True, False, False]"
    assert str(t <= 2) == "bool [3] [True, True, False]"
    assert str(t > 2) == "bool [3] [False, False, True]"
    assert str(t >= 2) == "bool [3] [False, True, True]"
    assert str(np.array([2.0, 2.0, 2.0]) < t) == "bool [3] [False, False, True]"
    assert str(2 < t) == "bool [3] [False, False, True]"


def test_methods_that_are_elementwise_or_shapes(m):
    assert str(m.astype(nx.int32)) == "int32 [2, 3]\n[[1, 2, 3],\n [4, 5, 6]]"
    assert m.reshape(3, 2).shape == (3, 2) and m.reshape((6,)).shape == (6,)
    assert m.flatten().shape == (6,)
    assert m.transpose().shape == (3, 2) and m.transpose(1, 0).shape == (3, 2)
    assert str(m.clip(2, 5)) == "float64 [2, 3]\n[[2, 2, 3],\n [4, 5, 5]]"
    assert str(round(m / 4, 1)) == "float64 [2, 3]\n[[0.2, 0.5, 0.8],\n [  1, 1.2, 1.5]]"
    assert str((m / 3).round(2)) == "float64 [2, 3]\n[[0.33, 0.67,    1],\n [1.33, 1.67,    2]]"
    assert str(m.sum()) == "float64 [] 21"
    assert str(m.sum(axis=0)) == "float64 [3] [5, 7, 9]"
    with pytest.raises(TypeError, match="Tensor.astype|nx.astype: unknown dtype 'nope'"):
        m.astype("nope")


# Methods calling nx functions that other modules provide.
METHODS = {
    "mean": ("mean", lambda a: a.mean()), "prod": ("prod", lambda a: a.prod()),
    "max": ("max", lambda a: a.max()), "min": ("min", lambda a: a.min()),
    "var": ("var", lambda a: a.var()), "std": ("std", lambda a: a.std()),
    "argmax": ("argmax", lambda a: a.argmax()), "argmin": ("argmin", lambda a: a.argmin()),
    "cumsum": ("cumsum", lambda a: a.cumsum(axis=0)), "all": ("all", lambda a: a.all()),
    "any": ("any", lambda a: a.any()), "squeeze": ("squeeze", lambda a: a[None].squeeze()),
}


@pytest.mark.parametrize("method", METHODS)
def test_reduction_methods_call_the_nx_functions(method, m):
    function, numpy_form = METHODS[method]
    assert callable(getattr(nx, function))
    out = getattr(m, method)() if method != "cumsum" else m.cumsum(axis=0)
    np.testing.assert_allclose(out.numpy(), numpy_form(m.numpy()))


def test_matmul_and_getitem_operators(m):
    np.testing.assert_array_equal((m @ m.T).numpy(), m.numpy() @ m.numpy().T)
    np.testing.assert_array_equal((np.ones((3, 3)) @ m.T).numpy(), np.ones((3, 3)) @ m.numpy().T)
    assert str(m[1]) == "float64 [3] [4, 5, 6]"
    # iteration under a transformation goes through getitem
    total = rune.vmap(lambda x: sum(row for row in x))(nx.ones((2, 3, 4)))
    assert str(total) == "float64 [2, 4]\n[[3, 3, 3, 3],\n [3, 3, 3, 3]]"


# ------------------------------------------------------------ traced reads


def test_bool_and_int_read_the_value_under_differentiation():
    def f(x):
        if x > 0:  # Python control flow on a traced value
            return x * int(x * 2)
        return -x

    assert rune.grad(f)(nx.array(1.5)).item() == 3.0
    assert rune.grad(f)(nx.array(-1.5)).item() == -1.0
    _, tangent = rune.jvp(f, (nx.array(1.5),), (nx.array(1.0),))
    assert tangent.item() == 3.0


@pytest.mark.parametrize("read, name", [
    (float, r"float\(Tensor\)"), (lambda x: x.item(), r"Tensor.item\(\)"),
    (lambda x: x.numpy(), r"Tensor.numpy\(\)"), (np.asarray, r"numpy.asarray\(Tensor\)"),
    (complex, r"complex\(Tensor\)"), (lambda x: x.tolist(), r"Tensor.tolist\(\)"),
])
def test_lossy_reads_raise_under_differentiation(read, name):
    def f(x):
        read(x)
        return x

    pattern = rf"{name}: the value is traced by rune.grad, and reading it as a number would " \
              rf"drop its derivative; read rune.detach\(x\)"
    with pytest.raises(rune.TracedValueError, match=pattern):
        rune.grad(f)(nx.array(1.0))
    with pytest.raises(rune.TracedValueError, match=pattern.replace("rune.grad", "rune.jvp")):
        rune.jvp(f, (nx.array(1.0),), (nx.array(1.0),))


def test_detach_reads_the_number_on_purpose():
    assert rune.grad(lambda x: x * float(rune.detach(x)))(nx.array(3.0)).item() == 3.0
    assert rune.grad(lambda x: x * rune.detach(x).item())(nx.array(3.0)).item() == 3.0


def test_every_read_raises_under_vmap():
    for read in (bool, float, int, lambda x: x.item(), lambda x: x.numpy()):
        with pytest.raises(rune.TracedValueError, match="traced by rune.vmap"):
            rune.vmap(lambda x, read=read: read(x) * x)(nx.ones(3))


def test_printing_traced_values():
    seen = []

    def f(x):
        seen.append((str(x), repr(x)))
        return x * 2

    rune.grad(f)(nx.array(1.5))
    rune.vmap(f)(nx.ones(2))
    assert seen[0] == ("float64 [] 1.5", "Tensor(float64 [] 1.5, traced by rune.grad)")
    assert seen[1] == ("float64 [] <traced by rune.vmap>",
                       "Tensor(float64 [], traced by rune.vmap)")
