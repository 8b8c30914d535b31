"""Refuse to start on a work tree we could not restore exactly: dirty, mid-merge, locked."""

from __future__ import annotations

from pathlib import Path

from migrate.git import run_git
from migrate.git.runner import git_paths


def unmerged_files(repo_dir: str | Path) -> list[str]:
    out = run_git(repo_dir, "ls-files", "-u", "-z")
    return sorted({rec.split(b"\t", 1)[1].decode() for rec in out.split(b"\0") if b"\t" in rec})


MARKS = {
    "MERGE_HEAD": "a merge",
    "rebase-merge": "a rebase",
    "rebase-apply": "a rebase",
    "CHERRY_PICK_HEAD": "a cherry-pick",
    "REVERT_HEAD": "a revert",
    "index.lock": "another git process",
}


def in_progress(repo_dir: str | Path) -> list[str]:
    """What git has in progress here: a merge, rebase, cherry-pick or revert, or another
    git holding the index (`index.lock`), found with one git call for all the markers."""
    found = git_paths(repo_dir, *MARKS)
    return sorted({what for what, p in zip(MARKS.values(), found, strict=True) if p.exists()})


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
    busy = in_progress(repo_dir)
    ops = [b for b in busy if b != MARKS["index.lock"]]
    if ops:
        out.append(f"{', '.join(ops)} is in progress; finish or abort it first")
    unmerged = unmerged_files(repo_dir)
    if unmerged:
        out.append("unresolved merge conflicts in:")
        out += [f"  {f}" for f in unmerged]
    if MARKS["index.lock"] in busy:
        out.append("another git process holds the index (index.lock exists)")
    dirty = [d for d in dirty_files(repo_dir) if d[3:] not in unmerged]
    if dirty:
        out.append("the work tree is not clean; commit or stash these first:")
        out += [f"  {d}" for d in dirty]
    return out
