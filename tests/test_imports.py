"""The import graph of ``secret_hitler`` has no cycle.

Layers point one way (engine <- bots/sim <- server <- web; docs/architecture.md), and an import
hidden inside a function still counts: the graph is built from the source, every ``import`` and
``from ... import`` at any depth, relative ones resolved; only imports under
``if TYPE_CHECKING:`` (annotations, never run) are left out.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "src"
PACKAGE = "secret_hitler"


def module_files() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    out = {}
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements under ``node`` at any depth, except ``if TYPE_CHECKING:`` bodies
    (their ``else`` still runs)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child
        elif isinstance(child, ast.If) and _type_checking(child.test):
            for stmt in child.orelse:
                yield from _imports(ast.Module(body=[stmt], type_ignores=[]))
        else:
            yield from _imports(child)


def _resolve(module: str, is_package: bool, stmt: ast.ImportFrom) -> str:
    """The absolute name ``from <stmt.module>`` means in ``module``."""
    if stmt.level == 0:
        return stmt.module or ""
    base = module.split(".")
    if not is_package:
        base.pop()
    if stmt.level > 1:
        base = base[: len(base) - (stmt.level - 1)]
    return ".".join(base + ([stmt.module] if stmt.module else []))


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of the package it imports (``from pkg import name``: the submodule
    ``pkg.name`` if there is one, else ``pkg``)."""
    files = module_files()
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        for stmt in _imports(tree):
            if isinstance(stmt, ast.Import):
                targets = [alias.name for alias in stmt.names]
            else:
                base = _resolve(name, is_package, stmt)
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base
                    for alias in stmt.names
                ]
            for target in targets:
                # ``import a.b.c`` names a.b.c; the nearest module of the package it reaches
                while target and target not in files:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def components(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module: the modules that import one
    another in a circle (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per component (a path that returns to its start)."""
    return [_a_cycle(graph, c) for c in components(graph)]


def _a_cycle(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A shortest cycle through the component's first module (breadth-first)."""
    start = min(component)
    parents: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for child in sorted(graph[node] & component):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parents[path[-1]])
                    return [start, *reversed(path[:-1]), start] if node != start else [start]
                if child not in parents:
                    parents[child] = node
                    nxt.append(child)
        frontier = nxt
    raise AssertionError("a strongly connected component without a cycle")


def test_the_package_has_no_import_cycle() -> None:
    graph = import_graph()
    found = [
        f"{' -> '.join(_a_cycle(graph, c))} (in a circle: {', '.join(sorted(c))})"
        for c in components(graph)
    ]
    assert not found, "import cycles:\n" + "\n".join(found)


#: The llm modules that may import sim: the arena's command, which scores model seats against
#: the held-out people's votes with the simulator's evaluation (``sim.evaluate.evaluate_votes``).
LLM_READS_SIM = frozenset({"secret_hitler.llm.cli"})


def test_llm_reads_no_sim_module_but_its_command() -> None:
    """A model seat, its prompts, the arena and its report stand beside the simulator, not on
    it: the seeds and intervals they share live below both (``secret_hitler.stats``), claim
    truth in the engine (``engine.claims.is_true``), and the arena plays through the bots'
    loop (``bots.base.play_out``)."""
    graph = import_graph()
    found = {
        f"{module} -> {target}"
        for module, targets in graph.items()
        if module.startswith("secret_hitler.llm") and module not in LLM_READS_SIM
        for target in targets
        if target.startswith("secret_hitler.sim")
    }
    assert not found, "llm imports sim:\n" + "\n".join(sorted(found))


# ---------------------------------------------------------------------- the checker itself
def test_the_graph_sees_function_level_and_relative_imports() -> None:
    graph = import_graph()
    assert "secret_hitler.engine.game" in graph["secret_hitler.engine"]  # from .game import
    # server/cli.py imports the application factory inside ``serve`` (after the extras check)
    assert any(m.startswith("secret_hitler.server.") for m in graph["secret_hitler.server.cli"])


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"a"}}, [["a", "b", "a"]]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c", "a"]]),
    ],
)
def test_cycles_are_found_and_named(graph: dict[str, set[str]], expected: list[list[str]]) -> None:
    assert cycles(graph) == expected


def test_type_checking_imports_are_left_out(tmp_path: Path) -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from . import hidden\nelse:\n    from . import shown\n"
        "def f():\n    from . import inner\n"
    )
    names = [
        alias.name
        for stmt in _imports(ast.parse(source))
        if isinstance(stmt, ast.ImportFrom) and stmt.level
        for alias in stmt.names
    ]
    assert names == ["shown", "inner"]
