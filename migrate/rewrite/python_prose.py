"""Comments and docstrings of Python files naming old locations (kind `prose`).

Prose is rewritten like code strings, with one difference: a deleted package that no
single new location replaces is described by the common package its modules went to
(marked `review`), since a sentence about "the kernel package" still needs a name.
Files matching `keep_prose` globs (changelogs, history) are left alone.
"""

from __future__ import annotations

import re

from migrate.changes import Edit
from migrate.rewrite.context import Context, FileJob
from migrate.rewrite.cstfacts import Facts
from migrate.rewrite.globs import repo_glob_match
from migrate.rewrite.literals import Literal, Piece, literal_of
from migrate.rewrite.refs import Ref, find_refs, literal_edits
from migrate.rewrite.spans import make_edit
from migrate.rewrite.text_imports import from_import_changes


def keeps_prose(path: str, ctx: Context) -> bool:
    return any(repo_glob_match(g, path) for g in ctx.keep_prose)


def _fallback(ref: Ref, ctx: Context) -> str | None:
    return ctx.package_fallback.get(ref.old)


def path_fallback(token: str, ctx: Context) -> tuple[str, str] | None:
    """(new path, deleted package) for a path in a deleted package's directory that
    names nothing that moved (`python/sglang/srt/lora/triton_ops/configs/`): the same
    fallback as the package's dotted name, below where its modules went."""
    for pkg, home in sorted(ctx.package_fallback.items(), key=lambda kv: -len(kv[0])):
        old_dir, new_dir = pkg.replace(".", "/"), home.replace(".", "/")
        spellings = [(old_dir, new_dir)] + [
            (f"{r}/{old_dir}", f"{r}/{new_dir}") for r in ctx.roots if r not in (".", "")
        ]
        for o, n in spellings:
            if token.startswith(o + "/"):
                real = [token.rstrip("/")] + [f"{r}/{token.rstrip('/')}" for r in ctx.roots]
                if any(p in ctx.deleted_paths for p in real):
                    return None  # it exists and did not move: reported, not guessed
                return n + token[len(o) :], pkg
    return None


def _prose_rewrite(ref: Ref, ctx: Context, where: str) -> tuple[str, str, str] | None:
    """(new text, reason, applicability) for one old name in prose, or None to leave it:
    its new name, else the place a deleted package's modules went (for a person to check)."""
    if ref.new is not None:
        return (ref.new, f"{where} names {ref.old}", "safe") if ref.new != ref.old else None
    if ref.path:
        hit = path_fallback(ref.old, ctx)
        if hit is None:
            return None
        new, pkg = hit
        home = ctx.package_fallback[pkg]
        reason = (
            f"{where} names {ref.old}, in the removed package {pkg}; its modules went under {home}"
        )
        return new, reason, "review"
    new = _fallback(ref, ctx)
    if new is None or new == ref.old:
        return None
    return (
        new,
        f"{where} names the removed package {ref.old}; its modules went under {new}",
        "review",
    )


def _import_edits(path: str, text: str, lit: Literal, ctx: Context):
    """(edits, claimed virtual spans) for `from X import a, b` written in the literal: each
    name follows its own move, as in a text file (`text_imports`); one that spans several
    pieces of the literal (an escape inside it) is left to the dotted rewrite and verify."""
    if "import" not in lit.virtual:
        return [], []
    found, _, claimed = from_import_changes(ctx.relocation, lit.virtual, path, "prose", path)
    edits = []
    for e in found:
        spans = lit.source_spans(e.start, e.end)
        if len(spans) != 1 or spans[0][2:] != (e.start, e.end):
            continue
        edits.append(make_edit(path, text, spans[0][0], spans[0][1], e.new, "prose", e.reason))
    return edits, claimed


def prose_edits(path: str, text: str, lit: Literal, regex: re.Pattern, ctx: Context, where: str):
    edits, claimed = _import_edits(path, text, lit, ctx)
    for ref in find_refs(lit.virtual, regex, ctx):
        if any(ref.start < c_end and c_start < ref.end for c_start, c_end in claimed):
            continue
        rewrite = _prose_rewrite(ref, ctx, where)
        if rewrite is not None:
            new, reason, applicability = rewrite
            edits.extend(literal_edits(path, text, lit, ref, new, "prose", reason, applicability))
    return edits


def rewrite_prose(job: FileJob, facts: Facts, ctx: Context, regex: re.Pattern) -> list[Edit]:
    if keeps_prose(job.old_path, ctx) or keeps_prose(job.new_path, ctx):
        return []
    edits: list[Edit] = []
    for start, end, value in facts.comments:
        if regex.search(value):
            lit = Literal(value, [Piece(0, start, end - start)])
            edits.extend(prose_edits(job.new_path, facts.text, lit, regex, ctx, "comment"))
    for site in facts.strings:
        if site.docstring:
            lit = literal_of(site.node, facts)
            if regex.search(lit.virtual):
                edits.extend(prose_edits(job.new_path, facts.text, lit, regex, ctx, "docstring"))
    return edits
