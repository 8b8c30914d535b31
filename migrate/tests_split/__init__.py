"""Test inventory, test splitting and CI budget apportioning.

Read-only analysis (`registrations`, `cases`, `inventory`) is kept apart from the one
module that produces text (`split`); `budgets` is arithmetic only, and
`inventory_diff` compares two inventories through a plan's moves and splits.
"""

from migrate.tests_split.budgets import apportion, load_junit_durations
from migrate.tests_split.cases import TestCase, parse_cases
from migrate.tests_split.inventory import FileInventory, Inventory, build_inventory
from migrate.tests_split.inventory_diff import DiffResult, diff_trees, inventory_diff
from migrate.tests_split.registrations import Registration, parse_registrations
from migrate.tests_split.split import SplitResult, split_file

__all__ = [
    "DiffResult",
    "FileInventory",
    "Inventory",
    "Registration",
    "SplitResult",
    "TestCase",
    "apportion",
    "build_inventory",
    "diff_trees",
    "inventory_diff",
    "load_junit_durations",
    "parse_cases",
    "parse_registrations",
    "split_file",
]
