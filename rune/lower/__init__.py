"""Backends of `rune.jit` beyond the numpy replay: each lowers the traced graph.

`fused`: runs of elementwise equations become one numexpr kernel (the `fast` extra).
"""
