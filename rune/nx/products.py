"""Products of tensors: matmul, dot, inner, outer, tensordot, einsum."""

__all__: list = []
