"""Rearranging tensors: reshape, transpose..."""

import numpy as np

from ..primitives import shape as _s

__all__ = ["reshape", "transpose"]


def reshape(x, shape):
    """x with a new shape of the same size; one entry may be -1 (inferred)."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return _s.reshape(x, shape=_resolve_shape(x.shape, shape))


def _resolve_shape(old, new):
    size = int(np.prod(old))
    known = int(np.prod([n for n in new if n != -1]))
    if new.count(-1) == 1 and known and size % known == 0:
        new = tuple(size // known if n == -1 else n for n in new)
    if int(np.prod(new)) != size or any(n < 0 for n in new):
        raise ValueError(f"nx.reshape: cannot reshape a tensor of shape {old} into shape {new}")
    return new


def transpose(x, axes=None):
    """x with its axes permuted (reversed by default)."""
    ndim = len(x.shape)
    axes = tuple(reversed(range(ndim))) if axes is None else tuple(a % ndim for a in axes)
    return _s.transpose(x, axes=axes)
