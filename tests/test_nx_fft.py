"""nx.fft: values against numpy.fft (lengths, axes, norms, dtypes), derivatives
of order 2 in both modes for real and complex input, the transpose rules
against an explicit matrix, abstract rules, vmap against a loop, jit, errors.
"""

import functools

import numpy as np
import pytest

import rune
from rune import nx
from tests.util import (assert_abstract_matches, assert_vmap_matches_loop, random_value,
                        squared_size)

RNG = np.random.default_rng(14)
NORMS = (None, "backward", "ortho", "forward")


def rand(shape, dtype=np.float64):
    return random_value(RNG, shape, dtype)


def assert_matches(out, expected):
    expected = np.asarray(expected)
    assert out.dtype == expected.dtype, (out.dtype, expected.dtype)
    assert out.shape == expected.shape, (out.shape, expected.shape)
    tol = 1e-5 if expected.dtype in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(out.numpy(), expected, rtol=tol, atol=tol)


# name -> the keyword arguments tried (each with every norm)
ONE_AXIS = {
    "fft": [{}, {"n": 3}, {"n": 8}, {"axis": 0}, {"n": 2, "axis": -2}],
    "ifft": [{}, {"n": 3}, {"n": 8}, {"axis": 0}],
    "rfft": [{}, {"n": 3}, {"n": 8}, {"axis": 0}, {"n": 5, "axis": 0}],
    "irfft": [{}, {"n": 5}, {"n": 6}, {"n": 2}, {"axis": 0}, {"n": 7, "axis": 0}],
    "hfft": [{}, {"n": 5}, {"n": 6}, {"axis": 0}],
    "ihfft": [{}, {"n": 3}, {"n": 8}, {"axis": 0}],
}
MANY_AXES = {
    "fftn": [{}, {"axes": (0,)}, {"s": (3, 2)}, {"s": (2, 3, 4)}, {"axes": (2, 0)},
             {"s": (4,), "axes": (1,)}, {"axes": (1, 1)},
             # a repeated axis is cropped or padded to each of its lengths in turn;
             # -1 keeps the input's length
             {"s": (3, 5), "axes": (2, 2)}, {"s": (-1, 5), "axes": (0, 2)}],
    "ifftn": [{}, {"axes": (1, 2)}, {"s": (3, 5)}, {"s": (5, 2), "axes": (1, 1)}],
    "rfftn": [{}, {"axes": (0,)}, {"s": (3, 6)}, {"axes": (2, 0)}, {"s": (3, 5), "axes": (2, 2)},
              {"s": (5, 3, 6), "axes": (1, 1, 2)}, {"s": (-1, 6), "axes": (0, 2)}],
    "irfftn": [{}, {"axes": (0,)}, {"s": (3, 5)}, {"s": (2, 3, 4)}, {"axes": (2, 0)},
               {"s": (3, 5), "axes": (1, 1)}, {"s": (2, 5, 3), "axes": (1, 1, 2)},
               {"s": (2, -1), "axes": (0, 2)}],
    "fft2": [{}, {"s": (3, 3)}, {"axes": (0, 2)}, {"s": (-1, 3)}],
    "ifft2": [{}, {"s": (3, 3)}],
    "rfft2": [{}, {"s": (4, 5)}],
    "irfft2": [{}, {"s": (4, 5)}],
}
REAL_INPUT = {"rfft", "rfftn", "rfft2", "ihfft"}


def cases(table, dtypes, norms=NORMS):
    return [pytest.param(name, kwargs, norm, dtype,
                         id=f"{name}-{kwargs}-{norm}-{np.dtype(dtype)}")
            for name, tries in table.items() for kwargs in tries for norm in norms
            for dtype in dtypes if not (name in REAL_INPUT and np.dtype(dtype).kind == "c")]


def input_for(name, dtype):
    return rand((2, 3, 4) if name not in ONE_AXIS else (3, 4), dtype)


@pytest.mark.parametrize("name, kwargs, norm, dtype",
                         cases({**ONE_AXIS, **MANY_AXES},
                               (np.float64, np.float32, np.complex128, np.complex64)))
def test_values_match_numpy(name, kwargs, norm, dtype):
    x = input_for(name, dtype)
    out = getattr(nx.fft, name)(nx.array(x), norm=norm, **kwargs)
    if "s" in kwargs and "axes" not in kwargs and name not in ("fft2", "ifft2", "rfft2", "irfft2"):
        # numpy 2 deprecates s without axes; its meaning, the last len(s) axes, is ours
        kwargs = {**kwargs, "axes": tuple(range(x.ndim - len(kwargs["s"]), x.ndim))}
    assert_matches(out, getattr(np.fft, name)(x, norm=norm, **kwargs))


@pytest.mark.parametrize("name, kwargs, norm, dtype",
                         cases({**ONE_AXIS, **MANY_AXES}, (np.float64, np.complex128),
                               norms=(None, "ortho")))
def test_derivatives_of_order_two_in_both_modes(name, kwargs, norm, dtype):
    """(A norm only scales: two of them suffice.)"""
    fn = getattr(nx.fft, name)
    x = nx.array(input_for(name, dtype))
    rune.check_grads(lambda x: fn(x, norm=norm, **kwargs), (x,), order=2)
    if norm is None:  # and a nonlinear real function of it: what grad sees
        rune.check_grads(squared_size(lambda x: nx.sin(fn(x, norm=norm, **kwargs))), (x,),
                         order=2)


def explicit_matrix(fn, n, dtype):
    """The matrix of a linear map of length-n vectors, column by column."""
    return np.stack([fn(nx.array(np.eye(n, dtype=dtype)[k])).numpy() for k in range(n)], axis=1)


@pytest.mark.parametrize("name, n, m", [("fft", 5, 5), ("ifft", 4, 4), ("rfft", 5, 3),
                                        ("rfft", 6, 4), ("irfft", 6, 4), ("irfft", 7, 4)])
def test_transpose_is_the_plain_transpose_of_the_matrix(name, n, m):
    """vjp(ct) = Re-pairing transpose: for a complex-linear map M, M^T ct; for
    the real-linear irfft, the ct whose pairing Re(sum ct_c dc) matches."""
    fn = getattr(nx.fft, name)
    if name == "irfft":
        fn = (lambda f: lambda c: f(c, n=n))(fn)
        ct = rand((n,))
        _, pullback = rune.vjp(fn, nx.array(rand((m,), np.complex128)))
        (ct_c,) = pullback(nx.array(ct))
        for k in range(m):  # d/d(Re c_k) and d/d(Im c_k) of <ct, irfft(c)>
            for unit in (1.0, 1j):
                dc = np.zeros(m, complex)
                dc[k] = unit
                expected = ct @ fn(nx.array(dc)).numpy()
                np.testing.assert_allclose(np.real(ct_c.numpy()[k] * unit), expected,
                                           atol=1e-12)
        return
    real_in = name == "rfft"
    x = rand((n,), np.float64 if real_in else np.complex128)
    ct = rand((m,), np.complex128)
    matrix = explicit_matrix(fn, n, np.float64 if real_in else np.complex128)
    _, pullback = rune.vjp(fn, nx.array(x))
    expected = matrix.T @ ct
    np.testing.assert_allclose(pullback(nx.array(ct))[0].numpy(),
                               expected.real if real_in else expected, atol=1e-12)


def test_grad_of_a_power_spectrum_matches_the_formula():
    # sum |fft(x)|^2 = n sum x^2 (Parseval): its gradient is 2 n x
    x = nx.array([0.5, -1.0, 2.0, 0.25, 3.0])
    g = rune.grad(lambda x: nx.sum(nx.abs(nx.fft.fft(x)) ** 2))(x)
    np.testing.assert_allclose(g.numpy(), 2 * 5 * x.numpy(), rtol=1e-12)
    g = rune.grad(lambda x: nx.sum(nx.abs(nx.fft.fft(x, norm="ortho")) ** 2))(x)
    np.testing.assert_allclose(g.numpy(), 2 * x.numpy(), rtol=1e-12)


@pytest.mark.parametrize("name", list(ONE_AXIS) + list(MANY_AXES))
def test_abstract_rules_vmap_and_jit(name):
    fn = getattr(nx.fft, name)
    x = nx.array(input_for(name, np.float64 if name in REAL_INPUT else np.complex128))
    assert_abstract_matches(fn, x)
    assert_vmap_matches_loop(fn, nx.array(np.stack([x.numpy(), 2 * x.numpy()])))
    assert_vmap_matches_loop(fn, nx.array(np.stack([x.numpy(), x.numpy() + 1], axis=-1)),
                             in_axes=-1)
    np.testing.assert_allclose(rune.jit(fn)(x).numpy(), fn(x).numpy(), rtol=1e-12)
    grad = rune.jit(rune.grad(squared_size(fn)))
    np.testing.assert_allclose(grad(x).numpy(), rune.grad(squared_size(fn))(x).numpy(),
                               rtol=1e-12)


@pytest.mark.parametrize("axes", [None, 0, (1,), (0, 1)])
def test_shifts_match_numpy_and_are_linear(axes):
    x = rand((4, 5))
    for name in ("fftshift", "ifftshift"):
        fn = getattr(nx.fft, name)
        assert_matches(fn(nx.array(x), axes=axes), getattr(np.fft, name)(x, axes=axes))
        shifted = functools.partial(fn, axes=axes)
        rune.check_grads(shifted, (nx.array(x),), order=2)
        assert_vmap_matches_loop(shifted, nx.array(rand((2, 4, 5))))
    np.testing.assert_array_equal(nx.fft.ifftshift(nx.fft.fftshift(nx.array(x))).numpy(), x)


@pytest.mark.parametrize("n", [1, 2, 5, 8])
def test_frequencies_match_numpy_and_move_with_the_spacing(n):
    for name in ("fftfreq", "rfftfreq"):
        fn = getattr(nx.fft, name)
        assert_matches(fn(n), getattr(np.fft, name)(n))
        assert_matches(fn(n, d=0.1), getattr(np.fft, name)(n, d=0.1))
        d = nx.array(0.25)
        np.testing.assert_allclose(fn(n, d).numpy(), getattr(np.fft, name)(n, 0.25), rtol=1e-15)
        rune.check_grads(functools.partial(fn, n), (d,), order=2)


@pytest.mark.parametrize("call, error, message", [
    (lambda: nx.fft.fft(nx.ones(3), n=0), ValueError, "nx.fft.fft: n must be a positive int"),
    (lambda: nx.fft.fft(nx.ones(3), norm="both"), ValueError, "norm must be one of"),
    (lambda: nx.fft.fft(nx.ones(3), axis=1), ValueError, "axis"),
    (lambda: nx.fft.rfft(nx.ones(3) * 1j), TypeError, "nx.fft.rfft: a is complex"),
    (lambda: nx.fft.fftn(nx.ones((2, 2)), s=(2,), axes=(0, 1)), ValueError,
     "s and axes have different lengths"),
    (lambda: nx.fft.fftn(nx.ones((2, 2)), axes=0), TypeError, "axes must be a sequence"),
    (lambda: nx.fft.rfftn(nx.ones((2, 2)), axes=()), ValueError, "no axes"),
    (lambda: nx.fft.fft("abc"), TypeError, "nx.fft.fft"),
    (lambda: nx.fft.fft(nx.ones(3), n=2.0), TypeError, "nx.fft.fft: n must be an int"),
    (lambda: nx.fft.fft(nx.ones(3), n=True), TypeError, "nx.fft.fft: n must be an int"),
    (lambda: nx.fft.fftn(nx.ones((2, 2)), s=3), TypeError, "nx.fft.fftn: s must be a sequence"),
    (lambda: nx.fft.fftn(nx.ones((2, 2)), s=(2, 2.0)), TypeError,
     "each entry of s must be an int"),
    (lambda: nx.fft.fftn(nx.ones((2, 2)), s=(2, None)), TypeError, "use -1"),
    (lambda: nx.fft.fftn(nx.ones((2, 2)), s=(2, -2)), ValueError, "each entry of s must be"),
    (lambda: nx.fft.ifftn(nx.ones((2, 2)), axes=(0, 2)), ValueError, "axis 2 is out of range"),
    (lambda: nx.fft.fft2(nx.ones(3)), ValueError, "nx.fft.fft2: axis -2 is out of range"),
    (lambda: nx.fft.irfft2(nx.ones((2, 2)), s=(2,)), ValueError, "nx.fft.irfft2: s and axes"),
    (lambda: nx.fft.fftshift(nx.ones(3), axes=1.0), TypeError,
     "nx.fft.fftshift: axes must be an int or a sequence"),
    (lambda: nx.fft.fftfreq(0), ValueError, "nx.fft.fftfreq: n must be a positive int"),
])
def test_bad_arguments_say_what_is_wrong(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.filterwarnings("ignore:`axes` should not be `None`:DeprecationWarning")
@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
@pytest.mark.parametrize("s", [(2, 3, 4), (2, 2, 2, 2)])
def test_more_lengths_than_axes_raise_as_numpy_does(name, s):
    """s without axes means the last len(s) axes: numpy raises when a has fewer
    (its AxisError is a ValueError); rune transformed one axis twice instead."""
    x = rand((2, 3))
    with pytest.raises(ValueError):
        getattr(np.fft, name)(x, s=s)
    with pytest.raises(ValueError, match=f"nx.fft.{name}: s has {len(s)} lengths but a has "
                                         f"only 2 axes"):
        getattr(nx.fft, name)(x, s=s)


def test_single_precision_stays_single_through_derivatives():
    x = nx.array(rand((6,)), dtype=nx.float32)
    assert nx.fft.rfft(x).dtype == nx.complex64
    g = rune.grad(lambda x: nx.sum(nx.abs(nx.fft.rfft(x)) ** 2))(x)
    assert g.dtype == nx.float32
    c = nx.fft.rfft(x)
    g = rune.grad(lambda c: nx.sum(nx.fft.irfft(c) ** 2))(c)
    assert g.dtype == nx.complex64


def test_the_jit_graph_names_the_transforms():
    graph = str(rune.make_graph(lambda x: nx.fft.irfft(nx.fft.rfft(x), n=4))(nx.ones(4)))
    assert "rfft" in graph and "irfft" in graph
