"""The plan language: load (with positions), validate against the index."""

from migrate.plan.load import load_plan, parse_plan
from migrate.plan.model import Move, OpIdRename, Plan, Split, SplitOutput
from migrate.plan.validate import validate_plan

__all__ = [
    "Move",
    "OpIdRename",
    "Plan",
    "Split",
    "SplitOutput",
    "load_plan",
    "parse_plan",
    "validate_plan",
]
