"""Relative symlinks follow the move: a link to a moved file points at its new place, and
a moved link still points where it pointed (from its new directory).

A symlink's target is a reference spelled as a path relative to the link's directory, so
it is rewritten like any other reference, in the `code` step (the `relocate` commit stays
pure renames). Targets are resolved lexically, inside the repository; absolute targets and
targets outside the repository are left as they are.
"""

from __future__ import annotations

import posixpath

from migrate.errors import Diagnostic, Pos
from migrate.index.repo import RepoIndex
from migrate.relocate import Relocation


def _inside(path: str) -> bool:
    return path not in ("", ".", "..") and not path.startswith("../")


def new_target(link: str, target: str, new_link: str, relocation: Relocation) -> str | None:
    """The target `new_link` needs to reach what `link -> target` reached, or None when the
    target is absolute or leaves the repository (not ours to judge)."""
    if not target or target.startswith("/"):
        return None
    reached = posixpath.normpath(posixpath.join(posixpath.dirname(link), target))
    if not _inside(reached):
        return None
    now = relocation.path(reached) or reached
    out = posixpath.relpath(now, posixpath.dirname(new_link) or ".")
    return out + "/" if target.endswith("/") and not out.endswith("/") else out


def symlink_retargets(
    index: RepoIndex, relocation: Relocation, gone: set[str]
) -> tuple[dict[str, str], list[Diagnostic]]:
    """({new link path: new target}, notes) for every relative symlink whose target must
    change; a link whose target the plan removes (`gone`, new paths) gets a warning."""
    writes: dict[str, str] = {}
    notes: list[Diagnostic] = []
    for path, info in sorted(index.files.items()):
        if not info.is_symlink:
            continue
        target = index.read_bytes(path).decode("utf-8", "surrogateescape")
        new_link = relocation.files.get(path, path)
        new = new_target(path, target, new_link, relocation)
        if new is None:
            continue
        if new.rstrip("/") != target.rstrip("/"):
            writes[new_link] = new
        reached = posixpath.normpath(posixpath.join(posixpath.dirname(new_link), new))
        if reached in gone:
            why = f"symlink to {reached}, which the plan removes: it will dangle"
            notes.append(Diagnostic(Pos(new_link), why, "warning"))
    return writes, notes
