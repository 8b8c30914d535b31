"""References to names a plan moved, in a tree where the migration already happened.

For branches and PRs written against the old layout that merge after the move: the
plan alone (no index of the old tree) gives every old name and its replacement.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from pathlib import Path

from migrate.git import BLAME_FILE
from migrate.index import build_index
from migrate.plan import Plan
from migrate.relocate import plan_relocation
from migrate.verify.names import OldNames, excluded, scan_text
from migrate.verify.result import Finding

CHECK = "stale-reference"


def stale_references(
    repo_dir: str | Path, plans: list[Plan], files: Iterable[str] | None = None
) -> list[Finding]:
    """Every reference in `files` (default: all repository files) to a name a plan moved."""
    repo = Path(repo_dir).resolve()
    roots = tuple(dict.fromkeys(r for p in plans for r in p.roots)) or (".",)
    index = build_index(repo, roots)
    plan_paths = set()
    for p in plans:
        with contextlib.suppress(ValueError):
            plan_paths.add(Path(p.path).resolve().relative_to(repo).as_posix())
    if files is None:
        paths = sorted(index.files)
    else:
        paths = sorted(
            {Path(f).resolve().relative_to(repo).as_posix() for f in files} & set(index.files)
        )
    findings: list[Finding] = []
    for plan in plans:
        rel = plan_relocation(plan)
        names = OldNames(rel, plan)
        for path in paths:
            if index.files[path].is_symlink:
                continue
            if excluded(path, plan_paths | {BLAME_FILE}, plan.keep_prose):
                continue
            text = index.text(path)
            if text is not None:
                findings += scan_text(path, text, names, CHECK, index)
    return sorted(set(findings), key=lambda f: (f.file, f.line, f.message))
