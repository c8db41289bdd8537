"""Reductions over axes: sum, mean, max..."""

from ..primitives import reduce as _r

__all__ = ["sum"]


def normalize_axes(axis, ndim: int, fn: str) -> tuple:
    """`axis` (None, an int or a tuple) as a sorted tuple of non-negative ints."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    out = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(
                f"{fn}: axis {a} is out of range for a tensor with {ndim} axes "
                f"(expected -{ndim} <= axis < {ndim})" if ndim else
                f"{fn}: axis {a} is out of range for a 0-d tensor (it has no axes)"
            )
        out.append(a % ndim)
    return tuple(sorted(out))


def sum(x, axis=None, keepdims=False):  # noqa: A001  (numpy's name)
    """The sum of the elements over `axis` (all axes by default)."""
    return _r.sum(x, axis=normalize_axes(axis, len(x.shape), "nx.sum"), keepdims=keepdims)
