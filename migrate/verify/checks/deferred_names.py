"""No file the migration wrote or edited reads, in code that runs later, a name nothing
binds: a function body, an annotation left unevaluated by `from __future__ import
annotations`, a string annotation. Importing such a module works; a type checker rejects
it and calling the code raises `NameError` (a symbol move that lost the `TYPE_CHECKING`
alias its annotations name: humanize's `Num`). Reads at import time are
`import-time-names`' own. A name already unbound at BASE, in the file's BASE counterpart
or in a module whose symbols the plan moves into it, is a warning.

A file whose text BASE holds unchanged (a pure rename) cannot have a new one: only files
whose text changed are read.
"""

from __future__ import annotations

from migrate.index.bindings import scope_model
from migrate.index.unbound import unbound_later
from migrate.verify.codetree import CodeTree
from migrate.verify.context import VerifyContext
from migrate.verify.result import CheckResult
from migrate.verify.unbound_reads import unbound_findings

NAME = "deferred-names"


def _unbound(tree: CodeTree, path: str) -> list[tuple[int, str]]:
    """The file's later reads of unbound names, less the import-time ones; none for a
    file that does not parse or whose names cannot be known (a star import, `globals()`
    writes). One parse: the binding walk runs on the tree's cached AST (facts that came
    from the worker pool carry no walk, and rebuilding theirs would parse again)."""
    facts = tree.facts(path)
    syntax = tree.ast(path)
    if facts is None or syntax is None:
        return []
    if facts.star_imports or facts.star_unresolved or facts.writes_globals:
        return []
    text = tree.text(path) or ""
    model = scope_model(syntax, text, facts.module, facts.is_package)
    at_import = set(facts.unbound)
    return [hit for hit in unbound_later(model, syntax, text) if hit not in at_import]


def _sources(ctx: VerifyContext) -> dict[str, set[str]]:
    """HEAD path -> BASE paths of the modules whose symbols the plans move into it."""
    out: dict[str, set[str]] = {}
    if ctx.base is None:
        return out
    for rel in ctx.relocations:
        for (mod, _), dst in rel.symbols.items():
            head_path = ctx.head.modules.get(ctx.dotted_now(dst))
            base_path = ctx.base.modules.get(mod)
            if head_path and base_path:
                out.setdefault(head_path, set()).add(base_path)
    return out


def _changed(ctx: VerifyContext, path: str) -> bool:
    if ctx.base is None:
        return True
    before = ctx.base_paths([path])
    return not (len(before) == 1 and ctx.base.text(next(iter(before))) == ctx.head.text(path))


def check(ctx: VerifyContext) -> CheckResult:
    paths = [p for p, _ in ctx.head.python_files(ctx.touched) if _changed(ctx, p)]
    where = "(in a function body or an annotation)"
    breaks = "a type checker rejects it; running that code raises NameError"
    findings = unbound_findings(ctx, paths, _unbound, NAME, where, breaks, _sources(ctx))
    return CheckResult.judged(NAME, findings, f"{len(paths)} written or edited files")
