"""Tiling arrays: tile, repeat.

numpy's "Array manipulation: tiling arrays". `tile` is a broadcast and a
reshape, `repeat` a `take` of the repeated indices: linear, so every
transformation applies. Repeat counts are known numbers (they fix the
shape).
"""

import numpy as np

from ...primitives import shape as _s
from ..creation import as_tensor
from ..indexing import take
from ..tensor import normalize_axis, Tensor
from .shape import _ints, _reshape, ravel

__all__ = ["tile", "repeat"]


def tile(x, reps):
    """x repeated `reps` times along each axis.

    As numpy's tile: reps and x's shape are padded with leading 1s to the
    same length.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      reps: an int or a sequence of ints, one per axis.

    Raises:
      TypeError: x is not numeric, or reps is not ints.
      ValueError: a negative repetition.

    >>> from rune import nx
    >>> print(nx.tile(nx.array([1.0, 2.0]), 2))
    float64 [4] [1, 2, 1, 2]
    """
    x = as_tensor(x, "nx.tile")
    reps = _ints(reps, "reps", "nx.tile")
    if any(r < 0 for r in reps):
        raise ValueError(f"nx.tile: reps must be non-negative, got {reps}")
    d = max(len(reps), len(x.shape))
    reps = (1,) * (d - len(reps)) + reps
    shape = (1,) * (d - len(x.shape)) + tuple(x.shape)
    # (n0, n1) -> (1, n0, 1, n1) -> (r0, n0, r1, n1) -> (r0 * n0, r1 * n1)
    spread = _reshape(x, tuple(v for n in shape for v in (1, n)))
    copies = _s.broadcast_to(spread, shape=tuple(v for r, n in zip(reps, shape) for v in (r, n)))
    return _reshape(copies, tuple(r * n for r, n in zip(reps, shape)))


def repeat(x, repeats, axis=None):
    """Each element of x repeated along `axis` (of the flattened tensor if None).

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      repeats: an int, or one int per element along the axis.
      axis: an int, or None.

    Raises:
      TypeError: x is not numeric, or axis is not an int.
      ValueError: repeats that are not non-negative ints, counts that do not
        match the axis, or an axis out of range.
      rune.TracedValueError: counts traced by jit or vmap (the result's shape
        would depend on their values).

    >>> from rune import nx
    >>> print(nx.repeat(nx.array([1.0, 2.0]), 2), nx.repeat(nx.array([1.0, 2.0]), [1, 2]),
    ...       sep="\\n")
    float64 [4] [1, 1, 2, 2]
    float64 [3] [1, 2, 2]
    """
    x = as_tensor(x, "nx.repeat")
    if axis is None:
        x, axis = ravel(x), 0
    a = normalize_axis(axis, len(x.shape), "nx.repeat")
    if isinstance(repeats, Tensor):
        repeats = repeats._concrete("nx.repeat: repeats", lossless=True)
    counts = np.asarray(repeats)
    if counts.dtype.kind not in "iu" or (counts < 0).any():
        raise ValueError(f"nx.repeat: repeats must be non-negative ints, got {repeats}")
    shape = tuple(x.shape)
    if counts.size == 1:
        r = int(counts.reshape(()))
        spread = _reshape(x, shape[:a + 1] + (1,) + shape[a + 1:])
        copies = _s.broadcast_to(spread, shape=shape[:a + 1] + (r,) + shape[a + 1:])
        return _reshape(copies, shape[:a] + (shape[a] * r,) + shape[a + 1:])
    if counts.shape != (shape[a],):
        raise ValueError(f"nx.repeat: repeats has shape {counts.shape}, but axis {a} has "
                         f"size {shape[a]} (give one count per element, or one int)")
    return take(x, np.repeat(np.arange(shape[a]), counts), axis=a)
