"""Every registry target at HEAD resolves: `"module:attr"` literals (KernelSpec targets,
tables of them) and `register_fused_op(instance, __name__, "ATTR")`. Nothing imports a
target at registration, so a stale one would fail only on first call."""

from __future__ import annotations

from migrate.verify.context import VerifyContext
from migrate.verify.result import CheckResult, Finding

NAME = "registry-targets"


def check(ctx: VerifyContext) -> CheckResult:
    tree = ctx.head
    findings, seen = [], 0
    for module, path in sorted(tree.index.modules.items()):
        facts = tree.facts(module)
        if facts is None:
            continue
        for line, target in facts.targets:
            mod, attrs = target.split(":", 1)
            if not tree.is_own(mod):
                continue
            seen += 1
            if not tree.exists(mod):
                findings.append(Finding(path, line, NAME, f"target {target}: no module {mod}"))
            elif not tree.attr_path(mod, attrs):
                findings.append(Finding(path, line, NAME, f"target {target}: {mod} has no {attrs}"))
        for line, attr in facts.fused:
            seen += 1
            if not tree.binds(module, attr):
                findings.append(
                    Finding(
                        path, line, NAME, f"register_fused_op target {module}:{attr} is not bound"
                    )
                )
    return CheckResult.of(NAME, findings, f"{seen} targets checked")
