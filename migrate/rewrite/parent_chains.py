"""Chains through a binding of a package one of whose submodules moves out of its place
(`from pkg import sub; sub.cond.X` when `pkg.sub.cond` becomes `pkg.sub.conditions`, or
loses `X`). They spell no old name, so neither the text scan nor the hot lines find them:
the package's bindings (an `ast` look) do. `attributes.py` respells their tail."""

from __future__ import annotations

import ast

from migrate.index.forward_refs import forward_references
from migrate.index.imports import bound_modules
from migrate.relocate import Relocation
from migrate.rewrite.context import Context, FileJob

_CACHE: dict[int, tuple[Relocation, dict[str, frozenset[str]]]] = {}


def moved_children(relocation: Relocation) -> dict[str, frozenset[str]]:
    """Package -> leaves of its submodules that a chain through a binding of the package
    must respell: a module that loses a symbol, or one that does not move with its
    package (`pkg.sub.cond` -> `pkg.sub.conditions`, or out of `pkg.sub`)."""
    hit = _CACHE.get(id(relocation))
    if hit is not None and hit[0] is relocation:
        return hit[1]
    out: dict[str, set[str]] = {}
    sources = {mod for mod, _ in relocation.symbols}
    for old in set(relocation.moved_modules) | sources:
        parent, _, leaf = old.rpartition(".")
        if not parent:
            continue
        new_parent = relocation.dotted(parent) or parent
        if old in sources or relocation.dotted(old) != f"{new_parent}.{leaf}":
            out.setdefault(parent, set()).add(leaf)
    children = {p: frozenset(leaves) for p, leaves in out.items()}
    _CACHE[id(relocation)] = (relocation, children)
    return children


def reads_moved_child(job: FileJob, ctx: Context) -> bool:
    """Whether the file reads such a submodule through a binding of its package
    (`from pkg import sub`, `from . import sub as s`, `import pkg.sub as s`)."""
    children = moved_children(ctx.relocation)
    if not children or job.ast is None or "import" not in job.text:
        return False
    if not any(f".{leaf}" in job.text for leaves in children.values() for leaf in leaves):
        return False
    # local name -> the package it binds (a plain `import pkg.sub` spells its chains)
    bound = bound_modules(job.ast, job.old_module, job.is_init, children, plain=False)
    if not bound:
        return False

    def reads(node: ast.AST) -> bool:
        return (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in bound
            and node.attr in children[bound[node.value.id]]
        )

    if any(reads(node) for node in ast.walk(job.ast)):
        return True
    refs = forward_references(job.ast, job.text)
    return any(reads(node) for _, expr in refs for node in ast.walk(expr))
