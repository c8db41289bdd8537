"""The rune.nx reference that scripts/mkdocs_hooks.py lays out by family."""

import importlib.util
import re
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "mkdocs_hooks", Path(__file__).resolve().parent.parent / "scripts" / "mkdocs_hooks.py")
hooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hooks)


def test_every_other_name_in_the_nx_reference_links_to_an_entry_it_has():
    # `__array_namespace_info__ = ArrayNamespaceInfo`: the class is not exported
    # under its own name, so a link to it found no entry (a strict-build warning).
    reference = hooks.nx_reference()
    entries = set(re.findall(r"^::: (rune\.nx\.[\w.]+)$", reference, re.MULTILINE))
    targets = re.findall(r"\]\[(rune\.nx\.[\w.]+)\]", reference)
    assert targets, "no other names at all: the test reads the wrong text"
    assert [t for t in targets if t not in entries] == []
