"""The registry of primitives: every primitive rune defines, found by walking
its modules (tests/batching_cases.py's `registry`), keeps the contract the
transformations rely on."""

from __future__ import annotations

from collections import Counter

from rune.calls.call import CallPrimitive
from tests.batching_cases import registry

# Primitives that need no rule of their own, each for a reason.
# linear_call's bind runs its rule's Python functions on whatever it is given,
# so jit and vmap see the operations inside it, never linear_call itself.
NO_ABSTRACT_RULE = {"linear_call": "bind runs its rule's functions"}
# A primitive without a batching rule is batched by vmap's loop fallback
# (one call per example); list it here to say that is intended.
LOOP_FALLBACK = {"linear_call": "bind runs its rule's functions"}


def test_primitive_names_are_unique():
    counts = Counter(prim.name for prim in registry())
    assert [name for name, n in counts.items() if n > 1] == []


def test_every_primitive_has_an_abstract_rule():
    missing = {prim.name for prim in registry() if prim.abstract_eval is None}
    assert missing == set(NO_ABSTRACT_RULE)


def test_every_primitive_batches_by_a_rule_or_an_intended_loop():
    def has_batch_rule(prim):
        if isinstance(prim, CallPrimitive):
            return "batch" in prim.rules
        return prim.batch is not None

    missing = {prim.name for prim in registry() if not has_batch_rule(prim)}
    assert missing == set(LOOP_FALLBACK)
