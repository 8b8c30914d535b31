"""The organization rules of `migrate check` that the migration makes fail, new errors only:
`_GROUPS` vs group packages and the README group sentence (KO102), op ids vs their
group (KO202), registry targets, literal, f-string tables and `_EXPORTS` (KO203, KO204).

`_GROUPS` naming a group whose package was deleted makes `import sglang.kernels` fail;
the rules already see it, so verify runs them (migrate/rules) on both revisions. A
finding counts when BASE had no finding of that rule with the same message, mapped
through the plan.
"""

from __future__ import annotations

import re

from migrate.findings import Finding as RuleFinding
from migrate.plan import Plan
from migrate.relocate import Relocation
from migrate.rules import run_rules
from migrate.verify.codetree import CodeTree
from migrate.verify.context import VerifyContext
from migrate.verify.result import SO_AT_BASE, CheckResult, against_base

NAME = "organization-rules"
RULES = frozenset(("KO102", "KO202", "KO203", "KO204"))
_TOKEN = re.compile(r"[A-Za-z_][\w.\-/]*(?::[\w.]+)?")


def rule_errors(tree: CodeTree) -> list[RuleFinding]:
    found = run_rules(tree, set(RULES))  # the same tree protocol: one parse
    return [f for f in found if f.severity == "error"]


def _mapped(token: str, plans: list[Plan], rels: list[Relocation]) -> str:
    for plan, rel in zip(plans, rels, strict=True):
        ops = {o.src: o.dst for o in plan.op_ids}
        token = (
            ops.get(token)
            or (rel.target(token) if ":" in token else None)
            or rel.path(token)
            or rel.dotted(token)
            or token
        )
    return token


def key(f: RuleFinding, plans: list[Plan], rels: list[Relocation]) -> tuple[str, str, str]:
    """(rule, path, message) with every name and path in it mapped through the plans."""
    message = _TOKEN.sub(lambda m: _mapped(m.group(0), plans, rels), f.message)
    return f.check, _mapped(f.file, plans, rels), message


def _declares_groups(tree: CodeTree) -> bool:
    from migrate.rules.context import Context

    return Context(tree).declared_groups is not None


def check(ctx: VerifyContext) -> CheckResult:
    head = rule_errors(ctx.head)
    before = set()
    undeclared_before = False
    if ctx.base is not None and head:  # the rules read a few files (ops/, registries)
        before = {key(f, ctx.plans, ctx.relocations) for f in rule_errors(ctx.base)}
        undeclared_before = not _declares_groups(ctx.base)
    findings = []
    for f in head:
        # A migration that creates the ops package without a `_GROUPS` literal, where BASE
        # declared no groups either, removed no declaration: nothing can drift from it.
        undeclared = f.check == "KO102" and "no literal `_GROUPS`" in f.message
        old = key(f, ctx.plans, ctx.relocations) in before or (undeclared and undeclared_before)
        what = f"{f.check} {f.message}"
        findings.append(against_base(f.file, f.line, NAME, what, old, f.fix, SO_AT_BASE))
    return CheckResult.judged(NAME, findings, f"rules {', '.join(sorted(RULES))}")
