"""The ChangeSet: everything a plan does to a tree, as data, grouped by commit step.

The same ChangeSet feeds the dry run (summary, diff, JSON), `apply` (one commit per
step) and `verify` (reproduce a step from its parent and compare); `materialize.py`
is the one function that turns it into trees.

The contract for one path, checked by `ChangeSet.check()` when a ChangeSet is built
(`ChangeSet(...)` with content, and the engine once it has filled one in):

- moves: each source moves once and each target is reached once (moves are simultaneous,
  so a target may be another move's source) (submodule moves count as moves here);
- edits name the file at its post-move path, carry offsets into its relocated *base*
  text (a step's edits never shift another's), and never overlap on one path;
- a whole-file write at step S replaces the path from S on: edits of that path must be
  of steps before S (the writer folds them into its text, e.g. a split kept at its
  source path is written from the edited source), never of S or later;
- a removal at step S drops the path from S on: no edits or writes of a later step, and
  a path is never both written and removed.
Whether the files exist in the base is checked when materializing (`StepError`).
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


class ContractError(ValueError):
    """A ChangeSet breaks the one-path contract (see the module docstring)."""

    def __init__(self, path: str, message: str) -> None:
        self.path, self.message = path, message
        super().__init__(f"{path}: {message}")

    def __reduce__(self):
        return (type(self), (self.path, self.message))


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
    # The plan's codec for files that are neither UTF-8 nor cookied: path (old and new) ->
    # codec; edits and writes of them are decoded and encoded with it
    encodings: dict[str, str] = field(default_factory=dict)
    # Submodules (gitlinks) that move with their package in the `relocate` step: old path ->
    # new path. Not files: no bytes, and the submodule keeps its name (`.gitmodules` is
    # written in the same step with only its `path =` values changed)
    submodules: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> ChangeSet:
        """Raise `ContractError` unless every path obeys the contract; returns self."""
        olds = [m.old for m in self.moves] + list(self.submodules)
        news = [m.new for m in self.moves] + list(self.submodules.values())
        if len(set(olds)) != len(olds) or len(set(news)) != len(news):
            self._first_double_move()
        order = {s: i for i, s in enumerate(STEPS)}
        for path, (step, _) in self.writes.items():
            if step not in order:
                raise ContractError(path, f"written at unknown step {step!r}")
            if path in self.removals:
                raise ContractError(path, "both written and removed")
        for path, step in self.removals.items():
            if step not in order:
                raise ContractError(path, f"removed at unknown step {step!r}")
        last: dict[str, Edit] = {}
        for e in sorted(self.edits, key=lambda e: (e.path, e.start, e.end)):
            if e.kind not in EDIT_KINDS:
                raise ContractError(e.path, f"edit of unknown kind {e.kind!r}")
            if not 0 <= e.start <= e.end:
                raise ContractError(e.path, f"edit at {e.line}:{e.col} has a bad span")
            prev = last.get(e.path)
            if prev is not None and e.start < prev.end:
                raise ContractError(
                    e.path, f"overlapping edits at {prev.line}:{prev.col} and {e.line}:{e.col}"
                )
            last[e.path] = e
            written = self.writes.get(e.path)
            if written is not None and order[e.kind] >= order[written[0]]:
                raise ContractError(
                    e.path,
                    f"{e.kind} edit at {e.line}:{e.col} in or after its whole-file write "
                    f"({written[0]}): a write must already contain the path's edits",
                )
            removed = self.removals.get(e.path)
            if removed is not None and order[e.kind] > order[removed]:
                raise ContractError(
                    e.path, f"{e.kind} edit at {e.line}:{e.col} after its removal ({removed})"
                )
        return self

    def _first_double_move(self) -> None:
        """The `ContractError` of the first move (submodules last) that repeats a source or
        a target: `check` looks here only when the sets show there is one."""
        sources, targets = set(), set()
        for m in [*self.moves, *(FileMove(o, n) for o, n in self.submodules.items())]:
            if m.old in sources:
                raise ContractError(m.old, "moved twice")
            if m.new in targets:
                raise ContractError(m.new, "the target of two moves")
            sources.add(m.old)
            targets.add(m.new)

    def edits_for(self, path: str, kinds: tuple[str, ...] = EDIT_KINDS) -> list[Edit]:
        return sorted(
            (e for e in self.edits if e.path == path and e.kind in kinds),
            key=lambda e: (e.start, e.end),
        )

    def steps_present(self) -> list[str]:
        present = set()
        if self.moves or self.submodules:
            present.add("relocate")
        present.update(e.kind for e in self.edits)
        present.update(step for step, _ in self.writes.values())
        present.update(self.removals.values())
        return [s for s in STEPS if s in present]


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping span edits to `text` (edits may be in any order; an insertion
    at the start of a replaced span goes before it, as `ChangeSet.check` orders them)."""
    out, last = [], 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if e.start < last:
            raise ValueError(f"overlapping edits in {e.path} at {e.line}:{e.col}")
        if text[e.start : e.end] != e.old:
            raise ValueError(f"stale edit in {e.path} at {e.line}:{e.col}: expected {e.old!r}")
        out.append(text[last : e.start])
        out.append(e.new)
        last = e.end
    out.append(text[last:])
    return "".join(out)
