"""The shape several placement rules share: an operator module whose own definitions and
calls show one computation, filed in a group that is not that computation's home."""

from __future__ import annotations

from collections.abc import Iterator

from migrate.findings import Finding


def outside_home(
    ctx, rule, hint: tuple[str, ...], signal: str, homes: tuple[str, ...], what: str, fix: str
) -> Iterator[Finding]:
    """A finding for each operator module outside `homes` whose strong `signal` weight
    (definitions and calls, not mere mentions) is 2 or more; `hint` prefilters the text."""
    for path, group, sig in ctx.operator_signals(hint):
        if group in homes or sig.strong(signal) < 2:
            continue
        yield rule.at(path, 0, f"module in {group} {what}", evidence=sig.evidence(signal), fix=fix)
