"""Computed op ids a plan renames: `f"attention.{name}"` over a literal table.

The hole may also be a pure string method over the row (`{_fn.lstrip('_')}`,
fstring_holes.py): it is evaluated for every row.

When every row's id is renamed the same way outside the hole (`attention.X` ->
`attn.X`), the literal text around the hole is edited; when the rows' new ids keep that
text but change the row (`attention.flash` -> `attention.flash_v2`), the rows are
edited. Otherwise, or when the rows are not a literal table, the site is reported (an
error: apply refuses) rather than guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

import libcst as cst

from migrate.changes import Edit
from migrate.errors import TABLE_ROWS, Diagnostic, Pos
from migrate.rewrite.context import Context, FileJob
from migrate.rewrite.cstfacts import Facts
from migrate.rewrite.fstring_holes import hole_of
from migrate.rewrite.literals import HOLE, literal_of
from migrate.rewrite.refs import Ref, literal_edits
from migrate.rewrite.registry import _loop_rows
from migrate.rewrite.spans import line_col, make_edit


@dataclass
class OpIdTableResult:
    edits: list[Edit] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)


@lru_cache(maxsize=8)
def _heads_regex(op_ids: tuple[str, ...]) -> re.Pattern:
    heads = {o[: i + 1] for o in op_ids for i, ch in enumerate(o) if ch == "."}
    if not heads:
        return re.compile(r"(?!x)x")
    alt = "|".join(re.escape(h) for h in sorted(heads, key=len, reverse=True))
    return re.compile(rf"(?<=[\"'])(?:{alt})\{{")


def has_computed_op_id(text: str, op_ids) -> bool:
    """Cheap text test: an f-string `"<op id prefix>{...}"`."""
    return bool(op_ids) and _heads_regex(tuple(sorted(op_ids))).search(text) is not None


def _split(new: str, row: str, head: str, tail: str) -> tuple[str, str] | None:
    """(new head, new tail) when `new` still holds `row` between them."""
    i = new.find(row)
    return (new[:i], new[i + len(row) :]) if i >= 0 else None


def rewrite_op_id_tables(job: FileJob, facts: Facts, ctx: Context) -> OpIdTableResult:
    res = OpIdTableResult()
    if not ctx.op_ids:
        return res
    for site in facts.strings:
        if not isinstance(site.node, cst.FormattedString):
            continue
        lit = literal_of(site.node, facts)
        if lit.virtual.count(HOLE) != 1:
            continue
        head, tail = lit.virtual.split(HOLE)
        if not head or not any(o.startswith(head) and o.endswith(tail) for o in ctx.op_ids):
            continue
        line, col = line_col(facts.text, site.start)
        pos = Pos(job.new_path, line, col)
        hole = hole_of(site.node, 0)
        rows = _loop_rows(facts, site.start, hole.var) if hole else None
        values = [hole.apply(r.evaluated_value) for r in rows or ()]
        if not rows or None in values:
            res.notes.append(
                Diagnostic(
                    pos,
                    f"computed op id {head}{{...}}{tail} may name op ids the plan renames, "
                    "and its values are not a literal table: rename them by hand",
                    kind=TABLE_ROWS,
                )
            )
            continue
        var = hole.source
        olds = [f"{head}{v}{tail}" for v in values]
        if not any(o in ctx.op_ids for o in olds):
            continue
        news = [ctx.op_ids.get(o, o) for o in olds]
        splits = [_split(n, v, head, tail) for n, v in zip(news, values, strict=True)]
        renamed = [o for o in olds if o in ctx.op_ids]
        if all(splits) and len({s for s in splits}) == 1 and len(renamed) == len(olds):
            new_head, new_tail = splits[0]
            for old_part, new_part, start in (
                (head, new_head, 0),
                (tail, new_tail, len(lit.virtual) - len(tail)),
            ):
                if old_part != new_part:
                    ref = Ref(start, start + len(old_part), old_part, new_part)
                    why = (
                        f"computed op ids {head}{{{var}}}{tail} renamed to "
                        f"{new_head}{{{var}}}{new_tail} for every row"
                    )
                    res.edits.extend(
                        literal_edits(job.new_path, facts.text, lit, ref, new_part, "string", why)
                    )
            continue
        if hole.identity and all(n.startswith(head) and n.endswith(tail) for n in news):
            for row, new in zip(rows, news, strict=True):
                value = new[len(head) : len(new) - len(tail)]
                if value != row.evaluated_value:
                    s, e = facts.span(row)
                    res.edits.append(
                        make_edit(
                            job.new_path,
                            facts.text,
                            s + len(row.prefix) + len(row.quote),
                            e - len(row.quote),
                            value,
                            "string",
                            f"table row of computed op id {head}{{{var}}}{tail}: "
                            f"{head}{row.evaluated_value}{tail} renamed to {new}",
                        )
                    )
            continue
        res.notes.append(
            Diagnostic(
                pos,
                f"computed op id {head}{{{var}}}{tail}: the plan renames "
                f"{', '.join(renamed)} in ways one edit of the f-string or its rows cannot "
                "express: rename them by hand",
                kind=TABLE_ROWS,
            )
        )
    return res
