"""The few git reads parity needs: revisions, renames, trees, blobs, throwaway worktrees."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from migrate.errors import Diagnostic, MigrateError, Pos


def git(repo: Path, *args: str, input: bytes | None = None) -> bytes:
    res = subprocess.run(["git", *args], cwd=repo, input=input, capture_output=True)
    if res.returncode != 0:
        msg = res.stderr.decode(errors="replace").strip()
        raise MigrateError(Diagnostic(Pos(str(repo)), f"git {' '.join(args[:3])}: {msg}"))
    return res.stdout


def rev_parse(repo: Path, rev: str) -> str:
    return git(repo, "rev-parse", "--verify", f"{rev}^{{commit}}").decode().strip()


def renames(repo: Path, base: str, head: str) -> dict[str, str]:
    """Old path -> new path for every R entry of `git diff -M BASE HEAD`."""
    out = git(repo, "diff", "-M", "--name-status", "-z", base, head).decode()
    fields = out.split("\0")
    moved: dict[str, str] = {}
    i = 0
    while i < len(fields) and fields[i]:
        status = fields[i]
        if status.startswith(("R", "C")):
            if status.startswith("R"):
                moved[fields[i + 1]] = fields[i + 2]
            i += 3
        else:
            i += 2
    return moved


def ls_tree(repo: Path, rev: str) -> set[str]:
    out = git(repo, "ls-tree", "-r", "-z", "--name-only", rev).decode()
    return {p for p in out.split("\0") if p}


def read_blobs(repo: Path, rev: str, paths: list[str]) -> dict[str, str]:
    """Text of `paths` at `rev` in one `git cat-file --batch` call; undecodable ones skipped."""
    if not paths:
        return {}
    out = git(repo, "cat-file", "--batch", input="".join(f"{rev}:{p}\n" for p in paths).encode())
    texts: dict[str, str] = {}
    pos = 0
    for p in paths:
        nl = out.index(b"\n", pos)
        header = out[pos:nl].split()
        pos = nl + 1
        if len(header) < 3 or header[1] == b"missing":
            continue
        size = int(header[2])
        data = out[pos : pos + size]
        pos += size + 1
        with contextlib.suppress(UnicodeDecodeError):
            texts[p] = data.decode("utf-8")
    return texts


@contextlib.contextmanager
def worktrees(repo: Path, revs: dict[str, str]) -> Iterator[dict[str, Path]]:
    """Detached worktrees of `revs` (name -> sha) in a temp dir; always removed after."""
    tmp = Path(tempfile.mkdtemp(prefix="migrate-parity-"))
    made: dict[str, Path] = {}
    try:
        for name, sha in revs.items():
            path = tmp / name
            git(repo, "worktree", "add", "--detach", "-q", str(path), sha)
            made[name] = path
        yield made
    finally:
        for path in made.values():
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(path)], cwd=repo, capture_output=True
            )
        subprocess.run(["git", "worktree", "prune"], cwd=repo, capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
