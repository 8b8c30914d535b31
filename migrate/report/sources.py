"""Adapters: other stages' results (objects or their JSON) -> the report's sections.

Each stage owns its result type; the report only reads it. Accepting the JSON form as
well lets CI run a stage once, keep its `--json` output, and build the report from it.
"""

from __future__ import annotations

import re
from dataclasses import asdict, is_dataclass

from migrate.report.data import (
    OK,
    Finding,
    InventorySection,
    LostItem,
    ParityOp,
    ParitySection,
    RulesSection,
    StaticCheck,
    SuiteDiff,
    VerifySection,
)


def as_dict(obj) -> dict:
    """A result as a dict: its own `to_dict()`/`to_json()`, a dataclass, or a dict already."""
    for name in ("to_dict", "to_json"):
        fn = getattr(obj, name, None)
        if callable(fn):
            out = fn()
            if isinstance(out, dict):
                return out
    if is_dataclass(obj):
        return asdict(obj)
    return dict(obj)


def finding(d) -> Finding:
    """A rules `Finding` (object or `to_dict()`), or a verify finding dict."""
    if not isinstance(d, dict):
        d = as_dict(d)
    pos = d.get("pos") or {}
    return Finding(
        file=d.get("file") or pos.get("file", ""),
        line=int(d.get("line") or pos.get("line") or 0),
        rule=str(d.get("rule") or d.get("check") or d.get("id") or ""),
        severity=d.get("severity", "error"),
        message=d.get("message", ""),
        fix=d.get("fix", "") or "",
    )


def rules_section(findings) -> RulesSection:
    """`run_rules(tree)` output, or the list `migrate check --format json` prints."""
    if isinstance(findings, dict):
        findings = findings.get("findings", [])
    return RulesSection(OK, [finding(f) for f in findings])


def _status(value) -> str:
    if isinstance(value, bool):
        return "PASS" if value else "FAIL"
    s = str(value).upper()
    if s in ("SKIP", "SKIPPED"):
        return "SKIP"
    return "PASS" if s in ("PASS", "OK", "PASSED", "TRUE") else "FAIL"


def verify_section(result) -> tuple[VerifySection, dict[str, tuple[str, str]]]:
    """(static checks, per-commit {sha: (PASS|FAIL, residual diff)}) from a verify result."""
    d = as_dict(result)
    per_commit: dict[str, tuple[str, str]] = {}
    for c in d.get("commits", []):
        c = c if isinstance(c, dict) else as_dict(c)
        status = c.get("status", c.get("ok", c.get("passed")))
        per_commit[c.get("sha", "")] = (
            _status(status),
            c.get("residual_diff") or c.get("diff") or "",
        )
    checks = []
    for s in d.get("static_checks", d.get("checks", [])):
        s = s if isinstance(s, dict) else as_dict(s)
        fs = [finding(f) for f in s.get("findings", [])]
        status = s.get("status", s.get("ok", not fs))
        checks.append(StaticCheck(s.get("name", s.get("check", "")), _status(status), fs))
    section = VerifySection(OK, checks, base=d.get("base") or "", head=d.get("head") or "")
    return section, per_commit


def inventory_section(result) -> InventorySection:
    """An inventory diff: per-suite files/cases/est_time before and after, lost items."""
    d = as_dict(result)
    suites = []
    for s in d.get("suites", []):
        s = s if isinstance(s, dict) else as_dict(s)
        before, after = s.get("before", {}), s.get("after", {})
        suites.append(
            SuiteDiff(
                suite=s.get("suite", ""),
                files_before=s.get("files_before", before.get("files", 0)),
                files_after=s.get("files_after", after.get("files", 0)),
                cases_before=s.get("cases_before", before.get("cases", 0)),
                cases_after=s.get("cases_after", after.get("cases", 0)),
                est_time_before=s.get("est_time_before", before.get("est_time", 0)),
                est_time_after=s.get("est_time_after", after.get("est_time", 0)),
            )
        )
    lost = []
    for kind, key in (("case", "lost_cases"), ("registration", "lost_registrations")):
        for item in d.get(key, []):
            if isinstance(item, str):
                lost.append(_lost_from_text(kind, item))
            else:
                item = item if isinstance(item, dict) else as_dict(item)
                lost.append(
                    LostItem(
                        kind,
                        item.get("file", item.get("path", "")),
                        item.get("name", item.get("nodeid", item.get("suite", ""))),
                        item.get("detail", ""),
                    )
                )
    # Lost items and budget changes are carried structurally above; keep the rest.
    problems = [str(p) for p in d.get("problems", []) if not _named_elsewhere(str(p))]
    return InventorySection(OK, suites, lost, problems)


_REG = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+) (?P<name>.+?)(?: -> (?P<to>.+))?$")


def _lost_from_text(kind: str, item: str) -> LostItem:
    """`path::test_id` (a case) or `path:line register_x_ci(suite) -> new path`."""
    if "::" in item:
        file, _, name = item.partition("::")
        return LostItem(kind, file, name)
    m = _REG.match(item)
    if m:
        detail = f"line {m['line']}" + (f", expected in {m['to']}" if m["to"] else "")
        return LostItem(kind, m["file"], m["name"], detail)
    return LostItem(kind, "", item)


def _named_elsewhere(problem: str) -> bool:
    return any(k in problem for k in ("is lost", "does not survive", "est_time of"))


def parity_section(result) -> ParitySection:
    """A `ParityResult` (or its `to_dict()`): per-op outcome and the device that ran it."""
    d = as_dict(result)
    env = (d.get("head") or {}).get("env") or (d.get("base") or {}).get("env") or {}
    ops = [
        ParityOp(
            op=o.get("op", ""),
            old=o.get("old", ""),
            status=o.get("status", ""),
            calls=o.get("calls", 0),
            identical=o.get("identical", 0),
            different=o.get("different", 0),
            devices=list(o.get("devices", [])),
        )
        for o in (x if isinstance(x, dict) else as_dict(x) for x in d.get("ops", []))
    ]
    gpu = ", ".join(env.get("gpus", []))
    if gpu and env.get("capability"):
        gpu += f" ({env['capability']})"
    return ParitySection(
        status=OK,
        device=d.get("device", ""),
        gpu_model=gpu,
        torch=str(env.get("torch", "")),
        triton=str(env.get("triton", "")),
        ops=ops,
        problems=[str(p) for p in d.get("problems", [])],
        base=(d.get("base") or {}).get("sha", ""),
        head=(d.get("head") or {}).get("sha", ""),
    )
