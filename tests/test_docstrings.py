"""Every public function and class has a docstring with a `>>>` example,
its arguments and what it raises.

The examples run as tests (`docstring_paths` of `[tool.rune-literate]` in pyproject.toml)
and show in the API reference, which mkdocstrings builds from the Google-style
`Args:` and `Raises:` sections; these tests make sure each public object has
them, and name every offender at once.
"""

from __future__ import annotations

import builtins
import dataclasses
import enum
import importlib
import importlib.util
import inspect
import pkgutil
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

MODULES = ("rune", "rune.nx", "rune.nx.linalg", "rune.nx.fft", "rune.nx.random", "rune.ptree",
           "rune.scipy.special", "rune.scipy.stats", "rune.scipy.signal", "rune.literate")


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
    obj = inspect.unwrap(obj)  # a contextmanager: the function it wraps
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


# What else the API pages show: a module's own public functions and classes
# (rune.nx.random.replaying is outside its __all__), the members an API page
# lists (`members: [Primitive, binder, Scaled]` of rune.core), and the public
# methods of all these classes. Each needs an example too.
_MEMBERS_OPTION = re.compile(
    r"^::: (?P<module>[\w.]+)\n(?:[ \t]+.*\n)*?[ \t]+members: \[(?P<names>[^\]]*)\]", re.MULTILINE)
# Public names without a >>> example, each with the reason it needs none.
WITHOUT_EXAMPLE: dict[str, str] = {
    # Remove when the s29-path branch (issue 29's "Adding a primitive") is merged: the
    # test below fails then, as it does for every name here that has gained an example.
    # How it works prints their source whole to walk through the engine, where an
    # example would be read as the engine (Adding a primitive shows them at work).
    "rune.core.binder": "How it works shows its source, docstring included",
    "rune.core.Scaled": "How it works shows its source, docstring included",
    "rune.core.Primitive.bind": "How it works shows its source, docstring included",
}


def listed_members() -> dict[str, object]:
    """The objects an API page lists by name with mkdocstrings' `members:` option."""
    found = {}
    for page in sorted((ROOT / "docs" / "api").rglob("*.md")):
        for match in _MEMBERS_OPTION.finditer(page.read_text(encoding="utf-8")):
            module = importlib.import_module(match["module"])
            for name in filter(None, (name.strip() for name in match["names"].split(","))):
                found[f"{match['module']}.{name}"] = getattr(module, name)
    return found


def module_defined() -> dict[str, object]:
    """Public functions and classes defined in the modules of MODULES, exported or not."""
    found = {}
    for module_name in MODULES:
        if importlib.util.find_spec(module_name) is None:
            continue
        for name, obj in vars(importlib.import_module(module_name)).items():
            if (not name.startswith("_") and (inspect.isfunction(obj) or inspect.isclass(obj))
                    and obj.__module__ == module_name and _has_source(obj)):
                found[f"{module_name}.{name}"] = obj
    return found


def _has_source(obj) -> bool:
    """False for a class a call made (a namedtuple): the API pages show it as an attribute."""
    try:
        inspect.getsourcelines(obj)
    except OSError:
        return False
    return True


def public_methods(classes: dict[str, object]) -> dict[str, object]:
    """The public methods each class defines itself (not those it inherits)."""
    found = {}
    for class_name, cls in classes.items():
        for name, attribute in vars(cls).items():
            function = getattr(attribute, "__func__", attribute)  # static and class methods
            if not name.startswith("_") and inspect.isfunction(function):
                found[f"{class_name}.{name}"] = function
    return found


def everything_documented() -> dict[str, object]:
    """Every function, class and method the API pages show, once each (by identity)."""
    named = {**module_defined(), **listed_members(), **public_api()}
    classes = {name: obj for name, obj in named.items() if inspect.isclass(obj)}
    found, seen = {}, set()
    for name, obj in {**named, **public_methods(classes)}.items():
        if id(obj) not in seen:
            seen.add(id(obj))
            found[name] = obj
    return found


def test_the_wider_walk_finds_what_the_api_pages_show():
    documented = everything_documented()
    for name in ("rune.core.Primitive", "rune.core.binder", "rune.nx.random.replaying",
                 "rune.nx.Tensor.sum", "rune.literate.PageRunner.run_block"):
        assert name in documented


def test_every_function_class_and_method_the_api_shows_has_an_example():
    offenders = [
        f"{name} ({where(obj)})" for name, obj in everything_documented().items()
        if ">>>" not in (obj.__doc__ or "") and name not in WITHOUT_EXAMPLE
    ]
    assert not offenders, (
        f"{len(offenders)} functions, classes and methods of the API reference have no >>> "
        "example (give them one, or a reason in WITHOUT_EXAMPLE):\n" + "\n".join(offenders)
    )
    documented = everything_documented()
    stale = [name for name in WITHOUT_EXAMPLE
             if name not in documented or ">>>" in (documented[name].__doc__ or "")]
    assert not stale, f"WITHOUT_EXAMPLE names what the API no longer shows or has an example: {stale}"


# ------------------------------------------------------- Args and Raises

_HEADING = re.compile(r"^([A-Z]\w*):$")
_NAME = re.compile(r"^\*{0,2}[A-Za-z_]\w*$")
_EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*$")


def sections(doc: str) -> dict[str, list[tuple[str, str]]]:
    r"""The Google-style sections of a docstring, as mkdocstrings (griffe) reads them.

    A section is a line such as `Args:` after a blank line, followed by
    indented items; an item is `head: description`, its continuation lines
    indented further, and the section ends at a line indented less than
    its first item. Returns {title: [(head, description), ...]}.

    >>> sections("Sum.\n\nArgs:\n  x, y: numbers,\n    added.\n\n>>> 1")
    {'Args': [('x, y', 'numbers, added.')]}
    """
    lines = inspect.cleandoc(doc).splitlines()
    found: dict[str, list[tuple[str, str]]] = {}
    for i, line in enumerate(lines):
        heading = _HEADING.match(line)
        below = lines[i + 1] if i + 1 < len(lines) else ""
        if heading is None or (i and lines[i - 1].strip()) or not below.startswith(" "):
            continue
        indent = len(below) - len(below.lstrip())
        items: list[list[str]] = []
        for item_line in lines[i + 1 :]:
            stripped = item_line.strip()
            if not stripped:
                continue
            depth = len(item_line) - len(item_line.lstrip())
            if depth < indent:
                break
            if depth == indent:
                items.append(stripped.split(":", 1) if ":" in stripped else [stripped, ""])
            else:
                items[-1][1] += " " + stripped
        found[heading.group(1)] = [(head.strip(), text.strip()) for head, text in items]
    return found


def documented_names(items) -> list[str]:
    """The parameter names of an `Args:` section's items (`x, y:` names two)."""
    return [name.strip() for head, _ in items for name in head.split(",")]


def parameters(obj) -> list[str]:
    """The parameters to document: `*args` and `**kwargs` with their stars, no `self`."""
    names = []
    for parameter in inspect.signature(obj).parameters.values():
        stars = {parameter.VAR_POSITIONAL: "*", parameter.VAR_KEYWORD: "**"}
        names.append(stars.get(parameter.kind, "") + parameter.name)
    return names


def exception_named(name: str, obj) -> type | None:
    """The exception class a `Raises:` item names, looked up as a reader would:
    a builtin, a name of the object's module, or a dotted path from `rune`."""
    first, *rest = name.split(".")
    module = vars(sys.modules[obj.__module__])
    for namespace in (vars(builtins), module, {"rune": sys.modules["rune"]}):
        if first in namespace:
            value = namespace[first]
            for part in rest:
                value = getattr(value, part, None)
            if isinstance(value, type) and issubclass(value, BaseException):
                return value
    return None


def needs(obj) -> tuple[str | None, bool]:
    """(the section naming obj's arguments or None, whether obj needs `Raises:`).

    A function names its arguments under `Args:` and says what it raises.
    So does a class with a constructor of its own; a dataclass names its
    fields under `Attributes:`, and raises nothing (its constructor is
    generated); an exception class names its constructor's arguments, if
    any; an enum has only its members.
    """
    if inspect.isfunction(obj):
        return "Args", True
    if issubclass(obj, enum.Enum):
        return None, False
    if dataclasses.is_dataclass(obj):
        return "Attributes", False
    takes = "__init__" in vars(obj) and parameters(obj)
    if issubclass(obj, BaseException):
        return ("Args" if takes else None), False
    return ("Args" if takes else None), bool(takes)


def problems(obj) -> list[str]:
    """What obj's docstring lacks: unnamed parameters, a missing or malformed section."""
    found = sections(obj.__doc__ or "")
    args_title, raises = needs(obj)
    out = []
    if args_title is not None:
        if args_title not in found:
            out.append(f"no {args_title}: section")
        else:
            named = documented_names(found[args_title])
            expected = parameters(obj)
            missing = [name for name in expected if name not in named]
            unknown = [name for name in named if name not in expected]
            malformed = [name for name in named if not _NAME.match(name)]
            empty = [head for head, text in found[args_title] if not text]
            for what, names in (("does not name", missing), ("names unknown", unknown),
                                ("has malformed names", malformed),
                                ("has no description for", empty)):
                if names:
                    out.append(f"{args_title}: {what} {', '.join(names)}")
    if raises:
        if "Raises" not in found:
            out.append("no Raises: section")
        for head, text in found.get("Raises", []):
            if not _EXCEPTION.match(head) or exception_named(head, obj) is None:
                out.append(f"Raises: {head!r} is not one exception class (write one per line)")
            elif not text:
                out.append(f"Raises: {head} says nothing of when")
    return out


def test_every_public_function_names_its_arguments_and_what_it_raises():
    offenders = []
    for name, obj in public_api().items():
        offenders += [f"{name} ({where(obj)}): {problem}" for problem in problems(obj)]
    assert not offenders, (
        f"{len(offenders)} problems with Args:/Raises: sections:\n" + "\n".join(offenders)
    )


def _good(x, *rest, key=None, **options):
    """Adds.

    Args:
      x, key: numbers.
      *rest: more numbers,
        on two lines.
      **options: ignored.

    Raises:
      TypeError: x is not a number.
      rune.TracedValueError: under jit.

    >>> _good(1)
    """


@pytest.mark.parametrize(
    "doc, problem",
    [
        ("Adds.\n\nRaises:\n  TypeError: bad.\n", "no Args: section"),
        ("Adds.\n\nArgs:\n  x: a.\n  *rest: b.\n  **options: c.\n\nRaises:\n  TypeError: d.",
         "Args: does not name key"),
        ("Adds.\n\nArgs:\n  x, key: a.\n  rest: b.\n  **options: c.\n\nRaises:\n  TypeError: d.",
         "Args: does not name *rest"),
        ("Adds.\n\nArgs:\n  x, key, y: a.\n  *rest: b.\n  **options: c.\n\nRaises:\n  TypeError: d.",
         "Args: names unknown y"),
        ("Adds.\n\nArgs:\n  x, key: a.\n  *rest: b.\n  **options: c.\n", "no Raises: section"),
        # No blank line above: griffe reads it as text, not a section.
        ("Adds.\nArgs:\n  x, key: a.\n  *rest: b.\n  **options: c.\n\nRaises:\n  TypeError: d.",
         "no Args: section"),
        ("Adds.\n\nArgs:\n  x, key: a.\n  *rest: b.\n  **options: c.\n\n"
         "Raises:\n  TypeError, ValueError: d.", "is not one exception class"),
        ("Adds.\n\nArgs:\n  x, key: a.\n  *rest: b.\n  **options: c.\n\n"
         "Raises:\n  Nothing of its own.", "is not one exception class"),
        ("Adds.\n\nArgs:\n  x, key: a.\n  *rest: b.\n  **options: c.\n\n"
         "Raises:\n  TypeError:", "says nothing of when"),
    ],
)
def test_the_check_finds_each_kind_of_problem(doc, problem, monkeypatch):
    assert problems(_good) == []
    monkeypatch.setattr(_good, "__doc__", doc)
    assert any(problem in found for found in problems(_good)), problems(_good)


def test_what_each_kind_of_object_must_document():
    from rune import nx
    from rune.literate import BlockResult, LiterateSyntaxError, Outcome

    assert needs(nx.sum) == ("Args", True)
    assert needs(nx.Tensor) == ("Args", True)
    assert needs(BlockResult) == ("Attributes", False)
    assert needs(LiterateSyntaxError) == ("Args", False)
    assert needs(Outcome) == (None, False)
    assert needs(nx.TracedValueError) == (None, False)


SPHINX_ROLE = re.compile(r":(?:py:)?(?:class|func|mod|meth|attr|exc|obj|data):`[^`]*`")


def test_docstrings_use_markdown_cross_references_not_sphinx_roles():
    # mkdocstrings renders Google-style docstrings as markdown: a Sphinx role
    # shows as raw `:class:` text on the API pages. A cross-reference is
    # written [`name`][rune.module.name]; scripts/site_check.py checks the
    # built pages too.
    found = [
        f"{path.relative_to(ROOT)}:{number}: {match.group()}"
        for path in sorted([*(ROOT / "rune").rglob("*.py"), *ROOT.glob("*.py")])
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for match in SPHINX_ROLE.finditer(line)
    ]
    assert not found, "Sphinx roles in docstrings:\n" + "\n".join(found)
