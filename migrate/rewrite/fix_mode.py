"""`migrate fix`: the same reference rewriter, for a tree already in the new layout.

A branch written against the old layout, rebased after the migration, still names old
modules. The plan's old names no longer exist there, so the relocation is built from
the plan alone (module prefixes, symbols, path prefixes under each root); no file moves.
"""

from __future__ import annotations

from migrate.changes import ChangeSet
from migrate.index.repo import RepoIndex
from migrate.plan.model import Plan
from migrate.relocate import plan_relocation
from migrate.rewrite import scan
from migrate.rewrite.run_context import build_context


def fix_changes(plan: Plan, index: RepoIndex, skip_unparsable: bool = False) -> ChangeSet:
    """Reference edits only (code, string, prose) for a tree in the new layout."""
    from migrate.rewrite.engine import _text_file_changes, python_changes

    rel = plan_relocation(plan, index)
    ctx = build_context(index, rel, plan)
    paths = scan.candidates(index, rel, plan)
    edits, notes, _ = python_changes(index, rel, plan, ctx, paths, skip_unparsable)
    text_edits, text_notes = _text_file_changes(index, rel, plan, paths)
    return ChangeSet(edits=edits + text_edits, notes=notes + text_notes)
