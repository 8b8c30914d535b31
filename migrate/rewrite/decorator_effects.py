"""Which moved definitions do something when their module is imported.

A decorator runs when the module defining the function runs: `@register("relu")` puts
`relu` in a registry then, and only then. When the definition moves to a module nothing
imports, the registration stops, silently (trial23 T29). A decorator of the project's own
code (imported from a module of the repository, or defined in the module itself) may do
that; one of the standard library, a builtin or a third-party package is read as not
registering (it cannot be known from here; their usual decorators, `functools`,
`dataclasses`, `triton.jit`, do not).
"""

from __future__ import annotations

import ast

from migrate.index.bindings import Binding


def _head(expr: ast.expr) -> str | None:
    """The name a decorator expression starts from: `register` in `@register("x")`,
    `REG` in `@REG.add`."""
    expr = expr.func if isinstance(expr, ast.Call) else expr
    while isinstance(expr, (ast.Attribute, ast.Call, ast.Subscript)):
        expr = expr.func if isinstance(expr, ast.Call) else expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _own(dotted: str, modules) -> bool:
    parts = dotted.split(".")
    return any(".".join(parts[:i]) in modules for i in range(len(parts), 0, -1))


def import_time_decorators(node: ast.stmt, binds: dict[str, Binding], modules) -> list[str]:
    """The decorators of `node` (a top-level def or class) that run the project's own code
    at import, as written (`register("relu")`): `binds` are the module's top-level
    bindings (`bindings.module_bindings`), `modules` the repository's module names."""
    out = []
    for dec in getattr(node, "decorator_list", ()):
        name = _head(dec)
        bound = binds.get(name) if name is not None else None
        if name is None:
            own = True  # `@(lambda f: f)` and such: the module's own code
        elif bound is None:
            own = False  # a builtin (`staticmethod`) or a star-imported name
        elif bound.kind in ("import", "from"):
            own = _own(bound.target or "", modules)
        else:
            own = True  # defined in the module itself
        if own:
            out.append(ast.unparse(dec))
    return out
