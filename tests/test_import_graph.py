"""The import graph of `migrate/` has no cycle, function-local imports included.

A cycle held together by an import inside a function works until someone moves that
import to the top; it is a design knot either way. Importing `a.b.c` also runs `a.b`'s
`__init__`, so a package's `__init__` is an edge of every module importing below it.
"""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "migrate"


def modules() -> dict[str, tuple[Path, bool]]:
    """Dotted name -> (file, is a package) for every module of `migrate/`."""
    out = {}
    for path in PKG.rglob("*.py"):
        parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_pkg else parts)] = (path, is_pkg)
    return out


def imported(node: ast.AST, package: str, known) -> set[str]:
    """The `migrate` modules one import statement names (as a module or `from m import mod`)."""
    names: set[str] = set()
    if isinstance(node, ast.Import):
        names = {a.name for a in node.names}
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            parts = package.split(".")
            parts = parts[: len(parts) - (node.level - 1)]
            base = ".".join([*parts, node.module] if node.module else parts)
        names = {f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names}
    return {n for n in names if n in known}


def import_graph() -> dict[str, set[str]]:
    known = modules()
    graph: dict[str, set[str]] = {}
    for name, (path, is_pkg) in known.items():
        package = name if is_pkg else name.rpartition(".")[0]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            deps |= imported(node, package, known)
        for dep in list(deps):  # the __init__ of every package above the imported module
            parts = dep.split(".")
            for i in range(1, len(parts)):
                parent = ".".join(parts[:i])
                if parent in known and not (name == parent or name.startswith(parent + ".")):
                    deps.add(parent)
        deps.discard(name)
        graph[name] = deps
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module."""
    found, done, stack = [], set(), []
    on_stack: dict[str, int] = {}

    def visit(node: str) -> None:
        on_stack[node] = len(stack)
        stack.append(node)
        for dep in sorted(graph[node]):
            if dep in on_stack:
                found.append([*stack[on_stack[dep] :], dep])
            elif dep not in done:
                visit(dep)
        stack.pop()
        del on_stack[node]
        done.add(node)

    for node in sorted(graph):
        if node not in done:
            visit(node)
    return found


def test_cycles_finds_a_cycle_through_a_package_init():
    graph = {"p": {"p.a"}, "p.a": set(), "q": {"p.a"}}
    assert cycles(graph) == []
    graph["p.a"] = {"q"}
    assert cycles(graph) == [["p.a", "q", "p.a"]]


def test_the_graph_sees_function_local_and_relative_imports(tmp_path):
    graph = import_graph()
    assert "migrate.rules.registry" in graph["migrate.rules"]  # a package __init__ edge
    assert "migrate.rewrite.engine" in graph["migrate.rules.load"]  # function-local import
    assert "migrate.plan" in graph["migrate.relocate"]  # the __init__ above plan.model


def test_migrate_has_no_import_cycle():
    assert cycles(import_graph()) == []


def test_layout_is_a_leaf_and_rules_and_suggest_do_not_import_each_other():
    graph = import_graph()
    for name, deps in graph.items():
        if name.startswith("migrate.layout"):
            assert all(d.startswith("migrate.layout") for d in deps), (name, deps)
        if name.startswith("migrate.suggest"):
            assert not any(d.startswith("migrate.rules") for d in deps), (name, deps)
