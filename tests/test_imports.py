"""rune's modules import one another one way: no circles (issue 30).

The graph is read from the source: each import of a rune module is an edge
from the importing module to the module it names (`from .p import name`
names p; `from . import sub` names the submodule). An import inside a
function runs when the function is called, not when the module loads: it is
how a real cycle is broken, and it is not an edge when a comment on its line
says why. One without a comment is an edge like any other.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "rune"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path = ROOT) -> dict[str, Path]:
    return {module_name(p, root): p for p in sorted(root.rglob("*.py"))}


def _absolute(node: ast.ImportFrom, name: str, is_package: bool) -> str:
    """The module a `from` import names, absolute."""
    if node.level == 0:
        return node.module
    base = name.split(".") if is_package else name.split(".")[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imported(node, name: str, is_package: bool, known) -> list[str]:
    """The rune modules an import statement names."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == "rune"]
    base = _absolute(node, name, is_package)
    if base.split(".")[0] != "rune":
        return []
    # a submodule by its name, else an attribute of base (its module or __init__)
    return [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]


def _statements(tree):
    """(import node, inside a function) for every import statement."""
    def walk(node, in_function):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, in_function
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                yield from walk(child, True)
            else:
                yield from walk(child, in_function)
    yield from walk(tree, False)


def import_graph(root: Path = ROOT):
    """{module: the modules it imports}, and the imports inside functions
    that give no reason (as "module:line"; they count as edges too)."""
    known = modules(root)
    graph, silent = {}, []
    for name, path in known.items():
        source = path.read_text()
        lines = source.splitlines()
        edges = set()
        for node, lazy in _statements(ast.parse(source)):
            targets = imported(node, name, path.name == "__init__.py", known)
            if not targets:
                continue
            if lazy:
                if any("#" in line for line in lines[node.lineno - 1:node.end_lineno]):
                    continue
                silent.append(f"{name}:{node.lineno}")
            edges.update(targets)
        graph[name] = {e for e in edges if e in known and e != name}
    return graph, silent


def cycles(graph) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_module_imports_itself_through_others():
    graph, _ = import_graph()
    assert cycles(graph) == []


def test_each_import_inside_a_function_says_why():
    _, silent = import_graph()
    assert silent == []


def test_tensor_and_the_dtypes_import_no_family():
    graph, _ = import_graph()
    for bottom in ("rune.nx.tensor", "rune.nx.dtypes", "rune.nx.printing"):
        assert {m for m in graph[bottom] if m.startswith("rune.nx")} <= {"rune.nx.printing"}


@pytest.mark.parametrize("layout, expected", [
    ({"a.py": "from . import b\n", "b.py": "from .a import x\n"}, [["rune.a", "rune.b"]]),
    ({"a.py": "def f():\n    from . import b  # b imports this module\n",
      "b.py": "from .a import f\n"}, []),
    ({"a.py": "def f():\n    from . import b\n", "b.py": "from .a import f\n"},
     [["rune.a", "rune.b"]]),
    ({"a.py": "from .p import sub\n", "p/__init__.py": "", "p/sub.py": "from .. import a\n"},
     [["rune.a", "rune.p.sub"]]),
    ({"a.py": "from .p import x\n", "p/__init__.py": "from .sub import x\n",
      "p/sub.py": "from ..a import y\n"}, [["rune.a", "rune.p", "rune.p.sub"]]),
])
def test_the_check_finds_a_circle(tmp_path, layout, expected):
    for relative, text in layout.items():
        path = tmp_path / "rune" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (tmp_path / "rune" / "__init__.py").write_text("")
    graph, _ = import_graph(tmp_path / "rune")
    assert cycles(graph) == expected


def test_a_silent_lazy_import_is_reported(tmp_path):
    (tmp_path / "rune").mkdir()
    (tmp_path / "rune" / "__init__.py").write_text("")
    (tmp_path / "rune" / "a.py").write_text("def f():\n    from . import b\n")
    (tmp_path / "rune" / "b.py").write_text("")
    assert import_graph(tmp_path / "rune")[1] == ["rune.a:2"]
