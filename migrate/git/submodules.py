"""A submodule's checkout and the git dir it is tied to: its `.git` file (`gitdir: ...`,
or an old-style `.git` directory) and the git dir's `core.worktree`. Read here for the
plan's checks and for apply's switch, which moves a checkout and re-ties it."""

from __future__ import annotations

import os
from pathlib import Path

from migrate.git.runner import run_git


def checkout_problems(repo: Path, path: str) -> list[str]:
    """Why the submodule checked out at `path` cannot be moved by renaming its directory
    (empty: it can; a submodule that is not checked out can always move)."""
    full = repo / path
    if not os.path.lexists(full):
        return []  # not checked out: only its gitlink moves
    if full.is_symlink() or not full.is_dir():
        return [f"{path}: the submodule's path holds a file or symlink, not its checkout"]
    gitdir = submodule_git_dir(repo, path)
    if gitdir is not None and any((gitdir / "modules").glob("*")):
        return [
            f"{path}: the submodule has submodules of its own checked out; moving nested "
            "submodules is not supported (move it with `git mv` first)"
        ]
    return []


def gitdir_value(text: str) -> str | None:
    head, _, value = text.strip().partition(":")
    return value.strip() if head.strip() == "gitdir" else None


def gitfile_target(path: Path) -> str | None:
    """The `gitdir:` a submodule's `.git` file names, as written (None: no such file)."""
    try:
        return gitdir_value(path.read_bytes().decode("utf-8", "surrogateescape"))
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


def submodule_git_dir(repo: Path, path: str) -> Path | None:
    """The git dir of the submodule at `path` (its `.git` file's, or its own `.git`)."""
    dot = repo / path / ".git"
    target = gitfile_target(dot)
    if target is not None:
        return Path(os.path.normpath(os.path.join(repo, path, target)))
    return dot if dot.is_dir() else None


def worktree_setting(repo: Path, gitdir: Path) -> str | None:
    """The git dir's `core.worktree` (None: unset). Git runs in the superproject: in the
    git dir itself it would first chdir to that work tree, which may have moved."""
    config = str(gitdir / "config")
    out = run_git(repo, "config", "--file", config, "--get", "core.worktree", check=False)
    return out.decode("utf-8", "surrogateescape").rstrip("\n") or None
