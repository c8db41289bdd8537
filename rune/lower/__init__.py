"""Backends of `rune.jit`: each lowers the same traced graph (rune/graph.py)
to code for an engine.

`replay`: the default, the graph as a Python function of numpy calls
(`buffers`: results written into dead temporaries).
`fused`: runs of elementwise equations become one numexpr kernel (the `fast` extra).
`jax`: the whole graph lowered to jax.numpy/jax.lax and compiled by XLA (the `jax` extra).

`rune.jit` finds a backend other than numpy's through `BACKENDS`, by name:
the backend's module imports rune.jit (its `Jitted` class is the numpy
backend's, extended), so rune.jit cannot import it, and its engine is an
optional extra, imported only when asked for.
"""

from __future__ import annotations

import importlib
import importlib.util

# backend name -> (module, its Jitted subclass, the package it needs, that package's name)
BACKENDS = {
    "jax": ("rune.lower.jax", "JaxJitted", "jax", "JAX"),
}


def jitted_class(backend: str) -> type:
    """The `Jitted` subclass of a backend of `BACKENDS`, its module imported now.

    Raises:
      ImportError: the package the backend needs is not installed (naming the
        extra that installs it).
    """
    module, name, package, display = BACKENDS[backend]
    if importlib.util.find_spec(package) is None:
        raise ImportError(f'rune.jit(backend="{backend}") needs {display}: '
                          f'pip install "rune-autodiff[{package}]"')
    return getattr(importlib.import_module(module), name)
