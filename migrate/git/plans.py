"""Plans that apply keeps in the repository's git directory, by sha256.

The trailers name a plan outside the repository by file name and hash only (a local absolute
path is nobody's business), so apply keeps a copy of it under `.git/migrate/plans/` for
`migrate verify` and `report` in the same clone. The copy is never tracked or pushed: a
clone elsewhere passes `--plan`.
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


def kept_plan(repo_dir: str | Path, sha256: str) -> bytes | None:
    """The kept plan recorded with this sha256, or None (the caller checks the hash of what
    it loads against the trailer's, as for any plan file)."""
    if not sha256 or not all(c in "0123456789abcdef" for c in sha256):
        return None
    try:
        return (_store(repo_dir) / f"{sha256}.yaml").read_bytes()
    except OSError:
        return None
