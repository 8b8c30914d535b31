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

from migrate.index.data_lookups import STEM
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


def target(tree: CodeTree, path: str, rel: str) -> tuple[str | None, str]:
    """(the repo path lookup `rel` of file `path` names in `tree`, or None when it names
    none: above the root, or in a package the tree lacks; how to show the lookup)."""
    if rel.startswith(STEM):
        rel = posixpath.splitext(posixpath.basename(path))[0] + rel[len(STEM) :]
    if not rel.startswith("<"):
        out = posixpath.normpath(posixpath.join(posixpath.dirname(path), rel))
        return (None if out == ".." or out.startswith("../") else out), rel
    package, _, tail = rel[1:].partition(">")
    shown = f"{tail.lstrip('/') or '.'} in package {package}"
    where = tree.package_dir(package)
    if where is None:
        return None, shown
    return posixpath.normpath(posixpath.join(where, tail.lstrip("/"))), shown


def _own(ctx: VerifyContext, rel: str) -> bool:
    """A lookup in a package named by its name is judged where that package is the
    repository's (at HEAD or BASE), not a third party's (`files("certifi")`)."""
    if not rel.startswith("<") or rel.startswith(STEM):
        return True
    top = rel[1:].partition(">")[0].partition(".")[0]
    return ctx.head.is_module(top) or (ctx.base is not None and ctx.base.is_module(top))


def _same(base_rel: str, rel: str) -> bool:
    """A BASE lookup is the HEAD one: the same text, or the same path in a package named
    by its name, whatever the name (`<pkg.old>/a` respelled `<pkg.new>/a`, rightly or
    not: where it names nothing at HEAD and did at BASE, the move broke it)."""
    if base_rel == rel:
        return True
    if not (base_rel.startswith("<") and rel.startswith("<")) or STEM in (base_rel[:2], rel[:2]):
        return False
    return base_rel.partition(">")[2] == rel.partition(">")[2]


def missing(ctx: VerifyContext, exists, path: str) -> list[tuple[int, int, str, str, str]]:
    """(line, its place among the file's lookups, lookup, how it is shown, repo path or
    package) of the lookups of HEAD's `path` that name nothing at HEAD."""
    facts = ctx.head.facts(path)
    out = []
    for k, (line, rel) in enumerate(facts.lookups if facts is not None else ()):
        at, shown = target(ctx.head, path, rel)
        if at is None and not rel.startswith("<"):
            continue  # above the root: not the repository's to judge
        if (at is None or not exists(at)) and _own(ctx, rel):
            gone = f"package {rel[1:].partition('>')[0]} is not in the tree"
            out.append((line, k, rel, shown, at or gone))
    return out


def _at_base(ctx, exists, path: str, k: int, rel: str, sources: set[str]):
    """(where BASE found the lookup `rel`, the `k`-th of HEAD's `path`, or None; how BASE
    spelled it when not as HEAD does). Its counterpart is a lookup of the same path in the
    file's BASE counterpart or a module whose symbols moved into it; or, when the file
    alone is its counterpart and has as many lookups, the `k`-th (a path the move
    respelled: edits keep the lookups' order)."""
    if exists is None:
        return None, ""
    counterparts = sorted(ctx.base_paths([path]) | sources)
    for base_path in counterparts:
        facts = ctx.base.facts(base_path)
        lookups = facts.lookups if facts is not None else []
        for _, base_rel in lookups:
            if _same(base_rel, rel):
                at = target(ctx.base, base_path, base_rel)[0]
                if at is not None and exists(at):
                    return at, ""
    if len(counterparts) == 1:
        facts, head = ctx.base.facts(counterparts[0]), ctx.head.facts(path)
        if facts is not None and head is not None and len(facts.lookups) == len(head.lookups):
            base_rel = facts.lookups[k][1]
            at, shown = target(ctx.base, counterparts[0], base_rel)
            if at is not None and exists(at):
                return at, shown
    return None, ""


def check(ctx: VerifyContext) -> CheckResult:
    head_exists = _Exists(ctx.head)
    found = []
    scanned = 0
    for path, _ in ctx.head.python_files():
        facts = ctx.head.facts(path)
        if facts is None or not facts.lookups or path in ctx.exclude:
            continue
        scanned += 1
        found += [(path, *hit) for hit in missing(ctx, head_exists, path)]
    sources = ctx.symbol_sources() if found else {}
    base_exists = _Exists(ctx.base) if ctx.base is not None else None
    findings = []
    for path, line, k, rel, shown, at_head in found:
        was, spelled = _at_base(ctx, base_exists, path, k, rel, sources.get(path, set()))
        what = f"{shown} (looked up by the module) is not in the tree: {at_head}"
        fix = f"{was} was found at BASE" if was else ""
        if was:
            fix += f" by the same lookup, spelled {spelled}" if spelled else ""
            fix += ": move it with the module that reads it" if not spelled else ""
        note = "it names nothing at BASE either"
        findings.append(against_base(path, line, NAME, what, was is None, fix, note))
    return CheckResult.judged(NAME, findings, f"{scanned} files looking up data")
