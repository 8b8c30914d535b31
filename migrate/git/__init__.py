"""The one git layer: running git, revisions and ranges, objects, reads, checkouts, trailers.

Every other module talks to git through here, so a range means one thing for every
command, a temporary worktree is always removed, and the `Migrate-*` trailers are written
and read by one pair of functions.
"""

from migrate.git.checkouts import exported, removed_in_background, snapshot, worktree, worktrees
from migrate.git.objects import GitObjects, Listing, blob_sha, listing_with
from migrate.git.revs import RevRange, resolve_range, resolve_revision
from migrate.git.runner import GitError, git_path, null_oid, run_git
from migrate.git.trailers import (
    BLAME_FILE,
    BLAME_STEP,
    Trailers,
    blame_file_text,
    parse_trailers,
    plan_ref,
    trailer_lines,
)

__all__ = [
    "BLAME_FILE",
    "BLAME_STEP",
    "GitError",
    "GitObjects",
    "Listing",
    "RevRange",
    "Trailers",
    "blame_file_text",
    "blob_sha",
    "exported",
    "git_path",
    "null_oid",
    "listing_with",
    "parse_trailers",
    "plan_ref",
    "removed_in_background",
    "resolve_range",
    "resolve_revision",
    "run_git",
    "snapshot",
    "trailer_lines",
    "worktree",
    "worktrees",
]
