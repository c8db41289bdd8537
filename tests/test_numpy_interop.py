"""numpy's functions on tensors: numpy.sum(t) and friends call the tensor's
methods with numpy's keywords (dtype=, out=), which work or fail clearly."""

import numpy as np
import pytest

import rune
from rune import nx

X = nx.array([[1.0, 2.0], [3.0, 5.0]])


@pytest.mark.parametrize("name", ["sum", "mean", "prod", "max", "min", "var", "std",
                                  "argmax", "argmin", "all", "any"])
def test_numpy_reductions_of_a_tensor_give_tensors(name):
    fn = getattr(np, name)
    for kwargs in ({}, {"axis": 0}, {"axis": 1, "keepdims": True}):
        out = fn(X, **kwargs)
        assert isinstance(out, nx.Tensor)
        np.testing.assert_allclose(out.numpy(), fn(X.numpy(), **kwargs))


def test_numpy_dtype_and_out_keywords():
    assert np.sum(X, dtype=np.float32).dtype == nx.float32
    assert str(np.cumsum(X, axis=0)) == str(nx.cumsum(X, axis=0))
    with pytest.raises(TypeError, match="Tensor.sum: out= is not supported"):
        np.sum(X, out=np.zeros(()))


def test_numpy_sum_is_differentiable():
    rune.check_grads(lambda x: np.sum(x * x, axis=0), (X,), order=2)
    assert str(rune.grad(lambda x: np.mean(x))(X)) == str(nx.full((2, 2), 0.25))
