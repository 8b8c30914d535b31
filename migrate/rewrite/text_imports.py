"""`from pkg import submodule` written in text (docs code blocks, doctests, `.pyi` stubs).

The dotted-name rewrite relocates `pkg`, which is wrong when the imported name is itself a
moved module or symbol that went somewhere else than `pkg` (the `from a.b import c` miss
that once broke a model launch). Here each imported name is relocated on its own; names
bound to different new modules split the statement, one line each, when it stands alone
on its line, and are reported otherwise.
"""

from __future__ import annotations

import re

from migrate.errors import Diagnostic, Pos
from migrate.relocate import Relocation, _prefix_lookup
from migrate.rewrite.spans import line_col, make_edit

_DOTTED = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"
_ITEM = r"(?P<name>[A-Za-z_]\w*)(?:[ \t]+as[ \t]+(?P<alias>[A-Za-z_]\w*))?"
_ITEM_PLAIN = r"[A-Za-z_]\w*(?:[ \t]+as[ \t]+[A-Za-z_]\w*)?"
_LIST = rf"\(?[ \t]*{_ITEM_PLAIN}(?:[ \t]*,[ \t]*{_ITEM_PLAIN})*(?:[ \t]*,)?(?:[ \t]*\))?"
FROM_IMPORT = re.compile(
    rf"(?<![\w.])from[ \t]+(?P<mod>{_DOTTED})[ \t]+import[ \t]+(?P<names>{_LIST})(?!\w)"
)
ITEM = re.compile(_ITEM)
_PROMPT = re.compile(r"^[ \t]*(?:(?:>>>|\.\.\.)[ \t]+)?$")


def _aliases(names: str, offset: int) -> list[tuple[str, str | None, int, int]]:
    """(name, alias, start, end) of every imported name of an import list."""
    return [
        (m["name"], m["alias"], offset + m.start(), offset + m.end()) for m in ITEM.finditer(names)
    ]


def _clause(leaf: str, bound: str) -> str:
    return leaf if leaf == bound else f"{leaf} as {bound}"


def new_dotted(relocation: Relocation, name: str) -> str | None:
    """New spelling of a dotted name or `module:attr` target, or None if it did not move."""
    new = relocation.target(name)
    if new is not None:
        return new
    mod, sep, attr = name.partition(":")
    hit = _prefix_lookup(relocation.moved_modules, mod, ".")
    return hit[1] + sep + attr if hit else None


def from_import_changes(relocation: Relocation, text: str, new_path: str, kind: str, pos_file: str):
    """(edits, notes, claimed spans): per-name relocation of `from X import a, b` lines."""
    edits, notes, claimed = [], [], []
    for m in FROM_IMPORT.finditer(text):
        mod = m["mod"]
        items = _aliases(m["names"], m.start("names"))
        if not items:
            continue
        default = new_dotted(relocation, mod) or mod
        targets = []
        for name, alias, start, end in items:
            new = new_dotted(relocation, f"{mod}.{name}")
            parent, leaf = new.rsplit(".", 1) if new else (default, name)
            targets.append((parent, leaf, name, alias, start, end))
        if all(p == default and leaf == n for p, leaf, n, *_ in targets):
            continue  # the dotted-name rewrite of `mod` says it all
        parents = list(dict.fromkeys(t[0] for t in targets))
        stmt_end = m.end("names") - (len(m["names"]) - len(m["names"].rstrip()))
        reason = f"from {mod} import ...: each name follows its own move"
        if len(parents) == 1:
            claimed.append((m.start(), stmt_end))
            if parents[0] != mod:
                edits.append(
                    make_edit(
                        new_path, text, m.start("mod"), m.end("mod"), parents[0], kind, reason
                    )
                )
            for _, leaf, name, alias, start, end in targets:
                if leaf != name:
                    edits.append(
                        make_edit(
                            new_path, text, start, end, _clause(leaf, alias or name), kind, reason
                        )
                    )
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        prefix = text[line_start : m.start()]
        line_end = text.find("\n", stmt_end)
        rest = text[stmt_end : len(text) if line_end == -1 else line_end].strip()
        if not _PROMPT.match(prefix) or (rest and not rest.startswith("#")):
            line, col = line_col(text, m.start())
            notes.append(
                Diagnostic(
                    Pos(pos_file, line, col),
                    f"from {mod} import ... now spans {', '.join(parents)}: "
                    "split this import by hand",
                    "warning",
                )
            )
            claimed.append((m.start(), stmt_end))
            continue
        lines = []
        for parent in parents:
            clauses = [
                _clause(leaf, alias or name) for p, leaf, name, alias, *_ in targets if p == parent
            ]
            lines.append(f"from {parent} import {', '.join(clauses)}")
        nl = "\r\n" if text[stmt_end : stmt_end + 2] == "\r\n" else "\n"
        new = (nl + prefix).join(lines)  # a doctest prompt repeats: each is a statement
        claimed.append((m.start(), stmt_end))
        edits.append(
            make_edit(
                new_path,
                text,
                m.start(),
                stmt_end,
                new,
                kind,
                reason + " (split: the names went to different modules)",
            )
        )
    return edits, notes, claimed
