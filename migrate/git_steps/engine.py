"""The one place that turns a prepared plan into a ChangeSet, for both apply and verify.

Uses the rewriter's `plan_changes` when it is installed; until then only the file moves.
Apply and verify call this same function, so a reproduction uses the same engine.
"""

from __future__ import annotations

from migrate.changes import ChangeSet, FileMove
from migrate.pipeline import Prepared


def plan_changeset(prep: Prepared) -> ChangeSet:
    try:
        from migrate.rewrite.engine import plan_changes
    except ImportError:
        return ChangeSet(moves=[FileMove(o, n) for o, n in sorted(prep.relocation.files.items())])
    return plan_changes(prep)
