"""`migrate fix`: the same reference rewriter, for a tree already in the new layout.

A branch written against the old layout, rebased after the migration, still names old
modules. The plan's old names no longer exist there, so the relocation is built from
the plan alone (module prefixes, symbols, path prefixes under each root); no file moves.
"""

from __future__ import annotations

from migrate.changes import ChangeSet
from migrate.index.repo import RepoIndex
from migrate.plan.model import Plan
from migrate.relocate import Relocation
from migrate.rewrite import scan
from migrate.rewrite.run_context import build_context


def _dir(root: str, dotted: str) -> str:
    rel = dotted.replace(".", "/")
    return rel if root in (".", "") else f"{root}/{rel}"


def reference_relocation(plan: Plan, index: RepoIndex) -> Relocation:
    rel = Relocation()
    for mv in plan.moves:
        if mv.is_path:
            rel.path_prefixes[mv.src.rstrip("/")] = mv.dst.rstrip("/")
        elif mv.is_symbol:
            mod, sym = mv.src.split(":")
            rel.symbols[(mod, sym)] = mv.dst
        else:
            rel.modules[mv.src] = mv.dst
            rel.moved_modules[mv.src] = mv.dst
            for root in plan.roots:
                rel.path_prefixes[_dir(root, mv.src)] = _dir(root, mv.dst)
                rel.path_prefixes[_dir(root, mv.src) + ".py"] = _dir(root, mv.dst) + ".py"
            # Submodules that exist now under the new name had an old name too.
            for mod in index.modules:
                if mod.startswith(mv.dst + "."):
                    rel.moved_modules[mv.src + mod[len(mv.dst) :]] = mod
    return rel


def fix_changes(plan: Plan, index: RepoIndex, skip_unparsable: bool = False) -> ChangeSet:
    """Reference edits only (code, string, prose) for a tree in the new layout."""
    from migrate.rewrite.engine import _text_file_changes, python_changes

    rel = reference_relocation(plan, index)
    ctx = build_context(index, rel, plan)
    paths = scan.candidates(index, rel, plan)
    edits, notes, _ = python_changes(index, rel, plan, ctx, paths, skip_unparsable)
    text_edits, text_notes = _text_file_changes(index, rel, plan, paths)
    return ChangeSet(edits=edits + text_edits, notes=notes + text_notes)
