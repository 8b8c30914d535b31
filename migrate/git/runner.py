"""Run git: one runner, one error type, and where git keeps its files."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def object_format(repo_dir: str | Path) -> str:
    """`sha1` or `sha256` (a repository made with `git init --object-format=sha256`)."""
    out = run_git(repo_dir, "rev-parse", "--show-object-format", check=False)
    return out.decode().strip() or "sha1"


def null_oid(like: str) -> str:
    """The "no object" id (update-ref's "must not exist yet", a removed index entry) of
    the repository `like`, one of its object ids, comes from: 40 zeros in a SHA-1
    repository, 64 in a SHA-256 one."""
    return "0" * len(like)


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


LOCATION_VARS = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR")


def redirected_by_env(repo_dir: str | Path, at_top: bool | None = None) -> list[str]:
    """Why git, run by us in `repo_dir`, would not work on `repo_dir`'s own repository:
    a caller's environment (a git hook, a wrapper script) that points it elsewhere. Each
    line names the variable. `at_top`: whether git already says `repo_dir` is its top
    (None: asked here, only when one of the variables is set).

    GIT_DIR/GIT_WORK_TREE/GIT_COMMON_DIR are fine when they lead to `repo_dir` itself;
    GIT_INDEX_FILE when it is the repository's own index; GIT_NAMESPACE never (refs would
    be read and moved in a namespace). Empty (and no git call) when none is set."""
    env = os.environ
    out = []
    watched = (*LOCATION_VARS, "GIT_INDEX_FILE", "GIT_NAMESPACE")
    if at_top is None:
        if not any(env.get(v) for v in watched):
            return out
        top = run_git(repo_dir, "rev-parse", "--show-toplevel", check=False).decode().strip()
        at_top = bool(top) and Path(top).resolve() == Path(repo_dir).resolve()
    if not at_top:
        out += [
            f"{v}={env[v]} is set: git would work on that repository, not on {repo_dir}; "
            "unset it (or give --repo that work tree)"
            for v in LOCATION_VARS
            if env.get(v)
        ]
    index = env.get("GIT_INDEX_FILE")
    if index and at_top:
        own = run_git(repo_dir, "rev-parse", "--absolute-git-dir").decode().strip()
        here = Path(repo_dir) / index if not os.path.isabs(index) else Path(index)
        if os.path.realpath(here) != os.path.realpath(os.path.join(own, "index")):
            out.append(
                f"GIT_INDEX_FILE={index} is set: git would read and write that index, not "
                f"the repository's ({own}/index); unset it"
            )
    if env.get("GIT_NAMESPACE"):
        out.append(
            f"GIT_NAMESPACE={env['GIT_NAMESPACE']} is set: refs would be read and moved in "
            "that namespace; unset it"
        )
    return out
