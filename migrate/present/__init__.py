"""The dry run, presented: a summary for people, a unified diff for review, JSON for tools.

All three render one set of facts (`facts.dry_run_facts`), so they cannot disagree.
"""

from migrate.present.diff import unified_diff
from migrate.present.facts import SCHEMA, dry_run_facts, to_json
from migrate.present.summary import summary

__all__ = ["SCHEMA", "dry_run_facts", "summary", "to_json", "unified_diff"]
