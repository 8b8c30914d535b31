"""Findings for a file's reads of names nothing binds, judged against BASE: shared by the
two checks that find them (`import-time-names`, `deferred-names`), which differ only in
which reads they count and what a new one breaks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

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
        if ctx.base is not None:
            for base_path in ctx.base_paths([path]) | (sources or {}).get(path, set()):
                before |= {n for _, n in unbound(ctx.base, base_path)}
        seen = set()
        for line, name in found:
            if name in seen:
                continue
            seen.add(name)
            old = name in before
            what = f"{name} is read {read_where} but nothing binds it"
            findings.append(
                against_base(path, line, check, what, old, "" if old else breaks, SO_AT_BASE)
            )
    return findings
