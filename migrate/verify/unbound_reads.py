"""Findings for a file's reads of names nothing binds, judged against BASE: shared by the
two checks that find them (`import-time-names`, `deferred-names`), which differ only in
which reads they count and what a new one breaks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from migrate.index.bindings import scope_model
from migrate.index.unbound import unbound_later
from migrate.verify.codetree import CodeTree
from migrate.verify.context import VerifyContext
from migrate.verify.result import SO_AT_BASE, Finding, against_base

Reads = Callable[[CodeTree, str], list[tuple[int, str]]]


def unbound_findings(
    ctx: VerifyContext,
    paths: Iterable[str],
    unbound: Reads,
    check: str,
    read_where: str,
    breaks: str,
    sources: dict[str, set[str]] | None = None,
) -> list[Finding]:
    """One finding per unbound name of each HEAD file in `paths` (at its first read): an
    error, or a warning where the file's BASE counterpart (or one of its `sources`, the
    BASE files whose code the plan moved into it) already read that name unbound."""
    findings = []
    for path in paths:
        found = unbound(ctx.head, path)
        if not found:
            continue
        before: set[str] = set()
        hidden: list[str] = []  # BASE files whose star imports hide their names
        if ctx.base is not None:
            for base_path in ctx.base_paths([path]) | (sources or {}).get(path, set()):
                got = {n for _, n in unbound(ctx.base, base_path)}
                before |= got
                if not got:
                    hidden.append(base_path)
        seen = set()
        for line, name in found:
            if name in seen:
                continue
            seen.add(name)
            old = name in before or any(_unbound_past_stars(ctx.base, p, name) for p in hidden)
            what = f"{name} is read {read_where} but nothing binds it"
            findings.append(
                against_base(path, line, check, what, old, "" if old else breaks, SO_AT_BASE)
            )
    return findings


def _unbound_past_stars(tree: CodeTree, path: str, name: str) -> bool:
    """Whether the BASE file `path`, whose names its star imports hide (the reads say
    nothing), read `name` unbound all the same: no star gives it (`has_attr` of its module
    is False: every star is the repository's own and binds no such name) and the file reads
    it where nothing binds it, ignoring the stars (trial24 A1: gettext's `_`, read in code
    moved out of a module doing `from pkg.common import *`)."""
    module = tree.module_of(path)
    if not module or tree.has_attr(module, name) is not False:
        return False
    syntax, text = tree.ast(path), tree.text(path)
    facts = tree.facts(path)
    if syntax is None or text is None or facts is None:
        return False
    model = scope_model(syntax, text, facts.module, facts.is_package)
    return any(n == name for _, n in unbound_later(model, syntax, text))
