"""Every import of the repo's own modules resolves at HEAD: the module exists and each
imported name is a submodule, a top-level binding, or served by a module `__getattr__`;
no relative import climbs above the top-level package (unresolvable, so it fails when run).

An import that was already broken at BASE (after relocation) is reported as a warning.
"""

from __future__ import annotations

from migrate.verify.codetree import CodeTree
from migrate.verify.context import VerifyContext
from migrate.verify.result import CheckResult, against_base

NAME = "imports-resolve"


def unresolved(tree: CodeTree, only: set[str] | None = None) -> list[tuple[str, int, str, str]]:
    """[(path, line, module, name or '')] for each own import that does not resolve."""
    out = []
    for path, module in tree.python_files(only):
        facts = tree.facts(path)
        if facts is None:
            continue
        if module:  # inside the roots: an unresolvable relative import fails when run
            out += [(path, line, spelled, "") for line, spelled in facts.unresolved_relative]
        for imp in facts.imports:
            if not imp.module or not tree.is_own(imp.module):
                continue
            if not imp.names:
                parts = imp.module.split(".")
                missing = next(
                    (
                        ".".join(parts[:i])
                        for i in range(1, len(parts) + 1)
                        if not tree.is_module(".".join(parts[:i]))
                    ),
                    None,
                )
                if missing:
                    out.append((path, imp.line, missing, ""))
            elif not tree.is_module(imp.module):
                out.append((path, imp.line, imp.module, ""))
            else:
                out += [
                    (path, imp.line, imp.module, n)
                    for n in imp.names
                    if not tree.binds(imp.module, n)
                ]
    return out


def check(ctx: VerifyContext) -> CheckResult:
    found = unresolved(ctx.head)
    before = ctx.at_base(
        found, unresolved, lambda u: (ctx.path_now(u[0]), ctx.dotted_now(u[2]), u[3])
    )
    findings = []
    for path, line, module, name in found:
        old = (path, module, name) in before
        if module.startswith("."):
            what = f"`from {module} import ...` climbs above the top-level package"
        elif name:
            what = f"`from {module} import {name}`: {module} has no {name}"
        else:
            what = f"module {module} does not exist"
        findings.append(against_base(path, line, NAME, what, old))
    return CheckResult.judged(NAME, findings)
