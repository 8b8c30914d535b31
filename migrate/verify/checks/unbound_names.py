"""No file the migration wrote or edited reads, while being imported, a name nothing binds
(a rewrite that renamed an import but not its use, a split that dropped a helper a
decorator needs): that is a `NameError` on import. One already unbound at BASE is a warning.
"""

from __future__ import annotations

from migrate.verify.codetree import CodeTree
from migrate.verify.context import VerifyContext
from migrate.verify.result import CheckResult
from migrate.verify.unbound_reads import unbound_findings

NAME = "import-time-names"


def _unbound(tree: CodeTree, path: str) -> list[tuple[int, str]]:
    """The file's import-time reads of unbound names (its code facts: parsed once, with
    the tree's other facts); none for a file that does not parse."""
    facts = tree.facts(path)
    return facts.unbound if facts is not None else []


def check(ctx: VerifyContext) -> CheckResult:
    paths = [p for p, _ in ctx.head.python_files(ctx.touched)]
    breaks = "importing this module raises NameError"
    findings = unbound_findings(ctx, paths, _unbound, NAME, "at import time", breaks)
    return CheckResult.judged(NAME, findings, f"{len(paths)} written or edited files")
