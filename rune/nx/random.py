"""`nx.random`: random tensors from a seeded generator (numpy's underneath).

    rng = nx.random.default_rng(0)
    x = rng.normal(size=(2, 3))

The same seed gives the same tensors. The draws are constants, but `normal`
and `uniform` are written as `loc + scale * z` and `low + (high - low) * u`
with z, u drawn, so their result has a derivative with respect to tensor
parameters (the reparameterization used by variational methods). Draws are
made in float64 and converted, so a float32 draw is the float64 draw rounded.
"""

from __future__ import annotations

import contextlib
import threading

import numpy as np

from .creation import _shape_arg
from .dtypes import as_dtype, float64, int64
from .tensor import Tensor

__all__ = ["default_rng", "Generator"]


class _Recorders(threading.local):
    """The draws being watched in this thread: `rune.checkpoint` notes the
    state of each generator before f's first draw from it, to replay them."""

    def __init__(self):
        self.active: list[dict] = []


_recorders = _Recorders()


@contextlib.contextmanager
def recording_states():
    """Yields a dict filled, during the block, with the state each generator
    had before its first draw: {id: (bit generator, state)}.

    >>> from rune import nx
    >>> from rune.nx.random import recording_states
    >>> rng = nx.random.default_rng(0)
    >>> with recording_states() as states:
    ...     first = rng.normal()
    >>> len(states)  # rng's, as it was before its first draw
    1
    """
    states: dict = {}
    _recorders.active.append(states)
    try:
        yield states
    finally:
        _recorders.active.pop()


@contextlib.contextmanager
def replaying(states):
    """During the block the generators are back in the recorded states (the
    same numbers are drawn again); after it they are as they were before it.

    >>> from rune import nx
    >>> from rune.nx.random import recording_states, replaying
    >>> rng = nx.random.default_rng(0)
    >>> with recording_states() as states:
    ...     first = rng.normal().item()
    >>> with replaying(states):
    ...     again = rng.normal().item()  # the same draw
    >>> second = rng.normal().item()  # rng as it was before the block
    >>> print(again == first, second == first)
    True False
    """
    now = [(bits, bits.state) for bits, _ in states.values()]
    for bits, state in states.values():
        bits.state = state
    try:
        yield
    finally:
        for bits, state in now:
            bits.state = state


def default_rng(seed=None) -> Generator:
    """A generator of random tensors, reproducible by `seed`.

    Args:
      seed: an int (or None for fresh entropy from the operating system), as
        numpy.random.default_rng takes.

    Raises:
      TypeError: a seed that is not None, an int or a sequence of ints.
      ValueError: a negative seed.

    >>> from rune import nx
    >>> rng = nx.random.default_rng(0)
    >>> print(rng.integers(0, 10, size=5))
    int64 [5] [8, 6, 5, 2, 3]
    >>> print(nx.random.default_rng(0).integers(0, 10, size=5))
    int64 [5] [8, 6, 5, 2, 3]
    """
    try:
        rng = np.random.default_rng(seed)
    except (TypeError, ValueError) as error:  # numpy's message names neither rune nor seed
        raise type(error)(f"nx.random.default_rng: seed must be None, a non-negative int or "
                          f"a sequence of them, got {seed!r}") from None
    return Generator(rng)


class Generator:
    """A stream of random tensors; make one with `nx.random.default_rng(seed)`.

    The same seed gives the same tensors (numpy's PCG64 generator underneath).

    Args:
      rng: the numpy.random.Generator that draws the numbers.

    Raises:
      TypeError: rng is not a numpy.random.Generator.

    >>> from rune import nx
    >>> rng = nx.random.default_rng(0)
    >>> print(rng.integers(0, 10, size=3))
    int64 [3] [8, 6, 5]
    """

    __slots__ = ("_rng",)

    def __init__(self, rng: np.random.Generator):
        if not isinstance(rng, np.random.Generator):
            raise TypeError(f"nx.random.Generator: rng must be a numpy.random.Generator, got "
                            f"{type(rng).__name__} (nx.random.default_rng(seed) makes one)")
        self._rng = rng

    def __repr__(self):
        return f"nx.random.Generator({type(self._rng.bit_generator).__name__})"

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=float64):
        """Normally distributed values with mean `loc` and standard deviation `scale`.

        Args:
          loc, scale: numbers or tensors (the result is differentiable in them).
          size: the shape (an int or a tuple); default: the shape of loc and
            scale broadcast together (a scalar for numbers).
          dtype: a float dtype (default float64).

        Raises:
          TypeError: a dtype that is not a float dtype, or a bad size.

        >>> from rune import nx
        >>> print(nx.random.default_rng(0).normal(size=2, dtype=nx.float32))
        float32 [2] [0.12573022, -0.13210486]
        """
        z = self._draw(self._rng.standard_normal, size, (loc, scale), dtype, "normal")
        return _affine(loc, scale, z)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=float64):
        """Values drawn uniformly from [low, high).

        Args and errors as `normal` (low, high in place of loc, scale).

        >>> from rune import nx
        >>> print(nx.random.default_rng(0).uniform(size=2))
        float64 [2] [0.6369616873214543, 0.2697867137638703]
        """
        u = self._draw(self._rng.random, size, (low, high), dtype, "uniform")
        return _affine(low, high - low, u)

    def integers(self, low, high=None, size=None, dtype=int64):
        """Random integers in [low, high), or in [0, low) when high is None.

        Args:
          low, high: ints.
          size: the shape (an int or a tuple); default a scalar.
          dtype: an integer dtype (default int64).

        Raises:
          TypeError: a dtype that is not an integer dtype, or a bad size.
          ValueError: an empty range (low >= high).

        >>> from rune import nx
        >>> print(nx.random.default_rng(1).integers(3, size=(2, 2)))
        int64 [2, 2]
        [[1, 1],
         [2, 2]]
        """
        dtype = _checked_dtype(dtype, "iu", "integers", "an integer")
        if high is None:
            low, high = 0, low
        if not low < high:
            raise ValueError(f"Generator.integers: the range [{low}, {high}) is empty")
        shape = None if size is None else _shape_arg(size, "Generator.integers")
        self._note_state()
        return Tensor(np.asarray(self._rng.integers(low, high, shape, dtype=dtype)))

    def _note_state(self):
        """Tell the active recorders (checkpoints) this generator's state before it draws."""
        for states in _recorders.active:
            bits = self._rng.bit_generator
            if id(bits) not in states:
                states[id(bits)] = (bits, bits.state)

    def _draw(self, sample, size, params, dtype, name):
        dtype = _checked_dtype(dtype, "f", name, "a float")
        if size is None:
            shape = np.broadcast_shapes(*[np.shape(p) if not hasattr(p, "shape") else p.shape
                                          for p in params])
        else:
            shape = _shape_arg(size, f"Generator.{name}")
        self._note_state()
        return Tensor(np.asarray(sample(shape)).astype(dtype))


def _affine(shift, scale, x):
    """shift + scale * x, skipping the parts that are the numbers 0 and 1."""
    if not (isinstance(scale, (int, float)) and scale == 1):
        x = scale * x
    if not (isinstance(shift, (int, float)) and shift == 0):
        x = shift + x
    return x


def _checked_dtype(dtype, kinds, name, what):
    dtype = as_dtype(dtype, f"Generator.{name}")
    if dtype.kind not in kinds:
        raise TypeError(f"Generator.{name}: dtype must be {what} dtype, got {dtype}")
    return dtype
