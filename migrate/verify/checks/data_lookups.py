"""A file a module finds next to itself at BASE is still there at HEAD: every literal
path a module builds from its own location (`Path(__file__).with_name("words.txt")`,
`os.path.join(os.path.dirname(__file__), "configs")`, `files(__package__) / "x"`,
`pkgutil.get_data(__package__, "x")`: `index/data_lookups.py`) that named a file or a
directory at BASE names one at HEAD. A module moved without its data imports fine and
fails (or silently falls back to a default) where it reads it; no other check sees it.

Only lookups missing at HEAD are judged; BASE is read for those files only (the file's
BASE counterpart, and the modules whose symbols the plan moved into it). One whose path
names nothing at BASE either (a file made at run time) is a warning.
"""

from __future__ import annotations

import posixpath

from migrate.verify.codetree import CodeTree
from migrate.verify.context import VerifyContext
from migrate.verify.result import CheckResult, against_base

NAME = "data-lookups"


class _Exists:
    """Whether a path is a file or a directory of a tree (its directories listed once,
    on the first path that is not a file)."""

    def __init__(self, tree: CodeTree):
        self.files = tree.index.files
        self.dirs: set[str] | None = None

    def __call__(self, path: str) -> bool:
        if path in self.files:
            return True
        if self.dirs is None:
            self.dirs = {d for f in self.files for d in _parents(f)}
        return path in self.dirs


def _parents(path: str):
    while "/" in path:
        path = path.rpartition("/")[0]
        yield path


def _resolved(path: str, rel: str) -> str | None:
    """The repo path `rel` names from file `path`'s directory; None above the root."""
    out = posixpath.normpath(posixpath.join(posixpath.dirname(path), rel))
    return None if out == ".." or out.startswith("../") else out


def missing(tree: CodeTree, exists, path: str) -> list[tuple[int, str, str]]:
    """(line, lookup, repo path) of the lookups of `path` that name nothing in `tree`."""
    facts = tree.facts(path)
    out = []
    for line, rel in facts.lookups if facts is not None else ():
        target = _resolved(path, rel)
        if target is not None and not exists(target):
            out.append((line, rel, target))
    return out


def check(ctx: VerifyContext) -> CheckResult:
    head_exists = _Exists(ctx.head)
    found = []
    scanned = 0
    for path, _ in ctx.head.python_files():
        facts = ctx.head.facts(path)
        if facts is None or not facts.lookups or path in ctx.exclude:
            continue
        scanned += 1
        found += [(path, *hit) for hit in missing(ctx.head, head_exists, path)]
    sources = ctx.symbol_sources() if found else {}
    base_exists = _Exists(ctx.base) if ctx.base is not None else None
    findings = []
    for path, line, rel, target in found:
        was = None  # where a BASE counterpart found `rel`, when it was there
        for base_path in sorted(ctx.base_paths([path]) | sources.get(path, set())):
            facts = ctx.base.facts(base_path) if base_exists else None
            if facts is not None and any(r == rel for _, r in facts.lookups):
                at = _resolved(base_path, rel)
                was = was or (at if at is not None and base_exists(at) else None)
        what = f"{rel} (looked up next to the module) is not in the tree: {target}"
        fix = f"{was} was found at BASE: move it with the module that reads it" if was else ""
        note = "it names nothing at BASE either"
        findings.append(against_base(path, line, NAME, what, was is None, fix, note))
    return CheckResult.judged(NAME, findings, f"{scanned} files looking up data")
