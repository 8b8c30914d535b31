"""Compare the test inventories before and after a migration, through its moves and splits.

The proof reviewers need: every case exists exactly once afterwards, every CI
registration survives with its suite, flags and comments, and est_time totals per
suite are unchanged. Anything lost is an error; new cases are reported, not failed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from migrate.errors import Diagnostic, Pos
from migrate.index import RepoIndex
from migrate.tests_split.inventory import Inventory, build_inventory

Mapping = dict[str, "str | Sequence[str]"]


@dataclass
class SuiteDiff:
    """One CI suite before and after: files, cases and est_time (the report's table)."""

    suite: str  # "backend:suite", with " (nightly)" for a nightly one
    files_before: int = 0
    files_after: int = 0
    cases_before: int = 0
    cases_after: int = 0
    est_time_before: float = 0.0
    est_time_after: float = 0.0


@dataclass
class DiffResult:
    notes: list[Diagnostic] = field(default_factory=list)
    cases_before: int = 0
    cases_after: int = 0
    missing_cases: list[str] = field(default_factory=list)  # before node ids not found after
    duplicated_cases: list[str] = field(default_factory=list)  # found more than once
    added_cases: list[str] = field(default_factory=list)  # after node ids with no origin
    lost_registrations: list[str] = field(default_factory=list)
    budgets: dict[tuple, tuple[float, float]] = field(default_factory=dict)  # key -> (b, a)
    suites: list[SuiteDiff] = field(default_factory=list, repr=False)  # per CI suite
    orphaned_timing_keys: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(n.severity == "error" for n in self.notes)

    def to_dict(self) -> dict:
        """The shape `migrate report --inventory-json` reads, plus the details."""
        return {
            # lost_registrations stay the flat `path:line register_x(suite) -> new path`
            # strings of to_json(); the report parses them into file, name and detail.
            **self.to_json(),
            "ok": self.ok,
            "suites": [asdict(s) for s in self.suites],
            "lost_cases": list(self.missing_cases),
            "problems": [str(n) for n in self.notes if n.severity == "error"],
        }

    def to_json(self) -> dict:
        return {
            "ok": self.ok,
            "cases_before": self.cases_before,
            "cases_after": self.cases_after,
            "missing_cases": self.missing_cases,
            "duplicated_cases": self.duplicated_cases,
            "added_cases": self.added_cases,
            "lost_registrations": self.lost_registrations,
            "budgets": [
                {"backend": k[0], "suite": k[1], "nightly": k[2], "before": b, "after": a}
                for k, (b, a) in sorted(self.budgets.items(), key=lambda kv: str(kv[0]))
            ],
            "orphaned_timing_keys": self.orphaned_timing_keys,
            "notes": [str(n) for n in self.notes],
        }


def _targets(mapping: Mapping, path: str) -> list[str]:
    t = mapping.get(path, path)
    return [t] if isinstance(t, str) else list(t)


def _reg_key(r) -> tuple:
    return (r.backend, r.effective_suite, r.nightly, r.disabled, r.in_process_group)


def _check_cases(before: Inventory, after: Inventory, mapping: Mapping, res: DiffResult):
    after_ids = Counter(after.case_ids())
    matched: set[str] = set()
    for path, f in sorted(before.files.items()):
        targets = _targets(mapping, path)
        for c in f.cases:
            res.cases_before += 1
            hits = [c.node_id(t) for t in targets if after_ids[c.node_id(t)]]
            found = sum(after_ids[h] for h in hits)
            matched.update(hits)
            if found == 0:
                res.missing_cases.append(c.node_id(path))
                res.notes.append(
                    Diagnostic(
                        Pos(path, c.line, 1),
                        f"test case {c.name} is lost (looked in {', '.join(targets)})",
                    )
                )
            elif found > 1:
                res.duplicated_cases.append(c.node_id(path))
                res.notes.append(
                    Diagnostic(
                        Pos(path, c.line, 1),
                        f"test case {c.name} would run {found} times (in {', '.join(hits)})",
                    )
                )
    res.cases_after = sum(after_ids.values())
    res.added_cases = sorted(i for i in after_ids if i not in matched)


def _check_registrations(before: Inventory, after: Inventory, mapping: Mapping, res: DiffResult):
    for path, f in sorted(before.files.items()):
        for t in _targets(mapping, path):
            fa = after.files.get(t)
            have = Counter(_reg_key(r) for r in fa.registrations) if fa else Counter()
            comments = {c for r in fa.registrations for c in r.comments} if fa else set()
            for r in f.registrations:
                key = _reg_key(r)
                where = Pos(path, r.line, 1)
                label = f"register_{r.backend}_ci({r.effective_suite})"
                if have[key] <= 0:
                    res.lost_registrations.append(f"{path}:{r.line} {label} -> {t}")
                    res.notes.append(Diagnostic(where, f"{label} does not survive in {t}"))
                    continue
                have[key] -= 1
                for comment in r.comments:
                    if comment not in comments:
                        res.notes.append(
                            Diagnostic(
                                where, f"comment {comment!r} above {label} is missing in {t}"
                            )
                        )


def _check_entry_points(before: Inventory, after: Inventory, mapping: Mapping, res: DiffResult):
    """A file that ran as `__main__` must still do so wherever it went."""
    for path, f in sorted(before.files.items()):
        if not f.runs_as_main:
            continue
        for t in _targets(mapping, path):
            fa = after.files.get(t)
            if fa is not None and not fa.runs_as_main:
                res.notes.append(
                    Diagnostic(
                        Pos(t), f"{t} lost the `__main__` entry point of {path} ({f.main}.main)"
                    )
                )


def _check_budgets(before: Inventory, after: Inventory, res: DiffResult):
    tb = {(t.backend, t.suite, t.nightly): t for t in before.totals()}
    ta = {(t.backend, t.suite, t.nightly): t for t in after.totals()}
    b = {k: t.est_time for k, t in tb.items()}
    a = {k: t.est_time for k, t in ta.items()}
    for key in sorted(set(a) | set(b), key=str):
        res.budgets[key] = (b.get(key, 0), a.get(key, 0))
        nb, na = tb.get(key), ta.get(key)
        res.suites.append(
            SuiteDiff(
                suite=f"{key[0]}:{key[1]}" + (" (nightly)" if key[2] else ""),
                files_before=nb.files if nb else 0,
                files_after=na.files if na else 0,
                cases_before=nb.cases if nb else 0,
                cases_after=na.cases if na else 0,
                est_time_before=b.get(key, 0),
                est_time_after=a.get(key, 0),
            )
        )
        if b.get(key, 0) != a.get(key, 0):
            res.notes.append(
                Diagnostic(
                    Pos("<ci>"),
                    f"est_time of {key[0]} suite {key[1]}"
                    f"{' (nightly)' if key[2] else ''} changes from "
                    f"{b.get(key, 0)} s to {a.get(key, 0)} s",
                )
            )


def inventory_diff(
    before: Inventory, after: Inventory, mapping: Mapping, timing_keys: Iterable[str] | None = None
) -> DiffResult:
    """Check `after` against `before` where `mapping` sends old file paths to new ones.

    A value may be a list of paths: the outputs of a split. `timing_keys` are the file
    paths of measured CI timings; by default every registered file is assumed timed.
    """
    res = DiffResult()
    _check_cases(before, after, mapping, res)
    _check_registrations(before, after, mapping, res)
    _check_entry_points(before, after, mapping, res)
    _check_budgets(before, after, res)
    keys = (
        set(timing_keys)
        if timing_keys is not None
        else {p for p, f in before.files.items() if f.registrations}
    )
    res.orphaned_timing_keys = sorted(k for k in keys if _targets(mapping, k) != [k])
    return res


def _as_inventory(tree: Inventory | RepoIndex | str | Path) -> Inventory:
    return tree if isinstance(tree, Inventory) else build_inventory(tree)


def diff_trees(
    before: Inventory | RepoIndex | str | Path,
    after: Inventory | RepoIndex | str | Path,
    mapping: Mapping,
    timing_keys: Iterable[str] | None = None,
) -> DiffResult:
    """`inventory_diff` of two working trees (directories, indexes or inventories)."""
    return inventory_diff(_as_inventory(before), _as_inventory(after), mapping, timing_keys)


def mapping_from_plan(plan, relocation) -> dict[str, str | list[str]]:
    """Old path -> new path(s): every moved file, and every split source -> its outputs."""
    out: dict[str, str | list[str]] = dict(relocation.files)
    for sp in plan.splits:
        out[sp.file] = [o.path for o in sp.into]
    return out
