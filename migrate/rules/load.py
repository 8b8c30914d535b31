"""Build the tree to check: a checkout as it is, or as a plan would leave it."""

from __future__ import annotations

from pathlib import Path

from migrate.changes import ChangeSet, FileMove
from migrate.errors import MigrateError
from migrate.index import RepoIndex, build_index
from migrate.index.tree import CodeTree
from migrate.materialize import materialize


def detect_roots(repo: str | Path) -> tuple[str, ...]:
    """Import roots of an SGLang-style tree: where `sglang/` lives (`python/` or the top)."""
    base = Path(repo).resolve()
    roots = {"."}
    for pattern in ("sglang/__init__.py", "*/sglang/__init__.py", "*/*/sglang/__init__.py"):
        for init in base.glob(pattern):
            parent = init.parent.parent.relative_to(base).as_posix()
            roots.add(parent if parent not in ("", ".") else ".")
    return tuple(sorted(roots, key=lambda r: (r == ".", r)))


def repo_tree(repo: str | Path) -> tuple[RepoIndex, CodeTree]:
    """The checkout's index, which is also the tree the rules read."""
    index = build_index(repo, detect_roots(repo))
    return index, index


def fallback_changeset(prep) -> ChangeSet:
    """File moves of the relocation plus the legacy packages `delete:` removes: what
    `check --plan` judges when the engine refuses the plan (the moves alone)."""
    files = prep.relocation.files
    cs = ChangeSet(moves=[FileMove(o, files[o]) for o in sorted(files)])
    for name in prep.plan.delete:
        d = prep.index.package_dir(name)
        for f in prep.index.files_under(d) if d else []:
            if f not in prep.relocation.files:
                cs.removals[f] = "delete"
    return cs


def plan_changeset(prep) -> tuple[ChangeSet, str]:
    """The plan's ChangeSet and where it came from (`engine` or `moves-only`)."""
    from migrate.rewrite.engine import plan_changes

    try:
        return plan_changes(prep), "engine"
    except MigrateError as exc:  # the engine refuses the plan: still judge the moves
        return fallback_changeset(prep), f"moves-only (the engine refused the plan: {exc})"


def plan_tree(plan: str | Path, repo: str | Path) -> tuple[CodeTree, str]:
    """The tree `plan` would produce from `repo`; raises MigrateError for an invalid plan."""
    from migrate.pipeline import prepare

    prep = prepare(plan, repo)
    cs, source = plan_changeset(prep)
    return materialize(cs, prep.index), source


def plan_findings(prep, changeset: ChangeSet | None = None) -> list:
    """Findings on the tree a prepared plan would produce: for the dry run and the report.

    Pass the ChangeSet when the caller already has it (the dry run does), so the engine
    runs once.
    """
    from migrate.rules.registry import run_rules

    cs = changeset if changeset is not None else plan_changeset(prep)[0]
    return run_rules(materialize(cs, prep.index))


def introduced_errors(prep, changeset: ChangeSet) -> list:
    """Organization-rule errors on the plan's result that BASE does not have already.

    A BASE finding counts as the same when its rule fires on the file at the path the plan
    moves it to; the result's findings beyond BASE's count per (rule, file) are new. So a
    plan is judged by what it introduces, not by the tree's existing debt.
    """
    from collections import Counter

    from migrate.rules.registry import run_rules

    rel = prep.relocation
    before = Counter(
        (f.check, rel.files.get(f.pos.file, f.pos.file))
        for f in run_rules(prep.index)
        if f.severity == "error"
    )
    out = []
    for f in plan_findings(prep, changeset):
        if f.severity != "error":
            continue
        key = (f.check, f.pos.file)
        if before[key]:
            before[key] -= 1
        else:
            out.append(f)
    return out


def introduced_error_notes(prep, changeset: ChangeSet) -> list:
    """`introduced_errors` as positioned error notes for the dry run and apply's refusal."""
    from migrate.errors import Diagnostic

    return [
        Diagnostic(
            f.pos,
            f"{f.check} {f.name}: {f.message} (introduced by the plan: `migrate check --plan` "
            "flags it; apply refuses unless --allow-rule-errors)",
        )
        for f in introduced_errors(prep, changeset)
    ]
