"""Every registry target at HEAD resolves: `KernelSpec(target="module:attr")` and other
`target=` literals, `"package.module:attr"` literals in tables, the targets registrations
evaluate to (f-strings over tables, `_EXPORTS` loops), and
`register_fused_op(instance, __name__, "ATTR")`. Resolved by THE target resolver
(`index.targets.Resolver`, the one KO204 uses). Nothing imports a target at
registration, so a stale one would fail only on first call. A target already broken at
BASE (after relocation) is reported as a warning.
"""

from __future__ import annotations

from migrate.index.targets import Resolver, registry_targets
from migrate.verify.codetree import CodeTree
from migrate.verify.context import VerifyContext
from migrate.verify.result import CheckResult, against_base

NAME = "registry-targets"


def unresolved(
    tree: CodeTree, only: set[str] | None = None
) -> tuple[list[tuple[str, int, str, str]], int]:
    """([(path, line, target, why)], number of targets seen)."""
    out, seen = [], 0
    resolver = Resolver(tree)
    for path, module in tree.python_files(only):
        facts = tree.facts(path)
        if facts is None:
            continue
        for line, target in registry_targets(tree, path):
            if not tree.is_own(target.split(":", 1)[0]):
                continue
            seen += 1
            why = resolver.problem(target)
            if why:
                out.append((path, line, target, why))
        for line, attr in facts.fused if module else []:
            seen += 1
            why = resolver.problem(f"{module}:{attr}")
            if why:
                out.append((path, line, f"{module}:{attr}", why))
    return out, seen


def check(ctx: VerifyContext) -> CheckResult:
    found, seen = unresolved(ctx.head)
    before = ctx.at_base(
        found,
        lambda tree, only: unresolved(tree, only)[0],
        lambda u: (ctx.path_now(u[0]), ctx.target_now(u[2])),
    )
    findings = []
    for path, line, target, why in found:
        old = (path, target) in before
        findings.append(against_base(path, line, NAME, f"target {target}: {why}", old))
    return CheckResult.judged(NAME, findings, f"{seen} targets checked")
