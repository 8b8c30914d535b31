"""Text files the rewriter cannot decode but that spell an old name: errors, not skips.

A latin-1 file without a coding cookie is neither binary nor readable as UTF-8; skipping
it silently left its old references behind under a PASS. Its bytes are searched as
latin-1 (every byte one character, so an ASCII old name is found where it is) and each
such file is a positioned error until it is converted or given a coding cookie.
"""

from __future__ import annotations

from migrate.errors import Diagnostic, Pos
from migrate.index.repo import RepoIndex
from migrate.oldnames import OldNames
from migrate.relocate import Relocation
from migrate.rewrite.globs import repo_glob_match


def undecodable_problems(
    index: RepoIndex, relocation: Relocation, plan, skip: set[str] = frozenset()
) -> list[Diagnostic]:
    """One error per non-binary file that does not decode and holds an old name."""
    names = OldNames(relocation, plan)
    keep = tuple(getattr(plan, "keep_prose", ()))
    out = []
    for path in sorted(index.files):  # keys: the items' order, cheaper to sort
        info = index.files[path]
        if info.is_symlink or path in skip:
            continue
        data = index.read_bytes(path)
        # bytes that hold no needle spell no old name as latin-1: no decoding needed
        if not names.bytes_prefilter.search(data) or index.text(path) is not None:
            continue
        if b"\0" in data[:8192] or any(repo_glob_match(g, path) for g in keep):
            continue  # binary, or kept verbatim on purpose
        text = data.decode("latin-1")
        hit = names.regex.search(text) if names.prefilter.search(text) else None
        if hit is None:
            continue
        line = text.count("\n", 0, hit.start()) + 1
        col = hit.start() - (text.rfind("\n", 0, hit.start()) + 1) + 1
        out.append(
            Diagnostic(
                Pos(path, line, col),
                f"cannot be decoded as {index.encoding(path)} but spells the old name "
                f"{hit.group(0)}; convert it to UTF-8, add a coding cookie, or say how "
                "to read it under `encodings:` in the plan (e.g. `encodings: {"
                f'"{path}": latin-1}}`)',
            )
        )
    return out
