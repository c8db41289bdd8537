"""Set routines: unique, unique_values, unique_counts, unique_inverse, unique_all, isin.

numpy's "Set routines", with numpy 2's `unique_*` names. Their results are
integers, booleans or the input's values (whose derivative follows the
values they keep). `unique` gives a result whose shape depends on the
values: it reads the values, which works eagerly and under differentiation;
under `rune.jit` and `rune.vmap` give `size=` (as in JAX).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..primitives import elementwise as _e
from ..primitives import indexing as _ix
from ..primitives import reduce as _r
from ..primitives import shape as _s
from ..primitives import sorting as _st
from .creation import as_tensor
from .sorting import _filled, _first_true, _INDEX, _known, _needs_size, _size
from .tensor import Tensor

__all__ = [
    "unique", "isin", "unique_values", "unique_counts", "unique_inverse", "unique_all",
]


def unique(ar, return_index=False, return_inverse=False, return_counts=False, *,
           equal_nan=True, size=None, fill_value=None):
    """The sorted distinct elements of the flattened `ar`, and optionally where
    each first occurs, where each element went, and how many there were.

    The values are differentiable: each carries the derivative of the first
    element equal to it.

    Args:
      ar: a tensor (or numpy array, nested lists); it is flattened.
      return_index: also return the index of each value's first occurrence.
      return_inverse: also return, for each element of ar (in ar's shape),
        the index of its value.
      return_counts: also return how many times each value occurs.
      equal_nan: count all NaNs as one value.
      size: None, or the number of values to return (needed under jit and
        vmap): the smallest `size` values, padded with fill_value.
      fill_value: the padding value (the smallest value by default); padded
        indices are 0 and padded counts 0.

    Raises:
      TypeError: ar is not numeric, or size is not a non-negative int.
      rune.TracedValueError: size not given under jit or vmap.

    >>> from rune import nx
    >>> values, counts = nx.unique(nx.array([3.0, 1.0, 3.0, 2.0]), return_counts=True)
    >>> print(values, counts)
    float64 [3] [1, 2, 3] int64 [3] [1, 1, 2]
    """
    fn = "nx.unique"
    ar = as_tensor(ar, fn)
    n = ar.size
    flat = _s.reshape(ar, shape=(n,))
    order = _st.argsort(flat, axis=0, descending=False)
    ordered = _ix.gather(flat, order)
    starts = _run_starts(ordered, equal_nan)  # bool: the first of each run of equal values
    if size is None:
        value = _known(ar, fn, "the distinct values")
        if value is None:
            raise _needs_size(fn, "distinct values")
        size = int(np.asarray(starts._concrete(fn, lossless=True)).sum())
    size = _size(size, fn)
    positions, valid = _first_true(starts, size)
    values = _ix.gather(ordered, positions) if n else _s.reshape(ordered, shape=(0,))
    if fill_value is None and n:
        fill_value = _ix.gather(ordered, Tensor(np.intp(0)))
    values = _e.where(valid, values, fill_value if fill_value is not None else 0)
    out = [values]
    group = _e.subtract(_r.cumsum(_e.astype(starts, dtype=_INDEX), axis=0, reverse=False), 1)
    if return_index:
        out.append(_filled(_ix.gather(order, positions) if n else positions, valid, 0))
    if return_inverse:
        inverse = _ix.scatter_add(group, order, shape=(n,))  # undo the sort
        out.append(_s.reshape(inverse, shape=tuple(ar.shape)))
    if return_counts:
        kept = _e.less(group, size)  # runs beyond `size` are not counted
        ones = _e.astype(kept, dtype=_INDEX)
        out.append(_ix.scatter_add(ones, _e.where(kept, group, 0), shape=(size,)))
    return out[0] if len(out) == 1 else tuple(out)


def _run_starts(ordered, equal_nan):
    """For sorted values, whether each differs from the one before (the first does)."""
    n = ordered.shape[0]
    if n == 0:
        return Tensor(np.zeros(0, bool))
    before = _ix.pad(_ix.slice_(ordered, index=((0, n - 1, 1),)), shape=(n,),
                     index=((1, n, 1),), value=0)
    differs = _e.not_equal(ordered, before)
    if equal_nan and ordered.dtype.kind in "fc":
        differs = _e.logical_and(differs, _e.logical_not(
            _e.logical_and(_e.isnan(ordered), _e.isnan(before))))
    first = Tensor(np.arange(n) == 0)
    return _e.logical_or(differs, first)


def isin(element, test_elements, invert=False):
    """Whether each element of `element` occurs in `test_elements`; a bool tensor
    of element's shape. NaN is in nothing.

    Args:
      element: a tensor (or numpy array, number, nested lists).
      test_elements: a tensor of the values to look for (flattened).
      invert: return the negation (whether each element is absent).

    Raises:
      TypeError: an argument is not numeric.

    >>> from rune import nx
    >>> print(nx.isin(nx.array([1, 2, 3]), [3, 1]))
    bool [3] [True, False, True]
    """
    fn = "nx.isin"
    element, tests = as_tensor(element, fn), as_tensor(test_elements, fn)
    tests = _st.sort(_s.reshape(tests, shape=(tests.size,)), axis=0)
    if tests.size == 0:
        found = Tensor(np.zeros(element.shape, bool))
    else:
        place = _e.minimum(_st.searchsorted(tests, element, side="left"), tests.size - 1)
        found = _e.equal(_ix.gather(tests, place), element)
    return _e.logical_not(found) if invert else found


UniqueAllResult = namedtuple("UniqueAllResult", "values indices inverse_indices counts")
UniqueCountsResult = namedtuple("UniqueCountsResult", "values counts")
UniqueInverseResult = namedtuple("UniqueInverseResult", "values inverse_indices")


def unique_values(x):
    """The sorted distinct values of x (the array API's name; `unique(x)`).

    Args:
      x: a tensor (or numpy array, nested lists).

    Raises:
      TypeError: x is not numeric.
      rune.TracedValueError: under jit or vmap (use unique with size=).

    >>> from rune import nx
    >>> print(nx.unique_values(nx.array([2, 1, 2])))
    int64 [2] [1, 2]
    """
    return unique(x)


def unique_counts(x):
    """(values, counts): the distinct values of x and how often each occurs.

    Args:
      x: a tensor (or numpy array, nested lists).

    Raises:
      TypeError: x is not numeric.
      rune.TracedValueError: under jit or vmap (use unique with size=).

    >>> from rune import nx
    >>> print(nx.unique_counts(nx.array([2, 1, 2])).counts)
    int64 [2] [1, 2]
    """
    return UniqueCountsResult(*unique(x, return_counts=True))


def unique_inverse(x):
    """(values, inverse_indices): the distinct values, and for each element of
    x (in x's shape) the index of its value.

    Args:
      x: a tensor (or numpy array, nested lists).

    Raises:
      TypeError: x is not numeric.
      rune.TracedValueError: under jit or vmap (use unique with size=).

    >>> from rune import nx
    >>> print(nx.unique_inverse(nx.array([2, 1, 2])).inverse_indices)
    int64 [3] [1, 0, 1]
    """
    return UniqueInverseResult(*unique(x, return_inverse=True))


def unique_all(x):
    """(values, indices, inverse_indices, counts): `unique` with every output.

    Args:
      x: a tensor (or numpy array, nested lists).

    Raises:
      TypeError: x is not numeric.
      rune.TracedValueError: under jit or vmap (use unique with size=).

    >>> from rune import nx
    >>> print(nx.unique_all(nx.array([2, 1, 2])).indices)
    int64 [2] [1, 0]
    """
    return UniqueAllResult(*unique(x, return_index=True, return_inverse=True,
                                   return_counts=True))
