"""SGLang kernel organization rules, made executable.

`run_rules(tree)` runs every rule on a `Tree`: the checkout (`tree_from_index`) or the
tree a plan would produce (`virtual_tree(index, changeset)`).
"""

from migrate.findings import Finding
from migrate.rules.base import Rule
from migrate.rules.registry import all_rules, run_rules
from migrate.rules.tree import Tree, tree_from_index, virtual_tree

__all__ = ["Finding", "Rule", "Tree", "all_rules", "run_rules", "tree_from_index", "virtual_tree"]
