"""No file at HEAD, of any type, still spells a name the plan moved.

A moved symbol spelled through its old module (`pkg.conf.WIDTH`) while that module still
binds the name at HEAD (it imports it back for the code left there) still resolves, and
a patch of it reaches that code: a warning naming it, not a failure."""

from __future__ import annotations

from dataclasses import replace

from migrate.verify.context import VerifyContext
from migrate.verify.names import OldNames, excluded, scan_text
from migrate.verify.result import CheckResult, Finding

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
                findings += [
                    _judged(ctx, rel.symbols, f) for f in scan_text(path, text, names, NAME)
                ]
    return CheckResult.judged(NAME, findings, f"{len(index.files)} files scanned")


def _judged(ctx: VerifyContext, symbols: dict, finding: Finding) -> Finding:
    """`finding` as a warning when the old name is a moved symbol that its old module,
    read at HEAD, still binds at module level."""
    old = finding.message.removeprefix("old name ")
    mod, _, sym = old.rpartition(".")
    if (mod, sym) not in symbols:
        return finding
    facts = ctx.head.module_facts(mod)
    if facts is None or sym not in facts.bindings:
        return finding
    message = f"{finding.message}: {mod} still binds {sym} at HEAD, so it resolves there"
    return replace(finding, message=message, severity="warning")
