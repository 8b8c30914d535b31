"""Plan checks for `groups.remove`: a retired group must exist and be emptied by the plan.

A removed group's package may keep only `__init__.py` files (their registrations follow
their modules; the files themselves are removed). Anything else left behind would be
deleted with the package or orphaned outside `_GROUPS`, so it is an error that lists it.
"""

from __future__ import annotations

import ast
import difflib

from migrate.errors import Diagnostic, Pos
from migrate.index.repo import RepoIndex
from migrate.layout.names import OPS_PKG as OPS
from migrate.plan.model import Plan


def declared_groups(index: RepoIndex, ops: str = OPS) -> list[str] | None:
    """The names in the literal `_GROUPS` of the ops package, or None when there is none."""
    init = index.modules.get(ops)
    text = index.text(init) if init else None
    if not text:
        return None
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "_GROUPS" for t in node.targets
        ):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                return None
            if isinstance(value, (tuple, list)) and all(isinstance(v, str) for v in value):
                return list(value)
    return None


def _deleted(path: str, index: RepoIndex, plan: Plan) -> bool:
    for name in plan.delete:
        d = index.package_dir(name)
        if d and (path == d or path.startswith(d + "/")):
            return True
    return False


def _shown(items: list[str]) -> str:
    return ", ".join(items[:8]) + (f" and {len(items) - 8} more" if len(items) > 8 else "")


def group_removal_problems(plan: Plan, index: RepoIndex, rel, ops: str = OPS) -> list[Diagnostic]:
    if not plan.groups_remove:
        return []
    groups = declared_groups(index, ops)
    if groups is None:
        return [Diagnostic(Pos(plan.path, 1, 1), f"groups.remove needs a literal {ops}._GROUPS")]
    out = []
    split_sources = {sp.file for sp in plan.splits}
    for name in plan.groups_remove:
        if name not in groups:
            match = difflib.get_close_matches(name, groups, n=1, cutoff=0.75)
            hint = f" (did you mean {match[0]}?)" if match else ""
            out.append(Diagnostic(name.pos, f"cannot remove group {name!r}: not in _GROUPS{hint}"))
            continue
        if name in plan.groups_add:
            out.append(Diagnostic(name.pos, f"group {name!r} is both added and removed"))
        d = index.package_dir(f"{ops}.{name}")
        left = [
            f
            for f in (index.files_under(d) if d else [])
            if f not in rel.files
            and f not in split_sources
            and not f.endswith("/__init__.py")
            and "__pycache__" not in f
            and not _deleted(f, index, plan)
        ]
        if left:
            out.append(
                Diagnostic(
                    name.pos,
                    f"remove group {name}: {len(left)} file(s) of {ops}.{name} are neither "
                    f"moved nor deleted by the plan: {_shown(left)}",
                )
            )
        prefix = f"{ops}.{name}"
        for mv in plan.moves:
            if not mv.is_path and (mv.dst == prefix or mv.dst.startswith(prefix + ".")):
                out.append(Diagnostic(mv.dst_pos, f"move into group {name!r}, which is removed"))
    return out
