"""`rune.detach`: hold a value constant under every differentiation."""

from __future__ import annotations

from . import ptree
from .arguments import flatten_tensors
from .primitives.elementwise import stop_gradient as _stop_gradient


def detach(x):
    """x itself, with a zero derivative under every differentiation around it.

    Works on tensors and on structures of tensors (each leaf is detached);
    numbers and numpy arrays become tensors. Under differentiation it
    returns the value below the differentiation's tracer, so
    `float(rune.detach(x))` reads a traced number on purpose.

    Args:
      x: a tensor, or a structure (tuple, list, dict...) of tensors.

    Raises:
      TypeError: a leaf that is not a tensor, a numpy array or a number.

    >>> import rune
    >>> from rune import nx
    >>> x = nx.array([1.0, 2.0])
    >>> print(rune.grad(lambda x: nx.sum(x * rune.detach(x)))(x))
    float64 [2] [1, 2]
    """
    leaves, structure = flatten_tensors(x, "x", "rune.detach")
    return ptree.unflatten(structure, [_stop_gradient(leaf) for leaf in leaves])


stop_gradient = detach
