"""`rune.scipy`: scipy's special functions, distributions and convolutions, differentiable.

Mirrors the names of `scipy.special`, `scipy.stats`, `scipy.signal`, `scipy.linalg` (those
numpy.linalg lacks) and `scipy.integrate.odeint` that HIPS autograd and
`jax.scipy` offer, computed with numpy and Python's `math` (scipy is not a
dependency). The primitives are in rune/primitives/special.py; everything
else is a composition of `rune.nx` functions, so every transformation
applies.

>>> from rune import nx
>>> from rune.scipy import special, stats
>>> print(special.gammaln(nx.array([1.0, 5.0])))
float64 [2] [0, 3.178053830347945]
>>> print(stats.norm.logpdf(0.0))
float64 [] -0.9189385332046727
"""

from . import integrate, linalg, signal, special, stats

__all__ = ["integrate", "linalg", "signal", "special", "stats"]
