"""Moved submodules that their package rebinds over: once `pkg/__init__.py` ran
`from .sub import thing as sub`, `pkg.sub` is `thing`, not the module (trial24 T45).
The rewriter's from-imports, attribute chains, strings and text files read this one rule.
"""

from __future__ import annotations

from migrate.index.repo import RepoIndex
from migrate.relocate import Relocation


def shadowed_submodules(index: RepoIndex, rel: Relocation, deleted=()) -> set[str]:
    """`pkg.sub` for each moved submodule `sub` whose package's `__init__` loads it and then
    binds `sub` to something else (`from .sub import thing as sub`, `sub = ...`): importing
    the submodule set the attribute and the rebinding replaced it, so `pkg.sub` and
    `from pkg import sub` read that binding, not the module (trial24 T45). Where the
    package does not load it, a later import of the submodule would reset the attribute,
    unless the submodule is gone already (a second run). A package the plan deletes
    (`deleted`, or retired inside a moved package) binds nothing afterwards: its names
    follow where they went (a bundle `__init__` re-exporting `swiglu` from `.swiglu`)."""
    gone = set(deleted) | rel.retired
    out = set()
    for mod in rel.modules:
        pkg, _, leaf = mod.rpartition(".")
        path = index.modules.get(pkg)
        if not pkg or path is None or not path.endswith("__init__.py"):
            continue
        if any(pkg == g or pkg.startswith(g + ".") for g in gone):
            continue
        facts = index.facts(path)
        bound = facts.bindings.get(leaf) if facts is not None else None
        if bound is None or bound.target == mod:
            continue
        if bound.kind in ("import", "from") and bound.target is None:
            continue
        loads = any(
            ref.at_import_time and (ref.module == mod or ref.module.startswith(mod + "."))
            for ref in facts.imports
        )
        if loads or mod not in index.modules:  # (gone already: a second run, `fix`)
            out.add(mod)
    return out


def through_shadow(name: str, shadowed: frozenset[str], start: int = 1) -> bool:
    """True when `name`, read attribute by attribute past its first `start` parts, reaches
    one of the `shadowed` submodules: the name is the package's binding, which does not
    move."""
    parts = name.split(".")
    return any(".".join(parts[:i]) in shadowed for i in range(start + 1, len(parts) + 1))
