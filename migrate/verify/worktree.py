"""Temporary detached worktrees: verify reads old revisions without touching the user's."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from migrate.git_steps.gitio import run_git


@contextmanager
def worktree(repo_dir: str | Path, rev: str) -> Iterator[Path]:
    tmp = Path(tempfile.mkdtemp(prefix="migrate-verify-"))
    path = tmp / "tree"
    run_git(repo_dir, "worktree", "add", "--detach", "-q", str(path), rev)
    try:
        yield path
    finally:
        run_git(repo_dir, "worktree", "remove", "--force", str(path), check=False)
        shutil.rmtree(tmp, ignore_errors=True)
        run_git(repo_dir, "worktree", "prune", check=False)
