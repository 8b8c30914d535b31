"""String literal bodies as one virtual text mapped back to source offsets.

Implicitly concatenated literals read as one value, so a name split over two pieces is
found; f-string expressions are cut out (a NUL stands in for each) so a match never runs
across one. Matching works on the raw body (escapes are never part of a dotted name).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import libcst as cst

from migrate.rewrite.cstfacts import Facts

HOLE = "\0"
_PREFIX = re.compile(r"^[A-Za-z]*")


@dataclass
class Piece:
    vstart: int  # offset in the virtual text
    start: int  # offset in the source
    length: int


@dataclass
class Literal:
    virtual: str
    pieces: list[Piece]

    def source_spans(self, vstart: int, vend: int) -> list[tuple[int, int, int, int]]:
        """(source start, source end, vstart, vend) for each piece the range touches."""
        out = []
        for p in self.pieces:
            s, e = max(vstart, p.vstart), min(vend, p.vstart + p.length)
            if s < e or (s == e == vstart and p.vstart <= s < p.vstart + p.length):
                out.append((p.start + s - p.vstart, p.start + e - p.vstart, s, e))
        return out


def _simple(node: cst.SimpleString, start: int, acc: list, text: list) -> None:
    value = node.value
    prefix = _PREFIX.match(value).group(0)
    q = 3 if value[len(prefix) :].startswith(('"""', "'''")) else 1
    body = value[len(prefix) + q : len(value) - q]
    acc.append(Piece(sum(len(t) for t in text), start + len(prefix) + q, len(body)))
    text.append(body)


def literal_of(node: cst.BaseExpression, facts: Facts) -> Literal:
    pieces: list[Piece] = []
    text: list[str] = []

    def walk(n) -> None:
        if isinstance(n, cst.ConcatenatedString):
            walk(n.left)
            walk(n.right)
        elif isinstance(n, cst.SimpleString):
            _simple(n, facts.span(n)[0], pieces, text)
        elif isinstance(n, cst.FormattedString):
            for part in n.parts:
                if isinstance(part, cst.FormattedStringText):
                    s, e = facts.span(part)
                    pieces.append(Piece(sum(len(t) for t in text), s, e - s))
                    text.append(part.value)
                else:
                    text.append(HOLE)

    walk(node)
    return Literal("".join(text), pieces)
