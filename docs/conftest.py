"""The pages that need an optional extra are skipped, with the reason, without it."""

import importlib.util

import pytest

_NEEDS = {"running-on-jax.md": ("jax", 'JAX is not installed: pip install "rune-autodiff[jax]"')}


def pytest_collection_modifyitems(config, items):
    for item in items:
        need = _NEEDS.get(item.path.name)
        if need and importlib.util.find_spec(need[0]) is None:
            item.add_marker(pytest.mark.skip(reason=need[1]))
