"""The clean side of git's line-ending conversion: what a file is as a blob.

With `core.autocrlf` or an `eol`/`text` attribute the work tree holds CRLF where the blob
holds LF. Edits are computed on the text the commits will store, so a file whose work-tree
line endings differ from its index entry's is read as git would store it (`hash-object`
applies the clean filter for the path), not as it lies on disk.
"""

from __future__ import annotations

from pathlib import Path

from migrate.git.reads import cat_objects
from migrate.git.runner import run_git

_NO = (b"", b"false", b"no", b"off", b"0")


def may_convert(repo: str | Path, paths: list[str]) -> bool:
    """Whether git converts line endings for any of `paths`: `core.autocrlf` is on, or a
    `text`, `eol` or `crlf` attribute is set for one of them. When neither holds, a
    file's clean side is its work-tree bytes and nothing needs comparing (`ls-files --eol`
    reads every file; these two calls read none)."""
    autocrlf = run_git(repo, "config", "--get", "core.autocrlf", check=False)
    if autocrlf.strip().lower() not in _NO:
        return True
    if not paths:
        return False
    query = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths)
    out = run_git(repo, "check-attr", "-z", "--stdin", "text", "eol", "crlf", input=query)
    values = out.split(b"\0")[2::3]
    return any(v not in (b"unspecified", b"unset") for v in values)


def converted_paths(repo: str | Path, paths: list[str] | None = None) -> list[str]:
    """Tracked files whose work-tree line endings are not their index entry's (one call).

    `paths` (the files the caller will read) lets it skip the comparison where git
    converts nothing for them."""
    if paths is not None and not may_convert(repo, paths):
        return []
    out = run_git(repo, "ls-files", "--eol", "-z", check=False)
    found = []
    for rec in out.split(b"\0"):
        meta, tab, path = rec.partition(b"\t")
        if not tab:
            continue
        fields = meta.split()
        if len(fields) < 2 or not fields[1].startswith(b"w/") or fields[1] == b"w/":
            continue  # a deleted file has no work-tree side
        i_eol, w_eol = fields[0][2:], fields[1][2:]
        if i_eol != w_eol and b"-text" not in (i_eol, w_eol):
            found.append(path.decode("utf-8", "surrogateescape"))
    return found


def clean_contents(repo: str | Path, paths: list[str]) -> dict[str, bytes]:
    """path -> the bytes `git add` would store for it (the clean side), for `paths`.

    The blob names come from `hash-object --stdin-paths` (filters applied, nothing
    written); a file whose clean blob is not in the repository (edited since its commit)
    is left out, and the caller reads the work tree."""
    if not paths:
        return {}
    query = "".join(p + "\n" for p in paths).encode("utf-8", "surrogateescape")
    shas = run_git(repo, "hash-object", "--stdin-paths", input=query).decode().split()
    blobs = cat_objects(repo, shas)
    return {p: b for p, b in zip(paths, blobs, strict=True) if b is not None}
