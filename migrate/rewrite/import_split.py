"""Split one `from X import a, b, c` whose names now live in several modules, keeping its
layout: a parenthesized statement stays parenthesized, one name per line when it was, and
every comment inside it (`# noqa`, `# type: ignore`, trailing notes) stays on its name's
line. A comment line between two names is about the name below it (isort and ruff keep it
there): it goes with that name into its part. A pragma after the whole statement
(`# noqa: F401`) is repeated on each part.

The parts are the original libcst nodes with their module, names and commas changed, so
the whitespace libcst kept is what gets written back.
"""

from __future__ import annotations

import re

import libcst as cst

_PRAGMA = re.compile(r"#\s*(?:noqa|type:\s*ignore|pragma|isort:\s*skip|pyright:|mypy:)")


def module_nodes(spelled: str) -> tuple[list[cst.Dot], cst.Attribute | cst.Name | None]:
    """`..a.b` -> ([Dot, Dot], a.b)."""
    dots = len(spelled) - len(spelled.lstrip("."))
    rest = spelled[dots:]
    module = cst.parse_expression(rest) if rest else None
    return [cst.Dot() for _ in range(dots)], module


def _pw(ws) -> bool:
    return isinstance(ws, cst.ParenthesizedWhitespace)


def _own(alias: cst.ImportAlias):
    return alias.comma.whitespace_after if isinstance(alias.comma, cst.Comma) else None


def _part_end(alias: cst.ImportAlias, node: cst.ImportFrom, was_last: bool):
    """(alias, rpar) ending a part. The original last name keeps the exact closing layout;
    a name from the middle takes it over, keeping its own line comment."""
    if node.rpar is None:
        return alias.with_changes(comma=cst.MaybeSentinel.DEFAULT), None
    if was_last:
        return alias, node.rpar
    last = node.names[-1]
    closing, own = node.rpar.whitespace_before, _own(alias)
    # its own line comment, and none of the comment lines above the old closing paren (they
    # stay with the old last name's part)
    if isinstance(last.comma, cst.Comma):  # trailing-comma style: `D,\n)`
        ws = last.comma.whitespace_after
        if _pw(ws) and _pw(own):
            ws = ws.with_changes(first_line=own.first_line, empty_lines=())
        return alias.with_changes(comma=cst.Comma(whitespace_after=ws)), node.rpar
    if _pw(closing) and _pw(own):
        closing = closing.with_changes(first_line=own.first_line, empty_lines=())
    alias = alias.with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return alias, node.rpar.with_changes(whitespace_before=closing)


def _not_last(alias: cst.ImportAlias, node: cst.ImportFrom, sample) -> cst.ImportAlias:
    """A name followed by another in its part: it needs a comma; the original last name
    takes its trailing comment from the closing paren's whitespace."""
    if isinstance(alias.comma, cst.Comma):
        return alias
    closing = node.rpar.whitespace_before if node.rpar is not None else None
    if _pw(closing) and _pw(sample):
        return alias.with_changes(
            comma=cst.Comma(whitespace_after=sample.with_changes(first_line=closing.first_line))
        )
    return alias.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))


def _above_each(node: cst.ImportFrom) -> list[tuple]:
    """The comment lines right above each name of a parenthesized statement (libcst keeps
    them in the whitespace after the comma before it, or after the opening paren)."""
    out = []
    for i in range(len(node.names)):
        if i:
            ws = _own(node.names[i - 1])
        else:
            ws = node.lpar.whitespace_after if node.lpar is not None else None
        out.append(tuple(ws.empty_lines) if _pw(ws) else ())
    return out


def _with_above(ws, lines: tuple):
    return ws.with_changes(empty_lines=lines) if _pw(ws) else ws


def split_from_import(
    node: cst.ImportFrom,
    parts: list[tuple[str, list[tuple[cst.ImportAlias, str, str | None]]]],
    trailing: str,
    newline: str,
    indent: str,
) -> str:
    """Source of one statement per part: (spelled module, [(alias, new leaf, new local)]).
    `trailing`: the text after the statement on its last line (a comment or nothing)."""
    sample = next((_own(a) for a in node.names if _pw(_own(a))), None)
    above = _above_each(node)
    where = {id(a): k for k, a in enumerate(node.names)}
    pragma = trailing.strip() if _PRAGMA.search(trailing) else ""
    module = cst.Module([], default_newline=newline)
    out = []
    for spelled, names in parts:
        aliases, rpar = [], node.rpar
        for i, (alias, leaf, local) in enumerate(names):
            was_last = alias is node.names[-1]
            a = alias
            if leaf != (alias.name.value if isinstance(alias.name, cst.Name) else None):
                asname = alias.asname
                if asname is None and local and local != leaf:
                    asname = cst.AsName(name=cst.Name(local))
                a = a.with_changes(name=cst.parse_expression(leaf), asname=asname)
            if i == len(names) - 1:
                a, rpar = _part_end(a, node, was_last)
            else:
                a = _not_last(a, node, sample)
            aliases.append(a)
        lpar = node.lpar
        for j, (alias, _, _) in enumerate(names):  # each name's comment lines above it
            lines = above[where[id(alias)]]
            if j == 0 and lpar is not None:
                lpar = lpar.with_changes(whitespace_after=_with_above(lpar.whitespace_after, lines))
            elif j and isinstance(aliases[j - 1].comma, cst.Comma):
                comma = aliases[j - 1].comma
                ws = _with_above(comma.whitespace_after, lines)
                aliases[j - 1] = aliases[j - 1].with_changes(
                    comma=comma.with_changes(whitespace_after=ws)
                )
        dots, mod = module_nodes(spelled)
        stmt = node.with_changes(relative=dots, module=mod, names=aliases, lpar=lpar, rpar=rpar)
        code = module.code_for_node(stmt)
        if len(aliases) == 1 and lpar is not None and newline not in code:
            # `(a, b)` on one line split: `(b)` alone is no layout of the file's (ruff
            # formats both away; a lone name is written bare, T62)
            bare = aliases[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            stmt = stmt.with_changes(names=[bare], lpar=None, rpar=None)
            code = module.code_for_node(stmt)
        # Rendered outside its block: continuation lines get the block's indentation.
        out.append((newline + indent).join(code.split(newline)) if indent else code)
    sep = (f"  {pragma}" if pragma else "") + newline + indent
    return sep.join(out)
