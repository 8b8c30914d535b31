"""The one place that turns a prepared plan into a ChangeSet, for the dry run, apply, verify.

All three run an `Engine`, `plan_changeset` unless their caller passes another (every
caller takes it as its `engine` parameter; the CLI's commands take it from the click
context's object, `main(args, obj=engine)`), and the dry run and apply judge it by
`refusals`: apply refuses exactly what the dry run reports as an error, in the same words.
"""

from __future__ import annotations

from typing import Protocol

from migrate.changes import ChangeSet
from migrate.errors import Diagnostic
from migrate.pipeline import Prepared


class Engine(Protocol):
    """What the dry run, apply, verify and the report run on a prepared plan."""

    def __call__(self, prep: Prepared, durations=None) -> ChangeSet: ...


def plan_changeset(prep: Prepared, durations=None) -> ChangeSet:
    """The engine: the rewriter's declared passes (`migrate.rewrite.engine.PASSES`)."""
    from migrate.rewrite.engine import plan_changes

    return plan_changes(prep, durations=durations)


def refusals(cs: ChangeSet) -> list[Diagnostic]:
    """The error-severity notes of a ChangeSet: any one of them stops apply (exit 2)."""
    return [n for n in cs.notes if getattr(n, "severity", "") == "error"]


def engine_of(obj: object) -> Engine:
    """The engine a CLI command runs: the click context's object when its caller passed
    one (`main(args, obj=engine)`), else `plan_changeset`."""
    return obj if callable(obj) else plan_changeset
