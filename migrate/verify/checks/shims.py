"""Nothing is left at an old path: no module under a moved name (a forwarding shim or a
stale copy) and no moved file still present at its old location."""

from __future__ import annotations

from migrate.verify.context import VerifyContext
from migrate.verify.result import CheckResult, Finding

NAME = "no-shims"


def check(ctx: VerifyContext) -> CheckResult:
    index = ctx.head.index
    findings = []
    for rel in ctx.relocations:
        for old, new in sorted({**rel.moved_modules, **rel.modules}.items()):
            path = index.modules.get(old)
            if path is not None:
                findings.append(
                    Finding(
                        path,
                        1,
                        NAME,
                        f"module {old} still exists",
                        f"it moved to {new}; delete it, do not forward",
                    )
                )
        for old, new in sorted(rel.files.items()):
            if old in index.files and not old.endswith(".py"):
                findings.append(Finding(old, 0, NAME, f"{old} still exists", f"moved to {new}"))
    return CheckResult.of(NAME, findings)
