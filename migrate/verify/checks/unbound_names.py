"""No file the migration wrote or edited reads, while being imported, a name nothing binds
(a rewrite that renamed an import but not its use, a split that dropped a helper a
decorator needs): that is a `NameError` on import. One already unbound at BASE is a warning.
"""

from __future__ import annotations

from migrate.verify.codetree import CodeTree
from migrate.verify.context import VerifyContext
from migrate.verify.result import SO_AT_BASE, CheckResult, against_base

NAME = "import-time-names"


def _unbound(tree: CodeTree, path: str) -> list[tuple[int, str]]:
    """The file's import-time reads of unbound names (its code facts: parsed once, with
    the tree's other facts); none for a file that does not parse."""
    facts = tree.facts(path)
    return facts.unbound if facts is not None else []


def check(ctx: VerifyContext) -> CheckResult:
    paths = [p for p, _ in ctx.head.python_files(ctx.touched)]
    findings = []
    for path in paths:
        found = _unbound(ctx.head, path)
        if not found:
            continue
        before = set()
        if ctx.base is not None:
            for base_path in ctx.base_paths([path]):
                before |= {n for _, n in _unbound(ctx.base, base_path)}
        seen = set()
        for line, name in found:
            if name in seen:
                continue
            seen.add(name)
            old = name in before
            what = f"{name} is read at import time but nothing binds it"
            fix = "" if old else "importing this module raises NameError"
            findings.append(against_base(path, line, NAME, what, old, fix, SO_AT_BASE))
    return CheckResult.judged(NAME, findings, f"{len(paths)} written or edited files")
