"""Leftover references: old names still spelled in a tree after (or as planned by) a move.

A view of the one scanner (`migrate.oldnames.OldNames`), so the report finds exactly what
verify's old-names check and `migrate stale` find: dotted spellings, path spellings
(repo- and root-relative, `sglang/jit_kernel/csrc/a.cuh`), op ids and names in deleted
packages. Files the plan keeps prose in (`keep_prose`) and the plan file itself are skipped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from migrate.oldnames import OldNames
from migrate.report.data import Leftover
from migrate.rewrite.globs import repo_glob_match


def scan_text(path: str, text: str, names: OldNames, tree=None) -> list[Leftover]:
    """The old names `text` (file `path`) still spells; with `tree` (the tree the file is
    in), code chains are read by binding (`OldNames.references`), as verify reads them."""
    out = []
    for hit in names.references(path, text, tree):
        start = text.rfind("\n", 0, hit.start) + 1
        end = text.find("\n", hit.start)
        line = text[start : end if end >= 0 else len(text)]
        lineno = text.count("\n", 0, hit.start) + 1
        out.append(Leftover(path, lineno, hit.start - start + 1, hit.old, line.strip()[:200]))
    return out


def scan_leftovers(
    paths: Iterable[str],
    read: Callable[[str], str | None],
    relocation,
    plan,
    *,
    skip: Iterable[str] = (),
    tree=None,
) -> list[Leftover]:
    """Every stale spelling in the files `paths` (text from `read`), sorted by position;
    `tree` (a `CodeTree` holding them) reads code chains by binding."""
    names = OldNames(relocation, plan)
    keep = tuple(getattr(plan, "keep_prose", ()))
    skip = set(skip)
    out: list[Leftover] = []
    for path in sorted(paths):
        if path in skip or any(repo_glob_match(g, path) for g in keep):
            continue
        text = read(path)
        if text is not None:
            out.extend(scan_text(path, text, names, tree))
    return out
