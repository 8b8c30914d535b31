"""Read-only git access for the report: the range, its commits and trailers, HEAD's files.

Nothing here writes refs, the index or the work tree; a base tree needed to replay the
plan is exported with `git archive` into a temporary directory.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path

from migrate.errors import Diagnostic, MigrateError, Pos
from migrate.report.data import CommitInfo

SEP = "\x1e"  # between commits
FS = "\x1f"  # between fields


def git(repo: Path, *args: str, input: bytes | None = None) -> bytes:
    res = subprocess.run(["git", *args], cwd=repo, input=input, capture_output=True)
    if res.returncode != 0:
        msg = res.stderr.decode(errors="replace").strip()
        raise MigrateError(Diagnostic(Pos(str(repo)), f"git {' '.join(args[:2])}: {msg}"))
    return res.stdout


def parse_range(spec: str) -> tuple[str, str]:
    """`BASE..HEAD` -> (BASE, HEAD); a bare `BASE` means `BASE..HEAD`."""
    if "..." in spec:
        raise MigrateError(Diagnostic(Pos("<range>"), f"use BASE..HEAD, not {spec!r}"))
    base, _, head = spec.partition("..")
    return base or "HEAD", head or "HEAD"


def rev(repo: Path, name: str) -> str:
    return git(repo, "rev-parse", "--verify", "-q", f"{name}^{{commit}}").decode().strip()


def parse_trailers(message: str) -> dict[str, str]:
    """`Key: value` lines of the message's last paragraph (git's trailer block)."""
    block = message.strip().split("\n\n")[-1]
    out = {}
    for line in block.splitlines():
        key, sep, value = line.partition(":")
        if sep and key and " " not in key.strip():
            out[key.strip()] = value.strip()
    return out


def commit_info(sha: str, message: str) -> CommitInfo:
    trailers = parse_trailers(message)
    plan = trailers.get("Migrate-Plan", "")
    path, _, digest = plan.rpartition(" sha256:") if " sha256:" in plan else (plan, "", "")
    return CommitInfo(
        sha=sha,
        subject=message.strip().splitlines()[0] if message.strip() else "",
        step=trailers.get("Migrate-Step"),
        plan_path=path or None,
        plan_sha256=digest or None,
    )


def commits(repo: Path, base: str, head: str) -> list[CommitInfo]:
    """Commits of BASE..HEAD, oldest first, with their Migrate-* trailers."""
    out = git(repo, "log", "--reverse", f"--format=%H{FS}%B{SEP}", f"{base}..{head}").decode()
    result = []
    for rec in out.split(SEP):
        rec = rec.strip("\n")
        if rec:
            sha, _, msg = rec.partition(FS)
            result.append(commit_info(sha.strip(), msg))
    return result


def ls_tree(repo: Path, revision: str) -> list[str]:
    out = git(repo, "ls-tree", "-r", "-z", "--name-only", revision).decode("utf-8", "replace")
    return [p for p in out.split("\0") if p]


class RevReader:
    """Lazy text of files at one revision (binary or undecodable files read as None)."""

    def __init__(self, repo: Path, revision: str):
        self.repo, self.rev = repo, revision

    def __call__(self, path: str) -> str | None:
        res = subprocess.run(
            ["git", "cat-file", "blob", f"{self.rev}:{path}"], cwd=self.repo, capture_output=True
        )
        if res.returncode != 0 or b"\0" in res.stdout[:8000]:
            return None
        try:
            return res.stdout.decode("utf-8")
        except UnicodeDecodeError:
            return None


def grep_files(repo: Path, revision: str, needles: list[str]) -> list[str]:
    """Paths at `revision` whose text contains any needle (fixed strings, one git call)."""
    if not needles:
        return []
    args = ["grep", "-l", "-I", "-F", "-z"]
    for n in needles:
        args += ["-e", n]
    res = subprocess.run(["git", *args, revision], cwd=repo, capture_output=True)
    if res.returncode not in (0, 1):
        raise MigrateError(Diagnostic(Pos(str(repo)), res.stderr.decode(errors="replace")))
    prefix = revision + ":"
    names = res.stdout.decode("utf-8", "replace").split("\0")
    return [n[len(prefix) :] if n.startswith(prefix) else n for n in names if n]


@contextlib.contextmanager
def exported(repo: Path, revision: str) -> Iterator[Path]:
    """The tree of `revision` as plain files in a temporary directory (removed after)."""
    data = git(repo, "archive", "--format=tar", revision)
    with tempfile.TemporaryDirectory(prefix="migrate-report-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            if hasattr(tarfile, "data_filter"):
                tar.extractall(tmp, filter="data")
            else:  # Python < 3.10.12: git archive output holds no absolute or .. paths
                tar.extractall(tmp)
        yield Path(tmp)
