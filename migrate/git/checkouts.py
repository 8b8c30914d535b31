"""Revisions as plain directories: temporary worktrees and `git archive` exports.

Both are always removed, also when a signal interrupts the run: while one exists,
SIGINT/SIGTERM raise `Interrupted` (in the main thread) so the `finally` below runs, and
a worktree is unlocked before removal (git locks it while `worktree add` runs, and a
locked worktree survives `prune`).
"""

from __future__ import annotations

import contextlib
import io
import shutil
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path

from migrate.git.runner import run_git
from migrate.interrupts import signals_held, signals_raise


def _remove_worktree(repo: str | Path, path: Path) -> None:
    run_git(repo, "worktree", "unlock", str(path), check=False)
    run_git(repo, "worktree", "remove", "--force", "--force", str(path), check=False)
    shutil.rmtree(path, ignore_errors=True)


@contextlib.contextmanager
def worktrees(
    repo: str | Path, revs: dict[str, str], prefix: str = "migrate-"
) -> Iterator[dict[str, Path]]:
    """Detached worktrees of `revs` (name -> revision) in a temp dir; always removed after."""
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    made: dict[str, Path] = {}
    try:
        with signals_raise():
            for name, rev in revs.items():
                path = tmp / name
                made[name] = path  # before `add`: a half-made one is removed too
                run_git(repo, "worktree", "add", "--detach", "-q", str(path), rev)
            yield made
    finally:
        with signals_held():
            for path in made.values():
                _remove_worktree(repo, path)
            run_git(repo, "worktree", "prune", check=False)
            shutil.rmtree(tmp, ignore_errors=True)


@contextlib.contextmanager
def worktree(repo: str | Path, rev: str) -> Iterator[Path]:
    """One detached worktree of `rev`, removed after."""
    with worktrees(repo, {"tree": rev}) as made:
        yield made["tree"]


@contextlib.contextmanager
def exported(repo: str | Path, revision: str) -> Iterator[Path]:
    """The tree of `revision` as plain files in a temporary directory (removed after)."""
    data = run_git(repo, "archive", "--format=tar", revision)
    with tempfile.TemporaryDirectory(prefix="migrate-export-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            if hasattr(tarfile, "data_filter"):
                tar.extractall(tmp, filter="data")
            else:  # Python < 3.10.12: git archive output holds no absolute or .. paths
                tar.extractall(tmp)
        yield Path(tmp)
