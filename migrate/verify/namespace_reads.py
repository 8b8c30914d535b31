"""Reads of a module's names through `globals()` in code that runs later: the names a
function finds that way are its module's, so moving the function to another module (or
moving the names out from under it) changes what it finds without any spelling to
rewrite (arrow's `get_locale_by_class_name`, `globals().get(name)` over the locale
classes: moved, it raised for every locale and verify said PASS; trial25 T51).

An oracle on the two trees, not on the plan's reasoning: for each top-level definition
of a written or edited HEAD file whose body reads `globals()`, the BASE definition of
the same name (in the file's BASE counterpart or a module whose symbols the plan moved
into it) had a namespace; every name of it that the definition could read there (the
literal key, or any name for a computed one) and the HEAD module does not bind is lost.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from migrate.index.facts import is_globals_call
from migrate.verify.context import VerifyContext
from migrate.verify.result import Finding

ANY = None  # a read whose key is computed: it may be any name of the namespace
SHOWN = 5  # names a finding lists


def _literal(node: ast.AST | None) -> str | None:
    ok = isinstance(node, ast.Constant) and isinstance(node.value, str)
    return node.value if ok else ANY


def _key(call: ast.Call, parent: ast.AST | None, outer: ast.AST | None) -> str | None:
    """The literal name a `globals()` read looks up (`globals()["x"]`, `.get("x")`,
    `"x" in globals()`), or ANY."""
    if isinstance(parent, ast.Subscript) and parent.value is call:
        return _literal(parent.slice)
    if isinstance(parent, ast.Attribute) and parent.attr == "get":
        called = isinstance(outer, ast.Call) and outer.func is parent and outer.args
        return _literal(outer.args[0]) if called else ANY
    if isinstance(parent, ast.Compare) and call in parent.comparators:
        return _literal(parent.left)
    return ANY


def _reads(definition: ast.AST) -> Iterator[tuple[int, str | None]]:
    """(line, key) of each `globals()` read inside one top-level definition (a
    `globals()[k] = v` write is not one)."""
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(definition):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    for node in ast.walk(definition):
        parent = parents.get(node)
        if not is_globals_call(node) or (
            isinstance(parent, ast.Subscript) and not isinstance(parent.ctx, ast.Load)
        ):
            continue
        yield node.lineno, _key(node, parent, parents.get(parent))


def _definitions(tree: ast.Module) -> Iterator[tuple[str, list[tuple[int, str | None]]]]:
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            reads = sorted(_reads(stmt), key=lambda r: r[0])
            if reads:
                yield stmt.name, reads


def namespace_findings(ctx: VerifyContext, paths: Iterable[str], check: str) -> list[Finding]:
    """One error per top-level definition whose `globals()` reads lost names."""
    if ctx.base is None:
        return []
    sources = ctx.symbol_sources()
    findings = []
    for path in paths:
        text = ctx.head.text(path) or ""
        facts = ctx.head.facts(path) if "globals()" in text else None
        tree = ctx.head.ast(path) if facts is not None and "globals" not in facts.names else None
        if tree is None:
            continue
        module = ctx.head.module_of(path) or ""
        for name, reads in _definitions(tree):
            lost = _lost(ctx, path, module, facts.names, name, reads, sources)
            if lost:
                base_module, names = lost
                shown = ", ".join(names[:SHOWN]) + (", ..." if len(names) > SHOWN else "")
                findings.append(
                    Finding(
                        path,
                        reads[0][0],
                        check,
                        f"{name} reads names through globals(): {shown} ({base_module}'s at "
                        f"BASE) are not bound in {module or path}",
                        "it looks them up in another namespace now, KeyError or None when it "
                        "runs; keep it in one module with the names it reads",
                    )
                )
    return findings


def _lost(ctx, path, module, head_names, name, reads, sources):
    """(BASE module, sorted lost names) of the definition `name`, or None."""
    keys = {k for _, k in reads}
    for base_path in sorted(ctx.base_paths([path]) | sources.get(path, set())):
        base_facts = ctx.base.facts(base_path)
        if base_facts is None or name not in base_facts.definitions:
            continue
        wanted = base_facts.names if ANY in keys else base_facts.names & keys
        lost = sorted(
            n
            for n in wanted
            if not n.startswith("__") and n not in head_names and not _has(ctx, module, n)
        )
        if lost:
            return base_facts.module or base_path, lost
    return None


def _has(ctx: VerifyContext, module: str, name: str) -> bool:
    """HEAD's module binds `name` some other way (a star import, a submodule), or may."""
    return bool(module) and ctx.head.has_attr(module, name) is not False
