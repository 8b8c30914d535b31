"""Each changed file before and after the ChangeSet: the input of the diff and the counts.

A view of the one materializer: the files are the materialized tree's `changes()`.
"""

from __future__ import annotations

from dataclasses import dataclass

from migrate.changes import ChangeSet
from migrate.index.repo import RepoIndex
from migrate.materialize import materialize


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
    """Every file the ChangeSet touches, sorted by the path it ends at (or had)."""
    tree = materialize(changeset, index)
    out: list[FileChange] = []
    for old, new in tree.changes():
        before = index.text(old) if old is not None else None
        after = tree.text(new) if new is not None else None
        mode = index.files[old].mode if old is not None else 0o100644
        binary = old is not None and before is None
        out.append(FileChange(old, new, before, after, mode, binary))
    return out
