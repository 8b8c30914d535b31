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
from collections.abc import Callable

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


# A class's definition runs what its bases and metaclass do when a class is created: an
# own base's (or a base of it) `__init_subclass__`, an own metaclass (given, or a base's)
# (trial24 V1: `class Relu(Op)` registered by `Op.__init_subclass__`). The standard
# library's (`enum.Enum`, `abc.ABCMeta`) are read as not registering, like its decorators.
ClassAt = Callable[[str], "tuple[ast.ClassDef, dict[str, Binding], str] | None"]


def _dotted(expr: ast.expr, binds: dict[str, Binding], module: str) -> str | None:
    """The dotted name a base or metaclass expression (`Op`, `base.Op`) refers to."""
    parts = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name) or expr.id not in binds:
        return None
    bound = binds[expr.id]
    head = bound.target if bound.kind in ("import", "from") else f"{module}.{expr.id}"
    return ".".join([head, *reversed(parts)]) if head else None


def class_effects(
    node: ast.ClassDef, binds: dict[str, Binding], module: str, class_at: ClassAt, modules
) -> list[str]:
    """What defining `node` (a top-level class of `module`, its top-level bindings
    `binds`) runs of the project's own code: `Base.__init_subclass__` of an own base or
    a base of it, `metaclass=Meta` of an own metaclass (its own or a base's).
    `class_at(dotted)`: the own class named `dotted` as (node, its module's bindings,
    its module), or None."""
    out: list[str] = []
    seen: set[str] = set()

    def walk(cls: ast.ClassDef, cbinds: dict[str, Binding], cmod: str, outer: bool) -> None:
        for kw in cls.keywords:
            meta = _dotted(kw.value, cbinds, cmod) if kw.arg == "metaclass" else None
            if meta is not None and _own(meta, modules):
                out.append(f"metaclass {meta}")
        if not outer and any(
            isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__init_subclass__"
            for s in cls.body
        ):
            out.append(f"{cmod}.{cls.name}.__init_subclass__")
        for base in cls.bases:
            dotted = _dotted(base, cbinds, cmod)
            if dotted is None or dotted in seen or not _own(dotted, modules):
                continue
            seen.add(dotted)
            found = class_at(dotted)
            if found is not None:
                walk(*found, False)

    walk(node, binds, module, True)
    return list(dict.fromkeys(out))
