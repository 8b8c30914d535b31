"""Revisions and ranges: `A..B` only, one message per way to get it wrong.

Every range-taking command (verify, report, parity) and every revision option
(inventory --diff-from) goes through `resolve_range` / `resolve_revision`, so `main`,
`main...HEAD`, an empty range or a reversed one are refused the same way everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from migrate.errors import Diagnostic, MigrateError, Pos
from migrate.git.runner import git_ok, run_git


@dataclass(frozen=True)
class RevRange:
    """A resolved `BASE..HEAD`: the names as given and the commits they name."""

    spec: str
    base_name: str
    head_name: str
    base: str
    head: str


def _error(where: str, message: str) -> MigrateError:
    return MigrateError(Diagnostic(Pos(where), message))


def resolve_revision(repo: str | Path, name: str, where: str = "revision") -> str:
    """The commit `name` names; a range or an unknown name is an error naming it."""
    if ".." in name:
        raise _error(where, f"expected one revision, got {name!r}: a range")
    if not name or name.startswith("-"):
        raise _error(where, f"expected one revision, got {name!r}")
    out = run_git(repo, "rev-parse", "--verify", "-q", f"{name}^{{commit}}", check=False)
    sha = out.decode().strip()
    if not sha:
        raise _error(where, f"unknown revision {name!r}: it does not exist here")
    return sha


def split_range(spec: str) -> tuple[str, str]:
    """`A..B` -> (A, B); anything else is an error with one message per form."""
    if "..." in spec:
        a, _, b = spec.partition("...")
        example = f"{a or 'BASE'}..{b or 'HEAD'}"
        raise _error(
            "range", f"expected BASE..HEAD, got {spec!r}: a symmetric range (use {example})"
        )
    if ".." not in spec:
        raise _error(
            "range", f"expected BASE..HEAD, got {spec!r}: a single revision (use {spec}..HEAD)"
        )
    base, _, head = spec.partition("..")
    if not base or not head:
        raise _error("range", f"expected BASE..HEAD with both ends named, got {spec!r}")
    return base, head


def _is_ancestor(repo: str | Path, a: str, b: str) -> bool:
    return git_ok(repo, "merge-base", "--is-ancestor", a, b)


def resolve_range(repo: str | Path, spec: str) -> RevRange:
    """Parse and resolve `BASE..HEAD`: both exist, HEAD descends from BASE, not empty."""
    base_name, head_name = split_range(spec)
    base = resolve_revision(repo, base_name, "range")
    head = resolve_revision(repo, head_name, "range")
    if base == head:
        raise _error(
            "range", f"empty range {spec!r}: {base_name} and {head_name} are the same commit"
        )
    if not _is_ancestor(repo, base, head):
        if _is_ancestor(repo, head, base):
            raise _error(
                "range",
                f"reversed range {spec!r}: {head_name} is an ancestor of {base_name} "
                f"(use {head_name}..{base_name})",
            )
        raise _error("range", f"{base_name} is not an ancestor of {head_name} in {spec!r}")
    return RevRange(spec, base_name, head_name, base, head)
