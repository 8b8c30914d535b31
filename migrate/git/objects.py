"""Git objects for apply and verify: read trees and blobs, write blobs, trees, commits.

Nothing here touches refs, the index or the work tree, so building commits is free of
side effects that a failure would have to undo (loose objects are garbage, not state).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from io import BytesIO
from pathlib import Path

import git
from gitdb import IStream

from migrate.git.reads import ls_tree
from migrate.git.runner import run_git

Listing = dict[str, tuple[int, str]]  # path -> (mode, blob sha)


def blob_sha(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _path(p: str) -> bytes:
    return p.encode("utf-8", "surrogateescape")


class GitObjects:
    """Blob and tree access for one repository (GitPython's object database underneath)."""

    def __init__(self, repo_dir: str | Path):
        self.repo = git.Repo(repo_dir)
        self.dir = Path(self.repo.working_tree_dir or repo_dir)

    def close(self) -> None:
        self.repo.close()

    def rev(self, rev: str) -> str:
        out = run_git(self.dir, "rev-parse", "--verify", "-q", f"{rev}^{{commit}}")
        return out.decode().strip()

    def ls_tree(self, rev: str) -> Listing:
        """Every entry of a commit's tree, recursively (submodules kept as gitlinks)."""
        return ls_tree(self.dir, rev)

    def read(self, sha: str) -> bytes:
        return self.repo.odb.stream(bytes.fromhex(sha)).read()

    def files(self, listing: Listing, paths) -> dict[str, tuple[int, bytes]]:
        """Content of `paths` (those present in `listing`)."""
        return {p: (listing[p][0], self.read(listing[p][1])) for p in paths if p in listing}

    def write_blob(self, data: bytes) -> str:
        return self.repo.odb.store(IStream(b"blob", len(data), BytesIO(data))).hexsha.decode()

    def write_tree(self, listing: Listing) -> str:
        """A tree object holding exactly `listing`, built in a throwaway index file."""
        with tempfile.TemporaryDirectory(prefix="migrate-index-") as tmp:
            env = dict(os.environ, GIT_INDEX_FILE=str(Path(tmp) / "index"))
            info = b"".join(
                b"%o %s\t%s\0" % (mode, sha.encode(), _path(p))
                for p, (mode, sha) in sorted(listing.items())
            )
            run_git(self.dir, "update-index", "-z", "--index-info", input=info, env=env)
            return run_git(self.dir, "write-tree", env=env).decode().strip()

    def commit_tree(self, tree: str, parent: str, message: str) -> str:
        out = run_git(
            self.dir, "commit-tree", tree, "-p", parent, "-F", "-", input=message.encode("utf-8")
        )
        return out.decode().strip()

    def message(self, rev: str) -> str:
        return run_git(self.dir, "log", "-1", "--format=%B", rev).decode("utf-8", "replace")


def listing_with(
    objs: GitObjects, base: Listing, domain: set[str], files: dict[str, tuple[int, bytes]]
) -> Listing:
    """`base` with the entries in `domain` replaced by `files` (blobs written as needed)."""
    out = {p: v for p, v in base.items() if p not in domain}
    for p, (mode, data) in files.items():
        out[p] = (mode, objs.write_blob(data))
    return out
