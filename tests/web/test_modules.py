"""The web client's modules import each other without a cycle: no module imports, directly or
through others, a module that imports it, dynamic ``import()`` included (JSDoc type imports are
not imports of the running page and are left out). The router is a module of its own, so the
pages never import main.js; and the table's state module imports nothing at all."""

from __future__ import annotations

import re
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "web" / "app"
COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STATIC = re.compile(r"^\s*(?:import|export)\s+(?:[^'\"]*?\s+from\s+)?['\"]([^'\"]+)['\"]", re.M)
DYNAMIC = re.compile(r"\bimport\(\s*['\"]([^'\"]+)['\"]\s*\)")


def imports() -> dict[str, set[str]]:
    """Each module (its path under web/app/) and the modules it imports."""
    graph = {}
    for path in sorted(APP.rglob("*.js")):
        code = COMMENTS.sub("", path.read_text())
        found = STATIC.findall(code) + DYNAMIC.findall(code)
        graph[path.relative_to(APP).as_posix()] = {
            (path.parent / spec).resolve().relative_to(APP).as_posix() for spec in found
        }
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found = []

    def walk(path: list[str]) -> None:
        for target in sorted(graph.get(path[-1], ())):
            if target in path:
                found.append([*path[path.index(target) :], target])
            else:
                walk([*path, target])

    for module in graph:
        walk([module])
    return found


def test_no_module_imports_one_that_imports_it() -> None:
    graph = imports()
    assert "main.js" in graph and "table/state.js" in graph, sorted(graph)
    assert not cycles(graph), cycles(graph)[:3]
    assert not [m for m, targets in graph.items() if "main.js" in targets]
    assert graph["table/state.js"] == set()  # pure: Node runs it as it is (test_table_reducer)
