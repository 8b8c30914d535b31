"""Every test case, CI registration and suite budget of BASE survives at HEAD, through the
plan's moves and splits (the inventory diff of `migrate.tests_split`, static: nothing is
imported). A split that drops a case leaves every import resolving; only this sees it.
"""

from __future__ import annotations

from migrate.tests_split.inventory import build_inventory
from migrate.tests_split.inventory_diff import inventory_diff, mapping_from_plan
from migrate.verify.context import VerifyContext
from migrate.verify.result import CheckResult, Finding

NAME = "tests-kept"


def _mapping(ctx: VerifyContext) -> dict:
    """Old path -> new path(s) through every plan in order."""
    mapping: dict = {}
    for plan, rel in zip(ctx.plans, ctx.relocations, strict=True):
        step = mapping_from_plan(plan, rel)
        if not mapping:
            mapping = dict(step)
            continue
        for old, new in list(mapping.items()):
            news = new if isinstance(new, list) else [new]
            outs = []
            for n in news:
                m = step.get(n, n)
                outs += m if isinstance(m, list) else [m]
            mapping[old] = outs if len(outs) > 1 else outs[0]
        for old, new in step.items():
            mapping.setdefault(old, new)
    return mapping


def check(ctx: VerifyContext) -> CheckResult:
    if ctx.base is None:
        return CheckResult(NAME, "SKIP", summary="no BASE tree")
    key = ("inventory", ctx.base_rev)
    if key not in ctx.cache:
        memo: dict = {}  # text -> file inventory: HEAD's files BASE also has are parsed once
        ctx.cache[key] = (build_inventory(ctx.base.index, memo), memo)
    before, memo = ctx.cache[key]
    res = inventory_diff(before, build_inventory(ctx.head.index, dict(memo)), _mapping(ctx))
    findings = [
        Finding(n.pos.file, n.pos.line, NAME, n.message) for n in res.notes if n.severity == "error"
    ]
    return CheckResult.of(
        NAME, findings, f"{res.cases_before} cases at BASE, {res.cases_after} at HEAD"
    )
