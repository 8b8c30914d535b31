"""Golden reports for the sample plan: applied (BASE..HEAD) and previewed (dry run).

Commit shas, the plan's sha256, the tool version and tmp paths are normalised so the
goldens only change when the report's facts or layout change. Regenerate with
`MIGRATE_UPDATE_GOLDENS=1 pytest tests/test_report_golden.py` and review the diff.
"""

from __future__ import annotations

import json
import shutil

import jsonschema
from helpers import REPO_ROOT, SAMPLE, init_repo
from report_fixtures import check_golden, normalise

from migrate.git_steps import apply_plan
from migrate.pipeline import prepare
from migrate.report import collect_preview, collect_range, to_json, to_markdown

PLAN = "plans/sample-jit-to-ops.yaml"
SCHEMA = json.loads((REPO_ROOT / "docs/report-schema.json").read_text())


def test_sample_report_golden(tmp_path):
    """kernels_sample as a git repo, the plan applied for real, then verified and reported."""
    repo = tmp_path / "kernels_sample"
    shutil.copytree(SAMPLE, repo, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    init_repo(repo)
    plan = REPO_ROOT / PLAN
    res = apply_plan(plan, repo)
    assert res.status == "applied", res.reason
    data = collect_range(repo, f"{res.base}..HEAD", str(plan), wheel_check=False)
    assert not data.plan_errors
    assert {c.verify for c in data.commits} == {"PASS"}
    doc = json.loads(to_json(data))
    jsonschema.validate(doc, SCHEMA)
    check_golden("sample.md", normalise(to_markdown(data), data, repo))
    check_golden("sample.json", normalise(to_json(data), data, repo))


def test_sample_preview_golden(sample_copy):
    prep = prepare(REPO_ROOT / PLAN, sample_copy)
    data = collect_preview(prep)
    jsonschema.validate(json.loads(to_json(data)), SCHEMA)
    md = to_markdown(data)
    check_golden("sample-preview.md", normalise(md, data, sample_copy))
