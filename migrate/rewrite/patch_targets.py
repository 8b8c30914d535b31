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
import re

from migrate.index.bindings import ModuleUse, find_uses
from migrate.index.repo import RepoIndex
from migrate.relocate import Relocation
from migrate.rewrite.context import Context
from migrate.rewrite.spans import line_col
from migrate.rewrite.symbols import node_names

PATCHERS = {"patch", "setattr", "delattr"}  # the callees of a patch by string target


def patch_note(mod: str, sym: str, dst: str, callers: tuple[str, ...], ctx: Context) -> str:
    """What a kept patch of `mod.sym` (see `_Speller._kept_patch`) reaches and misses."""
    misses = ctx.patch_misses.get((mod, sym), ())
    shown = ", ".join(misses[:6]) + (f" and {len(misses) - 6} more" if len(misses) > 6 else "")
    return (
        f"patch of {mod}.{sym} kept on {mod}: {sym} moves to {dst}, but {mod} still binds "
        f"it (imported back) and reads it through its own globals in {', '.join(callers)}; "
        + (
            f"code reading it from {dst} does not see this patch: {shown}"
            if misses
            else f"code reading it from {dst} would not see this patch"
        )
    )


def kept_patches(tree: ast.Module, uses: list[ModuleUse], callers: dict) -> set[tuple[str, str]]:
    """(module, symbol) that this file patches on an old module still binding the symbol
    (`callers` has it): by binding (`ModuleUse.patch`) or by a patch string
    (`mock.patch("pkg.mod.sym")`, `monkeypatch.setattr("pkg.mod.sym", v)`). The file's
    patches and its reads of the symbol through the old module stay in that namespace."""
    out = {(u.module, u.attr) for u in uses if u.patch and (u.module, u.attr) in callers}
    spelled = {f"{mod}.{sym}": (mod, sym) for mod, sym in callers}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        first = node.args[0]
        if name in PATCHERS and isinstance(first, ast.Constant) and first.value in spelled:
            out.add(spelled[first.value])
    return out


def patch_misses(index: RepoIndex, rel: Relocation, moving: dict, callers: dict) -> dict:
    """(module, symbol) -> where code reads `symbol` from its NEW module after the plan,
    for the symbols their old module still binds (it imports them back for `callers`):
    a patch of the old module, which stays there, does not reach these reads.

    They are the moved definitions that read the symbol through the new module's globals
    (`new.module: name`) and, in the files that do not patch it themselves, the reads
    `old.symbol` through a binding of the old module, which the plan respells to the new
    module (`path:line`, the file's new path; the same uses `module_uses` respells)."""
    from migrate.rewrite.scan import binding_candidates

    wanted = {key: rel.symbols[key] for key in sorted(callers) if key in rel.symbols}
    if not wanted:
        return {}
    out: dict[tuple[str, str], list[str]] = {key: [] for key in wanted}
    for (mod, sym), dst in wanted.items():
        path = index.modules.get(mod)
        try:
            tree = ast.parse(index.text(path) or "") if path else None
        except SyntaxError:
            continue
        leaving = set(moving.get((mod, sym), ())) | {sym}
        for node in tree.body if tree is not None else ():
            names = node_names(node) & leaving
            if names and any(
                isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id == sym
                for n in ast.walk(node)
            ):
                out[(mod, sym)].append(f"{dst}: {', '.join(sorted(names))}")
    mods = frozenset(mod for mod, _ in rel.symbols)
    stars: dict[str, set[str]] = {}
    for mod, sym in rel.symbols:
        stars.setdefault(mod, set()).add(sym)
    syms = {sym for _, sym in wanted}
    for path in sorted(binding_candidates(index, rel)):
        text = index.text(path) or ""
        facts = index.facts(path)
        if facts is None or index.module_of(path) in mods or not any(s in text for s in syms):
            continue
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        model = facts.scope_model_from(tree)
        uses = find_uses(model, tree, text, mods, stars) if model is not None else []
        kept = kept_patches(tree, uses, callers)
        for use in uses:
            key = (use.module, use.attr)
            if key in wanted and key not in kept and not use.patch and use.kind != "star":
                where = f"{rel.files.get(path, path)}:{line_col(text, use.span[0])[0]}"
                if where not in out[key]:
                    out[key].append(where)
    return {k: tuple(v) for k, v in out.items() if v}


_BINDING_PATCH = re.compile(
    r"\b(?:patch|setattr)\(\s*(?:target\s*=\s*)?([\"'])([A-Za-z_][\w.]*)\.([A-Za-z_]\w*)\1"
)


def patched_bindings(index: RepoIndex, rel: Relocation) -> dict[tuple[str, str], tuple[str, ...]]:
    """(module, name) -> where a patch string replaces that name of that module whole
    (`mock.patch("pkg.term.win32")`, `monkeypatch.setattr("pkg.term.win32", m)`), for
    a plan with symbol moves. When `name` is the module's binding of a module losing a
    symbol, its reads `win32.STDOUT` go through the patch (colorama's
    `@patch('colorama.winterm.win32')`, t12 T57)."""
    if not rel.symbols:
        return {}
    out: dict[tuple[str, str], list[str]] = {}
    for path, info in sorted(index.files.items()):
        if not info.is_python or info.is_symlink:
            continue
        text = index.text(path) or ""
        if "patch" not in text and "setattr" not in text:
            continue
        for m in _BINDING_PATCH.finditer(text):
            if m[2] in index.modules:
                where = f"{path}:{line_col(text, m.start(2))[0]}"
                out.setdefault((m[2], m[3]), []).append(where)
    return {k: tuple(v) for k, v in out.items()}
