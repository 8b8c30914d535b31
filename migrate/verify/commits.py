"""What verify accepts as a range, and which of its commits are not the engine's.

A proof of BASE..HEAD covers every commit in it: a hand-written commit or a merge in
the range is a change nothing reproduces, so it fails verify by name (or, with
`--allow-foreign`, is listed as a warning). An empty or reversed range proves nothing
and is bad input (`migrate.git.resolve_range` refuses it).
"""

from __future__ import annotations

from pathlib import Path

from migrate.git import parse_trailers, run_git
from migrate.verify.result import FAIL, PASS, CheckResult, Finding

NAME = "range-commits"


def foreign_commits(repo: str | Path, base: str, head: str) -> list[tuple[str, str]]:
    """[(sha, why)] for every commit in base..head that is a merge or has no step trailers."""
    out = run_git(
        repo,
        "log",
        "--no-show-signature",
        "--reverse",
        "--format=%H %P%x00%s%x00%B%x01",
        f"{base}..{head}",
    )
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
