"""Has this plan already been applied here? By its trailers, or by the tree's state."""

from __future__ import annotations

from pathlib import Path

from migrate.git import parse_trailers, run_git
from migrate.git.reads import message
from migrate.index import RepoIndex, build_index
from migrate.plan import Plan, load_plan
from migrate.plan.validate import top_level_names


def commit_with_plan(repo_dir: str | Path, plan_sha256: str, rev: str = "HEAD") -> str | None:
    """The newest commit reachable from `rev` whose trailers name this plan hash."""
    out = (
        run_git(
            repo_dir, "log", "--format=%H", "-F", f"--grep=sha256:{plan_sha256}", rev, check=False
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


def looks_applied(plan_path: str | Path, repo_dir: str | Path) -> bool:
    plan, errors = load_plan(plan_path)
    return not errors and moves_done(plan, build_index(repo_dir, plan.roots))
