"""Old names inside free text (string bodies, comments, docstrings): find and relocate.

The `OldNames` regex finds a token-bounded old name; the token is then extended to the
whole dotted name (`a.b.c`, `a.b:attr.x`) or path it starts by the scanner's own rule
(`oldnames.path_at`, `dotted_at`), so the rewriter and verify read the same name, and
relocated as a whole. Only whole names move: `can_use_hicache_jit_kernel` never matches.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from migrate.changes import Edit
from migrate.oldnames import dotted_at, path_at
from migrate.rewrite.context import Context
from migrate.rewrite.literals import HOLE, Literal
from migrate.rewrite.names import is_gone, relocate, relocate_target, shadowed
from migrate.rewrite.spans import make_edit


@dataclass
class Ref:
    start: int  # offsets in the searched text
    end: int
    old: str
    new: str | None
    path: bool = False
    dynamic: bool = False  # an f-string prefix: `"pkg.{x}"`
    symbol: tuple[str, str] | None = None  # the symbol move it went through, if any


def relocate_path(token: str, ctx: Context) -> str | None:
    """New spelling of a path token, read as repo-relative or relative to an import root."""
    stripped = token.rstrip("/")
    hit = ctx.relocation.spelled_path(stripped, ctx.roots)
    return hit[0] + token[len(stripped) :] if hit is not None and hit[1] else None


def _symbol_of(name: str, ctx: Context) -> tuple[str, str] | None:
    parts = name.replace(":", ".").split(".")
    for i in range(len(parts) - 1, 0, -1):
        key = (".".join(parts[:i]), parts[i])
        if key in ctx.relocation.symbols:
            return key
    return None


def find_refs(text: str, regex: re.Pattern, ctx: Context) -> list[Ref]:
    refs: list[Ref] = []
    pos = 0
    while True:
        m = regex.search(text, pos)
        if m is None:
            return refs
        start = m.start()
        token = m.group(0)
        if token.startswith("from") and not token[4:5].isalnum() and token[4:5] != "_":
            pos = m.end()  # `from parent import`: imports.py owns it
            continue
        if "/" in token:
            tok = path_at(text, m)
            end = start + len(tok)
            refs.append(Ref(start, end, tok, relocate_path(tok, ctx), path=True))
            pos = max(end, start + 1)
            continue
        if text[m.start() - 1 : m.start()] in ("'", '"') and token in ctx.op_ids:
            pos = m.end()  # an op id: op_ids.py owns it
            continue
        tok, raw_end = dotted_at(text, start, m.end(), targets=True)
        end = start + len(tok)
        dynamic = raw_end > end and text[raw_end : raw_end + 1] == HOLE
        if ":" in tok:
            new = relocate_target(tok, ctx)
        elif shadowed(tok.rpartition(".")[0], ctx):
            new = None  # past a package's rebinding of a moved submodule: that binding
        else:
            new = relocate(tok, ctx)
        refs.append(Ref(start, end, tok, new, dynamic=dynamic, symbol=_symbol_of(tok, ctx)))
        pos = max(end, start + 1)


def stale(ref: Ref, ctx: Context) -> bool:
    """An old name that the plan removes and that could not be relocated."""
    if ref.new is not None or ref.path:
        return False
    return is_gone(ref.old.split(":")[0], ctx)


def literal_edits(
    path: str,
    text: str,
    lit: Literal,
    ref: Ref,
    new: str,
    kind: str,
    reason: str,
    applicability: str = "safe",
) -> list[Edit]:
    """Edits that make the literal's virtual range [ref.start, ref.end) read `new`.

    A name split over implicitly concatenated pieces is written whole into the first
    piece and removed from the others, so the value is exactly `new`.
    """
    spans = lit.source_spans(ref.start, ref.end)
    edits = []
    for i, (s, e, _, _) in enumerate(spans):
        edits.append(
            make_edit(path, text, s, e, new if i == 0 else "", kind, reason, applicability)
        )
    return edits
