"""Plans that apply keeps in the repository's git directory, by sha256.

The trailers name a plan outside the repository by file name and hash only (a local absolute
path is nobody's business), so apply keeps a copy of it under `.git/migrate/plans/` for
`migrate verify` and `report` in the same clone. The copy is never tracked or pushed: a
clone elsewhere passes `--plan`. A chain recorded under its own hash keeps each member
under the member's hash plus `<chain sha256>.chain`, the members' hashes in order.
"""

from __future__ import annotations

import os
from pathlib import Path

from migrate.git.runner import git_path


def _store(repo_dir: str | Path) -> Path:
    return git_path(repo_dir, "migrate/plans")


def keep_plan(repo_dir: str | Path, plan_path: str | Path, sha256: str) -> None:
    """Keep the plan's bytes under its recorded sha256 (written atomically)."""
    store = _store(repo_dir)
    store.mkdir(parents=True, exist_ok=True)
    dst = store / f"{sha256}.yaml"
    if dst.exists():
        return
    tmp = dst.with_suffix(f".tmp{os.getpid()}")
    tmp.write_bytes(Path(plan_path).read_bytes())
    os.replace(tmp, dst)


def keep_chain(repo_dir: str | Path, plan_paths: list, shas: list[str], chain_sha256: str) -> None:
    """Keep every member of a chain and the list that names them under the chain's hash."""
    for path, sha in zip(plan_paths, shas, strict=True):
        keep_plan(repo_dir, path, sha)
    dst = _store(repo_dir) / f"{chain_sha256}.chain"
    tmp = dst.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text("".join(f"{s}\n" for s in shas))
    os.replace(tmp, dst)


def kept_chain(repo_dir: str | Path, sha256: str) -> list[bytes] | None:
    """The kept members of the chain recorded with this sha256 (a single kept plan is a
    chain of one), or None when any of them is missing."""
    if not _hexdigest(sha256):
        return None
    try:
        shas = (_store(repo_dir) / f"{sha256}.chain").read_text().split()
    except OSError:
        one = kept_plan(repo_dir, sha256)
        return None if one is None else [one]
    found = [kept_plan(repo_dir, s) for s in shas]
    return None if not found or any(f is None for f in found) else found


def _hexdigest(sha256: str) -> bool:
    return bool(sha256) and all(c in "0123456789abcdef" for c in sha256)


def kept_plan(repo_dir: str | Path, sha256: str) -> bytes | None:
    """The kept plan recorded with this sha256, or None (the caller checks the hash of what
    it loads against the trailer's, as for any plan file)."""
    if not _hexdigest(sha256):
        return None
    try:
        return (_store(repo_dir) / f"{sha256}.yaml").read_bytes()
    except OSError:
        return None
