"""Run git: one runner, one error type, and where git keeps its files."""

from __future__ import annotations

import subprocess
from pathlib import Path

ZERO = "0" * 40  # the "no object" id of update-ref's compare-and-swap


class GitError(RuntimeError):
    """A git command failed; the message carries git's own stderr."""


def run_git(
    cwd: str | Path,
    *args: str,
    input: bytes | None = None,
    env: dict | None = None,
    check: bool = True,
    ok: tuple[int, ...] = (0,),
) -> bytes:
    """Run git and return its stdout.

    Git runs in its own session, so a terminal ^C or a signal to our process group
    reaches only us: we decide what to undo, and no git is killed half-way. `ok` lists
    the exit codes that are answers rather than failures (grep's 1: nothing found).
    """
    res = subprocess.run(
        ["git", *args],
        cwd=cwd,
        input=input,
        env=env,
        capture_output=True,
        start_new_session=True,
    )
    if check and res.returncode not in ok:
        msg = res.stderr.decode("utf-8", "replace").strip()
        raise GitError(f"git {' '.join(args[:3])} failed: {msg}")
    return res.stdout


def git_paths(repo_dir: str | Path, *names: str) -> list[Path]:
    """`git_path` of each of `names`, from one `rev-parse` (it prints one line each)."""
    args = [a for name in names for a in ("--git-path", name)]
    lines = run_git(repo_dir, "rev-parse", *args).decode().splitlines()
    if len(lines) != len(names):
        return [git_path(repo_dir, name) for name in names]
    return [p if p.is_absolute() else Path(repo_dir) / p for p in map(Path, lines)]


def git_path(repo_dir: str | Path, name: str) -> Path:
    """`git rev-parse --git-path NAME`, absolute (worktree-aware)."""
    out = run_git(repo_dir, "rev-parse", "--git-path", name).decode().strip()
    p = Path(out)
    return p if p.is_absolute() else Path(repo_dir) / p


def git_ok(cwd: str | Path, *args: str) -> bool:
    """Did git exit 0? (for the commands whose answer is their exit status)."""
    res = subprocess.run(["git", *args], cwd=cwd, capture_output=True, start_new_session=True)
    return res.returncode == 0
