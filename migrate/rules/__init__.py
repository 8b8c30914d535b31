"""SGLang kernel organization rules, made executable.

`run_rules(tree)` runs every rule on a tree of the one tree protocol
(`index.tree.CodeTree`): the checkout's `RepoIndex`, or the tree a plan would produce
(`materialize(changeset, index)`).
"""

from migrate.findings import Finding
from migrate.rules.base import Rule
from migrate.rules.registry import all_rules, run_rules

__all__ = ["Finding", "Rule", "all_rules", "run_rules"]
