"""Finish what an interrupted apply left (SIGKILL, power loss): from its journal.

Run by `migrate recover` and first thing by every `migrate apply`. A journal whose switch
completed is finished (the apply stands); any other is rolled back to its base. A live
owner of the lock means the apply is still running: nothing is touched.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from migrate.git import git_path
from migrate.git_steps.lock import LockHeld, read_owner
from migrate.git_steps.transaction import Journal, rollback, state_dir

LOCK_NAME = "migrate.lock"


def lock_path(repo: Path) -> Path:
    return git_path(repo, LOCK_NAME)


@dataclass
class Recovery:
    done: str = ""  # what was done, one sentence ("" when nothing was left to recover)
    left: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def recover(repo_dir: str | Path) -> Recovery:
    repo = Path(repo_dir).resolve()
    lock = lock_path(repo)
    owner = read_owner(lock)
    if owner is not None and owner.alive():
        raise LockHeld(lock, owner)
    state = state_dir(repo)
    journal = Journal.load(state) if state.exists() else None
    out = Recovery()
    if journal is None:
        if state.exists():
            shutil.rmtree(state, ignore_errors=True)
            out.done = "removed what an apply that stopped before its switch left; nothing changed"
    elif journal.phase == "switched":
        shutil.rmtree(state, ignore_errors=True)
        out.done = (
            f"an interrupted apply (pid {journal.pid}) had completed its switch to "
            f"{journal.tip[:12]}: finished it; the migration stands"
        )
    else:
        report = rollback(repo, journal)
        out.left, out.failed = report.left, report.failed
        verb = "rolled back" if report.complete else "partly rolled back"
        out.done = (
            f"an interrupted apply (pid {journal.pid}) was {verb}: HEAD, index and work tree "
            f"are back at {journal.base[:12]}"
            if report.complete
            else f"an interrupted apply (pid {journal.pid}) was {verb}; see below"
        )
    if owner is not None:
        lock.unlink(missing_ok=True)  # stale: its owner is gone
        if not out.done:
            out.done = f"removed a stale lock ({owner.describe()}); nothing else was left"
    return out
