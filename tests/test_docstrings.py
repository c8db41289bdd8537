"""Every public function and class has a docstring with a `>>>` example.

The examples run as tests (`literate_docstring_patterns` in pyproject.toml)
and show in the API reference; this test makes sure each public object has
one, and names every offender at once.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MODULES = ("rune", "rune.nx", "rune.nx.linalg", "rune.nx.random", "rune.ptree", "rune.literate")


def star_exported(module) -> set[str]:
    """Names a package re-exports with `from .family import *`.

    rune.nx gathers its family modules' `__all__` this way; a submodule
    counts when every name of its `__all__` is the same object in the package.
    """
    names: set[str] = set()
    for info in pkgutil.iter_modules(getattr(module, "__path__", [])):
        submodule = importlib.import_module(f"{module.__name__}.{info.name}")
        exported = getattr(submodule, "__all__", ())
        if exported and all(
            getattr(module, name, None) is getattr(submodule, name) for name in exported
        ):
            names.update(exported)
    return names


def public_api() -> dict[str, object]:
    """Public functions and classes, by the first name they are exported under."""
    found: dict[str, object] = {}
    seen: set[int] = set()
    for module_name in MODULES:
        if importlib.util.find_spec(module_name) is None:
            continue  # rune.nx.random, until it exists
        module = importlib.import_module(module_name)
        for name in sorted(set(getattr(module, "__all__", ())) | star_exported(module)):
            obj = getattr(module, name)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)) or id(obj) in seen:
                continue
            seen.add(id(obj))
            found[f"{module_name}.{name}"] = obj
    return found


def where(obj) -> str:
    path = Path(inspect.getsourcefile(obj)).resolve()
    try:
        path = path.relative_to(ROOT)
    except ValueError:
        pass
    return f"{path}:{inspect.getsourcelines(obj)[1]}"


def test_the_walk_finds_the_api():
    api = public_api()
    for name in (
        "rune.grad",
        "rune.vmap",
        "rune.nx.sum",
        "rune.nx.linalg.inv",
        "rune.ptree.flatten",
        "rune.literate.parse_page",
    ):
        assert name in api


def test_every_public_function_and_class_has_a_docstring_with_an_example():
    offenders = []
    for name, obj in public_api().items():
        doc = obj.__doc__ or ""  # its own: inspect.getdoc would inherit a base class's
        if not doc.strip():
            offenders.append(f"{name} ({where(obj)}): no docstring")
        elif ">>>" not in doc:
            offenders.append(f"{name} ({where(obj)}): no >>> example")
    assert not offenders, (
        f"{len(offenders)} public objects lack a docstring example:\n" + "\n".join(offenders)
    )
