"""Backends of `rune.jit` beyond the numpy replay: each lowers the same traced
graph (rune/graph.py) to another engine, one table from primitive to code.

`fused`: runs of elementwise equations become one numexpr kernel (the `fast` extra).
`jax`: the whole graph lowered to jax.numpy/jax.lax and compiled by XLA (the `jax` extra).
"""
