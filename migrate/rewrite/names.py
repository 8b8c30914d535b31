"""Relocate one old dotted name or `module:attr` target, through re-exports if needed.

`Relocation` answers for moved modules and symbols. A name reached through a deleted
package's `__init__` re-export (`from sglang.jit_kernel import rmsnorm`, where the
package did `from .norm import rmsnorm`) is followed to its origin first.
"""

from __future__ import annotations

from migrate.rewrite.context import Context


def common_prefix(names: list[str]) -> str:
    """The longest dotted prefix, whole parts only, that all `names` share ("" if none)."""
    split = [n.split(".") for n in names]
    out = []
    for parts in zip(*split, strict=False):
        if len(set(parts)) != 1:
            break
        out.append(parts[0])
    return ".".join(out)


def relocate(name: str, ctx: Context) -> str | None:
    """New dotted name for `name` (module, package, symbol, attribute path), else None.

    A gone package's re-export wins over a submodule of the same name: once the
    package's `__init__` ran, `pkg.name` is what it bound (`from .name import name`)."""
    if ctx.reexports:
        parts = name.split(".")
        for i in range(len(parts), 1, -1):
            origin = ctx.reexports.get(".".join(parts[:i]))
            if origin is not None:
                full = ".".join([origin, *parts[i:]])
                return ctx.relocation.dotted(full) or full
    return ctx.relocation.dotted(name)


def relocate_target(target: str, ctx: Context) -> str | None:
    """New `module:attr` for a registry/entry-point target, else None."""
    if ":" not in target:
        return relocate(target, ctx)
    new = ctx.relocation.target(target)
    if new is not None:
        return new
    mod, attr = target.split(":", 1)
    head = attr.split(".", 1)[0]
    origin = ctx.reexports.get(f"{mod}.{head}")
    if origin is not None:
        new_origin = ctx.relocation.dotted(origin) or origin
        new_mod, _, new_head = new_origin.rpartition(".")
        return f"{new_mod}:{new_head}{attr[len(head) :]}"
    return None


def shadowed(name: str, ctx: Context, start: int = 1) -> bool:
    """True when `name`, read attribute by attribute past its first `start` parts, reaches
    a moved submodule that its package rebinds over (`Context.shadowed`): the name is
    that binding, which does not move."""
    parts = name.split(".")
    return any(".".join(parts[:i]) in ctx.shadowed for i in range(start + 1, len(parts) + 1))


def is_gone(name: str, ctx: Context) -> bool:
    """True when `name` or a package prefix of it no longer exists after the plan."""
    parts = name.split(".")
    return any(".".join(parts[:i]) in ctx.gone for i in range(len(parts), 0, -1))


def module_part(name: str, modules: frozenset[str]) -> str | None:
    """Longest prefix of `name` that is a module in `modules`."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        cand = ".".join(parts[:i])
        if cand in modules:
            return cand
    return None
