"""Where a patch of a moved symbol goes, by binding.

A patch (`monkeypatch.setattr(mod, "sym", v)`, `patch.object(mod, "sym")`,
`mock.patch("pkg.mod.sym")`, `mod.sym = v`) replaces a name in ONE namespace, and code
reading the name from that namespace sees it. When a symbol moves but code left in its
old module still calls it, the old module imports it back and binds it: a patch of the
old module keeps patching the old module (its callers read it there), and a warning names
what reads the symbol from the new module and will not see the patch. When the old
module no longer binds the name, the patch follows the symbol to its new module.
"""

from __future__ import annotations

import ast

from migrate.index.repo import RepoIndex
from migrate.relocate import Relocation
from migrate.rewrite.context import Context


def patch_note(mod: str, sym: str, dst: str, callers: tuple[str, ...], ctx: Context) -> str:
    """What a kept patch of `mod.sym` (see `_Speller._kept_patch`) reaches and misses."""
    misses = ctx.patch_misses.get((mod, sym), ())
    shown = ", ".join(misses[:6]) + (f" and {len(misses) - 6} more" if len(misses) > 6 else "")
    return (
        f"patch of {mod}.{sym} kept on {mod}: {sym} moves to {dst}, but {mod} still binds "
        f"it (imported back) and calls it through its own globals in {', '.join(callers)}; "
        + (
            f"code reading it from {dst} does not see this patch: {shown}"
            if misses
            else f"code reading it from {dst} would not see this patch"
        )
    )


def patch_misses(index: RepoIndex, rel: Relocation, moving: dict, callers: dict) -> dict:
    """(module, symbol) -> where code reads `symbol` from its NEW module after the plan,
    for the symbols their old module still binds (it imports them back for `callers`):
    a patch of the old module, which stays there, does not reach these reads.

    They are the moved definitions that read the symbol through the new module's globals
    (`new.module: name`) and the attribute reads `old.symbol` in other files, which the
    plan respells to the new module (`path:line`, the file's new path)."""
    from migrate.rewrite.scan import binding_candidates

    wanted = [key for key in sorted(callers) if key in rel.symbols]
    if not wanted:
        return {}
    out: dict[tuple[str, str], list[str]] = {key: [] for key in wanted}
    for mod, sym in wanted:
        path = index.modules.get(mod)
        try:
            tree = ast.parse(index.text(path) or "") if path else None
        except SyntaxError:
            continue
        leaving = set(moving.get((mod, sym), ())) | {sym}
        for node in tree.body if tree is not None else ():
            name = getattr(node, "name", None)
            if name in leaving and any(
                isinstance(n, ast.Name) and n.id == sym for n in ast.walk(node)
            ):
                out[(mod, sym)].append(f"{rel.symbols[(mod, sym)]}: {name}")
    olds = {mod for mod, _ in wanted}
    for path in sorted(binding_candidates(index, rel)):
        facts = index.facts(path)
        if facts is None or facts.attrs is None or index.module_of(path) in olds:
            continue
        for ref in facts.attrs.refs:
            if ref.string or ref.text.endswith('"'):
                continue  # a patch string; `getattr`/`patch.object(m, "x")`: not a chain
            dotted = ".".join((ref.target, *ref.attrs))
            for mod, sym in wanted:
                if f"{dotted}.".startswith(f"{mod}.{sym}."):
                    where = f"{rel.files.get(path, path)}:{ref.line}"
                    if where not in out[(mod, sym)]:
                        out[(mod, sym)].append(where)
    return {k: tuple(v) for k, v in out.items() if v}
