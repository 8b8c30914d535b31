"""Plan + ChangeSet -> the report's summary, move edges and review items (pure).

The dry-run preview and the report of an applied range both call these, so a reviewer
sees the same numbers before and after `apply`.
"""

from __future__ import annotations

from collections import Counter

from migrate.changes import EDIT_KINDS, ChangeSet
from migrate.report.data import MoveEdge, ReviewItem, Summary

OPS_MARK = ("kernels", "ops")


def _strip_root(path: str, roots) -> str:
    for root in sorted(roots, key=len, reverse=True):
        if root not in (".", "") and path.startswith(root.rstrip("/") + "/"):
            return path[len(root.rstrip("/")) + 1 :]
    return path


def _package_of(path: str, roots) -> str:
    """Dotted package holding `path` (its directory under the import root)."""
    rel = _strip_root(path, roots)
    return ".".join(rel.split("/")[:-1]) or "."


def _within(path: str, dirs) -> str | None:
    hits = [d.rstrip("/") for d in dirs if path.startswith(d.rstrip("/") + "/")]
    return max(hits, key=len) if hits else None


def destination(path: str, roots, moved_dirs=()) -> str:
    """`ops.<group>` when `path` lands in a kernels/ops group, else the moved directory
    (a package or path move's target) or package that receives it."""
    parts = _strip_root(path, roots).split("/")[:-1]
    for i in range(len(parts) - 2):
        if tuple(parts[i : i + 2]) == OPS_MARK:
            return f"ops.{parts[i + 2]}"
    top = _within(path, moved_dirs)
    return _package_of(f"{top}/x", roots) if top else ".".join(parts) or "."


def summarize(cs: ChangeSet, plan=None, relocation=None) -> Summary:
    """Counts a reviewer checks first."""
    kinds = Counter()
    for mv in cs.moves:
        if mv.old.endswith("/__init__.py") or mv.old == "__init__.py":
            kinds["package"] += 1
        elif mv.old.endswith(".py"):
            kinds["module"] += 1
        else:
            kinds["data"] += 1
    touched = {m.new for m in cs.moves} | {e.path for e in cs.edits}
    touched |= set(cs.writes) | set(cs.removals)
    edits = {k: sum(1 for e in cs.edits if e.kind == k) for k in EDIT_KINDS}
    return Summary(
        modules_moved=kinds["module"],
        packages_moved=kinds["package"],
        symbols_moved=len(relocation.symbols) if relocation is not None else 0,
        data_files_moved=kinds["data"],
        submodules_moved=len(cs.submodules),
        files_moved=len(cs.moves),
        files_touched=len(touched),
        edits=edits,
        edits_review=sum(1 for e in cs.edits if e.applicability == "review"),
        tests_split=len(plan.splits) if plan is not None else 0,
        groups_added=list(plan.groups_add) if plan is not None else [],
    )


def _legacy_node(old: str, roots, moved_dirs) -> str:
    """The moved package (or path) that carries `old`, else the package holding it."""
    top = _within(old, moved_dirs)
    return _package_of(f"{top}/x", roots) if top else _package_of(old, roots)


def in_roots(path: str, roots) -> bool:
    """True when `path` lies under an import root (always, for a root of ".")."""
    return any(r in (".", "") or path.startswith(r.rstrip("/") + "/") for r in roots)


def move_edges(
    cs: ChangeSet, roots=(".",), moved_dirs=(), target_dirs=()
) -> tuple[list[MoveEdge], int]:
    """(edges legacy package -> destination weighted by files, files not drawn).

    Only package code is drawn: files outside the import roots (tests, docs) would
    bury the package-to-group picture; they are counted instead. `moved_dirs` (the
    relocation's package and path prefixes) keeps a moved package's data
    subdirectories inside its node instead of giving each its own; `target_dirs` (their
    targets) does the same on the destination side.
    """
    drawn = [m for m in cs.moves if in_roots(m.old, roots)]
    count = Counter(
        (_legacy_node(m.old, roots, moved_dirs), destination(m.new, roots, target_dirs))
        for m in drawn
    )
    edges = [MoveEdge(src, dst, n) for (src, dst), n in sorted(count.items())]
    return edges, len(cs.moves) - len(drawn)


def review_items(cs: ChangeSet) -> list[ReviewItem]:
    """Edits a human must confirm (review applicability, prose) and the engine's notes.

    Ordered by how much a reviewer's judgement matters: review edits, notes, prose.
    """
    items = [
        ReviewItem(e.path, e.line, e.col, e.kind, e.reason, e.old, e.new, e.applicability)
        for e in cs.edits
        if e.applicability == "review" or e.kind == "prose"
    ]
    for note in cs.notes:
        pos = getattr(note, "pos", None)
        items.append(
            ReviewItem(
                getattr(pos, "file", ""),
                getattr(pos, "line", 0),
                getattr(pos, "col", 0),
                "note",
                getattr(note, "message", str(note)),
                applicability=getattr(note, "severity", "warning"),
            )
        )
    return sorted(items, key=_review_order)


def _review_order(item: ReviewItem) -> tuple:
    """Patch targets and other review edits first, then the engine's notes, then prose."""
    rank = 1 if item.kind == "note" else 0 if item.applicability == "review" else 2
    return (rank, item.file, item.line, item.col)
