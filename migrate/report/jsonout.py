"""The report as JSON for CI: the same facts as the Markdown, in a versioned schema.

`docs/report-schema.json` documents it; bump `SCHEMA_VERSION` on any incompatible change
(a removed or renamed field); adding a field is compatible.
"""

from __future__ import annotations

import json
from dataclasses import asdict

from migrate.report.data import ReportData
from migrate.report.verdict import TITLES, sections, verdict

SCHEMA_ID = "urn:migrate:report"
SCHEMA_VERSION = (
    3  # 2: findings are migrate.findings.Finding (`check`, not `rule`); 3: parity's too
)


def to_dict(data: ReportData) -> dict:
    v = verdict(data)
    return {
        "schema": SCHEMA_ID,
        "schema_version": SCHEMA_VERSION,
        "verdict": {"level": v.level, "title": TITLES[v.level], "reasons": v.reasons},
        "checks": {name: status for name, status in sections(data)},
        "meta": asdict(data.meta),
        "summary": asdict(data.summary),
        "moves": [asdict(e) for e in data.moves],
        "moves_not_drawn": data.moves_not_drawn,
        "commits": {"status": data.commits_status, "items": [asdict(c) for c in data.commits]},
        "verify": asdict(data.verify),
        "rules": asdict(data.rules),
        "inventory": asdict(data.inventory),
        "parity": asdict(data.parity),
        "review": [asdict(r) for r in data.review],
        "leftovers": asdict(data.leftovers),
        "plan_errors": list(data.plan_errors),
    }


def to_json(data: ReportData) -> str:
    return json.dumps(to_dict(data), indent=2, ensure_ascii=False) + "\n"
