"""No file the migration wrote or edited reads, while being imported, a name nothing binds
(a rewrite that renamed an import but not its use, a split that dropped a helper a
decorator needs): that is a `NameError` on import. One already unbound at BASE is a warning.
"""

from __future__ import annotations

import ast

from migrate.index.bindings import scope_model
from migrate.verify.codetree import CodeTree
from migrate.verify.context import VerifyContext
from migrate.verify.result import CheckResult, Finding
from migrate.verify.unbound_reads import unbound_findings

NAME = "import-time-names"


def _unbound(tree: CodeTree, path: str) -> list[tuple[int, str]]:
    """The file's import-time reads of unbound names (its code facts: parsed once, with
    the tree's other facts); none for a file that does not parse."""
    facts = tree.facts(path)
    return facts.unbound if facts is not None else []


def _star_gives(tree: CodeTree, star: str, name: str) -> bool | None:
    """Whether `from star import *` binds `name` in `tree` (`__all__`, else the public
    names; None: cannot be known)."""
    facts = tree.module_facts(star)
    if facts is None:
        return None
    exported = facts.all_names
    if name not in exported if exported is not None else name.startswith("_"):
        return False
    return tree.has_attr(star, name)


def _lost_star_names(ctx: VerifyContext) -> list[Finding]:
    """A file's star import of the repository's own module gave a name the file reads at
    BASE and no longer gives it at HEAD (the plan moved it out), while the file binds it
    nowhere else but inside an `except` handler or a `match` case (the binding walk's
    `contained` events: `except ImportError: Klass = None` runs only when the star
    fails, so it does not bind the name when the star succeeds): a `NameError` (f12 F6,
    a false PASS: an untouched file, and its star hid the name from the unbound reads)."""
    if ctx.base is None:
        return []
    findings = []
    for path, module in ctx.head.python_files():
        facts = ctx.head.facts(path)
        if facts is None or not facts.star_imports or facts.star_unresolved:
            continue
        before = ctx.base_paths([path])
        base_facts = ctx.base.facts(next(iter(before))) if len(before) == 1 else None
        stars = [s for s in facts.star_imports if ctx.head.is_own(s)]
        if base_facts is None or not stars or set(stars) != set(base_facts.star_imports):
            continue
        syntax, text = ctx.head.ast(path), ctx.head.text(path)
        if syntax is None or text is None:
            continue
        reads: dict[str, int] = {}
        for node in ast.walk(syntax):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                reads.setdefault(node.id, node.lineno)
        model = scope_model(syntax, text, module, path.endswith("__init__.py"))
        for name, line in sorted(reads.items(), key=lambda kv: kv[1]):
            events = [e for sc in model.scopes for e in sc.events.get(name, [])]
            if any(not e.contained for e in events):
                continue
            gave = [s for s in stars if _star_gives(ctx.base, s, name)]
            if not gave or any(_star_gives(ctx.head, s, name) is not False for s in stars):
                continue
            what = (
                f"{name} is read but `from {gave[0]} import *` no longer gives it "
                "(only an except handler or a match case binds it)"
            )
            fix = f"import {name} from its new module; importing this module raises NameError"
            findings.append(Finding(path, line, NAME, what, fix))
    return findings


def check(ctx: VerifyContext) -> CheckResult:
    paths = [p for p, _ in ctx.head.python_files(ctx.touched)]
    breaks = "importing this module raises NameError"
    findings = unbound_findings(ctx, paths, _unbound, NAME, "at import time", breaks)
    findings += _lost_star_names(ctx)
    return CheckResult.judged(NAME, findings, f"{len(paths)} written or edited files")
