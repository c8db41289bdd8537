"""`nx.linalg`: inverse, solve, determinants, Cholesky, norms."""

__all__: list = []
