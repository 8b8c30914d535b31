"""The ChangeSet: everything a plan does to a tree, as data, grouped by commit step.

The same ChangeSet feeds the dry run (summary, diff, JSON), `apply` (one commit per
step) and `verify` (reproduce a step from its parent and compare).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Commit steps, in order. Each is created only when it has something to do.
STEPS = ("relocate", "code", "string", "prose", "tests", "delete")
EDIT_KINDS = ("code", "string", "prose")


@dataclass(frozen=True)
class FileMove:
    old: str
    new: str


@dataclass(frozen=True)
class Edit:
    """One replacement in one file.

    `path` is the file's path after relocation; `start`/`end` are character offsets
    into its decoded text (which relocation does not change). Edits of one file never
    overlap, so any subset of them (one step's worth) applies on its own.
    """

    path: str
    start: int
    end: int
    old: str
    new: str
    kind: str  # code | string | prose
    line: int
    col: int
    reason: str
    applicability: str = "safe"  # safe | review


@dataclass
class ChangeSet:
    moves: list[FileMove] = field(default_factory=list)
    edits: list[Edit] = field(default_factory=list)
    # Whole-file results that are not span edits: files created or rewritten by a step
    # (symbol-move targets in `code`, split outputs in `tests`). path -> (step, text)
    writes: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Files removed by a step: path -> step (split sources in `tests`, legacy in `delete`)
    removals: dict[str, str] = field(default_factory=dict)
    notes: list = field(default_factory=list)  # Diagnostics: warnings, review items

    def edits_for(self, path: str, kinds: tuple[str, ...] = EDIT_KINDS) -> list[Edit]:
        return sorted(
            (e for e in self.edits if e.path == path and e.kind in kinds), key=lambda e: e.start
        )

    def steps_present(self) -> list[str]:
        present = set()
        if self.moves:
            present.add("relocate")
        present.update(e.kind for e in self.edits)
        present.update(step for step, _ in self.writes.values())
        present.update(self.removals.values())
        return [s for s in STEPS if s in present]


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping span edits to `text` (edits may be in any order)."""
    out, last = [], 0
    for e in sorted(edits, key=lambda e: e.start):
        if e.start < last:
            raise ValueError(f"overlapping edits in {e.path} at {e.line}:{e.col}")
        if text[e.start : e.end] != e.old:
            raise ValueError(f"stale edit in {e.path} at {e.line}:{e.col}: expected {e.old!r}")
        out.append(text[last : e.start])
        out.append(e.new)
        last = e.end
    out.append(text[last:])
    return "".join(out)
