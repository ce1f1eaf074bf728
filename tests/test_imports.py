"""No import cycles: every `import` and `from … import` of generator/ and companion/ (a lazy import
inside a function counts too), read with `ast`, makes a graph of modules that must have no cycle.

Importing `a.b.c` also runs the packages `a` and `a.b` (their __init__), so those are edges too: a
cycle through a package's __init__ is hidden from a reader but real. The generator's packages are
also layers (canon, layouts, draw, kits, sheets, qr, render, …): no cycle between them either, so
that `generator/qr.py -> sheets -> kits` cannot come back to the QR code through a kit.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("generator", "companion")


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _ancestors(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules `name` imports, anywhere in the file, with the packages that run first."""
    is_package = path.name == "__init__.py"
    here = name if is_package else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                base = base[:len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            subs = [f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" in known]
            targets.update(subs)
            if len(subs) < len(node.names):   # names defined in the module (or package) itself
                targets.add(module)
            elif module not in _ancestors(name):
                targets.add(module)           # the package runs before its submodules
    edges = set()
    for target in targets:
        # The packages on the way run first, unless they hold `name` (they have started already);
        # the target itself counts even then: its names are read (`import pkg`, `from . import X`).
        steps = [s for s in _ancestors(target) if s not in _ancestors(name)] + [target]
        edges.update(s for s in steps if s in known and s != name)
    return edges


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan), each as a sorted list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def a_path(graph: dict[str, set[str]], group: list[str]) -> str:
    """One cycle inside a strongly connected group, as 'a -> b -> a' (what to look at first)."""
    start, inside = group[0], set(group)
    seen, todo = {start: [start]}, [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(graph[v] & inside):
            if w == start:
                return " -> ".join(seen[v] + [start])
            if w not in seen:
                seen[w] = seen[v] + [w]
                todo.append(w)
    return " <-> ".join(group)


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_the_reader_sees_the_imports_that_matter(graph):
    assert "generator.layouts" in graph["generator.qr"]
    assert "generator.kits" in graph["generator.sheets.cards"]         # via kits.base: the package first
    assert "generator.qr" in graph["generator.kits.shinjuku.cards"]
    assert "generator.render" in graph["companion.games.shinjuku.board_twin"]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_cycle_between_modules(graph, package):
    mine = {name: {t for t in targets} for name, targets in graph.items()}
    bad = [g for g in cycles(mine) if any(m.split(".")[0] == package for m in g)]
    assert not bad, "import cycles:\n" + "\n".join(a_path(mine, g) for g in bad)


def test_no_cycle_between_the_generators_layers(graph):
    def layer(name: str) -> str:
        return ".".join(name.split(".")[:2])
    layers: dict[str, set[str]] = {}
    for name, targets in graph.items():
        if name.startswith("generator."):
            layers.setdefault(layer(name), set()).update(
                layer(t) for t in targets if t.startswith("generator.") and layer(t) != layer(name))
    bad = cycles(layers)
    assert not bad, "cycles between generator packages:\n" + "\n".join(a_path(layers, g) for g in bad)


def test_the_check_finds_a_cycle_hidden_in_a_package(tmp_path):
    """The reader itself: a package whose __init__ imports a module that imports the package back."""
    for rel, text in {"pkg/__init__.py": "from .a import x\n",
                      "pkg/a.py": "def x():\n    from pkg.b import y\n",
                      "pkg/b.py": "import pkg\ny = 1\n"}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    known = {"pkg": tmp_path / "pkg/__init__.py", "pkg.a": tmp_path / "pkg/a.py", "pkg.b": tmp_path / "pkg/b.py"}
    g = {name: imports(name, path, known) for name, path in known.items()}
    assert cycles(g) == [["pkg", "pkg.a", "pkg.b"]]
