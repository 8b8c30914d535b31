"""Every rule against its fixtures: the bad tree matches a committed snapshot, the good
tree (including the contract's negative cases) produces nothing.

Refresh snapshots after an intended change:
    MIGRATE_UPDATE_GOLDENS=1 pytest tests/test_rules_fixtures.py
"""

from __future__ import annotations

import pytest
from helpers import assert_golden
from rules_fixtures import FIXTURES, fixture_tree

from migrate.rules import all_rules, run_rules

RULES = {r.check.__module__.rsplit(".", 1)[1]: r for r in all_rules()}


def render(findings) -> str:
    lines = []
    for f in findings:
        lines.append(f"{f.pos.file}:{f.pos.line}: {f.check} [{f.severity}] {f.message}")
        if f.evidence:
            lines.append(f"    evidence: {f.evidence}")
        if f.fix:
            lines.append(f"    fix: {f.fix}")
    return "\n".join(lines) + "\n"


def test_every_rule_has_good_and_bad_fixtures():
    for name in RULES:
        assert (FIXTURES / name / "bad").is_dir(), f"no bad fixture for {name}"
        assert (FIXTURES / name / "good").is_dir(), f"no good fixture for {name}"


@pytest.mark.parametrize("name", sorted(RULES))
def test_bad_fixture_matches_snapshot(name):
    rule = RULES[name]
    findings = run_rules(fixture_tree(name, "bad"), {rule.id})
    assert findings, f"{rule.id} found nothing in its bad fixture"
    assert all(f.check == rule.id for f in findings)
    snapshot = FIXTURES / name / "bad.expected"
    got = render(findings)
    assert_golden(snapshot, got)


@pytest.mark.parametrize("name", sorted(RULES))
def test_good_fixture_is_clean(name):
    rule = RULES[name]
    assert run_rules(fixture_tree(name, "good"), {rule.id}) == []


def test_base_tree_is_clean_under_every_rule():
    assert run_rules(fixture_tree("group_list_drift", "good")) == []


def test_negative_cases_produce_no_finding_at_all():
    """Model names inside a group, no `_jit_` prefix, a runtime utility, no BaseFusedOp."""
    assert run_rules(fixture_tree("negatives", "good")) == []
