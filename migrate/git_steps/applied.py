"""Has this plan already been applied here? By its trailers, or by the tree's state."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from migrate.errors import Diagnostic
from migrate.git import BLAME_FILE, parse_trailers, run_git
from migrate.git.reads import message
from migrate.index import RepoIndex, build_index
from migrate.layout.names import OPS_PKG as OPS
from migrate.plan import Plan, load_plan
from migrate.plan.validate import top_level_names


def commit_with_plan(repo_dir: str | Path, plan_sha256: str, rev: str = "HEAD") -> str | None:
    """The newest commit reachable from `rev` whose trailers name this plan hash."""
    out = (
        run_git(
            repo_dir,
            "log",
            "--no-show-signature",
            "--format=%H",
            "-F",
            f"--grep=sha256:{plan_sha256}",
            rev,
            check=False,
        )
        .decode()
        .split()
    )
    for sha in out:
        t = parse_trailers(message(repo_dir, sha))
        if t and t.plan_sha256 == plan_sha256:
            return sha
    return None


def _has_symbol(index: RepoIndex, module: str, name: str) -> bool:
    path = index.modules.get(module)
    if path is None:
        return False
    try:
        return name in top_level_names(index.text(path) or "")
    except SyntaxError:
        return False


def _path_exists(index: RepoIndex, path: str) -> bool:
    path = path.rstrip("/")
    return path in index.files or bool(index.files_under(path))


def moves_done(plan: Plan, index: RepoIndex) -> bool:
    """Every move's source is gone and its target is there (a plan with moves only)."""
    if not plan.moves:
        return False
    names = set(index.modules) | index.packages
    for mv in plan.moves:
        if mv.is_path:
            src, dst = _path_exists(index, mv.src), _path_exists(index, mv.dst)
        elif mv.is_symbol:
            mod, sym = mv.src.split(":")
            src, dst = _has_symbol(index, mod, sym), _has_symbol(index, mv.dst, sym)
        else:
            src, dst = mv.src in names, mv.dst in names
        if src or not dst:
            return False
    return True


def _quoted_anywhere(index: RepoIndex, token: str, skip: set[str]) -> str | None:
    """`path:line` of the first quoted spelling of `token` ("jit.rmsnorm"), or None."""
    pattern = re.compile(r"[\"']" + re.escape(token) + r"[\"']")
    for path in sorted(index.files):
        if path in skip or index.files[path].is_symlink:
            continue
        text = index.text(path)
        if text is None or token not in text:
            continue
        m = pattern.search(text)
        if m:
            return f"{path}:{text.count(chr(10), 0, m.start()) + 1}"
    return None


def parts_not_in_effect(plan: Plan, index: RepoIndex) -> list[Diagnostic]:
    """Every part of `plan` besides its moves that the tree does not show done.

    "Already applied" must mean the whole plan: op id renames (the old id is no longer
    spelled as a string), splits (every output exists, the source is gone unless kept),
    groups added or removed, packages deleted.
    """
    out: list[Diagnostic] = []
    skip = {BLAME_FILE}
    with contextlib.suppress(ValueError):
        skip.add(Path(plan.path).resolve().relative_to(index.root).as_posix())
    for op in plan.op_ids:
        where = _quoted_anywhere(index, op.src, skip)
        if where:
            out.append(
                Diagnostic(
                    op.pos,
                    f"op id {op.src} -> {op.dst} is not in effect: "
                    f"{op.src!r} is still used at {where}",
                )
            )
    for sp in plan.splits:
        outputs = {o.path for o in sp.into}
        missing = sorted(p for p in outputs if p not in index.files)
        if missing:
            out.append(
                Diagnostic(
                    sp.pos, f"split of {sp.file} is not in effect: {missing[0]} does not exist"
                )
            )
        elif sp.file in index.files and sp.file not in outputs:
            out.append(
                Diagnostic(sp.pos, f"split of {sp.file} is not in effect: {sp.file} still exists")
            )
    for name in plan.groups_add:
        if not index.is_package(f"{OPS}.{name}"):
            out.append(
                Diagnostic(name.pos, f"group {name} is not in effect: {OPS}.{name} does not exist")
            )
    for name in plan.groups_remove:
        if index.is_package(f"{OPS}.{name}"):
            out.append(
                Diagnostic(
                    name.pos, f"removing group {name} is not in effect: {OPS}.{name} still exists"
                )
            )
    for name in plan.delete:
        if index.is_package(name):
            out.append(
                Diagnostic(name.pos, f"delete {name} is not in effect: the package still exists")
            )
    return out


def applied_state(plan_path: str | Path, repo_dir: str | Path) -> tuple[bool, list[Diagnostic]]:
    """(are the moves in effect, the other parts of the plan that are not).

    Already applied means both: moves done and nothing missing. Moves done with parts
    missing is a plan partly in effect, refused with what is missing.
    """
    plan, errors = load_plan(plan_path)
    if errors:
        return False, []
    index = build_index(repo_dir, plan.roots)
    if not moves_done(plan, index):
        return False, []
    return True, parts_not_in_effect(plan, index)
