"""Move HEAD, index and work tree from the base commit to the new tip, or not at all.

The commits already exist as objects; this is the only phase with visible effects. A
snapshot taken first (HEAD's ref, the index file's bytes, which directories existed)
lets `rollback` put every byte back after an exception or a signal at any point.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from migrate.git import ZERO, git_path, run_git
from migrate.interrupts import signals_held


def _changed_paths(repo_dir: Path, old: str, new: str) -> tuple[list[str], list[str]]:
    """(paths only in `new`, paths of `old` that differ or vanish) between two commits."""
    out = run_git(repo_dir, "diff-tree", "-r", "-z", "--no-renames", "--name-status", old, new)
    recs = [r.decode("utf-8", "surrogateescape") for r in out.split(b"\0") if r]
    added, touched = [], []
    for status, path in zip(recs[::2], recs[1::2], strict=True):
        (added if status == "A" else touched).append(path)
    return added, touched


class Transaction:
    """Fast-forward the current branch (or a new one) from `base` to a new tip."""

    def __init__(self, repo_dir: str | Path, base: str, branch: str | None = None):
        self.dir = Path(repo_dir)
        self.base = base
        self.branch = branch
        ref = run_git(self.dir, "symbolic-ref", "-q", "HEAD", check=False).decode().strip()
        self.head_ref = ref or None  # None: detached HEAD
        self.index = git_path(self.dir, "index")
        self.index_bytes = self.index.read_bytes() if self.index.exists() else None
        self.lock = git_path(self.dir, "index.lock")
        self.added: list[str] = []
        self.touched: list[str] = []
        self.new_dirs: list[Path] = []

    def prepare(self, tip: str) -> None:
        """Record what the switch will touch, before touching anything."""
        self.added, self.touched = _changed_paths(self.dir, self.base, tip)
        dirs = {(self.dir / p).parent for p in self.added}
        missing = set()
        for d in dirs:
            while d != self.dir and not d.exists():
                missing.add(d)
                d = d.parent
        self.new_dirs = sorted(missing, key=lambda d: len(d.parts), reverse=True)
        blocked = [p for p in self.added if os.path.lexists(self.dir / p)]
        if blocked:
            raise RuntimeError("ignored files are in the way of new paths: " + ", ".join(blocked))

    def switch(self, tip: str, hook=lambda point: None) -> None:
        msg = "migrate apply"
        if self.branch:
            run_git(self.dir, "update-ref", "-m", msg, f"refs/heads/{self.branch}", tip, ZERO)
            run_git(self.dir, "symbolic-ref", "-m", msg, "HEAD", f"refs/heads/{self.branch}")
        elif self.head_ref:
            run_git(self.dir, "update-ref", "-m", msg, self.head_ref, tip, self.base)
        else:
            run_git(self.dir, "update-ref", "--no-deref", "-m", msg, "HEAD", tip, self.base)
        hook("ref")
        run_git(self.dir, "read-tree", "-m", "-u", self.base, tip)
        hook("checkout")

    def rollback(self) -> None:
        """Restore the exact starting state; safe to call at any point of `switch`."""
        with signals_held():
            if self.lock.exists():
                self.lock.unlink()  # preflight proved it absent: a killed git left it
            if self.branch:
                if self.head_ref:
                    run_git(self.dir, "symbolic-ref", "HEAD", self.head_ref)
                else:
                    run_git(self.dir, "update-ref", "--no-deref", "HEAD", self.base)
                run_git(self.dir, "update-ref", "-d", f"refs/heads/{self.branch}", check=False)
            elif self.head_ref:
                run_git(self.dir, "update-ref", self.head_ref, self.base)
            else:
                run_git(self.dir, "update-ref", "--no-deref", "HEAD", self.base)
            if self.index_bytes is None:
                self.index.unlink(missing_ok=True)
            else:
                tmp = self.index.with_name("index.migrate-restore")
                tmp.write_bytes(self.index_bytes)
                os.replace(tmp, self.index)
            for p in self.added:
                full = self.dir / p
                if full.is_symlink() or full.is_file():
                    full.unlink()
            for d in self.new_dirs:
                shutil.rmtree(d, ignore_errors=True)
            if self.touched:
                run_git(
                    self.dir,
                    "checkout-index",
                    "-f",
                    "-z",
                    "--stdin",
                    input=b"\0".join(p.encode("utf-8", "surrogateescape") for p in self.touched),
                )
