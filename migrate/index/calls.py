"""What a call calls, by the last name of its callee: `f(...)` and `a.b.f(...)` both call
`f`. The one spelling of that test for the readers of calls (run-time imports, data
lookups, registry targets, entry-point groups), so they cannot disagree on it."""

from __future__ import annotations

import ast

# calls that import a module named at run time (`importlib.import_module(name)`,
# `__import__(name)`): their result is a module, their argument a dotted name
IMPORT_CALLS = frozenset(("import_module", "__import__"))


def callee_name(node: ast.AST) -> str | None:
    """The last name of what `node` (a call) calls; None for anything else (a call of a
    call's result or of a subscript, or no call)."""
    if not isinstance(node, ast.Call):
        return None
    f = node.func
    if isinstance(f, ast.Name):
        return f.id
    return f.attr if isinstance(f, ast.Attribute) else None
