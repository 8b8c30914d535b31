"""The plan language: its model and its loader (with positions).

Validation against the index (`migrate.plan.validate`) is not re-exported here: it needs
the relocation, which itself reads the plan model.
"""

from migrate.plan.load import load_plan, parse_plan
from migrate.plan.model import Move, OpIdRename, Plan, Split, SplitOutput

__all__ = [
    "Move",
    "OpIdRename",
    "Plan",
    "Split",
    "SplitOutput",
    "load_plan",
    "parse_plan",
]
