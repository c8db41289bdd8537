"""rune: automatic differentiation on numpy, and the rune.literate docs-testing toolkit."""
