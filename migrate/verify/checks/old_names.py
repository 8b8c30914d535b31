"""No file at HEAD, of any type, still spells a name the plan moved."""

from __future__ import annotations

from migrate.verify.context import VerifyContext
from migrate.verify.names import OldNames, excluded, scan_text
from migrate.verify.result import CheckResult

NAME = "old-names"


def check(ctx: VerifyContext) -> CheckResult:
    findings = []
    index = ctx.head.index
    for plan, rel in zip(ctx.plans, ctx.relocations, strict=True):
        names = OldNames(rel, plan)
        for path, info in sorted(index.files.items()):
            if info.is_symlink or excluded(path, ctx.exclude, plan.keep_prose):
                continue
            text = index.text(path)
            if text is not None:
                findings += scan_text(path, text, names, NAME)
    return CheckResult.of(NAME, findings, f"{len(index.files)} files scanned")
