"""Submodules move with their package: the gitlink, and `.gitmodules`' `path =` values.

A submodule is not a file of the superproject: the index holds a gitlink (mode 160000, a
commit id) at its path and `.gitmodules` says where it lives by name. Moving it, as
`git mv` does, renames the gitlink and rewrites the `path =` value of its section; the
section's name stays, because the submodule's git dir (`.git/modules/<name>`) and the
user's `submodule.<name>.*` config are keyed by it. Both happen in the `relocate` step,
so every commit of the run is a consistent checkout.

`.gitmodules` is owned here: a generic text pass would also rewrite the section header
(the name defaults to the path) and detach the submodule from its git dir.
"""

from __future__ import annotations

import re

from migrate.index.repo import RepoIndex
from migrate.relocate import Relocation

GITMODULES = ".gitmodules"
_SECTION = re.compile(r'^\s*\[\s*submodule\s+"(?P<name>(?:[^"\\]|\\.)*)"\s*\]')
_OTHER_SECTION = re.compile(r"^\s*\[")
_PATH = re.compile(r'^(?P<head>\s*path\s*=\s*)(?P<q>"?)(?P<value>.*?)(?P=q)(?P<tail>\s*)$', re.I)


def submodule_moves(index: RepoIndex, relocation: Relocation) -> dict[str, str]:
    """old path -> new path of every gitlink inside something the plan moves."""
    out = {}
    for link in sorted(index.gitlinks):
        new = relocation.path(link)
        if new is not None and new != link:
            out[link] = new
    return out


def rewritten_gitmodules(text: str, relocation: Relocation) -> str:
    """`text` with each submodule section's `path =` value relocated; every other byte,
    the section names included, as it was."""
    out, inside = [], False
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        if _SECTION.match(body):
            inside = True
        elif _OTHER_SECTION.match(body):
            inside = False
        else:
            p = _PATH.match(body) if inside else None
            new = relocation.path(p["value"].rstrip("/")) if p else None
            if new is not None:
                end = line[len(body) :]
                line = f"{p['head']}{p['q']}{new}{p['q']}{p['tail']}{end}"
        out.append(line)
    return "".join(out)
