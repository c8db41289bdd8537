"""Backends of `rune.jit` beyond the numpy replay: each lowers the same traced
graph (rune/graph.py) to another engine, one table from primitive to code."""
