"""Backends of `rune.jit`: each lowers the same traced graph (rune/graph.py)
to code for an engine.

`replay`: the default, the graph as a Python function of numpy calls
(`buffers`: results written into dead temporaries).
`fused`: runs of elementwise equations become one numexpr kernel (the `fast` extra).
`jax`: the whole graph lowered to jax.numpy/jax.lax and compiled by XLA (the `jax` extra).
"""
