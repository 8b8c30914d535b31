"""Wire the stages: plan -> index -> relocation. Each later stage hangs off these."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from migrate.errors import MigrateError
from migrate.index import RepoIndex, build_index
from migrate.plan import Plan, load_plan
from migrate.plan.validate import validate_plan
from migrate.relocate import Relocation, build_relocation


@dataclass
class Prepared:
    plan: Plan
    index: RepoIndex
    relocation: Relocation


def prepare(plan_path: str | Path, repo: str | Path) -> Prepared:
    """Load, index and validate; raise `MigrateError` with every problem at once."""
    plan, errors = load_plan(plan_path)
    index = build_index(repo, plan.roots)
    errors = errors + validate_plan(plan, index)
    if errors:
        raise MigrateError(sorted(errors, key=lambda d: (d.pos.file, d.pos.line, d.pos.col)))
    return Prepared(plan, index, build_relocation(plan, index))
