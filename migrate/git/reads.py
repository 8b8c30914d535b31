"""Read-only questions about revisions: file lists, blobs, renames, grep, commit messages."""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from migrate.git.runner import GitError, run_git

SEP = "\x1e"  # between commits in `git log` output
FS = "\x1f"  # between fields


def _names(out: bytes) -> list[str]:
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def ls_names(repo: str | Path, rev: str) -> list[str]:
    """Every file path in the tree of `rev`."""
    return _names(run_git(repo, "ls-tree", "-r", "-z", "--name-only", rev))


def ls_tree(repo: str | Path, rev: str) -> dict[str, tuple[int, str]]:
    """path -> (mode, object id) of every entry of a commit's tree (gitlinks included)."""
    out = run_git(repo, "ls-tree", "-r", "-z", "--full-tree", rev)
    listing: dict[str, tuple[int, str]] = {}
    for rec in out.split(b"\0"):
        if rec:
            meta, path = rec.split(b"\t", 1)
            mode, _type, sha = meta.split()
            listing[path.decode("utf-8", "surrogateescape")] = (int(mode, 8), sha.decode())
    return listing


def gitlinks(root: str | Path) -> dict[str, str]:
    """path -> commit of every submodule (gitlink) in the index of the work tree at
    `root`; empty outside git. The index lists them whether or not they are checked out."""
    out = run_git(root, "ls-files", "-s", "-z", check=False)
    found = {}
    for rec in out.split(b"\0"):
        if rec.startswith(b"160000 "):
            meta, path = rec.split(b"\t", 1)
            found[path.decode("utf-8", "surrogateescape")] = meta.split()[1].decode()
    return found


def iter_objects(repo: str | Path, names: list[str]) -> Iterator[bytes | None]:
    """Content of each object name (`sha` or `rev:path`), in order, streamed from one
    `git cat-file --batch` (None for a missing one); memory stays at one object."""
    if not names:
        return
    query = "".join(f"{n}\n" for n in names).encode("utf-8", "surrogateescape")
    with tempfile.TemporaryFile() as stdin:
        stdin.write(query)
        stdin.seek(0)
        proc = subprocess.Popen(
            ["git", "cat-file", "--batch"],
            cwd=repo,
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            for _ in names:
                header = proc.stdout.readline().split()
                if len(header) < 3 or header[-1] == b"missing":
                    yield None
                    continue
                data = proc.stdout.read(int(header[2]))
                proc.stdout.read(1)
                yield data
        finally:
            proc.stdout.close()
            proc.kill()
            proc.wait()


def cat_objects(repo: str | Path, names: list[str]) -> list[bytes | None]:
    """Content of each object name (`sha` or `rev:path`) in one `git cat-file --batch`."""
    return list(iter_objects(repo, names))


def read_blobs(repo: str | Path, rev: str, paths: list[str]) -> dict[str, bytes]:
    """Bytes of `paths` at `rev` in one git call; missing ones left out."""
    got = cat_objects(repo, [f"{rev}:{p}" for p in paths])
    return {p: data for p, data in zip(paths, got, strict=True) if data is not None}


def read_texts(repo: str | Path, rev: str, paths: list[str]) -> dict[str, str]:
    """UTF-8 text of `paths` at `rev`; undecodable ones left out."""
    texts: dict[str, str] = {}
    for p, data in read_blobs(repo, rev, paths).items():
        with contextlib.suppress(UnicodeDecodeError):
            texts[p] = data.decode("utf-8")
    return texts


class RevReader:
    """Lazy text of files at one revision (binary or undecodable files read as None)."""

    def __init__(self, repo: str | Path, revision: str):
        self.repo, self.rev = repo, revision

    def __call__(self, path: str) -> str | None:
        try:
            data = run_git(self.repo, "cat-file", "blob", f"{self.rev}:{path}")
        except GitError:
            return None
        if b"\0" in data[:8000]:
            return None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return None


def renames(repo: str | Path, base: str, head: str) -> dict[str, str]:
    """Old path -> new path for every R entry of `git diff -M BASE HEAD`."""
    out = run_git(repo, "diff", "-M", "--name-status", "-z", base, head)
    fields = out.decode("utf-8", "surrogateescape").split("\0")
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


def changed_names(repo: str | Path, base: str, head: str) -> set[str]:
    """Every path that differs between two commits (renames as delete + add)."""
    return set(_names(run_git(repo, "diff", "--name-only", "-z", "--no-renames", base, head)))


def grep_files(repo: str | Path, revision: str, needles: list[str]) -> list[str]:
    """Paths at `revision` whose text contains any needle (fixed strings, one git call)."""
    if not needles:
        return []
    args = ["grep", "-l", "-I", "-F", "-z"]
    for n in needles:
        args += ["-e", n]
    out = run_git(repo, *args, revision, ok=(0, 1))
    prefix = revision + ":"
    return [n[len(prefix) :] if n.startswith(prefix) else n for n in _names(out)]


def messages(repo: str | Path, base: str, head: str) -> list[tuple[str, str]]:
    """(sha, full message) of every commit of BASE..HEAD, oldest first."""
    out = run_git(
        repo,
        "log",
        "--no-show-signature",
        "--reverse",
        f"--format=%H{FS}%B{SEP}",
        f"{base}..{head}",
    )
    result = []
    for rec in out.decode("utf-8", "replace").split(SEP):
        rec = rec.strip("\n")
        if rec:
            sha, _, msg = rec.partition(FS)
            result.append((sha.strip(), msg))
    return result


def message(repo: str | Path, rev: str) -> str:
    return run_git(repo, "log", "-1", "--no-show-signature", "--format=%B", rev).decode(
        "utf-8", "replace"
    )
