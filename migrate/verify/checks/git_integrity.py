"""Git-level integrity of HEAD, read from its tree: every gitlink has its `.gitmodules`
entry and every entry its gitlink (a moved submodule whose `.gitmodules` path was not
updated clones empty), every BASE submodule is a submodule at its relocated path (one left
behind in a moved package is consistent with itself, and wrong), and no symlink inside the
repository now dangles (a link whose target moved, or a link moved away from its target).
New problems only: the same problem at BASE, mapped through the plan, is a warning.
"""

from __future__ import annotations

import posixpath
import subprocess

from migrate.git import GitObjects, Listing
from migrate.verify.context import VerifyContext
from migrate.verify.result import SO_AT_BASE, CheckResult, against_base

NAME = "git-integrity"
GITLINK, SYMLINK = 0o160000, 0o120000


def _submodule_paths(repo, rev: str, listing: Listing) -> dict[str, int]:
    """path -> line of each `path = ...` in the revision's .gitmodules."""
    if ".gitmodules" not in listing:
        return {}
    res = subprocess.run(
        ["git", "show", f"{rev}:.gitmodules"], cwd=repo, capture_output=True, text=True
    )
    out = {}
    for i, line in enumerate(res.stdout.splitlines(), 1):
        name, sep, value = line.partition("=")
        if sep and name.strip() == "path":
            out[value.strip().strip('"').rstrip("/")] = i
    return out


def problems(objs: GitObjects, rev: str) -> list[tuple[str, int, str, str]]:
    """[(path, line, kind, message)] of the revision's gitlink and symlink problems."""
    listing = objs.ls_tree(rev)
    out = []
    links = {p for p, (mode, _) in listing.items() if mode == GITLINK}
    declared = _submodule_paths(objs.dir, rev, listing)
    for p in sorted(links - set(declared)):
        out.append((p, 0, "gitlink", f"gitlink {p} has no .gitmodules entry"))
    for p in sorted(set(declared) - links):
        out.append((".gitmodules", declared[p], "gitlink", f".gitmodules names {p}: no gitlink"))
    dirs = {posixpath.dirname(p) for p in listing}
    dirs |= {d for p in list(dirs) for d in _parents(p)}
    for p, (mode, sha) in sorted(listing.items()):
        if mode != SYMLINK:
            continue
        target = objs.read(sha).decode("utf-8", "surrogateescape")
        if posixpath.isabs(target):
            continue
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(p), target))
        if resolved.startswith("../") or resolved == "..":
            continue  # outside the repository: not ours to judge
        if resolved not in listing and resolved not in dirs:
            out.append((p, 0, "symlink", f"symlink {p} -> {target} dangles"))
    return out


def _parents(path: str):
    while path:
        path = posixpath.dirname(path)
        yield path


def left_behind(objs: GitObjects, ctx: VerifyContext) -> list[tuple[str, int, str, str]]:
    """BASE submodules that are not submodules at their relocated path at HEAD."""
    head = objs.ls_tree(ctx.head_rev)
    out = []
    for p, (mode, _sha) in sorted(objs.ls_tree(ctx.base_rev).items()):
        new = ctx.path_now(p)
        if mode == GITLINK and head.get(new, (0, ""))[0] != GITLINK:
            where = "is missing at HEAD" if new == p else f"is not at {new} at HEAD"
            out.append((new, 0, "gitlink", f"submodule {p} {where}"))
    return out


def check(ctx: VerifyContext) -> CheckResult:
    objs = GitObjects(ctx.repo_dir)
    try:
        head = problems(objs, ctx.head_rev) + left_behind(objs, ctx)
        base = problems(objs, ctx.base_rev) if head else []
    finally:
        objs.close()
    before = {(ctx.path_now(p), m.split(" ", 1)[0]) for p, _, _, m in base}
    findings = []
    for path, line, _kind, message in head:
        old = (path, message.split(" ", 1)[0]) in before
        findings.append(against_base(path, line, NAME, message, old, note=SO_AT_BASE))
    return CheckResult.judged(NAME, findings)
