"""Golden reports for the sample plan: applied (BASE..HEAD) and previewed (dry run).

Commit shas, the plan's sha256, the tool version and tmp paths are normalised so the
goldens only change when the report's facts or layout change. Regenerate with
`MIGRATE_UPDATE_GOLDENS=1 pytest tests/test_report_golden.py` and review the diff.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
from conftest import GOLDEN, REPO_ROOT, SAMPLE, init_repo

from migrate.git_steps import apply_plan
from migrate.pipeline import prepare
from migrate.report import collect_preview, collect_range, to_json, to_markdown

PLAN = "plans/sample-jit-to-ops.yaml"
SCHEMA = json.loads((REPO_ROOT / "docs/report-schema.json").read_text())
UPDATE = os.environ.get("MIGRATE_UPDATE_GOLDENS") == "1"
HEX = re.compile(r"\b[0-9a-f]{7,64}\b")


def normalise(text: str, data, repo: Path) -> str:
    """Shas -> <commit-N> (N in range order, 0 = BASE), plan hash, version, tmp paths."""
    shas = [data.meta.base] + [c.sha for c in data.commits] if data.meta.base else []
    names = {sha: f"<commit-{i}>" for i, sha in enumerate(shas)}
    plan_sha = data.meta.plan_sha256 or "-"

    def sub(m: re.Match) -> str:
        h = m.group(0)
        for sha, name in names.items():
            if sha.startswith(h):
                return name
        return "<plan-sha256>" if plan_sha.startswith(h) else h

    text = HEX.sub(sub, text)
    text = text.replace(str(repo), "<repo>").replace(f"{REPO_ROOT}/", "")
    return text.replace(data.meta.tool_version, "<version>")


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / "report" / name
    if UPDATE or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"{path} was missing and has been written; review and commit it")
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from golden (see docstring)"


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
    assert data.summary.edits_status == "ok"
    jsonschema.validate(json.loads(to_json(data)), SCHEMA)
    md = to_markdown(data)
    check_golden("sample-preview.md", normalise(md, data, sample_copy))
