"""Each changed file before and after the ChangeSet: the input of the diff and the counts."""

from __future__ import annotations

from dataclasses import dataclass

from migrate.changes import ChangeSet, apply_edits
from migrate.index.repo import RepoIndex


@dataclass(frozen=True)
class FileChange:
    """One file's change. `old`/`new` are None for an added/deleted file."""

    old: str | None
    new: str | None
    before: str | None  # decoded text; None when absent or binary
    after: str | None
    old_mode: int = 0o100644
    binary: bool = False

    @property
    def status(self) -> str:
        if self.old is None:
            return "added"
        if self.new is None:
            return "deleted"
        if self.old != self.new:
            return "renamed"
        return "modified"

    @property
    def changed_content(self) -> bool:
        return self.before != self.after


def file_changes(changeset: ChangeSet, index: RepoIndex) -> list[FileChange]:
    """Every file the ChangeSet touches, sorted by the path it ends at (or had).

    Edits apply to the file at its new path; a write replaces the text (edits to a
    written file apply on top of the written text); a removal of a move's target
    deletes the move's source.
    """
    source = {m.new: m.old for m in changeset.moves}
    touched = set(source) | {e.path for e in changeset.edits} | set(changeset.writes)
    out: list[FileChange] = []
    moved_away = set(source.values())
    for new in sorted(touched - set(changeset.removals)):
        old = source.get(new)
        if old is None and new in index.files and new not in moved_away:
            old = new
        before = index.text(old) if old is not None else None
        binary = old is not None and before is None
        base = changeset.writes[new][1] if new in changeset.writes else before
        edits = changeset.edits_for(new)
        after = apply_edits(base, edits) if edits and base is not None else base
        mode = index.files[old].mode if old is not None else 0o100644
        out.append(FileChange(old, new, before, after, mode, binary))
    for path in sorted(changeset.removals):
        old = source.get(path, path)
        if old not in index.files:
            continue
        before = index.text(old)
        out.append(FileChange(old, None, before, None, index.files[old].mode, before is None))
    return sorted(out, key=lambda c: c.new or c.old)
