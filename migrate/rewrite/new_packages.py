"""A move into a directory that is not yet a package, under a regular package, creates
the missing `__init__.py`: otherwise setuptools' package discovery drops the new module
from the wheel even though source-tree imports (namespace packages) still work.

Only modules that came from a regular package trigger this (a namespace directory such
as `csrc/` holding helper scripts stays a namespace), and only directories whose names
are identifiers can be packages.
"""

from __future__ import annotations

import posixpath

from migrate.changes import ChangeSet
from migrate.index.repo import RepoIndex
from migrate.index.tree import IDENT
from migrate.relocate import Relocation


def final_files(index: RepoIndex, rel: Relocation, cs: ChangeSet, removed: set[str]) -> set[str]:
    files = set(index.files) - set(rel.files) - removed - set(cs.removals)
    files.update(rel.files.values())
    files.update(cs.writes)
    return files


def _from_regular_package(index: RepoIndex, old: str | None) -> bool:
    if old is None:
        return True  # a new module written by the plan (symbol move target)
    d = posixpath.dirname(old)
    return f"{d}/__init__.py" in index.files


def missing_inits(
    index: RepoIndex, rel: Relocation, cs: ChangeSet, removed: set[str] = frozenset()
) -> list[str]:
    files = final_files(index, rel, cs, set(removed))
    roots = {r for r in index.roots if r not in (".", "")}
    created: list[str] = []
    sources = {new: old for old, new in rel.files.items() if new.endswith(".py")}
    for path, (step, _) in cs.writes.items():
        if path.endswith(".py") and step == "code":
            sources.setdefault(path, None)
    for path in sorted(sources):
        if not _from_regular_package(index, sources[path]):
            continue
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
            if IDENT.match(posixpath.basename(d)) and f"{parent}/__init__.py" in files:
                files.add(init)
                created.append(init)
    return created
