"""Changing number of dimensions: expand_dims, squeeze, broadcast_to, atleast_1d...

numpy's "Array manipulation: changing number of dimensions": `atleast_1d`,
`atleast_2d`, `atleast_3d`, `broadcast_to`, `broadcast_arrays`,
`expand_dims`, `squeeze`. Each is a reshape or a `broadcast_to` primitive.
"""

from __future__ import annotations

import numpy as np

from ...primitives import shape as _s
from ..creation import as_tensor
from ..tensor import normalize_axes
from .shape import _ints, _reshape, reshape

__all__ = [
    "broadcast_arrays", "expand_dims", "squeeze", "broadcast_to", "atleast_1d", "atleast_2d",
    "atleast_3d",
]


def broadcast_arrays(*args):
    """The arguments broadcast to their common shape, as a list (the standard's
    2024.12 revision says a list; numpy 2 gives a tuple).

    Args:
      *args: tensors (or numbers, numpy arrays).

    Raises:
      TypeError: an argument is not numeric.
      ValueError: shapes that do not broadcast together (naming them).

    >>> from rune import nx
    >>> a, b = nx.broadcast_arrays(nx.array([1.0, 2.0]), nx.array([[0.0], [1.0]]))
    >>> print(a.shape, b.shape)
    (2, 2) (2, 2)
    """
    xs = [as_tensor(a, "nx.broadcast_arrays") for a in args]
    try:
        shape = np.broadcast_shapes(*[tuple(x.shape) for x in xs])
    except ValueError:
        raise ValueError(f"nx.broadcast_arrays: shapes {[tuple(x.shape) for x in xs]} do not "
                         f"broadcast together") from None
    return [broadcast_to(x, shape) for x in xs]


def expand_dims(x, axis):
    """x with new axes of size 1 at positions `axis` of the result.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: an int or a tuple of ints, positions in the result.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      IndexError: an axis out of range for the result's number of axes, or
        repeated: numpy's AxisError, an IndexError (as the standard asks) and a
        ValueError.

    >>> from rune import nx
    >>> print(nx.expand_dims(nx.array([1.0, 2.0]), 1))
    float64 [2, 1]
    [[1],
     [2]]
    """
    x = as_tensor(x, "nx.expand_dims")
    count = len(axis) if isinstance(axis, (tuple, list)) else 1
    try:
        axes = normalize_axes(axis, len(x.shape) + count, "nx.expand_dims")
    except ValueError as error:  # numpy's error here: both ValueError and IndexError
        raise np.exceptions.AxisError(str(error)) from None
    sizes = iter(x.shape)
    return _reshape(x, tuple(1 if a in axes else next(sizes) for a in range(len(axes) + x.ndim)))


def squeeze(x, axis=None):
    """x without axes of size 1: all of them, or those in `axis`.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None, an int or a tuple of ints.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range, or an axis in `axis` whose size is not 1.

    >>> from rune import nx
    >>> print(nx.squeeze(nx.array([[1.0], [2.0]])))
    float64 [2] [1, 2]
    """
    x = as_tensor(x, "nx.squeeze")
    shape = tuple(x.shape)
    if axis is None:
        axes = tuple(a for a, n in enumerate(shape) if n == 1)
    else:
        axes = normalize_axes(axis, len(shape), "nx.squeeze")
        for a in axes:
            if shape[a] != 1:
                raise ValueError(f"nx.squeeze: axis {a} has size {shape[a]} (shape {shape}); "
                                 f"only axes of size 1 can be squeezed")
    return _reshape(x, tuple(n for a, n in enumerate(shape) if a not in axes))


def broadcast_to(x, shape):
    """x repeated along new or size-1 axes to `shape`, by numpy's broadcasting rules.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      shape: the result's shape, an int or a sequence of ints.

    Raises:
      TypeError: x is not numeric, or shape is not ints.
      ValueError: x's shape does not broadcast to `shape` (both are named).

    >>> from rune import nx
    >>> print(nx.broadcast_to(nx.array([1.0, 2.0]), (2, 2)))
    float64 [2, 2]
    [[1, 2],
     [1, 2]]
    """
    x = as_tensor(x, "nx.broadcast_to")
    shape = _ints(shape, "shape", "nx.broadcast_to")
    old = tuple(x.shape)
    lead = len(shape) - len(old)
    if lead < 0 or any(n < 0 for n in shape) or any(
            o not in (1, n) for o, n in zip(old, shape[lead:])):
        raise ValueError(f"nx.broadcast_to: cannot broadcast a tensor of shape {old} to "
                         f"shape {shape}")
    return x if old == shape else _s.broadcast_to(x, shape=shape)


def _at_least(arys, ndim, fn, place):
    out = []
    for a in arys:
        t = as_tensor(a, fn)
        if t.ndim < ndim:
            t = reshape(t, place(tuple(t.shape)))
        out.append(t)
    return out[0] if len(out) == 1 else tuple(out)


def atleast_1d(*arys):
    """Each argument as a tensor with at least one axis (a number becomes shape [1]).

    Args:
      *arys: tensors, numpy arrays, numbers or nested lists.

    Raises:
      TypeError: an argument is not numeric.

    >>> from rune import nx
    >>> print(nx.atleast_1d(2.0), nx.atleast_1d(1.0, nx.ones(2))[1])
    float64 [1] [2] float64 [2] [1, 1]
    """
    return _at_least(arys, 1, "nx.atleast_1d", lambda s: (1,) * (1 - len(s)) + s)


def atleast_2d(*arys):
    """Each argument with at least two axes: a vector of n becomes a [1, n] row.

    Args:
      *arys: tensors, numpy arrays, numbers or nested lists.

    Raises:
      TypeError: an argument is not numeric.

    >>> from rune import nx
    >>> print(nx.atleast_2d(nx.array([1.0, 2.0])))
    float64 [1, 2]
    [[1, 2]]
    """
    return _at_least(arys, 2, "nx.atleast_2d", lambda s: (1,) * (2 - len(s)) + s)


def _three(shape):
    return {0: (1, 1, 1), 1: (1,) + shape + (1,), 2: shape + (1,)}[len(shape)]


def atleast_3d(*arys):
    """Each argument with at least three axes: shape [n] becomes [1, n, 1], and
    [m, n] becomes [m, n, 1], as numpy does.

    Args:
      *arys: tensors, numpy arrays, numbers or nested lists.

    Raises:
      TypeError: an argument is not numeric.

    >>> from rune import nx
    >>> print(nx.atleast_3d(nx.ones(2)).shape, nx.atleast_3d(nx.ones((2, 3))).shape)
    (1, 2, 1) (2, 3, 1)
    """
    return _at_least(arys, 3, "nx.atleast_3d", _three)
