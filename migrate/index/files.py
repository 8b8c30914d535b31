"""Which files belong to the repository: git's view (tracked + untracked-not-ignored)."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path


def _git_ls(args: list[str], cwd: Path, env: dict | None = None) -> list[str]:
    out = subprocess.run(
        ["git", *args],
        cwd=cwd,
        env=env,
        check=True,
        capture_output=True,
    ).stdout
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def is_git_work_tree(root: Path) -> bool:
    res = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    if res.returncode != 0:
        return False
    return Path(res.stdout.decode().strip()).resolve() == root.resolve()


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
            subprocess.run(["git", "init", "-q", "--bare", gd], check=True)
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
