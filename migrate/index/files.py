"""Which files belong to the repository: git's view (tracked + untracked-not-ignored)."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from migrate.git.runner import run_git


def _git_ls(args: list[str], cwd: Path, env: dict | None = None) -> list[str]:
    out = run_git(cwd, *args, env=env)
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def is_git_work_tree(root: Path) -> bool:
    top = run_git(root, "rev-parse", "--show-toplevel", check=False).decode().strip()
    return bool(top) and Path(top).resolve() == Path(root).resolve()


def repo_file_modes(root: Path, *, in_git: bool | None = None) -> dict[str, int]:
    """path -> `lstat` mode of every tracked and untracked-but-not-ignored file, sorted.

    Outside a git work tree (a scratch copy for a dry run) the same `.gitignore` rules
    are applied by pointing git at a throwaway git dir, so both cases agree exactly.
    Tracked paths that are gone (or are now a directory or a submodule) are left out;
    each path is stat'ed once, with plain strings (this runs over every file).
    `in_git`: `is_git_work_tree(root)` when the caller has asked already.
    """
    root = Path(root)
    args = ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]
    if is_git_work_tree(root) if in_git is None else in_git:
        files = _git_ls(args, root)
    else:
        with tempfile.TemporaryDirectory(prefix="migrate-gitdir-") as gd:
            run_git(gd, "init", "-q", "--bare", gd)
            env = dict(os.environ, GIT_DIR=gd, GIT_WORK_TREE=str(root))
            files = _git_ls(args, root, env)
    top, lstat = os.fspath(root) + os.sep, os.lstat
    found: dict[str, int] = {}
    for f in files:
        if f in found:
            continue
        try:
            mode = lstat(top + f).st_mode
        except OSError as exc:
            if exc.errno in _GONE:
                continue
            raise
        if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
            found[f] = mode
    return {f: found[f] for f in sorted(found)}


def links_checked_out_as_files(root: Path) -> set[str]:
    """Tracked symlinks that are plain files holding their target, as git checks them out
    under `core.symlinks=false`: git records them as links (mode 120000), so they are
    links to the tool too (retargeted, never parsed as code)."""
    out = run_git(root, "config", "--bool", "core.symlinks", check=False).decode().strip()
    if out != "false":
        return set()
    listed = run_git(root, "ls-files", "-s", "-z").split(b"\0")
    return {
        rec.partition(b"\t")[2].decode("utf-8", "surrogateescape")
        for rec in listed
        if rec.startswith(b"120000 ")
    }


_GONE = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)  # pathlib's "not there"


def list_repo_files(root: Path) -> list[str]:
    """Repo-relative posix paths of tracked and untracked-but-not-ignored files."""
    return list(repo_file_modes(root))
