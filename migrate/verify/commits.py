"""What verify accepts as a range, and which of its commits are not the engine's.

A proof of BASE..HEAD covers every commit in it: a hand-written commit or a merge in
the range is a change nothing reproduces, so it fails verify by name (or, with
`--allow-foreign`, is listed as a warning). An empty or reversed range proves nothing
and is bad input.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from migrate.git_steps.gitio import run_git
from migrate.git_steps.message import parse_trailers
from migrate.verify.result import FAIL, PASS, CheckResult, Finding

NAME = "range-commits"


class BadRange(ValueError):
    """The range is not BASE..HEAD with BASE a proper ancestor of HEAD (exit 2)."""


def _rev(repo: Path, rev: str) -> str:
    out = run_git(repo, "rev-parse", "--verify", "-q", f"{rev}^{{commit}}", check=False)
    if not out.strip():
        raise BadRange(f"unknown revision {rev!r}")
    return out.decode().strip()


def _ancestor_rc(repo: Path, a: str, b: str) -> int:
    return subprocess.run(
        ["git", "merge-base", "--is-ancestor", a, b], cwd=repo, capture_output=True
    ).returncode


def parse_range(repo: str | Path, spec: str) -> tuple[str, str]:
    """(BASE sha, HEAD sha) of `BASE..HEAD`; BadRange for any other shape or order."""
    repo = Path(repo)
    if "..." in spec or spec.count("..") != 1:
        raise BadRange(f"expected BASE..HEAD, got {spec!r}")
    base_spec, head_spec = spec.split("..")
    if not base_spec or not head_spec:
        raise BadRange(f"expected BASE..HEAD with both ends named, got {spec!r}")
    base, head = _rev(repo, base_spec), _rev(repo, head_spec)
    if base == head:
        raise BadRange(f"empty range {spec}: {base_spec} and {head_spec} are the same commit")
    if _ancestor_rc(repo, head, base) == 0:
        raise BadRange(f"reversed range {spec}: {head_spec} is an ancestor of {base_spec}")
    if _ancestor_rc(repo, base, head) != 0:
        raise BadRange(f"{base_spec} is not an ancestor of {head_spec} in {spec}")
    return base, head


def foreign_commits(repo: str | Path, base: str, head: str) -> list[tuple[str, str]]:
    """[(sha, why)] for every commit in base..head that is a merge or has no step trailers."""
    out = run_git(repo, "log", "--reverse", "--format=%H %P%x00%s%x00%B%x01", f"{base}..{head}")
    found = []
    for rec in out.decode("utf-8", "replace").split("\x01"):
        rec = rec.strip("\n")
        if not rec:
            continue
        shas, subject, body = rec.split("\x00", 2)
        sha, *parents = shas.split()
        if len(parents) > 1:
            found.append((sha, f"merge commit {sha[:12]} ({subject!r}): nothing reproduces it"))
        elif parse_trailers(body) is None:
            found.append((sha, f"commit {sha[:12]} ({subject!r}) is not a Migrate-Step commit"))
    return found


def range_check(repo: str | Path, base: str, head: str, allow_foreign: bool) -> CheckResult:
    foreign = foreign_commits(repo, base, head)
    severity = "warning" if allow_foreign else "error"
    findings = [
        Finding("", 0, NAME, why, "allowed by --allow-foreign" if allow_foreign else "", severity)
        for _sha, why in foreign
    ]
    n = len(run_git(repo, "rev-list", f"{base}..{head}").split())
    status = FAIL if foreign and not allow_foreign else PASS
    return CheckResult(NAME, status, findings, f"{n} commits, {len(foreign)} foreign")
