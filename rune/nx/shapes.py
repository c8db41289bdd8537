"""Rearranging tensors: reshape, transpose, concatenate, split, pad, tile...

Each function is one shape primitive or a short composition of them (all
linear), so all transformations apply. Axes follow numpy: negative ones
count from the end, and an axis out of range raises ValueError naming it.
"""

import math
import operator

import numpy as np

from ..primitives import indexing as _ix
from ..primitives import shape as _s
from .indexing import canonical_slice, take
from .creation import as_tensor
from .reductions import normalize_axes, normalize_axis
from .tensor import Tensor

__all__ = [
    "ndim", "reshape", "ravel", "transpose", "swapaxes", "moveaxis", "expand_dims", "squeeze",
    "broadcast_to", "concatenate", "stack", "split", "tile", "repeat", "flip", "pad",
]


def _ints(values, what, fn) -> tuple:
    try:
        return tuple(operator.index(v) for v in (
            (values,) if hasattr(values, "__index__") else values))
    except TypeError:
        raise TypeError(f"{fn}: {what} must be an int or a sequence of ints, "
                        f"got {values!r}") from None


def _reshape(x, shape):
    return x if tuple(x.shape) == shape else _s.reshape(x, shape=shape)


def ndim(x) -> int:
    """The number of axes of x, a Python int (`x.ndim` for a tensor).

    A traced tensor's axes are known: under vmap, those of one example.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.

    Raises:
      TypeError: x is not numeric.

    >>> from rune import nx
    >>> print(nx.ndim(nx.ones((2, 3))), nx.ndim([[1.0, 2.0]]), nx.ndim(3.0))
    2 2 0
    """
    if isinstance(x, (Tensor, np.ndarray)):
        return x.ndim  # no conversion: a numpy array need not be copied to be counted
    return as_tensor(x, "nx.ndim").ndim


def reshape(x, shape, *, copy=None):
    """x with a new shape of the same size; one entry may be -1 (inferred).

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      shape: an int or a sequence of ints.
      copy: the Array API's keyword, without effect: tensors never change, so
        whether the result shares x's memory cannot be seen.

    Raises:
      TypeError: x is not numeric, or shape is not ints.
      ValueError: the sizes differ, or more than one -1.

    >>> from rune import nx
    >>> print(nx.reshape(nx.array([1.0, 2.0, 3.0, 4.0]), (2, -1)))
    float64 [2, 2]
    [[1, 2],
     [3, 4]]
    """
    x = as_tensor(x, "nx.reshape")
    return _reshape(x, _resolve_shape(tuple(x.shape), _ints(shape, "shape", "nx.reshape")))


def _resolve_shape(old, new):
    size = math.prod(old)
    if new.count(-1) > 1:
        raise ValueError(f"nx.reshape: shape {new} has more than one -1 (only one size can "
                         f"be inferred)")
    if new.count(-1) == 1:
        known = math.prod(n for n in new if n != -1)
        if known and size % known == 0:
            new = tuple(size // known if n == -1 else n for n in new)
    if math.prod(new) != size or any(n < 0 for n in new):
        raise ValueError(f"nx.reshape: cannot reshape a tensor of shape {old} "
                         f"({size} elements) into shape {new}")
    return new


def ravel(x):
    """x flattened to one axis (row-major order).

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.

    Raises:
      TypeError: x is not numeric.

    >>> from rune import nx
    >>> print(nx.ravel(nx.array([[1.0, 2.0], [3.0, 4.0]])))
    float64 [4] [1, 2, 3, 4]
    """
    x = as_tensor(x, "nx.ravel")
    return _reshape(x, (x.size,))


def transpose(x, axes=None):
    """x with its axes permuted: axis i of the result is axis axes[i] of x.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axes: a permutation of x's axes (negative ones count from the end);
        None reverses them.

    Raises:
      TypeError: x is not numeric, or axes is not ints.
      ValueError: axes that are not a permutation of x's axes.

    >>> from rune import nx
    >>> print(nx.transpose(nx.array([[1.0, 2.0]])))
    float64 [2, 1]
    [[1],
     [2]]
    """
    x = as_tensor(x, "nx.transpose")
    ndim = len(x.shape)
    if axes is None:
        axes = tuple(reversed(range(ndim)))
    else:
        given = _ints(axes, "axes", "nx.transpose")
        axes = tuple(normalize_axis(a, ndim, "nx.transpose") for a in given)
        if sorted(axes) != list(range(ndim)):
            raise ValueError(f"nx.transpose: axes {given} is not a permutation of the "
                             f"{ndim} axes of the tensor")
    return x if axes == tuple(range(ndim)) else _s.transpose(x, axes=axes)


def swapaxes(x, axis1, axis2):
    """x with two axes exchanged.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis1, axis2: the two axes (ints; negative ones count from the end).

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range.

    >>> from rune import nx
    >>> print(nx.swapaxes(nx.array([[[1.0, 2.0, 3.0]]]), 0, 2).shape)
    (3, 1, 1)
    """
    x = as_tensor(x, "nx.swapaxes")
    ndim = len(x.shape)
    order = list(range(ndim))
    a1, a2 = (normalize_axis(a, ndim, "nx.swapaxes") for a in (axis1, axis2))
    order[a1], order[a2] = a2, a1
    return transpose(x, order)


def moveaxis(x, source, destination):
    """x with axes moved from `source` to `destination`; the other axes keep their order.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      source: the axes to move, an int or a sequence of ints.
      destination: where they go in the result, as many as in source.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range, repeated, or source and destination
        of different lengths.

    >>> from rune import nx
    >>> print(nx.moveaxis(nx.array([[[1.0, 2.0, 3.0]]]), -1, 0).shape)
    (3, 1, 1)
    """
    x = as_tensor(x, "nx.moveaxis")
    ndim = len(x.shape)
    src = [normalize_axis(a, ndim, "nx.moveaxis") for a in _ints(source, "source", "nx.moveaxis")]
    dst = [normalize_axis(a, ndim, "nx.moveaxis")
           for a in _ints(destination, "destination", "nx.moveaxis")]
    if len(src) != len(dst):
        raise ValueError(f"nx.moveaxis: source {source} and destination {destination} must "
                         f"have the same number of axes")
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError(f"nx.moveaxis: source {source} or destination {destination} "
                         f"repeats an axis")
    order = [a for a in range(ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(x, order)


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


def _tensors(arrays, fn):
    if not hasattr(arrays, "__iter__"):
        raise TypeError(f"{fn}: arrays must be a sequence of tensors, got "
                        f"{type(arrays).__name__}")
    xs = [as_tensor(a, fn) for a in arrays]
    if not xs:
        raise ValueError(f"{fn}: need at least one tensor")
    return xs


def concatenate(arrays, axis=0):
    """The tensors joined along an existing axis (flattened first if axis is None).

    Args:
      arrays: a sequence of tensors (or numpy arrays, numbers, nested lists).
      axis: an int, or None.

    Raises:
      TypeError: arrays is not a sequence, an element is not numeric, or
        axis is not an int.
      ValueError: no tensors, 0-d tensors, an axis out of range, or shapes
        that differ off the axis (naming the first tensor that differs).

    >>> from rune import nx
    >>> print(nx.concatenate([nx.array([1.0]), nx.array([2.0, 3.0])]))
    float64 [3] [1, 2, 3]
    """
    xs = _tensors(arrays, "nx.concatenate")
    if axis is None:
        xs, axis = [ravel(x) for x in xs], 0
    shape = tuple(xs[0].shape)
    if not shape:
        raise ValueError("nx.concatenate: 0-d tensors cannot be concatenated (tensor 0 has "
                         "shape ())")
    a = normalize_axis(axis, len(shape), "nx.concatenate")
    for i, x in enumerate(xs[1:], 1):
        other = tuple(x.shape)
        if len(other) != len(shape) or other[:a] + other[a + 1:] != shape[:a] + shape[a + 1:]:
            raise ValueError(f"nx.concatenate: the tensors must have the same shape except "
                             f"along axis {a}, but tensor {i} has shape {other} and tensor 0 "
                             f"has shape {shape}")
    return xs[0] if len(xs) == 1 else _s.concatenate(*xs, axis=a)


def stack(arrays, axis=0):
    """The tensors joined along a new axis at `axis` of the result.

    Args:
      arrays: a sequence of tensors of one shape (or numpy arrays, numbers,
        nested lists).
      axis: an int, a position in the result.

    Raises:
      TypeError: arrays is not a sequence, an element is not numeric, or
        axis is not an int.
      ValueError: no tensors, an axis out of range, or shapes that differ
        (naming the first that differs).

    >>> from rune import nx
    >>> print(nx.stack([nx.array([1.0, 2.0]), nx.array([3.0, 4.0])], axis=1))
    float64 [2, 2]
    [[1, 3],
     [2, 4]]
    """
    xs = _tensors(arrays, "nx.stack")
    shape = tuple(xs[0].shape)
    for i, x in enumerate(xs[1:], 1):
        if tuple(x.shape) != shape:
            raise ValueError(f"nx.stack: the tensors must have the same shape, but tensor {i} "
                             f"has shape {tuple(x.shape)} and tensor 0 has shape {shape}")
    a = normalize_axis(axis, len(shape) + 1, "nx.stack")
    new = shape[:a] + (1,) + shape[a:]
    return concatenate([_reshape(x, new) for x in xs], axis=a)


def split(x, indices_or_sections, axis=0):
    """x cut along `axis` into a list of tensors.

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      indices_or_sections: an int N (N equal pieces) or a sorted sequence of
        indices where the cuts go (pieces x[:i0], x[i0:i1], ..., x[ik:]).
      axis: an int.

    Raises:
      TypeError: x is not numeric, or indices_or_sections or axis is not ints.
      ValueError: N does not divide the axis's size, N < 1, an axis out of range.

    >>> from rune import nx
    >>> a, b = nx.split(nx.array([1.0, 2.0, 3.0]), [1])
    >>> print(a, b, sep="\\n")
    float64 [1] [1]
    float64 [2] [2, 3]
    """
    x = as_tensor(x, "nx.split")
    a = normalize_axis(axis, len(x.shape), "nx.split")
    n = x.shape[a]
    if hasattr(indices_or_sections, "__index__"):
        sections = operator.index(indices_or_sections)
        if sections < 1 or n % sections:
            raise ValueError(f"nx.split: axis {a} of size {n} cannot be split into {sections} "
                             f"equal sections")
        cuts = [n // sections * i for i in range(1, sections)]
    else:
        cuts = list(_ints(indices_or_sections, "indices_or_sections", "nx.split"))
    bounds = zip([0] + cuts, cuts + [n])
    lead = _ix.full_index(x.shape[:a])
    return [_ix.slice_(x, index=lead + (canonical_slice(slice(start, stop), n),))
            for start, stop in bounds]


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


def flip(x, axis=None):
    """x with the order of elements reversed along `axis` (all axes if None).

    Args:
      x: a tensor, numpy array, number or nested lists of numbers.
      axis: None, an int or a tuple of ints.

    Raises:
      TypeError: x is not numeric, or an axis is not an int.
      ValueError: an axis out of range or repeated.

    >>> from rune import nx
    >>> print(nx.flip(nx.array([1.0, 2.0, 3.0])))
    float64 [3] [3, 2, 1]
    """
    x = as_tensor(x, "nx.flip")
    axes = normalize_axes(axis, len(x.shape), "nx.flip")
    if not axes:
        return x
    index = tuple(canonical_slice(slice(None, None, -1), n) if a in axes else (0, n, 1)
                  for a, n in enumerate(x.shape[: axes[-1] + 1]))
    return _ix.slice_(x, index=index)


# ------------------------------------------------------------------------ pad


def _pairs(value, ndim, what, ints=True):
    """numpy's pad forms (v, (v,), (before, after), one pair per axis) as pairs."""
    array = np.asarray(value)
    try:
        pairs = np.broadcast_to(array, (ndim, 2))
    except ValueError:
        raise ValueError(f"nx.pad: {what} {value!r} does not fit a tensor with {ndim} axes "
                         f"(expected a number, a (before, after) pair, or one pair per axis)"
                         ) from None
    if ints:
        if array.dtype.kind not in "iu":
            raise TypeError(f"nx.pad: {what} must be ints, got {value!r}")
        if (pairs < 0).any():
            raise ValueError(f"nx.pad: {what} must be non-negative, got {value!r}")
    elif array.dtype.kind not in "biufc":
        raise TypeError(f"nx.pad: {what} must be numbers, got {value!r}")
    return [tuple(p) for p in pairs.tolist()]


def _slices_for(x, a, before, after, mode):
    """The pieces that go before and after x along axis a, for a non-constant mode."""
    n = x.shape[a]
    limit = {"edge": None, "wrap": n, "symmetric": n, "reflect": n - 1}[mode]
    if mode == "edge" and n == 0 and (before or after):
        raise ValueError(f"nx.pad: mode 'edge' cannot extend axis {a}, which has size 0")
    if limit is not None and max(before, after) > limit:
        raise ValueError(f"nx.pad: mode {mode!r} pads axis {a} (size {n}) by at most "
                         f"{limit} on each side, got ({before}, {after})")

    def part(start, stop, reverse=False):
        piece = _ix.slice_axis(x, a, start, stop)
        return flip(piece, a) if reverse else piece

    def edge(start, count):
        shape = tuple(x.shape)
        return _s.broadcast_to(part(start, start + 1), shape=shape[:a] + (count,) + shape[a + 1:])

    if mode == "edge":
        return edge(0, before), edge(n - 1, after)
    if mode == "wrap":
        return part(n - before, n), part(0, after)
    if mode == "symmetric":
        return part(0, before, True), part(n - after, n, True)
    return part(1, before + 1, True), part(n - 1 - after, n - 1, True)  # reflect


def pad(array, pad_width, mode="constant", constant_values=0):
    """`array` padded along each axis, as numpy's pad.

    Args:
      array: a tensor, numpy array, number or nested lists of numbers.
      pad_width: an int, a (before, after) pair, or one pair per axis.
      mode: "constant" (fill with constant_values), "edge" (repeat the edge
        element), "wrap", "reflect" or "symmetric" (each at most one period:
        widths up to the axis's size, or size - 1 for reflect).
      constant_values: a number, a (before, after) pair or one pair per axis;
        later axes fill the corners, as in numpy.

    Raises:
      TypeError: array or constant_values is not numeric, or widths are not ints.
      ValueError: negative or ill-shaped widths, an unknown mode, widths
        beyond what the mode supports.

    >>> from rune import nx
    >>> print(nx.pad(nx.array([1.0, 2.0]), (1, 2)))
    float64 [5] [0, 1, 2, 0, 0]
    """
    x = as_tensor(array, "nx.pad")
    ndim = len(x.shape)
    widths = _pairs(pad_width, ndim, "pad_width")
    if mode == "constant":
        values = _pairs(constant_values, ndim, "constant_values", ints=False)
        if len({v for pair in values for v in pair}) <= 1:
            return _pad_constant(x, widths, values[0][0] if values else 0)
        for a, ((before, after), (v_before, v_after)) in enumerate(zip(widths, values)):
            one = [(0, 0)] * ndim
            one[a] = (before, 0)
            x = _pad_constant(x, one, v_before)
            one[a] = (0, after)
            x = _pad_constant(x, one, v_after)
        return x
    if mode not in ("edge", "wrap", "reflect", "symmetric"):
        raise ValueError(f"nx.pad: unknown mode {mode!r}; expected 'constant', 'edge', "
                         f"'wrap', 'reflect' or 'symmetric'")
    for a, (before, after) in enumerate(widths):
        if before or after:
            head, tail = _slices_for(x, a, before, after, mode)
            x = concatenate([head, x, tail], axis=a)
    return x


def _pad_constant(x, widths, value):
    if not any(b or a for b, a in widths):
        return x
    shape = tuple(b + n + a for (b, a), n in zip(widths, x.shape))
    index = tuple((b, b + n, 1) for (b, _), n in zip(widths, x.shape))
    return _ix.pad(x, shape=shape, index=index, value=value)
