"""PEP 562 lazy exports, read statically: the one reading that the rewriter
(rewrite/exports_follow.py), the target resolver (KO204, verify's registry-targets) and
verify's import and attribute checks share.

A module exports lazily when it defines a module-level `__getattr__` that reads a literal
`_EXPORTS = {"name": "owner"}` table. An owner is spelled relative with leading dots,
absolute when its first component is a top-level package of the tree, else relative to
the module's package: the `f"{__name__}.{owner}"` convention SGLang's groups follow. A
hook that raises AttributeError and reads nothing but the table serves no other name
(`closed`, unless `globals()` or `sys.modules` is used elsewhere in the module): a name missing from
it is missing from the module.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from migrate.index.imports import absolute

TABLE = "_EXPORTS"


@dataclass(frozen=True)
class LazyTable:
    node: ast.Dict  # the literal table (for spans)
    entries: dict[str, str]  # name -> owner as spelled
    closed: bool  # the hook serves only the table's names


def _assigned(stmt: ast.stmt) -> ast.AST | None:
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and any(
        isinstance(t, ast.Name) and t.id == TABLE for t in targets
    ):
        return stmt.value
    return None


def _closed(hook: ast.FunctionDef) -> bool:
    """The hook raises AttributeError and reads no module-level name but the table (so
    what it serves is the table's names)."""
    raises = any(
        isinstance(n, ast.Raise)
        and n.exc is not None
        and getattr(getattr(n.exc, "func", n.exc), "id", "") == "AttributeError"
        for n in ast.walk(hook)
    )
    body = [n for stmt in hook.body for n in ast.walk(stmt)]  # annotations aside
    local = {a.arg for a in hook.args.args}
    local |= {n.id for n in body if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    local |= {
        (a.asname or a.name).split(".")[0]
        for n in body
        if isinstance(n, (ast.Import, ast.ImportFrom))
        for a in n.names
    }
    read = {n.id for n in body if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    import builtins

    known = {TABLE, "__name__"}
    return raises and TABLE in read and not (read - local - known - set(dir(builtins)))


def lazy_table(tree: ast.Module) -> LazyTable | None:
    """The module's lazy-export table, when a module-level `__getattr__` reads a literal
    `_EXPORTS` dict of string values; else None."""
    hook = next(
        (s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == "__getattr__"),
        None,
    )
    if hook is None:
        return None
    table = next((v for s in tree.body if (v := _assigned(s)) is not None), None)
    if not isinstance(table, ast.Dict):
        return None
    entries = {}
    for k, v in zip(table.keys, table.values, strict=True):
        if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
            return None
        if isinstance(v, ast.Constant) and isinstance(v.value, str):
            entries[k.value] = v.value
        else:
            return None
    elsewhere = any(  # `globals()`/`sys.modules` outside the hook may bind any other name
        (isinstance(n, ast.Call) and getattr(n.func, "id", "") == "globals")
        or (isinstance(n, ast.Attribute) and n.attr == "modules")
        for stmt in tree.body
        if stmt is not hook
        for n in ast.walk(stmt)
    )
    return LazyTable(table, entries, _closed(hook) and not elsewhere)


def owner_module(spelled: str, package: str, is_top: Callable[[str], bool]) -> str:
    """The module an `_EXPORTS` value names, by the convention above (`package` is the
    exporting module's own name: it is a package `__init__`)."""
    if spelled.startswith("."):
        dots = len(spelled) - len(spelled.lstrip("."))
        return absolute(spelled.lstrip("."), dots, package, True)
    if is_top(spelled.split(".")[0]):
        return spelled
    return f"{package}.{spelled}"
