"""The one place that turns a prepared plan into a ChangeSet, for both apply and verify.

Apply and verify call this same function, so a reproduction uses the same engine.
"""

from __future__ import annotations

from migrate.changes import ChangeSet
from migrate.pipeline import Prepared


def plan_changeset(prep: Prepared, durations=None) -> ChangeSet:
    from migrate.rewrite.engine import plan_changes

    return plan_changes(prep, durations=durations)
