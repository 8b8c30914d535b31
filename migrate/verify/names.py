"""Where a text still spells one of a plan's old names, as verify findings.

A view of the one scanner (`migrate.oldnames.OldNames`): used by verify's old-name check
and by `migrate stale` (which runs after the migration, when the old modules are gone,
so its relocation is built from the plan alone).
"""

from __future__ import annotations

from collections.abc import Iterable

from migrate.oldnames import DELETED, OldNames
from migrate.verify.result import Finding

__all__ = ["DELETED", "OldNames", "excluded", "scan_text"]


def excluded(path: str, exclude: set[str], globs: Iterable[str]) -> bool:
    """Plan files, `.git-blame-ignore-revs` and `keep_prose` files (history) keep old names."""
    from migrate.rewrite.globs import repo_glob_match

    return path in exclude or any(repo_glob_match(g, path) for g in globs)


def scan_text(path: str, text: str, names: OldNames, check: str, tree=None) -> list[Finding]:
    """The old names `text` (file `path`) still spells, as `check` findings; with `tree`
    (the tree the file is in), code chains are read by binding (`OldNames.references`)."""
    out = []
    for hit in names.references(path, text, tree):
        line = text.count("\n", 0, hit.start) + 1
        if hit.deleted is not None:
            fix = f"the plan deletes {hit.deleted}: no single new name, fix by hand"
        else:
            fix = f"now {hit.new}"
        out.append(Finding(path, line, check, f"old name {hit.old}", fix))
    return out
