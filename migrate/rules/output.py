"""Render findings for people (one line each, evidence and fix indented) and for tools."""

from __future__ import annotations

import json

from migrate.findings import Finding


def format_text(findings: list[Finding]) -> str:
    lines = []
    for f in findings:
        lines.append(f"{f.pos}: {f.check} [{f.severity}] {f.message}")
        if f.evidence:
            lines.append(f"    evidence: {f.evidence}")
        if f.fix:
            lines.append(f"    fix: {f.fix}")
    errors = sum(f.severity == "error" for f in findings)
    warnings = len(findings) - errors
    lines.append(f"{errors} error(s), {warnings} warning(s)")
    return "\n".join(lines)


def format_json(findings: list[Finding], **extra) -> str:
    errors = sum(f.severity == "error" for f in findings)
    doc = {
        "findings": [f.to_dict() for f in findings],
        "errors": errors,
        "warnings": len(findings) - errors,
        **extra,
    }
    return json.dumps(doc, indent=2)
