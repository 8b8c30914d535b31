"""A revision's tree written out from git objects alone, for verify to read and build.

Never a checkout: a checkout of the user's repository follows its sparse-checkout
patterns, smudge filters and eol settings, so it can show less (or other bytes) than the
commit holds. The copy is its own git work tree (a fresh repository borrowing the
objects through `alternates`, its index read from the commit's tree), so tools that ask
git which files belong to the tree see exactly the commit's entries.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from migrate.git_steps.gitio import run_git

GITLINK, SYMLINK, EXECUTABLE = 0o160000, 0o120000, 0o100755


def _entries(repo: Path, rev: str) -> list[tuple[int, str, str]]:
    out = run_git(repo, "ls-tree", "-r", "-z", "--full-tree", rev)
    rows = []
    for rec in out.split(b"\0"):
        if rec:
            meta, path = rec.split(b"\t", 1)
            mode, _type, sha = meta.split()
            rows.append((int(mode, 8), sha.decode(), path.decode("utf-8", "surrogateescape")))
    return rows


def _blobs(repo: Path, shas: list[str]) -> Iterator[bytes]:
    """Contents of `shas`, in order, through one `git cat-file --batch`."""
    proc = subprocess.Popen(
        ["git", "cat-file", "--batch"],
        cwd=repo,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        start_new_session=True,
    )

    def feed() -> None:  # a thread: a full stdout pipe must not block our writes
        try:
            proc.stdin.write("".join(f"{s}\n" for s in shas).encode())
        finally:
            proc.stdin.close()

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        for _ in shas:
            header = proc.stdout.readline().split()
            size = int(header[2])
            data = proc.stdout.read(size)
            proc.stdout.read(1)
            yield data
    finally:
        proc.stdout.close()
        proc.wait()
        writer.join()


def export_tree(repo_dir: str | Path, rev: str, dest: Path) -> None:
    """Write `rev`'s tree into the empty directory `dest` and make it a work tree of it."""
    repo = Path(repo_dir)
    rows = _entries(repo, rev)
    files = [r for r in rows if r[0] != GITLINK]
    for (mode, _sha, path), data in zip(files, _blobs(repo, [s for _, s, _ in files]), strict=True):
        p = dest / path
        p.parent.mkdir(parents=True, exist_ok=True)
        if mode == SYMLINK:
            os.symlink(os.fsdecode(data), p)
        else:
            p.write_bytes(data)
            if mode == EXECUTABLE:
                p.chmod(0o755)
    for mode, _sha, path in rows:
        if mode == GITLINK:
            (dest / path).mkdir(parents=True, exist_ok=True)
    common = run_git(repo, "rev-parse", "--path-format=absolute", "--git-common-dir")
    objects_dir = Path(common.decode().strip()) / "objects"
    run_git(dest, "init", "-q")
    (dest / ".git" / "objects" / "info" / "alternates").write_text(f"{objects_dir}\n")
    run_git(dest, "read-tree", rev_tree(repo, rev))


def rev_tree(repo: Path, rev: str) -> str:
    return run_git(repo, "rev-parse", f"{rev}^{{tree}}").decode().strip()


@contextmanager
def worktree(repo_dir: str | Path, rev: str) -> Iterator[Path]:
    """A temporary directory holding exactly `rev`'s tree; removed on exit."""
    tmp = Path(tempfile.mkdtemp(prefix="migrate-verify-"))
    path = tmp / "tree"
    path.mkdir()
    try:
        export_tree(repo_dir, rev, path)
        yield path
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
