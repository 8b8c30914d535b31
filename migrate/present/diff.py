"""The whole ChangeSet as one git-style unified diff (renames, new and deleted files).

Moves are shown as git shows them, `rename from`/`rename to` with `similarity index
100%` when the file is unchanged, so a reviewer sees at a glance which moves are pure.
Blob ids on `index` lines are real git blob ids, in the repository's object format (SHA-1,
or SHA-256 for one made with `--object-format=sha256`), so the output reads like `git diff -M`.
"""

from __future__ import annotations

import difflib

from migrate.changes import ChangeSet
from migrate.git.objects import blob_sha
from migrate.git.runner import object_format
from migrate.index.repo import RepoIndex
from migrate.present.tree import FileChange, file_changes

NULL = "0000000"


def blob_id(text: str | None, encoding: str = "utf-8", fmt: str = "sha1") -> str:
    """Abbreviated git blob id of `text` (what `git hash-object` prints, 7 digits) in a
    repository of object format `fmt`."""
    if text is None:
        return NULL
    return blob_sha(text.encode(encoding, "surrogateescape"), fmt)[:7]


def similarity(before: str, after: str) -> int:
    """Percent of content kept, as whole lines (git's measure is close to this)."""
    if before == after:
        return 100
    a, b = before.splitlines(keepends=True), after.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    kept = sum(len("".join(a[i : i + n])) for i, _, n in matcher.get_matching_blocks())
    return int(100 * kept / max(len(before), len(after), 1))


def hunks(before: str, after: str) -> str:
    """Unified hunks (3 lines of context) with git's no-newline-at-end markers."""
    a, b = before.splitlines(keepends=True), after.splitlines(keepends=True)
    out = []
    for line in list(difflib.unified_diff(a, b, n=3, lineterm=""))[2:]:
        if line.startswith("@@"):
            out.append(line + "\n")
        elif line.endswith("\n"):
            out.append(line)
        else:
            out.append(line + "\n\\ No newline at end of file\n")
    return "".join(out)


def _file_diff(c: FileChange, encoding, fmt: str) -> str:
    old, new = c.old or c.new, c.new or c.old
    mode = f"{c.old_mode:o}"
    head = [f"diff --git a/{old} b/{new}\n"]
    if c.status == "renamed":
        sim = 100 if not c.changed_content else similarity(c.before or "", c.after or "")
        head += [f"similarity index {sim}%\n", f"rename from {c.old}\n", f"rename to {c.new}\n"]
        if not c.changed_content:
            return "".join(head)
    if c.status == "added":
        head.append(f"new file mode {mode}\n")
    if c.status == "deleted":
        head.append(f"deleted file mode {mode}\n")
    a_id = blob_id(c.before, encoding(c.old), fmt) if c.old else NULL
    b_id = blob_id(c.after, encoding(c.old or c.new), fmt) if c.new else NULL
    same_mode = f" {mode}" if c.status in ("modified", "renamed") else ""
    head.append(f"index {a_id}..{b_id}{same_mode}\n")
    a_name = f"a/{c.old}" if c.old else "/dev/null"
    b_name = f"b/{c.new}" if c.new else "/dev/null"
    if c.binary:
        return "".join(head) + f"Binary files {a_name} and {b_name} differ\n"
    body = hunks(c.before or "", c.after or "")
    if not body:
        return "".join(head) if c.status in ("added", "deleted") else ""
    return "".join(head) + f"--- {a_name}\n+++ {b_name}\n" + body


def unified_diff(changeset: ChangeSet, index: RepoIndex) -> str:
    """Every file change of `changeset` against the indexed tree, as one patch."""
    fmt = object_format(index.root)

    def encoding(path: str | None) -> str:
        return index.encoding(path) if path and path in index.files else "utf-8"

    parts = [(c.new or c.old, _file_diff(c, encoding, fmt)) for c in file_changes(changeset, index)]
    parts += [(new, _gitlink_rename(old, new)) for old, new in changeset.submodules.items()]
    return "".join(text for _key, text in sorted(parts, key=lambda p: p[0]))


def _gitlink_rename(old: str, new: str) -> str:
    """A submodule's move as `git diff -M` shows a gitlink rename (its commit unchanged)."""
    return (
        f"diff --git a/{old} b/{new}\nsimilarity index 100%\nrename from {old}\nrename to {new}\n"
    )
