"""Refuse to start on a work tree we could not restore exactly: dirty, mid-merge, locked."""

from __future__ import annotations

from pathlib import Path

from migrate.git import git_path, run_git
from migrate.git.runner import git_paths


def unmerged_files(repo_dir: str | Path) -> list[str]:
    out = run_git(repo_dir, "ls-files", "-u", "-z")
    return sorted({rec.split(b"\t", 1)[1].decode() for rec in out.split(b"\0") if b"\t" in rec})


def in_progress(repo_dir: str | Path) -> list[str]:
    """Names of operations git has in progress (merge, rebase, cherry-pick, revert)."""
    marks = {
        "MERGE_HEAD": "merge",
        "rebase-merge": "rebase",
        "rebase-apply": "rebase",
        "CHERRY_PICK_HEAD": "cherry-pick",
        "REVERT_HEAD": "revert",
    }
    found = git_paths(repo_dir, *marks)  # one git call for all of them
    return sorted({op for (_n, op), p in zip(marks.items(), found, strict=True) if p.exists()})


def dirty_files(repo_dir: str | Path) -> list[str]:
    """Modified, staged or untracked (not ignored) files, as `git status --porcelain` shows."""
    out = run_git(repo_dir, "status", "--porcelain=v1", "-z", "--untracked-files=all")
    lines, recs, i = [], out.split(b"\0"), 0
    while i < len(recs):
        rec = recs[i]
        i += 1
        if not rec:
            continue
        status, path = rec[:2].decode(), rec[3:].decode("utf-8", "surrogateescape")
        if status[0] in "RC":
            i += 1  # the rename source follows
        lines.append(f"{status} {path}")
    return lines


def sparse(repo_dir: str | Path) -> bool:
    out = run_git(repo_dir, "config", "--bool", "core.sparseCheckout", check=False)
    return out.decode().strip() == "true"


def problems(repo_dir: str | Path) -> list[str]:
    """Why `apply` must not start here; empty when the work tree is clean and idle."""
    out = []
    if sparse(repo_dir):
        out.append(
            "this is a sparse checkout: the plan would see only part of the tree; "
            "run `git sparse-checkout disable` (or apply in a full clone) first"
        )
    ops = in_progress(repo_dir)
    if ops:
        out.append(f"a {', '.join(ops)} is in progress; finish or abort it first")
    unmerged = unmerged_files(repo_dir)
    if unmerged:
        out.append("unresolved merge conflicts in:")
        out += [f"  {f}" for f in unmerged]
    if git_path(repo_dir, "index.lock").exists():
        out.append("another git process holds the index (index.lock exists)")
    dirty = [d for d in dirty_files(repo_dir) if d[3:] not in unmerged]
    if dirty:
        out.append("the work tree is not clean; commit or stash these first:")
        out += [f"  {d}" for d in dirty]
    return out
