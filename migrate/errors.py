"""Positioned diagnostics shared by every stage (plan errors, parse errors, findings)."""

from __future__ import annotations

from dataclasses import dataclass, field

# `Diagnostic.kind`: what a note is about, for passes that act on notes of a kind
TABLE_ROWS = "table-rows"  # a registry/op-id table's rows, said by a table rewriter
OVERLAP = "overlap"  # two forms rewrite one span and cannot be composed: never written


@dataclass(frozen=True, order=True)
class Pos:
    """A 1-based line and column in a file; line 0 means "the whole file"."""

    file: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.col}"
        return self.file


@dataclass(frozen=True)
class Diagnostic:
    pos: Pos
    message: str
    severity: str = "error"  # error | warning
    kind: str = field(default="", compare=False)  # e.g. TABLE_ROWS; not shown

    def __str__(self) -> str:
        return f"{self.pos}: {self.severity}: {self.message}"


class MigrateError(Exception):
    """One or more diagnostics that stop the run before anything is written."""

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic):
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))

    def __reduce__(self):  # crosses the rewrite pool intact
        return (type(self), (self.diagnostics,))
