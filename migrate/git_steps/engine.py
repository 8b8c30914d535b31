"""The one place that turns a prepared plan into a ChangeSet, for the dry run, apply, verify.

All three call `plan_changeset`, and the dry run and apply judge it by `refusals`: apply
refuses exactly what the dry run reports as an error, in the same words.
"""

from __future__ import annotations

from migrate.changes import ChangeSet
from migrate.errors import Diagnostic
from migrate.pipeline import Prepared


def plan_changeset(prep: Prepared, durations=None) -> ChangeSet:
    from migrate.rewrite.engine import plan_changes

    return plan_changes(prep, durations=durations)


def refusals(cs: ChangeSet) -> list[Diagnostic]:
    """The error-severity notes of a ChangeSet: any one of them stops apply (exit 2)."""
    return [n for n in cs.notes if getattr(n, "severity", "") == "error"]
