"""A move into a directory that is not yet a package, under a regular package, creates
the missing `__init__.py`: otherwise setuptools' package discovery drops the new module
from the wheel even though source-tree imports (namespace packages) still work."""

from __future__ import annotations

import posixpath

from migrate.changes import ChangeSet
from migrate.index.repo import RepoIndex
from migrate.relocate import Relocation


def final_files(index: RepoIndex, rel: Relocation, cs: ChangeSet, removed: set[str]) -> set[str]:
    files = set(index.files) - set(rel.files) - removed - set(cs.removals)
    files.update(rel.files.values())
    files.update(cs.writes)
    return files


def missing_inits(
    index: RepoIndex, rel: Relocation, cs: ChangeSet, removed: set[str] = frozenset()
) -> list[str]:
    files = final_files(index, rel, cs, set(removed))
    roots = [r for r in index.roots if r not in (".", "")]
    created: list[str] = []
    new_py = sorted(
        {p for p in rel.files.values() if p.endswith(".py")}
        | {p for p, (step, _) in cs.writes.items() if p.endswith(".py") and step == "code"}
    )
    for path in new_py:
        dirs = []
        d = posixpath.dirname(path)
        while d and d not in roots:
            dirs.append(d)
            d = posixpath.dirname(d)
        for d in reversed(dirs):
            init = f"{d}/__init__.py"
            parent = posixpath.dirname(d)
            if init in files or not parent or parent in roots:
                continue
            if f"{parent}/__init__.py" in files:
                files.add(init)
                created.append(init)
    return created
