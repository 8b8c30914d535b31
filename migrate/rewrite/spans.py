"""Offsets, lines and columns: turn a character span of a decoded file into an `Edit`.

`Edit` offsets are characters of the decoded text; `ast` reports UTF-8 byte columns.
Both conversions live here so that every edit producer positions edits the same way.
"""

from __future__ import annotations

from migrate.changes import Edit


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of `offset` in `text`."""
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


def line_starts(text: str) -> list[int]:
    """Character offset where each line starts (index 0 is line 1)."""
    starts = [0]
    pos = text.find("\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = text.find("\n", pos + 1)
    return starts


def ast_offset(text: str, starts: list[int], lineno: int, col_bytes: int) -> int:
    """Character offset of an `ast` position (1-based line, UTF-8 byte column)."""
    start = starts[lineno - 1]
    end = starts[lineno] if lineno < len(starts) else len(text)
    raw = text[start:end].encode("utf-8")[:col_bytes]
    return start + len(raw.decode("utf-8", "ignore"))


def make_edit(
    path: str,
    text: str,
    start: int,
    end: int,
    new: str,
    kind: str,
    reason: str,
    applicability: str = "safe",
) -> Edit:
    """An `Edit` replacing `text[start:end]` (in the file now at `path`) with `new`."""
    line, col = line_col(text, start)
    return Edit(path, start, end, text[start:end], new, kind, line, col, reason, applicability)
