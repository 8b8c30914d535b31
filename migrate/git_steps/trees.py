"""Each step's tree for `apply` and `verify`: a view of the one materializer.

A tree here is a mapping path -> (git mode, bytes); it may be restricted to the paths the
ChangeSet touches (`needed_paths`), and the result is then restricted the same way.
"""

from __future__ import annotations

from collections.abc import Mapping

from migrate.changes import ChangeSet
from migrate.git.objects import TREE, GitObjects, Listing
from migrate.materialize import (
    Files,
    LazyBase,
    StepError,
    carried_dirs,
    carry,
    content_paths,
    iter_steps,
    move_map,
    needed_paths,
)

__all__ = [
    "Files",
    "carried",
    "StepError",
    "move_map",
    "moved_gitlinks",
    "needed_paths",
    "step_listings",
    "step_sources",
    "step_trees",
]


def step_trees(
    base_files: Mapping[str, tuple[int, bytes]], cs: ChangeSet
) -> list[tuple[str, Files]]:
    """[(step, tree)] for every non-empty step, in `STEPS` order; each tree is cumulative."""
    return [(step, tree.files()) for step, tree in iter_steps(cs, base_files)]


def carried(
    objs: GitObjects, tree: str, listing: Listing, cs: ChangeSet
) -> tuple[Listing, ChangeSet]:
    """(`listing`, `cs`) with each directory the moves carry whole (`carried_dirs`) as ONE
    entry: the listing holds the directory's tree (mode 040000, the id it has in `tree`)
    instead of its files, the ChangeSet one move of it. `step_listings` of the pair gives
    the same trees as of the originals; a step's tree then differs from its parent's by a
    few entries, which `GitObjects.graft` writes along their paths only."""
    dirs = carried_dirs(cs, listing)
    ids = objs.entry_ids(tree, list(dirs))
    dirs = {o: n for o, n in dirs.items() if o in ids}
    if not dirs:
        return listing, cs
    inside = tuple(o + "/" for o in dirs)
    out = {p: v for p, v in listing.items() if not p.startswith(inside)}
    out.update({o: (TREE, ids[o]) for o in dirs})
    return out, carry(cs, dirs)


def step_listings(objs: GitObjects, listing: Listing, cs: ChangeSet) -> list[tuple[str, Listing]]:
    """[(step, whole tree as a listing)] for apply: a file whose bytes the step did not
    produce keeps its blob (never read); the produced ones are read and written in one
    batch each. Same trees as `step_trees`, without reading what a move carries."""
    needed = {p for p in needed_paths(cs) if p in listing}
    content = {p: d for p, (_m, d) in objs.files(listing, content_paths(cs) & needed).items()}

    def read(path: str) -> bytes:
        if path not in content:  # not expected: the materializer asked for more
            content[path] = objs.read(listing[path][1])
        return content[path]

    base = LazyBase({p: listing[p][0] for p in needed}, read)
    out = []
    for step, tree in iter_steps(cs, base):
        result = {p: v for p, v in listing.items() if p not in needed}
        produced: dict[str, tuple[int, bytes]] = {}
        for p, mode, origin, data in tree.lineage():
            if data is None:
                result[p] = (mode, listing[origin][1])
            else:
                produced[p] = (mode, data)
        shas = objs.write_blobs([d for _m, d in produced.values()])
        for (p, (mode, _d)), sha in zip(produced.items(), shas, strict=True):
            result[p] = (mode, sha)
        out.append((step, moved_gitlinks(result, cs)))
    return out


def moved_gitlinks(listing: Listing, cs: ChangeSet) -> Listing:
    """`listing` with the ChangeSet's submodules at their new paths (the `relocate` step
    and every step after it: trees are cumulative)."""
    if not cs.submodules:
        return listing
    out = dict(listing)
    for old, new in cs.submodules.items():
        if old in out:
            out[new] = out.pop(old)
    return out


def step_sources(cs: ChangeSet, step: str) -> dict[str, str]:
    """new path -> path in the previous step's tree, for paths a step renames."""
    return move_map(cs) if step == "relocate" else {}
