"""No file the migration wrote or edited reads, in code that runs later, a name nothing
binds: a function body, an annotation left unevaluated by `from __future__ import
annotations`, a string annotation. Importing such a module works; a type checker rejects
it and calling the code raises `NameError` (a symbol move that lost the `TYPE_CHECKING`
alias its annotations name: humanize's `Num`). Reads at import time are
`import-time-names`' own. A name already unbound at BASE, in the file's BASE counterpart
or in a module whose symbols the plan moves into it, is a warning.

Names read through `globals()` count too: such a read that finds fewer names at HEAD than
at BASE (the function or the names moved to another module) is an error
(`verify/namespace_reads.py`).

A file whose text BASE holds unchanged (a pure rename) cannot have a new one: only files
whose text changed are read.
"""

from __future__ import annotations

from migrate.verify.codetree import CodeTree
from migrate.verify.context import VerifyContext
from migrate.verify.namespace_reads import namespace_findings
from migrate.verify.result import CheckResult
from migrate.verify.unbound_reads import unbound_findings

NAME = "deferred-names"


def _unbound(tree: CodeTree, path: str) -> list[tuple[int, str]]:
    """The file's later reads of unbound names, less the import-time ones; none for a
    file that does not parse or whose names cannot be known (a star import, `globals()`
    writes): `index.facts.deferred_unbound`, read in the facts pool when verify's
    prefetch was given `files_read(ctx)`."""
    return tree.deferred_unbound(path)


def _changed(ctx: VerifyContext, path: str) -> bool:
    if ctx.base is None:
        return True
    before = ctx.base_paths([path])
    return not (len(before) == 1 and ctx.base.text(next(iter(before))) == ctx.head.text(path))


def files_read(ctx: VerifyContext) -> list[str]:
    """The HEAD files this check reads: those the migration wrote or edited."""
    return [p for p, _ in ctx.head.python_files(ctx.touched) if _changed(ctx, p)]


def check(ctx: VerifyContext) -> CheckResult:
    paths = files_read(ctx)
    where = "(in a function body or an annotation)"
    breaks = "a type checker rejects it; running that code raises NameError"
    findings = unbound_findings(ctx, paths, _unbound, NAME, where, breaks, ctx.symbol_sources())
    findings += namespace_findings(ctx, paths, NAME)
    return CheckResult.judged(NAME, findings, f"{len(paths)} written or edited files")
