"""docs/rules.md is generated from the rule docstrings; every rule documents itself fully."""

from __future__ import annotations

from pathlib import Path

import pytest

from migrate.rules import all_rules
from migrate.rules.base import SECTIONS, parse_doc
from migrate.rules.docs import render

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def test_docs_match_rule_docstrings():
    assert DOCS.read_text(encoding="utf-8") == render(), (
        "docs/rules.md is stale: python -m migrate.rules.docs > docs/rules.md"
    )


def test_rule_ids_and_names_are_unique():
    rules = all_rules()
    assert len({r.id for r in rules}) == len(rules)
    assert len({r.name for r in rules}) == len(rules)


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.id)
def test_rule_has_every_section_and_a_severity(rule):
    assert rule.severity in ("error", "warning")
    assert list(rule.sections) == list(SECTIONS)
    assert all(rule.sections[s].strip() for s in SECTIONS)


def test_parse_doc_rejects_missing_sections():
    with pytest.raises(ValueError):
        parse_doc("KO999 some-rule: summary.\n\n## What it does\nx\n")
    with pytest.raises(ValueError):
        parse_doc("not a header")
