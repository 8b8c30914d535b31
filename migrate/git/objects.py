"""Git objects for apply and verify: read trees and blobs, write blobs, trees, commits.

Nothing here touches refs, the index or the work tree, so building commits is free of
side effects that a failure would have to undo (loose objects are garbage, not state).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from functools import cached_property
from pathlib import Path

from migrate.git.reads import cat_objects, iter_objects, ls_tree
from migrate.git.runner import null_oid, object_format, run_git

Listing = dict[str, tuple[int, str]]  # path -> (mode, blob sha)


def blob_sha(data: bytes, object_format: str = "sha1") -> str:
    """The id git gives `data` as a blob, in a repository of `object_format` (`sha1`, or
    `sha256` for one made with `git init --object-format=sha256`)."""
    return hashlib.new(object_format, b"blob %d\0" % len(data) + data).hexdigest()


TREE = 0o40000


def tree_objects(listing: Listing) -> tuple[str, dict[str, bytes]]:
    """(root tree's sha, {sha: object body}) of every tree of `listing`, formed and
    hashed as git does: entries sorted by name, a tree's name as if it ended in "/";
    mode in octal, name, NUL, the binary object id. The hash (SHA-1 or SHA-256) is the
    one the listing's object ids are in (SHA-1 for an empty listing)."""
    sample = next(iter(listing.values()), (0, "0" * 40))[1]
    digest = hashlib.sha1 if len(sample) == 40 else hashlib.sha256
    kids: dict[str, list[tuple[bytes, int, bytes]]] = {"": []}  # dir -> [(name, mode, id)]
    for path, (mode, sha) in listing.items():
        d, _, name = path.rpartition("/")
        if d not in kids:
            kids[d] = []
            up = d
            while up:  # make its parents known, up to one already known
                parent = up.rpartition("/")[0]
                known = parent in kids
                kids.setdefault(parent, [])
                if known:
                    break
                up = parent
        kids[d].append((_path(name), mode, bytes.fromhex(sha)))
    trees: dict[str, bytes] = {}
    ids: dict[str, bytes] = {}
    for d in sorted(kids, key=lambda d: -d.count("/") if d else 1):  # deepest first
        parent, _, name = d.rpartition("/")
        entries = kids[d]
        entries.sort(key=lambda e: e[0] + b"/" if e[1] == TREE else e[0])
        body = b"".join(b"%o %s\0%s" % (mode, n, oid) for n, mode, oid in entries)
        raw = digest(b"tree %d\0" % len(body) + body).digest()
        trees[raw.hex()] = body
        ids[d] = raw
        if d:
            kids[parent].append((_path(name), TREE, raw))
    return ids[""].hex(), trees


def _tree_entries(body: bytes, size: int) -> dict[bytes, tuple[int, bytes]]:
    """name -> (mode, binary object id) of a tree object's body (`size`: the id's bytes)."""
    out, i = {}, 0
    while i < len(body):
        sp = body.index(b" ", i)
        nul = body.index(b"\0", sp)
        out[body[sp + 1 : nul]] = (int(body[i:sp], 8), body[nul + 1 : nul + 1 + size])
        i = nul + 1 + size
    return out


def _path(p: str) -> bytes:
    return p.encode("utf-8", "surrogateescape")


class GitObjects:
    """Blob and tree access for one repository: plumbing for trees and batches,
    GitPython's object database for single reads (opened, and imported, on the first)."""

    def __init__(self, repo_dir: str | Path):
        top = run_git(repo_dir, "rev-parse", "--show-toplevel", check=False).decode().strip()
        self.dir = Path(top or repo_dir)
        self._repo = None
        self._sign: list[str] | None = None  # ["-S"] when commits are to be signed

    @property
    def repo(self):
        if self._repo is None:
            import git  # a second or more at start-up: only when a blob is read alone

            self._repo = git.Repo(self.dir)
        return self._repo

    def close(self) -> None:
        if self._repo is not None:
            self._repo.close()

    @cached_property
    def object_format(self) -> str:
        """`sha1` or `sha256`: how this repository names its objects."""
        return object_format(self.dir)

    def blob_sha(self, data: bytes) -> str:
        """The id `data` has (or would have) as a blob of this repository."""
        return blob_sha(data, self.object_format)

    def rev(self, rev: str) -> str:
        out = run_git(self.dir, "rev-parse", "--verify", "-q", f"{rev}^{{commit}}")
        return out.decode().strip()

    def ls_tree(self, rev: str) -> Listing:
        """Every entry of a commit's tree, recursively (submodules kept as gitlinks)."""
        return ls_tree(self.dir, rev)

    def read(self, sha: str) -> bytes:
        return self.repo.odb.stream(bytes.fromhex(sha)).read()

    def files(self, listing: Listing, paths) -> dict[str, tuple[int, bytes]]:
        """Content of `paths` (those present in `listing`), read in one git call."""
        present = [p for p in paths if p in listing]
        data = cat_objects(self.dir, [listing[p][1] for p in present])
        return {p: (listing[p][0], d) for p, d in zip(present, data, strict=True)}

    def write_blob(self, data: bytes) -> str:
        return self.write_blobs([data])[0]

    def write_blobs(self, blobs: list[bytes]) -> list[str]:
        """Store blobs (as loose objects, no filters) with one git call; their shas."""
        return self.write_objects("blob", blobs)

    def write_objects(self, kind: str, datas: list[bytes]) -> list[str]:
        """Store objects of one type (loose, no filters; git checks a tree's format) with
        one git call; their shas."""
        if not datas:
            return []
        with tempfile.TemporaryDirectory(prefix="migrate-blobs-") as tmp:
            names = []
            for i, data in enumerate(datas):
                name = os.path.join(tmp, str(i))
                with open(name, "wb") as fh:
                    fh.write(data)
                names.append(name)
            out = run_git(
                self.dir,
                "hash-object",
                "-t",
                kind,
                "-w",
                "--no-filters",
                "--stdin-paths",
                input="".join(n + "\n" for n in names).encode(),
            )
        return out.decode().split()

    def write_tree(self, listing: Listing) -> str:
        """A tree object holding exactly `listing`: every tree is formed and hashed here
        (`tree_objects`), and only those the repository lacks are written, in one call."""
        root, trees = tree_objects(listing)
        have = self._present(list(trees))
        self.write_objects("tree", [data for sha, data in trees.items() if sha not in have])
        return root

    def _present(self, shas: list[str]) -> set[str]:
        """Those of `shas` the repository already holds (one `cat-file` call)."""
        if not shas:
            return set()
        out = run_git(
            self.dir,
            "cat-file",
            "--batch-check=%(objectname)",
            input="".join(s + "\n" for s in shas).encode(),
        )
        return {line for line in out.decode().split("\n") if line in shas}

    def entry_ids(self, tree: str, paths: list[str]) -> dict[str, str]:
        """path -> object id of each of `paths` that names a directory (a tree) of `tree`,
        in one git call."""
        if not paths:
            return {}
        specs = "".join(f"{tree}:{p}\n" for p in paths).encode("utf-8", "surrogateescape")
        out = run_git(
            self.dir, "cat-file", "--batch-check=%(objectname) %(objecttype)", input=specs
        )
        found = {}
        for p, line in zip(paths, out.decode().split("\n"), strict=False):
            sha, _, kind = line.partition(" ")
            if kind == "tree":
                found[p] = sha
        return found

    def graft(self, tree: str, changes: Listing) -> str:
        """`tree` with the entries `changes` set: a file, symlink or gitlink, a directory
        set to an existing tree (mode 040000, one entry for all it holds), or mode 0: the
        entry removed, a file or a whole directory. Only the trees along the changed paths
        are read (one `cat-file`) and written (only those the repository lacks): O(depth)
        objects, not O(files). A directory left empty is dropped, as git has none."""
        dirs = {""}
        for p in changes:
            d = p.rpartition("/")[0]
            while d not in dirs:
                dirs.add(d)
                d = d.rpartition("/")[0]
        order = sorted(dirs, key=lambda d: d.count("/") + 1 if d else 0)  # root first
        specs, empty = [], []
        for d in order:
            src = self._graft_source(tree, d, changes)
            if src is None:
                empty.append(d)
            else:
                specs.append((d, src))
        read = iter_objects(self.dir, [s for _, s in specs])
        bodies = dict(zip([d for d, _ in specs], read, strict=True))
        size = len(tree) // 2
        entries: dict[str, dict[bytes, tuple[int, bytes]]] = {}
        for d in order:  # root first: a directory's kind is known before it is parsed
            if d:
                parent, _, name = d.rpartition("/")
                kind = entries[parent].get(_path(name), (TREE, b""))[0]
                if kind != TREE and d not in changes:
                    raise ValueError(f"{d}: a file in {tree}, not a directory")
            entries[d] = _tree_entries(bodies.get(d) or b"", size)
        for p, (mode, sha) in changes.items():
            d, _, name = p.rpartition("/")
            if mode:
                entries[d][_path(name)] = (mode, bytes.fromhex(sha))
            else:
                entries[d].pop(_path(name), None)
        digest = hashlib.sha1 if size == 20 else hashlib.sha256
        new: dict[str, bytes] = {}
        for d in reversed(order):  # deepest first
            items = sorted(
                entries[d].items(), key=lambda e: e[0] + b"/" if e[1][0] == TREE else e[0]
            )
            body = b"".join(b"%o %s\0%s" % (mode, n, oid) for n, (mode, oid) in items)
            raw = digest(b"tree %d\0" % len(body) + body).digest()
            new[raw.hex()] = body
            if not d:
                root = raw.hex()
                break
            parent, _, name = d.rpartition("/")
            if items:
                entries[parent][_path(name)] = (TREE, raw)
            else:
                entries[parent].pop(_path(name), None)
        have = self._present(list(new))
        self.write_objects("tree", [body for sha, body in new.items() if sha not in have])
        return root

    @staticmethod
    def _graft_source(tree: str, d: str, changes: Listing) -> str | None:
        """Where directory `d`'s entries come from before `changes`: `tree:d`, or the tree
        a change sets `d` (or a directory above it) to; None when a change removed it."""
        up = d
        while up:
            if up in changes:
                mode, sha = changes[up]
                if mode == 0:
                    return None
                if mode != TREE:
                    raise ValueError(f"{up}: set to a file but holds changed entries")
                rest = d[len(up) + 1 :]
                return f"{sha}:{rest}" if rest else sha
            up = up.rpartition("/")[0]
        return f"{tree}:{d}" if d else tree

    def write_tree_from(self, tree: str, changes: Listing) -> str:
        """`tree` with the entries `changes` set (mode 0: removed): git reads the tree
        into a throwaway index and writes back only the directories that changed (or,
        for top-level entries only, `mktree` rewrites the top tree alone)."""
        if changes and not any("/" in p for p in changes):
            top = self._top_tree_with(tree, changes)
            if top is not None:
                return top
        with tempfile.TemporaryDirectory(prefix="migrate-index-") as tmp:
            env = dict(os.environ, GIT_INDEX_FILE=str(Path(tmp) / "index"))
            run_git(self.dir, "read-tree", tree, env=env)
            info = b"".join(
                b"%o %s\t%s\0" % (mode, sha.encode() if mode else null_oid(tree).encode(), _path(p))
                for p, (mode, sha) in sorted(changes.items())
            )
            run_git(self.dir, "update-index", "-z", "--index-info", input=info, env=env)
            return run_git(self.dir, "write-tree", env=env).decode().strip()

    def _top_tree_with(self, tree: str, changes: Listing) -> str | None:
        """`tree` with the top-level entries `changes` set, written by `mktree` from the
        top tree's own entries: no index of the whole tree (30,000 entries read and
        written for one file). None when a change names a directory of `tree`: the
        index's way handles that."""
        entries: dict[bytes, bytes] = {}  # name -> "mode type sha", as `ls-tree` gives it
        for rec in run_git(self.dir, "ls-tree", "-z", tree).split(b"\0"):
            meta, tab, name = rec.partition(b"\t")
            if tab:
                entries[name] = meta
        for p, (mode, sha) in changes.items():
            name = _path(p)
            if mode == 0o40000 or entries.get(name, b"").startswith(b"040000 "):
                return None
            if mode:
                kind = b"commit" if mode == 0o160000 else b"blob"
                entries[name] = b"%o %s %s" % (mode, kind, sha.encode())
            else:
                entries.pop(name, None)
        data = b"".join(meta + b"\t" + name + b"\0" for name, meta in entries.items())
        return run_git(self.dir, "mktree", "-z", input=data).decode().strip()

    def commit_tree(self, tree: str, parent: str, message: str) -> str:
        """A commit object, signed when the repository asks for signed commits
        (`commit.gpgSign`, which `git commit` follows and `commit-tree` does not read)."""
        if self._sign is None:
            asked = run_git(self.dir, "config", "--bool", "commit.gpgSign", check=False)
            self._sign = ["-S"] if asked.decode().strip() == "true" else []
        out = run_git(
            self.dir,
            "commit-tree",
            *self._sign,
            tree,
            "-p",
            parent,
            "-F",
            "-",
            input=message.encode("utf-8"),
        )
        return out.decode().strip()

    def message(self, rev: str) -> str:
        return run_git(self.dir, "log", "-1", "--no-show-signature", "--format=%B", rev).decode(
            "utf-8", "replace"
        )


def listing_with(
    objs: GitObjects, base: Listing, domain: set[str], files: dict[str, tuple[int, bytes]]
) -> Listing:
    """`base` with the entries in `domain` replaced by `files`.

    A file whose bytes are already a blob of `base` (every pure move) reuses it; the new
    ones are written in one batch. Nothing is written per file.
    """
    out = {p: v for p, v in base.items() if p not in domain}
    known = {sha for _mode, sha in base.values()}
    new: dict[str, tuple[int, bytes]] = {}
    for p, (mode, data) in files.items():
        sha = objs.blob_sha(data)
        if sha in known:
            out[p] = (mode, sha)
        else:
            new[p] = (mode, data)
    shas = objs.write_blobs([data for _mode, data in new.values()])
    for (p, (mode, _data)), sha in zip(new.items(), shas, strict=True):
        out[p] = (mode, sha)
    return out
