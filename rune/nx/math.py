"""Elementwise math: arithmetic, powers, trigonometry, comparisons."""

from ..primitives import elementwise as _e

__all__ = ["add", "multiply", "sin", "cos", "tanh", "exp", "real", "conj"]


def add(x, y):
    """x + y elementwise, broadcasting as numpy does."""
    return _e.add(x, y)


def multiply(x, y):
    """x * y elementwise, broadcasting as numpy does."""
    return _e.multiply(x, y)


def sin(x):
    """Sine, elementwise."""
    return _e.sin(x)


def cos(x):
    """Cosine, elementwise."""
    return _e.cos(x)


def tanh(x):
    """Hyperbolic tangent, elementwise."""
    return _e.tanh(x)


def exp(x):
    """e ** x, elementwise."""
    return _e.exp(x)


def real(x):
    """The real part (x itself for real tensors)."""
    return _e.real(x)


def conj(x):
    """The complex conjugate (x itself for real tensors)."""
    return _e.conj(x)
