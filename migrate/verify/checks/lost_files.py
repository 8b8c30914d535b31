"""No file is lost: every BASE file is at HEAD, at its relocated path, unless the plan
removes it (a package it deletes, a test file it splits, a removal of the reproduced
ChangeSet). A moved tuning table that silently went missing imports fine and fails
only where it is read; this check sees it without building a wheel.
"""

from __future__ import annotations

from migrate.verify.context import VerifyContext
from migrate.verify.result import CheckResult, Finding

NAME = "no-lost-files"


def _removed_by_plan(ctx: VerifyContext) -> set[str]:
    """BASE (and HEAD-side) paths the plans remove on purpose."""
    out: set[str] = set()
    for cs in ctx.changesets:
        out |= set(cs.removals)
    index = ctx.base.index
    for plan, rel in zip(ctx.plans, ctx.relocations, strict=True):
        out |= {sp.file for sp in plan.splits}
        for package in plan.delete:  # what is left of it once its modules moved away
            d = index.package_dir(package)
            out |= {f for f in index.files_under(d) if f not in rel.files} if d else set()
    return out


def check(ctx: VerifyContext) -> CheckResult:
    if ctx.base is None:
        return CheckResult(NAME, "SKIP", summary="no BASE tree")
    removed = _removed_by_plan(ctx)
    head_files = ctx.head.index.files
    findings = []
    for path in sorted(ctx.base.index.files):
        new = ctx.head_path(path)
        if new in head_files or path in removed or new in removed or path in ctx.exclude:
            continue
        moved = f" (moved to {new})" if new != path else ""
        findings.append(
            Finding(
                new,
                0,
                NAME,
                f"{path}{moved} is missing at HEAD and the plan does not remove it",
                "restore it: only the plan's deletions and splits may remove files",
            )
        )
    return CheckResult.of(NAME, findings, f"{len(ctx.base.index.files)} BASE files")
