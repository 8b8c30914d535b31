"""Plain-text tables for the inventory and its diff: the one place they are formatted."""

from __future__ import annotations

from migrate.tests_split.inventory import Inventory
from migrate.tests_split.inventory_diff import DiffResult


def _table(rows: list[list[str]], right: set[int] = frozenset()) -> list[str]:
    if not rows:
        return []
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ]
        out.append("  ".join(cells).rstrip())
    return out


def _fmt_time(t: float) -> str:
    return str(int(t)) if float(t).is_integer() else f"{t:g}"


def inventory_text(inv: Inventory) -> str:
    rows = [["file", "cases", "registrations", "main", "skips/markers"]]
    for path in sorted(inv.files):
        f = inv.files[path]
        regs = (
            ", ".join(
                f"{r.backend}:{r.effective_suite}={_fmt_time(r.est_time or 0)}s"
                + (" nightly" if r.nightly else "")
                + (" disabled" if r.disabled else "")
                for r in f.registrations
            )
            or "-"
        )
        marks = ", ".join([*f.module_skips, *f.markers]) or "-"
        cases = "error" if f.error else str(len(f.cases))
        rows.append([path, cases, regs, f.main or "-", marks])
    lines = _table(rows, right={1})
    lines.append("")
    totals = [["backend", "suite", "nightly", "files", "cases", "est_time"]]
    for t in inv.totals():
        totals.append(
            [
                t.backend,
                t.suite or "?",
                "yes" if t.nightly else "no",
                str(t.files),
                str(t.cases),
                f"{_fmt_time(t.est_time)}s",
            ]
        )
    lines += _table(totals, right={3, 4, 5})
    n_cases = sum(len(f.cases) for f in inv.files.values())
    lines.append(f"{len(inv.files)} test file(s), {n_cases} case(s)")
    for path, f in sorted(inv.files.items()):
        for r in f.registrations:
            for p in r.problems:
                lines.append(f"{path}:{r.line}: register_{r.backend}_ci: {p}")
        if f.error:
            lines.append(f"{path}: cannot parse: {f.error}")
        elif f.registrations and not f.runs_as_main:
            lines.append(f"{path}: registered, but no `__main__` block runs its tests")
        if f.collected is not None and len(f.collected) != len(f.cases):
            lines.append(
                f"{path}: pytest collects {len(f.collected)} case(s), static "
                f"inventory found {len(f.cases)}"
            )
    return "\n".join(lines) + "\n"


def diff_text(res: DiffResult) -> str:
    rows = [["backend", "suite", "nightly", "est_time before", "after"]]
    for (backend, suite, nightly), (b, a) in sorted(res.budgets.items(), key=lambda kv: str(kv)):
        rows.append(
            [
                backend,
                suite or "?",
                "yes" if nightly else "no",
                f"{_fmt_time(b)}s",
                f"{_fmt_time(a)}s",
            ]
        )
    lines = _table(rows, right={3, 4})
    lines.append(
        f"cases: {res.cases_before} before, {res.cases_after} after; "
        f"{len(res.missing_cases)} lost, {len(res.duplicated_cases)} duplicated, "
        f"{len(res.added_cases)} new"
    )
    if res.orphaned_timing_keys:
        lines.append("measured timings keyed by old paths (re-measure or re-key):")
        lines += [f"  {k}" for k in res.orphaned_timing_keys]
    lines += [str(n) for n in res.notes]
    lines.append("inventory preserved" if res.ok else "inventory NOT preserved")
    return "\n".join(lines) + "\n"
