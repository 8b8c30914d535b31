"""Remove names from one import statement, keeping its layout.

`drop_names("from pkg import (\n    mod,  # noqa\n    other,\n)", {"mod"})` keeps the
parentheses, one name per line, the trailing-comma style and the comments of the names
that stay; a removed name takes its own line comment with it. The statement is edited as
libcst nodes, so the whitespace libcst kept is what gets written back.
"""

from __future__ import annotations

import ast

import libcst as cst

from migrate.rewrite.spans import ast_offset, line_starts


def _local(alias: cst.ImportAlias) -> str:
    if alias.asname is not None:
        return alias.asname.name.value
    code = cst.Module([]).code_for_node(alias.name)
    return code.split(".")[0]


def drop_names(source: str, gone: set[str]) -> str | None:
    """`source` (one import statement, no indentation) without the aliases binding a
    local in `gone`; None when no alias is left (the statement goes)."""
    try:
        stmt = cst.parse_statement(source)
    except cst.ParserSyntaxError:
        return source
    node = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) else None
    if not isinstance(node, (cst.Import, cst.ImportFrom)) or isinstance(node.names, cst.ImportStar):
        return source
    names = list(node.names)
    keep = [a for a in names if _local(a) not in gone]
    if len(keep) == len(names):
        return source
    if not keep:
        return None
    changes = {}
    if names[-1] not in keep:
        # The new last name ends the statement as the old last one did, keeping its
        # own line comment.
        last, own = names[-1], keep[-1].comma
        if isinstance(last.comma, cst.Comma):  # trailing-comma style
            ws = _merged(own, last.comma.whitespace_after)
            keep[-1] = keep[-1].with_changes(comma=last.comma.with_changes(whitespace_after=ws))
        else:
            if node.rpar is not None:
                ws = _merged(own, node.rpar.whitespace_before)
                changes["rpar"] = node.rpar.with_changes(whitespace_before=ws)
            keep[-1] = keep[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    new = node.with_changes(names=keep, **changes)
    module = cst.Module([])
    code = module.code_for_node(stmt.with_changes(body=[new, *stmt.body[1:]]))
    return code.rstrip("\r\n") if not source.endswith("\n") else code


def _merged(own, closing):
    """`closing` whitespace, with the first-line comment of `own` (a comma) when both
    span lines."""
    mine = own.whitespace_after if isinstance(own, cst.Comma) else None
    if isinstance(mine, cst.ParenthesizedWhitespace) and isinstance(
        closing, cst.ParenthesizedWhitespace
    ):
        return closing.with_changes(first_line=mine.first_line, empty_lines=mine.empty_lines)
    return closing


def drop_from_statements(source: str, gone: set[str], indent: str = "") -> str | None:
    """`drop_names` over `source`, one or more import statements (another form split one
    into several: every line after the first starts with the block's `indent`); a
    statement with no alias left goes with the line break before it (after it, for the
    first). None when no statement is left; ValueError when `source` is not statements."""
    prefix = f"if 1:\n{indent}" if indent else ""
    try:
        body = ast.parse(prefix + source).body
    except SyntaxError as exc:
        raise ValueError(f"not import statements: {source!r}") from exc
    stmts = body[0].body if indent else body
    wrapped = prefix + source
    starts = line_starts(wrapped)
    chunks = [  # (start, end) of each statement in `source`
        (
            ast_offset(wrapped, starts, s.lineno, s.col_offset) - len(prefix),
            ast_offset(wrapped, starts, s.end_lineno, s.end_col_offset) - len(prefix),
        )
        for s in stmts
    ]
    if len(chunks) == 1 and chunks[0] == (0, len(source)):
        return drop_names(source, gone)
    kept = [(k, rest) for k, (s, e) in enumerate(chunks) if (rest := drop_names(source[s:e], gone))]
    if not kept:
        return None
    out = [source[: chunks[0][0]]]
    for i, (k, rest) in enumerate(kept):
        if i:  # the line break (and pragma) that stood right before it
            out.append(source[chunks[k - 1][1] : chunks[k][0]])
        out.append(rest)
    return "".join(out) + source[chunks[-1][1] :]
