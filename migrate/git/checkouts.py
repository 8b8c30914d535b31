"""Revisions as plain directories: worktrees, `git archive` exports, object snapshots.

All are always removed, also when a signal interrupts the run: while one exists,
SIGINT/SIGTERM raise `Interrupted` (in the main thread) so the `finally` below runs, and
a worktree is unlocked before removal (git locks it while `worktree add` runs, and a
locked worktree survives `prune`).
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import tarfile
import tempfile
import threading
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path

from migrate.git.reads import iter_objects, ls_tree
from migrate.git.runner import object_format, run_git
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


GITLINK, SYMLINK, EXECUTABLE = 0o160000, 0o120000, 0o100755


def write_tree_files(repo_dir: str | Path, rev: str, dest: Path) -> None:
    """Write `rev`'s tree into the empty directory `dest` and make it a work tree of it.

    Never a checkout: a checkout of the user's repository follows its sparse-checkout
    patterns, smudge filters and eol settings, so it can show less (or other bytes) than
    the commit holds. `dest` is its own repository borrowing the objects through
    `alternates`, its index read from the commit's tree, so tools that ask git which
    files belong to the tree see exactly the commit's entries.
    """
    repo = Path(repo_dir)
    rows = ls_tree(repo, rev)
    files = [(p, mode, sha) for p, (mode, sha) in rows.items() if mode != GITLINK]
    blobs = iter_objects(repo, [sha for _, _, sha in files])
    for (path, mode, _sha), data in zip(files, blobs, strict=True):
        p = dest / path
        p.parent.mkdir(parents=True, exist_ok=True)
        if mode == SYMLINK:
            os.symlink(os.fsdecode(data), p)
        else:
            p.write_bytes(data)
            if mode == EXECUTABLE:
                p.chmod(0o755)
    for path, (mode, _sha) in rows.items():
        if mode == GITLINK:
            (dest / path).mkdir(parents=True, exist_ok=True)
    common = run_git(repo, "rev-parse", "--path-format=absolute", "--git-common-dir")
    objects_dir = Path(common.decode().strip()) / "objects"
    run_git(dest, "init", "-q", f"--object-format={object_format(repo)}")
    (dest / ".git" / "objects" / "info" / "alternates").write_text(f"{objects_dir}\n")
    run_git(dest, "read-tree", f"{rev_sha(repo, rev)}^{{tree}}")


def rev_sha(repo: str | Path, rev: str) -> str:
    return run_git(repo, "rev-parse", "--verify", f"{rev}^{{commit}}").decode().strip()


_REMOVALS: ContextVar[list[threading.Thread] | None] = ContextVar("removals", default=None)


@contextlib.contextmanager
def removed_in_background() -> Iterator[None]:
    """Snapshots that end inside this block are removed by a thread each while the caller
    goes on (removing thousands of files is mostly waiting on the disk); every one of them
    is joined when the block ends, also on an error or a signal, so none outlives it."""
    pending: list[threading.Thread] = []
    token = _REMOVALS.set(pending)
    try:
        yield
    finally:
        _REMOVALS.reset(token)
        with signals_held():
            for t in pending:
                t.join()


def _remove(tmp: Path) -> None:
    pending = _REMOVALS.get()
    if pending is None:
        shutil.rmtree(tmp, ignore_errors=True)
        return
    t = threading.Thread(target=shutil.rmtree, args=(tmp, True), name="migrate-rmtree")
    t.start()
    pending.append(t)


@contextlib.contextmanager
def snapshot(repo_dir: str | Path, rev: str) -> Iterator[Path]:
    """A temporary directory holding exactly `rev`'s tree from git objects; removed after
    (inside `removed_in_background`, by a thread that block joins).

    Verify reads and builds these: nothing is registered in the user's repository.
    """
    tmp = Path(tempfile.mkdtemp(prefix="migrate-snapshot-"))
    path = tmp / "tree"
    path.mkdir()
    try:
        with signals_raise():
            write_tree_files(repo_dir, rev, path)
            yield path
    finally:
        with signals_held():
            _remove(tmp)
