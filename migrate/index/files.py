"""Which files belong to the repository: git's view (tracked + untracked-not-ignored)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from migrate.git.runner import run_git


def _git_ls(args: list[str], cwd: Path, env: dict | None = None) -> list[str]:
    out = run_git(cwd, *args, env=env)
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def is_git_work_tree(root: Path) -> bool:
    top = run_git(root, "rev-parse", "--show-toplevel", check=False).decode().strip()
    return bool(top) and Path(top).resolve() == Path(root).resolve()


def list_repo_files(root: Path) -> list[str]:
    """Repo-relative posix paths of tracked and untracked-but-not-ignored files.

    Outside a git work tree (a scratch copy for a dry run) the same `.gitignore` rules
    are applied by pointing git at a throwaway git dir, so both cases agree exactly.
    """
    root = Path(root)
    args = ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]
    if is_git_work_tree(root):
        files = _git_ls(args, root)
    else:
        with tempfile.TemporaryDirectory(prefix="migrate-gitdir-") as gd:
            run_git(gd, "init", "-q", "--bare", gd)
            env = dict(os.environ, GIT_DIR=gd, GIT_WORK_TREE=str(root))
            files = _git_ls(args, root, env)
    # Deleted-but-tracked files are listed by --cached; keep only what exists.
    seen: set[str] = set()
    result = []
    for f in files:
        if f in seen:
            continue
        seen.add(f)
        p = root / f
        if p.is_symlink() or p.is_file():
            result.append(f)
    return sorted(result)
