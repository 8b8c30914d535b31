"""Comments and strings of Python files that spell an old name without its root package
(`kernels/ops/x/y.py`, `jit_kernel.norm` under root `python/sglang`): a review note,
never an edit, as for text files (`text_files.rootless_spellings` decides what counts).

Only comment and string tokens are looked at: code that spells such a name is not a
reference the index can resolve, and a name in code is the binding rewriter's business.
"""

from __future__ import annotations

import io
import re
import tokenize
from functools import lru_cache

from migrate.changes import Edit
from migrate.errors import Diagnostic, Pos
from migrate.rewrite.context import Context, FileJob
from migrate.rewrite.spans import line_col, line_starts
from migrate.rewrite.text_files import rootless_heads, rootless_matches

# Python 3.12+ splits f-strings into tokens of their own: their text parts count too.
_FSTRING = ("FSTRING_START", "FSTRING_MIDDLE")
_TEXT_TOKENS = {tokenize.COMMENT, tokenize.STRING} | {
    getattr(tokenize, n) for n in _FSTRING if hasattr(tokenize, n)
}


@lru_cache(maxsize=4)
def rootless_regex(spellings: tuple[tuple[str, str], ...]) -> re.Pattern:
    words = sorted({w for w, _ in spellings}, key=lambda w: (-len(w), w))
    return re.compile(rf"(?<![\w./\-])(?:{'|'.join(map(re.escape, words))})(?![\w\-])")


@lru_cache(maxsize=4)
def _heads(spellings: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    return rootless_heads(w for w, _ in spellings)


def _text_regions(text: str) -> list[tuple[int, int]]:
    """Character spans of the comment and string tokens of `text` ([] if it does not
    tokenize: libcst reports that file)."""
    starts = line_starts(text)
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in _TEXT_TOKENS:
                (l1, c1), (l2, c2) = tok.start, tok.end
                out.append((starts[l1 - 1] + c1, starts[l2 - 1] + c2))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []
    return out


def rootless_notes(job: FileJob, ctx: Context, edits: list[Edit]) -> list[Diagnostic]:
    if not ctx.rootless:
        return []
    hits = rootless_matches(rootless_regex(ctx.rootless), _heads(ctx.rootless), job.text)
    if not hits:
        return []
    regions = _text_regions(job.text)
    full = dict(ctx.rootless)
    notes = []
    for m in hits:
        s, e = m.span()
        if not any(a <= s and e <= b for a, b in regions):
            continue
        if any(x.start < e and s < x.end for x in edits):
            continue  # rewritten by another form
        old = full[m.group(0)]
        new = ctx.relocation.files.get(old) or ctx.relocation.dotted(old) or "?"
        line, col = line_col(job.text, s)
        notes.append(
            Diagnostic(
                Pos(job.new_path, line, col),
                f"`{m.group(0)}` looks like {old} spelled without its root package; "
                f"it moves to {new}: review by hand",
                "warning",
            )
        )
    return notes
