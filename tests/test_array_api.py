"""rune.nx as an Array API namespace (issue 28): the standard's names, checked
against numpy 2 (whose main namespace is the standard's) wherever numpy has them."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import rune
from rune import nx
from rune.nx.dtypes import DTYPES

KINDS = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
         "complex floating", "numeric"]


# ------------------------------------------------------------ the namespace


def test_a_tensor_answers_nx_as_its_namespace():
    t = nx.array([1.0, 2.0])
    assert t.__array_namespace__() is nx
    assert t.__array_namespace__(api_version=nx.__array_api_version__) is nx


@pytest.mark.parametrize("version", ["2019.12", "1.0", 2023.12])
def test_an_unknown_api_version_raises_naming_it(version):
    with pytest.raises(ValueError, match=r"api_version must be None or one of .*2024\.12"):
        nx.ones(2).__array_namespace__(api_version=version)


def test_the_inspection_namespace_answers_as_numpys():
    ours, numpys = nx.__array_namespace_info__(), np.__array_namespace_info__()
    assert ours.devices() == ["cpu"] and ours.default_device() == "cpu"
    assert ours.capabilities() == numpys.capabilities()
    assert ours.default_dtypes() == numpys.default_dtypes()
    assert ours.default_dtypes(device="cpu") == numpys.default_dtypes(device="cpu")
    assert ours.dtypes() == numpys.dtypes()
    for kind in KINDS + [("bool", "real floating")]:
        assert ours.dtypes(kind=kind) == numpys.dtypes(kind=kind), kind


def test_the_constants_are_pythons():
    assert (nx.e, nx.pi, nx.inf, nx.newaxis) == (np.e, np.pi, np.inf, None)
    assert np.isnan(nx.nan)


# ------------------------------------------------------------ devices


def test_a_tensor_lives_on_the_cpu():
    t = nx.array([1.0, 2.0])
    assert t.device == "cpu"
    assert t.to_device("cpu") is t
    with pytest.raises(ValueError, match=r"Tensor.to_device: device must be None or 'cpu'.*'gpu'"):
        t.to_device("gpu")


CREATORS = {
    "array": lambda **kw: nx.array([1.0], **kw),
    "asarray": lambda **kw: nx.asarray([1.0], **kw),
    "zeros": lambda **kw: nx.zeros(2, **kw),
    "ones": lambda **kw: nx.ones(2, **kw),
    "empty": lambda **kw: nx.empty(2, **kw),
    "full": lambda **kw: nx.full(2, 3.0, **kw),
    "zeros_like": lambda **kw: nx.zeros_like(nx.ones(2), **kw),
    "ones_like": lambda **kw: nx.ones_like(nx.ones(2), **kw),
    "empty_like": lambda **kw: nx.empty_like(nx.ones(2), **kw),
    "full_like": lambda **kw: nx.full_like(nx.ones(2), 3.0, **kw),
    "arange": lambda **kw: nx.arange(3, **kw),
    "linspace": lambda **kw: nx.linspace(0.0, 1.0, 3, **kw),
    "eye": lambda **kw: nx.eye(2, **kw),
}


@pytest.mark.parametrize("name", sorted(CREATORS))
def test_creation_takes_the_cpu_device_and_refuses_others(name):
    make = CREATORS[name]
    assert make(device="cpu").device == "cpu"
    np.testing.assert_array_equal(make(device=nx.ones(1).device), make())
    with pytest.raises(ValueError, match=rf"nx.{name}: device must be None or 'cpu'.*'cuda:0'"):
        make(device="cuda:0")


@pytest.mark.parametrize("name", ["zeros", "ones", "empty", "eye"])
def test_dtype_none_is_the_default_float(name):
    assert CREATORS[name](dtype=None).dtype == nx.float64


def test_asarray_copy_false_shares_a_numpy_arrays_memory():
    a = np.arange(3.0)
    shared, copied = nx.asarray(a, copy=False), nx.asarray(a, copy=True)
    a[0] = 7.0
    assert shared.numpy()[0] == 7.0 and copied.numpy()[0] == 0.0
    assert nx.asarray(a).numpy()[0] == 7.0 and nx.array(a, copy=None).numpy()[0] == 7.0


@pytest.mark.parametrize("obj, dtype", [([1.0, 2.0], None), (np.arange(3.0), nx.float32),
                                        (nx.ones(2), nx.int32)])
def test_asarray_copy_false_raises_where_a_copy_is_needed(obj, dtype):
    with pytest.raises(ValueError, match="nx.asarray: copy=False, but .* needs a copy"):
        nx.asarray(obj, dtype=dtype, copy=False)


def test_a_tensor_is_its_own_asarray_whatever_copy_says():
    t = nx.ones(2)
    assert nx.asarray(t, copy=False) is t and nx.asarray(t) is t


# ------------------------------------------------------------ in-place operators


@pytest.mark.parametrize("operator, dtype", [
    *[(op, "float64") for op in ("+=", "-=", "*=", "/=", "//=", "%=", "**=", "@=")],
    *[(op, "int64") for op in ("&=", "|=", "^=", "<<=", ">>=")],
])
def test_in_place_operators_rebind_the_name_and_never_change_the_tensor(operator, dtype):
    # The standard's x += y on an immutable tensor: x names a new tensor, as in JAX;
    # another name for the old one, and the numpy array it was made from, keep their values.
    source = np.array([1, 2, 3], dtype=dtype)
    x = nx.asarray(source)
    alias = x
    namespace = {"x": x, "y": nx.asarray(np.array([2, 1, 1], dtype=dtype))}
    exec(f"x {operator} y", namespace)
    assert namespace["x"] is not alias
    np.testing.assert_array_equal(alias, [1, 2, 3])
    np.testing.assert_array_equal(source, [1, 2, 3])


# ------------------------------------------------------------ data types


@pytest.mark.parametrize("dtype", [nx.float16, nx.float32, nx.float64, nx.complex64,
                                   nx.complex128])
def test_finfo_is_numpys(dtype):
    ours, numpys = nx.finfo(dtype), np.finfo(dtype)
    for field in ("bits", "eps", "max", "min", "smallest_normal", "dtype"):
        assert getattr(ours, field) == getattr(numpys, field), field
    # the standard asks for Python numbers (numpy gives numpy scalars of the dtype)
    assert all(type(getattr(ours, f)) is float for f in ("eps", "max", "min", "smallest_normal"))
    assert type(ours.bits) is int
    assert nx.finfo(nx.ones(1, dtype)).bits == numpys.bits


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d.kind in "iu"])
def test_iinfo_is_numpys(dtype):
    ours, numpys = nx.iinfo(dtype), np.iinfo(dtype)
    assert (ours.bits, ours.min, ours.max, ours.dtype) == (
        numpys.bits, numpys.min, numpys.max, numpys.dtype)
    assert nx.iinfo(nx.zeros(1, dtype)).max == numpys.max
    assert all(type(getattr(ours, f)) is int for f in ("bits", "min", "max"))


def test_finfo_and_iinfo_refuse_the_other_kind():
    with pytest.raises(TypeError, match="nx.finfo: expected a floating or complex dtype, "
                                        "got int32"):
        nx.finfo(nx.int32)
    with pytest.raises(TypeError, match="nx.iinfo: expected an integer dtype, got float64"):
        nx.iinfo(nx.ones(1))


@pytest.mark.parametrize("kind", KINDS)
def test_isdtype_is_numpys_for_every_kind(kind):
    for dtype in DTYPES:
        assert nx.isdtype(dtype, kind) == np.isdtype(dtype, kind), (dtype, kind)


def test_isdtype_takes_dtypes_and_tuples_and_names_unknown_kinds():
    assert nx.isdtype(nx.int8, nx.int8) and not nx.isdtype(nx.int8, nx.int16)
    assert nx.isdtype(nx.int8, ("bool", nx.int8)) and not nx.isdtype(nx.int8, ("bool",))
    with pytest.raises(TypeError, match="nx.isdtype: unknown kind 'floating'"):
        nx.isdtype(nx.float32, "floating")


def test_can_cast_is_numpys_for_every_pair():
    for a, b in itertools.product(DTYPES, DTYPES):
        assert nx.can_cast(a, b) == np.can_cast(a, b), (a, b)
    assert nx.can_cast(nx.ones(1, nx.int8), nx.int16)


def test_result_type_is_what_the_operators_give():
    for a, b in itertools.product(DTYPES, DTYPES):
        if {a.kind, b.kind} == {"b"} or "b" not in (a.kind, b.kind):
            added = nx.ones(1, a) * nx.ones(1, b)
            assert nx.result_type(a, b) == added.dtype, (a, b)
        assert nx.result_type(nx.ones(1, a), b) == np.result_type(a, b)


def test_result_type_treats_python_numbers_as_weak():
    assert nx.result_type(nx.ones(1, nx.float32), 1.0) == nx.float32
    assert nx.result_type(nx.int8, 1) == nx.int8
    assert nx.result_type(nx.float32, 1j) == nx.complex64
    with pytest.raises(TypeError, match="nx.result_type: expected at least one"):
        nx.result_type()


# ------------------------------------------------------------ var and std


@pytest.mark.parametrize("name", ["var", "std"])
def test_correction_is_ddof(name):
    x = np.random.default_rng(0).standard_normal((3, 4))
    for correction in (0, 1, 2.5):
        expected = getattr(np, name)(x, axis=1, ddof=correction)
        np.testing.assert_allclose(getattr(nx, name)(x, axis=1, correction=correction),
                                   expected, rtol=1e-14)
        np.testing.assert_allclose(getattr(nx.array(x), name)(axis=1, correction=correction),
                                   expected, rtol=1e-14)
    with pytest.raises(ValueError, match=f"nx.{name}: give ddof or correction"):
        getattr(nx, name)(x, ddof=1, correction=1)


def test_var_with_correction_differentiates():
    x = nx.array(np.random.default_rng(1).standard_normal(5))
    rune.check_grads(lambda x: nx.std(x, correction=1), (x,), order=2, modes=("fwd", "rev"))


# ------------------------------------------------------------ bitwise

BITWISE = {
    "bitwise_and": (np.bitwise_and, lambda x, y: x & y),
    "bitwise_or": (np.bitwise_or, lambda x, y: x | y),
    "bitwise_xor": (np.bitwise_xor, lambda x, y: x ^ y),
    "bitwise_left_shift": (np.left_shift, lambda x, y: x << y),
    "bitwise_right_shift": (np.right_shift, lambda x, y: x >> y),
}


def _ints(dtype, shape, seed, low=None, high=None):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(seed)
    return rng.integers(info.min if low is None else low, info.max if high is None else high,
                        shape, dtype=dtype, endpoint=True)


@pytest.mark.parametrize("name", sorted(BITWISE))
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.uint32])
def test_bitwise_functions_and_operators_are_numpys(name, dtype):
    shifting = "shift" in name
    x = _ints(dtype, (3, 4), 0)
    y = _ints(dtype, (4,), 1, *((0, np.iinfo(dtype).bits - 1) if shifting else ()))
    numpy_fn, operator = BITWISE[name]
    expected = numpy_fn(x, y)
    for got in (getattr(nx, name)(x, y), operator(nx.array(x), nx.array(y)),
                operator(x, nx.array(y)), rune.jit(getattr(nx, name))(x, y),
                rune.vmap(getattr(nx, name), in_axes=(0, None))(x, y)):
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor"])
def test_bitwise_on_booleans_is_logical(name):
    x, y = np.array([True, True, False, False]), np.array([True, False, True, False])
    np.testing.assert_array_equal(getattr(nx, name)(x, y), BITWISE[name][0](x, y))
    np.testing.assert_array_equal(BITWISE[name][1](nx.array(x), nx.array(y)),
                                  BITWISE[name][0](x, y))


def test_bitwise_invert_is_numpys():
    x = _ints(np.int16, (5,), 2)
    np.testing.assert_array_equal(nx.bitwise_invert(x), np.invert(x))
    np.testing.assert_array_equal(~nx.array(x), np.invert(x))
    np.testing.assert_array_equal(~nx.array([True, False]), [False, True])
    np.testing.assert_array_equal(rune.jit(nx.bitwise_invert)(x), np.invert(x))


@pytest.mark.parametrize("name", sorted(BITWISE) + ["bitwise_invert"])
def test_bitwise_refuses_floats_naming_the_function(name):
    args = (nx.ones(2),) if name == "bitwise_invert" else (nx.ones(2), 1)
    with pytest.raises(TypeError, match=f"nx.{name}: expected integer or boolean tensors, "
                                        f"got float64"):
        getattr(nx, name)(*args)


def test_bitwise_operators_refuse_floats():
    with pytest.raises(TypeError, match="nx.bitwise_and: expected integer or boolean"):
        nx.ones(2) & 1
    with pytest.raises(TypeError, match="nx.bitwise_invert: expected integer or boolean"):
        ~nx.ones(2)


# ------------------------------------------------------------ DLPack


def test_from_dlpack_shares_a_numpy_arrays_memory_unless_asked_to_copy():
    a = np.arange(3.0)
    shared, copied = nx.from_dlpack(a), nx.from_dlpack(a, copy=True)
    a[1] = 9.0
    np.testing.assert_array_equal(shared, [0.0, 9.0, 2.0])
    np.testing.assert_array_equal(copied, [0.0, 1.0, 2.0])
    t = nx.ones(2)
    assert nx.from_dlpack(t) is t


def test_a_tensor_exports_a_copy_or_with_copy_false_read_only_memory_through_dlpack():
    t = nx.array([1.0, 2.0])
    out = np.from_dlpack(t)
    out[0] = 5.0  # the consumer's own copy: the tensor never changes
    np.testing.assert_array_equal(t, [1.0, 2.0])
    shared = np.from_dlpack(t, copy=False)
    np.testing.assert_array_equal(shared, [1.0, 2.0])
    assert not shared.flags.writeable
    assert shared.ctypes.data == np.asarray(t._value).ctypes.data
    assert t.__dlpack_device__() == np.ones(1).__dlpack_device__()


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint8", "complex128", "bool"])
def test_dlpack_round_trips_with_torch(dtype):
    torch = pytest.importorskip("torch", reason="torch is not installed (a CPU build)")
    source = torch.arange(6).reshape(2, 3) % 2 == 0 if dtype == "bool" else \
        torch.arange(6).reshape(2, 3).to(getattr(torch, dtype))
    t = nx.from_dlpack(source)  # torch's memory, not a copy
    assert t.dtype == np.dtype(dtype) and t.shape == (2, 3)
    assert np.asarray(t._value).ctypes.data == source.data_ptr()
    np.testing.assert_array_equal(t, source.numpy())
    expected = source.numpy().copy()
    back = torch.from_dlpack(t)  # a copy: torch does not honour DLPack's read-only flag
    back.zero_()
    np.testing.assert_array_equal(t, expected)
    shared = torch.from_dlpack(nx.array(source.numpy()), copy=False)
    assert shared.dtype == source.dtype
    np.testing.assert_array_equal(shared.numpy(), source.numpy())


def test_a_tensor_torch_reads_without_a_copy_is_the_tensors_memory():
    torch = pytest.importorskip("torch", reason="torch is not installed (a CPU build)")
    t = nx.array([1.0, 2.0])
    assert torch.from_dlpack(t, copy=False).data_ptr() == np.asarray(t._value).ctypes.data


def test_from_dlpack_names_what_it_cannot_read():
    with pytest.raises(TypeError, match="nx.from_dlpack: expected an object with __dlpack__.*"
                                        "list"):
        nx.from_dlpack([1.0])
    with pytest.raises(ValueError, match="nx.from_dlpack: device must be None or 'cpu'"):
        nx.from_dlpack(np.ones(1), device="gpu")


def test_dlpack_round_trips_with_jax():
    jnp = pytest.importorskip("jax.numpy", reason="the jax extra is not installed")
    source = jnp.arange(3.0)
    t = nx.from_dlpack(source)  # JAX's memory, not a copy
    np.testing.assert_array_equal(t, [0.0, 1.0, 2.0])
    assert np.asarray(t._value).ctypes.data == source.unsafe_buffer_pointer()
    back = jnp.from_dlpack(nx.array([1.0, 2.0]))
    np.testing.assert_array_equal(np.asarray(back), [1.0, 2.0])


def test_reading_a_traced_tensor_through_dlpack_raises():
    def f(x):
        np.from_dlpack(x)
        return x

    with pytest.raises(rune.TracedValueError, match="Tensor.__dlpack__"):
        rune.grad(lambda x: nx.sum(f(x)))(nx.ones(2))


# ------------------------------------------------------------ the standard's keywords


@pytest.mark.parametrize("name", ["sum", "prod"])
@pytest.mark.parametrize("dtype", [nx.float32, nx.int64, nx.complex128, nx.uint8, nx.int16])
def test_sum_and_prod_take_a_dtype_as_numpy_does(name, dtype):
    x = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int8)
    got, expected = getattr(nx, name)(x, axis=1, dtype=dtype), getattr(np, name)(
        x, axis=1, dtype=dtype)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def test_sum_with_a_dtype_differentiates():
    x = nx.array([1.0, 2.0, 3.0], dtype=nx.float32)
    assert rune.grad(lambda x: nx.sum(x * x, dtype=nx.float64))(x).dtype == nx.float32
    rune.check_grads(lambda x: nx.prod(x, dtype=nx.complex128).real, (nx.array([1.0, 2.0]),),
                     order=2, modes=("fwd", "rev"))


def test_astype_and_reshape_take_copy_and_device():
    x = nx.array([1.5, 2.5])
    np.testing.assert_array_equal(nx.astype(x, nx.int32, copy=False, device="cpu"), [1, 2])
    assert nx.astype(x, nx.float64, copy=False) is x
    assert nx.reshape(x, (2, 1), copy=True).shape == (2, 1)
    with pytest.raises(ValueError, match="nx.astype: device must be None or 'cpu'"):
        nx.astype(x, nx.int32, device="gpu")


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
def test_fft_frequencies_take_the_cpu_device(name):
    np.testing.assert_allclose(getattr(nx.fft, name)(5, 0.5, device="cpu"),
                               getattr(np.fft, name)(5, 0.5))
    in_float32 = getattr(nx.fft, name)(5, 0.5, dtype=nx.float32)
    assert in_float32.dtype == nx.float32
    np.testing.assert_allclose(in_float32, getattr(np.fft, name)(5, 0.5), rtol=1e-7)
    with pytest.raises(ValueError, match=f"nx.fft.{name}: device must be None or 'cpu'"):
        getattr(nx.fft, name)(5, device="gpu")


def test_cholesky_upper_is_numpys_and_differentiates():
    a = np.array([[4.0, 2.0 + 1j], [2.0 - 1j, 3.0]])
    np.testing.assert_allclose(nx.linalg.cholesky(a, upper=True),
                               np.linalg.cholesky(a, upper=True), rtol=1e-14)
    spd = nx.array([[4.0, 2.0], [2.0, 3.0]])
    rune.check_grads(lambda a: nx.linalg.cholesky(a @ nx.transpose(a), upper=True), (spd,),
                     order=2, modes=("fwd", "rev"))


def test_slogdet_answers_a_namedtuple_as_numpy():
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    out, expected = nx.linalg.slogdet(a), np.linalg.slogdet(a)
    assert out._fields == expected._fields == ("sign", "logabsdet")
    np.testing.assert_allclose(out.logabsdet, expected.logabsdet, rtol=1e-14)
    rune.check_grads(lambda a: nx.linalg.slogdet(a).logabsdet, (nx.array(a),), order=2,
                     modes=("fwd", "rev"))


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int32, np.float32])
def test_vecdot_keeps_the_dtype_as_numpy(dtype):
    x = np.arange(6, dtype=dtype).reshape(2, 3)
    out, expected = nx.vecdot(x, x[::-1]), np.vecdot(x, x[::-1])
    assert out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
    assert nx.linalg.vecdot(x, x).dtype == np.linalg.vecdot(x, x).dtype


def test_clip_takes_the_standards_and_numpys_names():
    x = np.array([-2.0, 0.5, 3.0, np.nan])
    expected = np.clip(x, 0.0, 1.0)
    for got in (nx.clip(x, 0.0, 1.0), nx.clip(x, min=0.0, max=1.0),
                nx.clip(x, a_min=0.0, a_max=1.0), nx.array(x).clip(min=0.0, max=1.0)):
        np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(nx.clip(x, max=1.0), np.clip(x, max=1.0))


def test_clip_without_bounds_is_x_as_in_numpy_2():
    x = np.array([-2.0, 0.5])
    np.testing.assert_array_equal(nx.clip(x), np.clip(x, None, None))
    t = nx.array(x)
    assert nx.clip(t) is t


# ------------------------------------------------------------ a 0-d boolean index

# The standard's boolean indexing with M = 0: x[b] for a 0-d b replaces no axis
# by one of length 1 (b true) or 0 (false), as numpy does. scipy's apply_where
# indexes its 0-d results so (scipy.stats.variation, tmean, gstd).
SCALAR_MASKS = [np.True_, np.False_, True, (np.False_,), (0, np.True_), (Ellipsis, np.False_),
                (np.False_, slice(1, None)), (None, True, 1), (slice(None), False, None)]


@pytest.mark.parametrize("index", SCALAR_MASKS, ids=repr)
def test_a_zero_dimensional_boolean_index_adds_an_axis_as_numpys(index):
    x = np.arange(6.0).reshape(2, 3)
    as_tensors = tuple(nx.array(i) if isinstance(i, (bool, np.bool_)) else i
                       for i in (index if isinstance(index, tuple) else (index,)))
    for ours in (nx.array(x)[index], nx.array(x)[as_tensors]):
        assert ours.shape == x[index].shape
        np.testing.assert_array_equal(np.asarray(ours), x[index])


def test_a_zero_dimensional_boolean_index_differentiates():
    square_kept = lambda t, keep: nx.sum(t[nx.array(keep)] ** 2)  # noqa: E731
    assert float(rune.grad(square_kept)(nx.array(3.0), True)) == 6.0
    assert float(rune.grad(square_kept)(nx.array(3.0), False)) == 0.0


# ------------------------------------------------------------ nx.special, for scipy

# scipy.special under SCIPY_ARRAY_API=1 calls xp.special.<name> when the array's
# namespace has it (in anticipation of the standard's 'special' extension), and
# otherwise numpy's ufunc on np.asarray of the tensor, which cannot differentiate.
# The environment variable must be set before scipy is imported: a fresh process.
SCIPY_ON_TENSORS = """
import os
os.environ["SCIPY_ARRAY_API"] = "1"
import numpy as np
import rune
from rune import nx
from scipy import special, stats

x = np.array([0.3, 1.2, 2.5])
for name, args in [("erf", (x,)), ("gammaln", (x,)), ("digamma", (x,)), ("i0e", (x,)),
                   ("gammainc", (1.5, x)), ("xlogy", (x, x + 1)), ("stdtr", (3.0, x)),
                   ("ndtr", (x,)), ("log_ndtr", (x,)), ("ndtri", (x / 3,)), ("entr", (x,))]:
    tensors = tuple(nx.array(a) if isinstance(a, np.ndarray) else a for a in args)
    f = getattr(special, name)
    np.testing.assert_allclose(np.asarray(f(*tensors)), f(*args), rtol=1e-13)
    rune.check_grads(lambda t: nx.sum(f(*tensors[:-1], t)), (tensors[-1],), modes=("rev",))
rune.check_grads(lambda t: stats.ttest_1samp(t, 1.0).pvalue, (nx.array(x),), modes=("rev",))
print("ok")
"""


def test_nx_special_is_rune_scipy_special():
    import rune.scipy

    assert nx.special is rune.scipy.special
    with pytest.raises(AttributeError, match="module 'rune.nx' has no attribute 'specia'"):
        nx.specia  # noqa: B018


def test_scipy_special_on_tensors_differentiates_through_nx_special():
    import subprocess
    import sys

    pytest.importorskip("scipy", minversion="1.15")
    done = subprocess.run([sys.executable, "-c", SCIPY_ON_TENSORS], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout == "ok\n"
# ------------------------------------------------------------ special cases

INF, NAN = np.inf, np.nan
# The standard's special cases numpy does not give (its text is the reference:
# array-api src/array_api_stubs/_2024_12/elementwise_functions.py): function,
# arguments, the result. The sign of a zero counts.
SPECIAL_CASES = [
    ("expm1", (complex(0.0, 0.0),), complex(0.0, 0.0)),
    ("expm1", (complex(-0.0, 0.0),), complex(0.0, 0.0)),
    ("expm1", (complex(INF, 0.0),), complex(INF, 0.0)),
    ("expm1", (complex(-INF, 0.0),), complex(-1.0, 0.0)),
    ("expm1", (complex(-INF, INF),), complex(-1.0, 0.0)),
    ("expm1", (complex(INF, INF),), complex(INF, NAN)),
    ("expm1", (complex(-INF, NAN),), complex(-1.0, 0.0)),
    ("expm1", (complex(INF, NAN),), complex(INF, NAN)),
    ("expm1", (complex(NAN, 0.0),), complex(NAN, 0.0)),
    ("expm1", (complex(NAN, 1.0),), complex(NAN, NAN)),
    ("expm1", (complex(1.0, INF),), complex(NAN, NAN)),
    ("tanh", (complex(INF, 2.0),), complex(1.0, 0.0)),
    ("tanh", (complex(INF, -2.0),), complex(1.0, -0.0)),
    ("tanh", (complex(-INF, 2.0),), complex(-1.0, 0.0)),
    ("floor_divide", (INF, 2.0), INF),
    ("floor_divide", (INF, -2.0), -INF),
    ("floor_divide", (-INF, 2.0), -INF),
    ("floor_divide", (-INF, -2.0), INF),
    ("floor_divide", (1.0, -INF), -0.0),
    ("floor_divide", (-1.0, INF), -0.0),
    ("floor_divide", (1.0, INF), 0.0),
    ("floor_divide", (-1.0, -INF), 0.0),
    ("floor_divide", (INF, INF), NAN),
]


def _same_special_value(got, expected):
    """Equal, NaN for NaN, and zeros of the same sign (real and imaginary parts apart)."""
    got = complex(got) if isinstance(expected, complex) else float(got)
    parts = [(got.real, expected.real), (got.imag, expected.imag)] if isinstance(
        expected, complex) else [(got, expected)]
    return all((np.isnan(g) and np.isnan(e)) or (g == e and np.signbit(g) == np.signbit(e))
               for g, e in parts)


def _special_inputs(args):
    return [nx.array(np.array(a, np.complex128 if isinstance(a, complex) else np.float64))
            for a in args]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name, args, expected", SPECIAL_CASES,
                         ids=[f"{n}{a}" for n, a, _ in SPECIAL_CASES])
def test_the_standards_special_cases(name, args, expected):
    got = getattr(nx, name)(*_special_inputs(args))
    assert _same_special_value(got.item(), expected), f"{name}{args} = {got.item()}"


def test_floor_divide_stays_numpys_on_finite_numbers():
    x = np.array([7.0, -7.0, 7.0, -7.0, 0.5, -0.0, 3.0])
    y = np.array([2.0, 2.0, -2.0, -2.0, 0.25, 5.0, 0.0])
    with np.errstate(divide="ignore"):
        assert_same = np.testing.assert_array_equal
        assert_same(nx.floor_divide(nx.array(x), nx.array(y)).numpy(), np.floor_divide(x, y))
    ints = np.array([7, -7, 9])
    assert nx.floor_divide(nx.array(ints), 2).dtype == np.int64


def _transformed(how, f):
    """f under one transformation, giving f's value: the primal of jvp and vjp,
    vmap over a batch of one, rune.jit's numpy replay, fused and JAX paths."""
    if how == "jvp":
        return lambda *xs: rune.jvp(f, xs, tuple(nx.zeros_like(x) for x in xs))[0]
    if how == "vjp":
        return lambda *xs: rune.vjp(f, *xs)[0]
    if how == "vmap":
        return lambda *xs: rune.vmap(f)(*(nx.stack([x]) for x in xs))[0]
    if how == "jax":
        pytest.importorskip("jax")
        return rune.jit(f, backend="jax")
    return rune.jit(f, fuse=how == "fused")


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("how", ["jvp", "vjp", "vmap", "replay", "fused", "jax"])
@pytest.mark.parametrize("name, args, expected", SPECIAL_CASES[2:8] + SPECIAL_CASES[11:13]
                         + SPECIAL_CASES[14:20:2],
                         ids=lambda v: str(v) if isinstance(v, str) else None)
def test_special_cases_hold_under_transformations(how, name, args, expected):
    # -(-f(x)): the fused path fuses two elementwise steps or more (and * 1.0 or
    # + 0.0 would change a NaN's partner or a zero's sign)
    def f(*xs):
        return nx.negative(nx.negative(getattr(nx, name)(*xs)))

    got = _transformed(how, f)(*_special_inputs(args))
    assert _same_special_value(complex(got.item()) if isinstance(expected, complex)
                               else got.item(), expected), f"{how}: {name}{args} = {got}"


# ------------------------------------------------------------ indexing


@pytest.mark.parametrize("key", [True, False, np.bool_(True), np.array(False)],
                         ids=["True", "False", "np.True_", "0-d array False"])
def test_a_boolean_scalar_index_adds_an_axis_of_one_or_none(key):
    x = np.arange(6.0).reshape(2, 3)
    for index in (key, (key,), (Ellipsis, key), (0, key), (key, slice(1, 3)), (None, 1, key)):
        got, expected = nx.array(x)[index], x[index]
        assert got.shape == expected.shape, index
        np.testing.assert_array_equal(got.numpy(), expected)
    for index in (nx.array(key), (1, nx.array(key))):  # a boolean tensor as numpy's array
        got = nx.array(x)[index]
        expected = x[tuple(np.asarray(i) if isinstance(i, nx.Tensor) else i
                           for i in (index if isinstance(index, tuple) else (index,)))]
        assert got.shape == expected.shape, index
        np.testing.assert_array_equal(got.numpy(), expected)


def test_a_boolean_scalar_index_differentiates():
    g = rune.grad(lambda x: nx.sum(x[True] ** 2))(nx.array([1.0, 2.0]))
    np.testing.assert_array_equal(g.numpy(), [2.0, 4.0])


def test_a_boolean_scalar_beside_an_integer_array_names_the_limitation():
    with pytest.raises(IndexError, match=r"a boolean scalar index .* with integer arrays"):
        nx.arange(6)[True, [0, 1]]


# ------------------------------------------------------------ lists where the standard says


def test_meshgrid_and_broadcast_arrays_answer_lists_as_the_standard_says():
    # 2024.12 says a list (numpy 1 gave lists; numpy 2 and the 2025.12 revision, tuples)
    a, b = nx.array([1.0, 2.0]), nx.array([[0.0], [1.0]])
    for out in (nx.meshgrid(a, a), nx.meshgrid(a, a, sparse=True), nx.broadcast_arrays(a, b)):
        assert type(out) is list and len(out) == 2


# ------------------------------------------------------------ Python numbers in binary functions

REAL_BINARY = ["add", "subtract", "multiply", "divide", "pow", "atan2", "copysign", "hypot",
               "logaddexp", "maximum", "minimum", "floor_divide", "remainder", "nextafter"]


@pytest.mark.parametrize("name", REAL_BINARY)
def test_a_python_number_beside_a_float32_tensor_keeps_float32(name):
    # the standard (2024.12): a Python scalar takes the array's dtype, as in numpy 2
    x = nx.array([0.5, 2.0], dtype=nx.float32)
    f = getattr(nx, name)
    for got, expected in ((f(x, 1.5), getattr(np, name)(x.numpy(), 1.5)),
                          (f(1.5, x), getattr(np, name)(1.5, x.numpy()))):
        assert got.dtype == np.float32
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)


# ------------------------------------------------------------ the 2024.12 revision


def test_the_namespace_is_the_2024_12_revision():
    assert nx.__array_api_version__ == "2024.12"
    for version in ("2021.12", "2022.12", "2023.12", "2024.12", None):
        assert nx.ones(2).__array_namespace__(api_version=version) is nx


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nextafter_is_numpys(dtype):
    x = np.array([1.0, 0.0, -0.0, np.inf, 1e-45, np.nan, 3.0], dtype)
    y = np.array([2.0, -1.0, 1.0, 0.0, 0.0, 1.0, 3.0], dtype)
    got = nx.nextafter(nx.array(x), nx.array(y))
    assert got.dtype == dtype
    np.testing.assert_array_equal(got.numpy(), np.nextafter(x, y))
    assert np.signbit(nx.nextafter(nx.array(dtype(0.0)), dtype(-0.0)).item())


def test_nextafter_follows_its_first_argument():
    x, y = nx.array([0.5, -2.0]), nx.array([1.0, -3.0])
    rune.check_grads(nx.nextafter, (x, y), order=2, modes=("fwd", "rev"))
    gx, gy = rune.grad(lambda a, b: nx.sum(nx.nextafter(a, b)), argnums=(0, 1))(x, y)
    np.testing.assert_array_equal(gx.numpy(), [1.0, 1.0])
    np.testing.assert_array_equal(gy.numpy(), [0.0, 0.0])
    with pytest.raises(TypeError, match=r"nx.nextafter: expected real numbers, got complex128"):
        nx.nextafter(nx.array([1j]), 1.0)


# The 2024.12 revision's differentiable additions, each a function of one (3, 4)
# tensor (the census checks them at order 2; here, under jit and vmap too).
REVISION_2024 = {
    "diff": lambda x: nx.diff(x, axis=1, n=2),
    "cumulative_prod": lambda x: nx.cumulative_prod(x, axis=1, include_initial=True),
    "cumulative_sum": lambda x: nx.cumulative_sum(x, axis=0),
    "take_along_axis": lambda x: nx.take_along_axis(x, nx.argsort(x, axis=1), axis=1),
    "nextafter": lambda x: nx.nextafter(x, 0.0),
    "reciprocal": lambda x: nx.reciprocal(x),
    "hypot with a number": lambda x: nx.hypot(x, 1.5),
    "logaddexp with a number": lambda x: nx.logaddexp(2.0, x),
}


@pytest.mark.parametrize("name", sorted(REVISION_2024))
def test_the_2024_additions_differentiate_under_jit_and_vmap(name):
    f = REVISION_2024[name]
    loss = lambda x: nx.sum(nx.sin(f(x)))  # noqa: E731
    xs = nx.array(np.random.default_rng(7).uniform(0.5, 2.0, (2, 3, 4)))
    rune.check_grads(loss, (xs[0],), order=2, modes=("fwd", "rev"))
    expected = [rune.grad(loss)(x) for x in xs]
    for got in (rune.jit(rune.grad(loss))(xs[0]), rune.grad(rune.jit(loss))(xs[0])):
        np.testing.assert_allclose(got.numpy(), expected[0].numpy(), rtol=1e-12)
    batched = rune.vmap(rune.grad(loss))(xs)
    np.testing.assert_allclose(batched.numpy(), np.stack([g.numpy() for g in expected]),
                               rtol=1e-12)
    tangent = nx.ones_like(xs[0])
    eager = rune.jvp(f, (xs[0],), (tangent,))[1]
    jitted = rune.jit(lambda x: rune.jvp(f, (x,), (tangent,))[1])(xs[0])
    np.testing.assert_allclose(jitted.numpy(), eager.numpy(), rtol=1e-12)


# ------------------------------------------------------------ found at 60 examples


@pytest.mark.parametrize("axis", [3, -4, 7])
def test_expand_dims_out_of_range_is_an_index_error_as_numpys(axis):
    # the standard says IndexError; numpy's AxisError is both IndexError and ValueError
    for error in (IndexError, ValueError):
        with pytest.raises(error, match=rf"nx.expand_dims: axis {axis} is out of range"):
            nx.expand_dims(nx.ones((2, 3)), axis=axis)
    assert nx.expand_dims(nx.ones((2, 3)), axis=2).shape == (2, 3, 1)


def test_copysign_promotes_as_numpy():
    x1, x2 = np.array([1.5, -2.0], np.float32), np.array([-1.0, 1.0])
    for a, b in ((x1, x2), (x2, x1), (x1, x1)):
        got = nx.copysign(nx.array(a), nx.array(b))
        assert got.dtype == np.copysign(a, b).dtype
        np.testing.assert_array_equal(got.numpy(), np.copysign(a, b))


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32])
def test_cumulative_functions_keep_the_dtype_asked_for(name, dtype):
    x = nx.array(np.array([[1, 2, 3], [4, 5, 6]], np.uint8))
    for include_initial in (False, True):
        got = getattr(nx, name)(x, axis=1, dtype=dtype, include_initial=include_initial)
        assert got.dtype == dtype
    assert getattr(nx, name)(x[:0], axis=0, dtype=dtype).dtype == dtype
    assert getattr(nx, name)(x, axis=1).dtype == np.uint64  # None: numpy's widening
