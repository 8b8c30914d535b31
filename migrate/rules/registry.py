"""Every rule (one module each under `checks/`) and the runner over a tree."""

from __future__ import annotations

import importlib
import pkgutil
import time
from functools import cache

from migrate.findings import Finding
from migrate.index.tree import CodeTree
from migrate.rules import checks
from migrate.rules.base import Rule
from migrate.rules.context import Context
from migrate.rules.suppress import unsuppressed


@cache
def all_rules() -> tuple[Rule, ...]:
    """Rules sorted by id; a module under `checks/` defining `RULE` is a rule."""
    rules = []
    for info in pkgutil.iter_modules(checks.__path__):
        mod = importlib.import_module(f"{checks.__name__}.{info.name}")
        rule = getattr(mod, "RULE", None)
        if isinstance(rule, Rule):
            rules.append(rule)
    return tuple(sorted(rules, key=lambda r: r.id))


def run_rules(
    tree: CodeTree, select: set[str] | None = None, timings: dict | None = None
) -> list[Finding]:
    """All findings of the (selected) rules on `tree`, sorted by position."""
    ctx = Context(tree)
    findings: list[Finding] = []
    for rule in all_rules():
        if select and rule.id not in select and rule.name not in select:
            continue
        t0 = time.perf_counter()
        findings.extend(rule.run(ctx))
        if timings is not None:
            timings[rule.id] = time.perf_counter() - t0
    return sorted(set(unsuppressed(tree, findings)), key=Finding.sort_key)
