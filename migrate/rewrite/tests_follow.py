"""Tests follow their kernels: a test or CI benchmark under `kernels/{ops,benchmark}/<g>/`
whose kernels all move to group `h` moves to `kernels/{ops,benchmark}/<h>/` (same name
below the group directory), with its CI registrations and budget untouched.

What a test tests is what it imports from the kernel namespace (the one thing a file
states about its subject). A file whose moved kernels go to two groups, or that tests
kernels staying in `g` beside kernels leaving it, is not guessed: it is reported, to be
split with the plan's `splits:`. Files the plan moves itself are left to the plan.
"""

from __future__ import annotations

import ast
import re

from migrate.errors import Diagnostic, Pos
from migrate.index.repo import RepoIndex
from migrate.layout.names import OPS_PKG as OPS
from migrate.plan.model import Move, Plan
from migrate.relocate import Relocation
from migrate.rewrite.op_id_follow import group_of

TEST_DIR = re.compile(r"^(|.*/)(test/registered/kernels/(?:ops|benchmark))/([^/]+)/(.+\.py)$")


def _imported(text: str) -> set[str]:
    """Absolute dotted names a file imports (`from a.b import c` gives a.b and a.b.c)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return set()
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names if a.name != "*")
    return out


def _groups_after(names: set[str], relocate, group: str) -> tuple[set[str], bool]:
    """(new groups of the moved kernels of `group` among `names`, whether one stays)."""
    new_groups, stays = set(), False
    for name in names:
        if group_of(name) != group:
            continue
        new = relocate(name)
        if new is None:
            if name.count(".") > OPS.count(".") + 1:  # a kernel module, not the group itself
                stays = True
            continue
        if group_of(new) and group_of(new) != group:
            new_groups.add(group_of(new))
    return new_groups, stays


def follow_target(text: str, path: str, relocate) -> tuple[str | None, str | None]:
    """(new path, None) when the test at `path` follows its kernels to another group,
    (None, why not) when they go several ways, (None, None) when it stays."""
    m = TEST_DIR.match(path)
    if m is None or OPS not in text:
        return None, None
    head, kind_dir, group, rest = m.groups()
    new_groups, stays = _groups_after(_imported(text), relocate, group)
    if not new_groups:
        return None, None
    if len(new_groups) > 1 or stays:
        to = sorted(new_groups) + ([group] if stays else [])
        return None, (
            f"tests kernels going to groups {', '.join(to)}: split it with the plan's "
            "`splits:` so each part follows its kernels"
        )
    return f"{head}{kind_dir}/{new_groups.pop()}/{rest}", None


def follow_tests(index: RepoIndex, rel: Relocation, plan: Plan) -> tuple[list[Move], list]:
    """(derived path moves, notes) for tests whose kernels change group."""
    moves, notes = [], []
    split = {sp.file for sp in plan.splits}
    for path in sorted(index.files):
        if path in rel.files or path in split or not TEST_DIR.match(path):
            continue
        text = index.text(path)
        if text is None:
            continue
        new_path, why = follow_target(text, path, rel.dotted)
        if why:
            notes.append(Diagnostic(Pos(path, 1, 1), why, "warning"))
        if new_path is None:
            continue
        if new_path in index.files and new_path not in rel.files:
            notes.append(
                Diagnostic(
                    Pos(path, 1, 1),
                    f"its kernels moved to another group, but {new_path} already exists: it stays",
                    "warning",
                )
            )
            continue
        pos = Pos(plan.path, 1, 1)
        moves.append(Move(path, new_path, pos, pos, pos))
    return moves, notes
