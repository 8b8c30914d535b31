"""One judgement from the facts: safe to merge, needs review, could not be checked, or
broken, with every reason.

Broken: something a reviewer would have to reject (a commit that does not reproduce, a
stale reference, a lost test or registration, a parity difference, a rule error). Could
not be checked: a stage that was asked to prove something could not carry it out (verify's
exit 3, a check COULD-NOT-RUN, verify or parity raising): no evidence either way, so it is
neither a pass nor a failed migration. Needs review: a human must look (review edits,
prose, warnings) or a check was not asked for: a report never calls a migration safe on
evidence it does not have.
"""

from __future__ import annotations

from migrate.findings import COULD_NOT_RUN, FAIL
from migrate.report.data import OK, ReportData, Verdict

LEVELS = ("safe", "review", "unchecked", "broken")  # in order: --fail-on X means X or worse
TITLES = {
    "safe": "safe to merge",
    "review": "needs review",
    "unchecked": "could not be checked",
    "broken": "broken",
}
MAX_NAMED = 10  # problems named one by one per category; the rest are counted


def _named(items: list[str], what: str) -> list[str]:
    out = items[:MAX_NAMED]
    if len(items) > MAX_NAMED:
        out.append(f"... and {len(items) - MAX_NAMED} more {what}")
    return out


def broken_reasons(d: ReportData) -> list[str]:
    r = [f"plan error: {e}" for e in d.plan_errors]
    r += [
        f"commit {c.sha[:10]} (step {c.step or '?'}) does not reproduce from its parent"
        for c in d.commits
        if c.verify == FAIL
    ]
    for chk in d.verify.static_checks:
        if chk.status == FAIL:
            r.append(f"verify check {chk.name} failed ({len(chk.findings)} finding(s))")
    # In a preview, a leftover the engine flagged for a person is work to do, not a defect.
    stale = [x for x in d.leftovers.items if d.meta.mode == "range" or not x.flagged]
    r += _named(
        [f"stale reference `{x.name}` at {x.file}:{x.line}" for x in stale], "stale references"
    )
    r += _named(
        [f"lost test {x.kind} `{x.name}` (was in {x.file})" for x in d.inventory.lost],
        "lost tests",
    )
    r += [
        f"est_time of suite {s.suite} changes: {s.est_time_before:g} s -> {s.est_time_after:g} s"
        for s in d.inventory.suites
        if s.est_time_before != s.est_time_after
    ]
    r += [f"inventory: {p}" for p in d.inventory.problems]
    r += [
        f"parity: `{o.op}` differs from `{o.old}` ({o.different} of {o.calls} call(s)"
        f" on {d.parity.device or 'unknown device'})"
        for o in d.parity.ops
        if o.status == "different"
    ]
    r += [f"parity: {f}" for f in d.parity.findings if f.severity == "error"]
    r += _named(
        [
            f"rule {f.check} at {f.file}:{f.line}: {f.message}"
            for f in d.rules.findings
            if f.severity == "error"
        ],
        "rule errors",
    )
    return r


def _same_range(d: ReportData, sec) -> bool:
    """A given result names no range, or the report's own (shas may be abbreviated)."""
    pairs = ((sec.base, d.meta.base or ""), (sec.head, d.meta.head or ""))
    return all(not got or want.startswith(got) or got.startswith(want) for got, want in pairs)


def unchecked_reasons(d: ReportData) -> list[str]:
    """What was asked for and could not be carried out: no proof, which is not a pass."""
    r = [
        f"verify check {chk.name} could not run" + (f": {chk.summary}" if chk.summary else "")
        for chk in d.verify.static_checks
        if chk.status == COULD_NOT_RUN
    ]
    if d.verify.error:
        r.append(f"verify could not run: {d.verify.error}")
    if d.parity.error:
        r.append(f"parity could not run: {d.parity.error}")
    return r


def review_reasons(d: ReportData) -> list[str]:
    r = []
    if d.review:
        kinds = {}
        for item in d.review:
            kinds[item.kind] = kinds.get(item.kind, 0) + 1
        detail = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
        r.append(f"{len(d.review)} edit(s) need a human ({detail})")
    flagged = [x for x in d.leftovers.items if d.meta.mode != "range" and x.flagged]
    if flagged:
        r.append(
            f"{len(flagged)} old reference(s) the engine leaves for a person: "
            + ", ".join(f"{x.file}:{x.line}" for x in flagged[:MAX_NAMED])
        )
    for name, sec in (("verify", d.verify), ("parity", d.parity)):
        if d.meta.mode == "range" and sec.status == OK and not _same_range(d, sec):
            r.append(
                f"{name} results are for {sec.base[:10]}..{sec.head[:10]}, not this range"
                f" ({(d.meta.base or '')[:10]}..{(d.meta.head or '')[:10]})"
            )
    warnings = [f for f in d.rules.findings if f.severity != "error"]
    if warnings:
        r.append(f"{len(warnings)} rule warning(s)")
    unmarked = [c.sha[:10] for c in d.commits if not c.step]
    if unmarked:
        r.append(f"commit(s) without a Migrate-Step trailer: {', '.join(unmarked)}")
    missing = [LABELS.get(key, key) for key, status in sections(d) if status != OK]
    if missing:
        r.append("not run: " + ", ".join(missing))
    return r


LABELS = {"inventory": "test inventory", "leftovers": "leftover scan"}


def sections(d: ReportData) -> list[tuple[str, str]]:
    """(key, status) of each check the verdict depends on; keys are the JSON section names."""
    out = []
    if d.meta.mode == "range":
        out.append(("verify", d.verify.status))
    out += [
        ("rules", d.rules.status),
        ("inventory", d.inventory.status),
        ("parity", d.parity.status),
        ("leftovers", d.leftovers.status),
    ]
    return out


def verdict(d: ReportData) -> Verdict:
    broken, unchecked, review = broken_reasons(d), unchecked_reasons(d), review_reasons(d)
    level = "broken" if broken else "unchecked" if unchecked else "review" if review else "safe"
    return Verdict(level, broken + unchecked + review)
