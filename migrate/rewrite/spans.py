"""Offsets, lines and columns: turn a character span of a decoded file into an `Edit`,
or a note about it.

`Edit` offsets are characters of the decoded text; `ast` reports UTF-8 byte columns.
Both conversions live here so that every edit producer positions edits the same way.
"""

from __future__ import annotations

import re

from migrate.changes import Edit
from migrate.errors import Diagnostic, Pos


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of `offset` in `text`."""
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


_PYTHON_BREAK = re.compile(r"\r\n?|\n")


def line_starts(text: str) -> list[int]:
    """Character offset where each line starts (index 0 is line 1), lines ended where
    Python ends them (`\\n`, `\\r\\n` and a lone `\\r`), so an `ast` line is found."""
    if "\r" in text:
        return [0, *(m.end() for m in _PYTHON_BREAK.finditer(text))]
    starts = [0]
    pos = text.find("\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = text.find("\n", pos + 1)
    return starts


def whole_lines(
    text: str, start: int, end: int, *, comma: bool = False, comment: bool = False
) -> tuple[int, int] | None:
    """`text[start:end]` widened to its whole lines, the last line break included, when
    nothing else shares them: only blanks before it on its first line, and after it only
    blanks, or a `,` (`comma`), or a comment (`comment`: it goes with the lines). None
    when something else shares a line. The one widening every cut uses (an import, a
    `del`, an `__all__` element, a registration, an export entry)."""
    line_start = text.rfind("\n", 0, start) + 1
    eol = text.find("\n", end)
    eol = len(text) if eol == -1 else eol + 1
    tail = text[end:eol].strip()
    alone = not tail or (comma and tail == ",") or (comment and tail.startswith("#"))
    if text[line_start:start].strip() or not alone:
        return None
    return line_start, eol


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


def match_edit(
    path: str, text: str, m, new: str, kind: str, reason: str, applicability: str = "safe"
) -> Edit:
    """The `Edit` replacing what the regex match `m` found in `text` with `new`."""
    return make_edit(path, text, m.start(), m.end(), new, kind, reason, applicability)


def note_at(path: str, text: str, offset: int, message: str, severity: str = "error"):
    """A note about the character at `offset` of `text` (the file now at `path`): what the
    engine could not do there (an error refuses the plan) or what a person should check."""
    line, col = line_col(text, offset)
    return Diagnostic(Pos(path, line, col), message, severity)


def newline_of(text: str) -> str:
    """The line ending a file's text uses: CRLF if it has one, else LF."""
    return "\r\n" if "\r\n" in text else "\n"


def with_newline(text: str, nl: str) -> str:
    """`text` with every LF or CRLF line break spelled `nl` (a lone CR is kept). Exact for
    Python source: its tokenizer reads either break the same way, in strings too."""
    return re.sub(r"\r?\n", nl, text) if nl == "\r\n" else text.replace("\r\n", "\n")


# PEP 263's cookie, as index.repo.CODING reads it from bytes (that module imports this one)
_CODING = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


def file_header_line(lineno: int, line: str) -> bool:
    """A shebang (line 1) or a PEP 263 coding cookie (line 1 or 2): the file's own, never
    moved with a definition nor pushed down by an import (t12 T60)."""
    return (lineno == 1 and line.startswith("#!")) or (
        lineno <= 2 and _CODING.match(line) is not None
    )
