"""Adapters: other stages' results -> the report's sections.

Each stage owns its result type and its JSON form (`to_dict()`); the report reads that
one form, key by key as the stage writes it, so a typed result and its `--json` output
(CI can run a stage once, keep the JSON and build the report from it) give one section.
Findings are the one `migrate.findings.Finding`, carried over as they are.
"""

from __future__ import annotations

import re

from migrate.findings import CheckResult, Finding
from migrate.report.data import (
    OK,
    InventorySection,
    LostItem,
    ParityOp,
    ParitySection,
    RulesSection,
    VerifySection,
)


def stage_dict(result) -> dict:
    """A stage result in its JSON form: the result's own `to_dict()`, or that JSON already."""
    return result if isinstance(result, dict) else result.to_dict()


def finding(f) -> Finding:
    """A `Finding`, or its `to_dict()` form."""
    return f if isinstance(f, Finding) else Finding.from_dict(f)


def rules_section(findings) -> RulesSection:
    """`run_rules(tree)` output, or the document `migrate check --json` prints."""
    if isinstance(findings, dict):
        findings = findings["findings"]
    return RulesSection(OK, [finding(f) for f in findings])


def verify_section(result) -> tuple[VerifySection, dict[str, tuple[str, str]]]:
    """(static checks, per-commit {sha: (status, residual diff)}) from a `VerifyResult`."""
    d = stage_dict(result)
    per_commit = {c["sha"]: (c["status"], c.get("residual_diff", "")) for c in d["commits"]}
    checks = [
        CheckResult(
            s["name"], s["status"], [finding(f) for f in s["findings"]], s.get("summary", "")
        )
        for s in d["static_checks"]
    ]
    section = VerifySection(OK, checks, base=d.get("base") or "", head=d.get("head") or "")
    return section, per_commit


def inventory_section(result) -> InventorySection:
    """An inventory diff (`DiffResult`): per-suite files/cases/est_time, lost items."""
    from migrate.tests_split.inventory_diff import SuiteDiff

    d = stage_dict(result)
    suites = [SuiteDiff(**s) for s in d.get("suites", [])]
    lost = [_lost_from_text("case", item) for item in d.get("lost_cases", [])]
    lost += [_lost_from_text("registration", item) for item in d.get("lost_registrations", [])]
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
    d = stage_dict(result)
    env = d["head"].get("env") or d["base"].get("env") or {}
    ops = [
        ParityOp(
            op=o["op"],
            old=o["old"],
            status=o["status"],
            calls=o["calls"],
            identical=o["identical"],
            different=o["different"],
            devices=list(o["devices"]),
        )
        for o in d["ops"]
    ]
    gpu = ", ".join(env.get("gpus", []))
    if gpu and env.get("capability"):
        gpu += f" ({env['capability']})"
    return ParitySection(
        status=OK,
        device=d["device"],
        gpu_model=gpu,
        torch=str(env.get("torch", "")),
        triton=str(env.get("triton", "")),
        ops=ops,
        findings=[finding(f) for f in d["findings"]],
        base=d["base"]["sha"],
        head=d["head"]["sha"],
    )
