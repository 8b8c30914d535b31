"""Symbol moves (`from: mod:sym`). (stub)"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class SymbolPlan:
    moving: dict = field(default_factory=dict)
    errors: list = field(default_factory=list)
    touched: set = field(default_factory=set)

    def apply(self, cs, index, rel) -> None:
        return None


def plan_symbol_moves(index, rel) -> SymbolPlan:
    return SymbolPlan()
