"""Wire the stages: plan -> index -> relocation. Each later stage hangs off these."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from migrate.errors import MigrateError
from migrate.git.trailers import chain_refs
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
    derived_exports: list = field(default_factory=list)  # exports_follow.Export
    derived_splits: dict[str, list[str]] = field(default_factory=dict)  # tests split


def plan_paths(plan_path) -> list:
    """One plan path or several (a chain: list, tuple, or `a.yaml,b.yaml` as recorded)."""
    if isinstance(plan_path, (list, tuple)):
        return list(plan_path)
    text = str(plan_path)
    if "," in text and not Path(text).exists():
        return chain_refs(text)
    return [plan_path]


def load_chain(plan_path, index: RepoIndex | None = None) -> tuple[Plan, list]:
    """The plans of a chain, loaded and composed in order (see plan/compose.py); without
    an index only the hash of the chain is meaningful."""
    from dataclasses import replace

    from migrate.plan.compose import chain_sha, compose_all

    loaded = [load_plan(p) for p in plan_paths(plan_path)]
    plans, errors = [p for p, _ in loaded], [e for _, errs in loaded for e in errs]
    if len(plans) == 1:
        return plans[0], errors
    if index is None:
        return replace(plans[0], sha256=chain_sha(plans)), errors
    return compose_all(plans, index), errors


def prepare(plan_path: str | Path, repo: str | Path) -> Prepared:
    """Load, index and validate; raise `MigrateError` with every problem at once.

    Several plans (a chain) are composed into one relocation from the tree as it is."""
    paths = plan_paths(plan_path)
    if len(paths) == 1:
        plan, errors = load_plan(paths[0])
        index = build_index(repo, plan.roots)
    else:
        roots = tuple(dict.fromkeys(r for p in paths for r in load_plan(p)[0].roots))
        index = build_index(repo, roots)
        plan, errors = load_chain(paths, index)
    index.encodings = plan.encodings  # before any text is read
    problems, relocation = validate_plan(plan, index)
    errors = errors + problems
    if errors:
        raise MigrateError(_sorted(errors))
    assert relocation is not None  # built whenever the plan has no problems
    return follow(Prepared(plan, index, relocation))


def _with_test_moves(prep: Prepared) -> list:
    """Tests whose kernels change group move with them: as path moves of the plan."""
    from dataclasses import replace

    from migrate.rewrite.tests_follow import follow_tests

    moves, notes, splits = follow_tests(prep.index, prep.relocation, prep.plan)
    if moves:
        prep.plan = replace(prep.plan, moves=prep.plan.moves + tuple(moves))
        prep.relocation = build_relocation(prep.plan, prep.index)
        prep.derived_moves = {m.src: m.dst for m in moves}
    if splits:  # files whose tests go several ways: the split machinery, as a plan split
        prep.plan = replace(prep.plan, splits=prep.plan.splits + tuple(splits))
        prep.derived_splits = {sp.file: [o.path for o in sp.into] for sp in splits}
    return notes


def _sorted(errors):
    return sorted(errors, key=lambda d: (d.pos.file, d.pos.line, d.pos.col))


def follow(prep: Prepared) -> Prepared:
    """Op ids follow kernels that change group (see rewrite/op_id_follow.py)."""
    from migrate.rewrite.op_id_follow import follow_op_ids, with_followed_op_ids

    notes = _with_test_moves(prep)
    _with_export_moves(prep)  # before op ids: a target through `_EXPORTS` follows it
    followed = follow_op_ids(prep.index, prep.relocation, prep.plan)
    followed.notes = notes
    if followed.errors:
        raise MigrateError(_sorted(followed.errors))
    prep.plan = with_followed_op_ids(prep.plan, followed)
    prep.followed = followed
    prep.derived_op_ids = {old: new for old, (new, _) in sorted(followed.renames.items())}
    return prep


def _with_export_moves(prep: Prepared) -> None:
    """Lazy `_EXPORTS` entries follow their module: each is a re-export relocation
    (old group, name) -> new group, so its users are respelled (rewrite/exports_follow.py)."""
    from migrate.layout.names import OPS_PKG
    from migrate.rewrite.exports_follow import follow_exports

    prep.derived_exports = follow_exports(prep.index, prep.relocation, OPS_PKG)
    for e in prep.derived_exports:
        prep.relocation.symbols.setdefault((e.group, e.name), e.new_group)
        prep.relocation.reexports.add((e.group, e.name))
