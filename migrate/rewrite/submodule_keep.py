"""An import whose every name moved out of a module keeps importing that module where
its import did more than bind the names.

`from .mod import func` in `pkg/__init__.py` also runs pkg.mod when pkg is imported and
binds `mod` in pkg (the import system sets a submodule as an attribute of its package),
so `import pkg` then `pkg.mod.other()` works. When every name of the statement moves out
of pkg.mod, which stays, the rewritten statement does neither: `pkg.mod.other()` raises
AttributeError and what pkg.mod's import did is lost, with apply exit 0 (f12 F3). The
`__init__` gets `from . import mod as mod` (the explicit re-export ruff's F401 accepts).

In any other module the binding of `mod` is no one's attribute to read, but the run is:
when pkg.mod's import does more than define names (the code fact `import_effect`, as
`effect_imports.py` judges a dropped module binding) and nothing else the file imports
runs it, the file gets `import pkg.mod  # noqa: F401` (or `from . import mod` for a
relative statement), with a warning saying why; where that would bind a name the file
binds otherwise, an error: import it by hand.

Either way an import of it the file makes at import time still, counts (none is added).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from migrate.errors import Diagnostic
from migrate.index.repo import RepoIndex
from migrate.relocate import Relocation
from migrate.rewrite import effect_imports, relative
from migrate.rewrite.context import Context, FileJob
from migrate.rewrite.names import is_gone
from migrate.rewrite.spans import note_at


@dataclass(frozen=True)
class Keep:
    stmt: str | None  # the import statement added beside the rewritten one; None: refused
    note: Diagnostic | None  # what the dry run says (a warning, or the refusal's error)
    why: str  # the edit's reason


def kept_module(
    job: FileJob, ctx: Context, start: int, base: str, moved: list[bool]
) -> Keep | None:
    """What keeps `base` imported where the file's `from base import ...` starting at
    offset `start` has every name moving out of `base` (`moved`: one flag per name)."""
    rel = ctx.relocation
    if not moved or not all(moved) or job.ast is None:
        return None
    if rel.module(base) is not None or is_gone(base, ctx):
        return None
    if not any(m == base for m, _ in rel.symbols):
        return None  # a module move: the module went with its names
    imports = effect_imports.scoped_imports(job.ast)
    line = job.text.count("\n", 0, start) + 1
    here = [(n, c) for n, c in imports if n.lineno == line and isinstance(n, ast.ImportFrom)]
    if not here:
        return None  # under TYPE_CHECKING: it never ran
    node, chain = here[0]
    parent, _, leaf = base.rpartition(".")
    if job.is_init and parent and job.old_module == parent and not chain:
        if base not in ctx.still_defining and base not in ctx.import_effects:
            return None  # emptied: nothing to read through `pkg.mod`, nothing that runs
        if any(_imports(job, n, base, rel) for n, c in imports if n is not node and not c):
            return None
        spelled = relative.spell(parent, job.new_package, node.level)
        stmt = f"from {spelled} import {leaf} as {leaf}"
        why = (
            f"`{stmt}` keeps the submodule imported: the rewritten import also ran it when "
            "the package is imported and bound it as the package's attribute"
        )
        return Keep(stmt, None, why)
    effect = ctx.import_effects.get(base)
    if effect is None or _runs_otherwise(job, ctx, base, chain, imports, node):
        return None
    return _effect_keep(job, base, node, effect, start)


def still_defining(index: RepoIndex, rel: Relocation) -> frozenset[str]:
    """The modules losing a symbol that bind a name of their own (def, class, assignment)
    the plan does not move out."""
    out = set()
    for mod in {m for m, _ in rel.symbols}:
        path = index.modules.get(mod)
        facts = index.facts(path) if path else None
        if facts is None or any(
            b.kind in ("def", "class", "assign") and (mod, name) not in rel.symbols
            for name, b in facts.bindings.items()
        ):
            out.add(mod)  # unparsable: kept (erring towards the import)
    return frozenset(out)


def _runs_otherwise(job, ctx, base, chain, imports, node) -> bool:
    others = [(n, c) for n, c in imports if n is not node]
    return effect_imports.runs_otherwise(
        base,
        chain,
        others,
        set(),
        text=job.text,
        package=job.old_package,
        own=job.old_module,
        reach=ctx.effect_reach.get(base, frozenset()),
        rel=ctx.relocation,
    )


def _effect_keep(job: FileJob, base: str, node: ast.ImportFrom, effect: str, start: int) -> Keep:
    parent, _, leaf = base.rpartition(".")
    bound = _bound_otherwise(job)
    if node.level and parent and leaf not in bound:
        stmt = f"from {relative.spell(parent, job.new_package, node.level)} import {leaf}"
    elif base.split(".")[0] not in bound:
        stmt = f"import {base}"
    else:
        why = (
            f"cannot keep {base} imported: its names moved, but importing it runs "
            f"`{effect}`, and both `{leaf}` and `{base.split('.')[0]}` are bound here "
            f"otherwise; import {base} by hand"
        )
        return Keep(None, note_at(job.new_path, job.text, start, why), why)
    why = (
        f"keeps {base} imported (`{stmt}`): the names moved, but importing it runs "
        f"`{effect}`, and nothing else this file imports runs it"
    )
    return Keep(
        stmt + "  # noqa: F401", note_at(job.new_path, job.text, start, why, "warning"), why
    )


def _bound_otherwise(job: FileJob) -> set[str]:
    """Names the file binds by anything but `import root...` (whose root it may share)."""
    model = job.scopes
    if model is None:
        return set()
    out = set()
    for scope in model.scopes:
        for name, events in scope.events.items():
            if any(e.binding is None or e.binding.form != "import_root" for e in events):
                out.add(name)
    return out


def _imports(job: FileJob, node: ast.stmt, base: str, rel) -> bool:
    """Whether import statement `node` still imports `base` after the plan."""
    if isinstance(node, ast.Import):
        return any(a.name == base or a.name.startswith(base + ".") for a in node.names)
    if not isinstance(node, ast.ImportFrom):
        return False
    mod = node.module
    found = relative.resolve(job.old_package, node.level, mod) if node.level else mod
    if found == base:
        return any(a.name == "*" or (base, a.name) not in rel.symbols for a in node.names)
    parent, _, leaf = base.rpartition(".")
    if found is None:
        return False
    return found.startswith(base + ".") or (
        found == parent and any(a.name == leaf for a in node.names)
    )
