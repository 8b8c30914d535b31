"""Wire the stages: plan -> index -> relocation. Each later stage hangs off these."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from migrate.errors import MigrateError
from migrate.index import RepoIndex, build_index
from migrate.plan import Plan, load_plan
from migrate.plan.validate import validate_plan
from migrate.relocate import Relocation, build_relocation


@dataclass
class Prepared:
    plan: Plan  # with the op-id renames derived from kernels changing group appended
    index: RepoIndex
    relocation: Relocation
    followed: object = None  # rewrite.op_id_follow.Followed: derived renames and edits
    derived_op_ids: dict[str, str] = field(default_factory=dict)
    derived_moves: dict[str, str] = field(default_factory=dict)  # tests following kernels


def prepare(plan_path: str | Path, repo: str | Path) -> Prepared:
    """Load, index and validate; raise `MigrateError` with every problem at once."""
    plan, errors = load_plan(plan_path)
    index = build_index(repo, plan.roots)
    errors = errors + validate_plan(plan, index)
    if errors:
        raise MigrateError(_sorted(errors))
    return follow(Prepared(plan, index, build_relocation(plan, index)))


def _with_test_moves(prep: Prepared) -> list:
    """Tests whose kernels change group move with them: as path moves of the plan."""
    from dataclasses import replace

    from migrate.rewrite.tests_follow import follow_tests

    moves, notes = follow_tests(prep.index, prep.relocation, prep.plan)
    if moves:
        prep.plan = replace(prep.plan, moves=prep.plan.moves + tuple(moves))
        prep.relocation = build_relocation(prep.plan, prep.index)
        prep.derived_moves = {m.src: m.dst for m in moves}
    return notes


def _sorted(errors):
    return sorted(errors, key=lambda d: (d.pos.file, d.pos.line, d.pos.col))


def follow(prep: Prepared) -> Prepared:
    """Op ids follow kernels that change group (see rewrite/op_id_follow.py)."""
    from migrate.rewrite.op_id_follow import follow_op_ids, with_followed_op_ids

    notes = _with_test_moves(prep)
    followed = follow_op_ids(prep.index, prep.relocation, prep.plan)
    followed.notes = notes
    if followed.errors:
        raise MigrateError(_sorted(followed.errors))
    prep.plan = with_followed_op_ids(prep.plan, followed)
    prep.followed = followed
    prep.derived_op_ids = {old: new for old, (new, _) in sorted(followed.renames.items())}
    return prep
