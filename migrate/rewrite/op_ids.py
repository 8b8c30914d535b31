"""Kernel registry op ids renamed by `plan.op_ids` (kind `string`).

An op id is only ever rewritten as a whole literal: `KernelSpec(op="...")`,
`select_kernel("...")`, `get_kernel("...")`, a fused op's `op = "..."`, or a test's
expected value. A longer string that merely contains it is left alone.
"""

from __future__ import annotations

import re

from migrate.changes import Edit
from migrate.rewrite.context import Context, FileJob
from migrate.rewrite.cstfacts import Facts
from migrate.rewrite.literals import HOLE, literal_of
from migrate.rewrite.refs import Ref, literal_edits
from migrate.rewrite.spans import make_edit


def rewrite_op_ids(job: FileJob, facts: Facts, ctx: Context) -> list[Edit]:
    if not ctx.op_ids:
        return []
    edits = []
    for site in facts.strings:
        if site.docstring:
            edits.extend(prose_op_ids(job.new_path, facts.text, site.start, site.end, ctx.op_ids))
            continue
        lit = literal_of(site.node, facts)
        new = ctx.op_ids.get(lit.virtual)
        if new is None or HOLE in lit.virtual:
            continue
        where = f"{site.call}(...)" if site.call else "literal"
        ref = Ref(0, len(lit.virtual), lit.virtual, new)
        edits.extend(
            literal_edits(
                job.new_path,
                facts.text,
                lit,
                ref,
                new,
                "string",
                f"op id {lit.virtual} renamed to {new} ({where})",
            )
        )
    return edits


def delimited_op_ids(op_ids) -> re.Pattern:
    """Whole op ids between quotes or backticks, as prose and docs spell them."""
    alt = "|".join(re.escape(o) for o in sorted(op_ids, key=len, reverse=True))
    return re.compile(rf"(?<=[\"'`])(?:{alt})(?=[\"'`])")


def prose_op_ids(path: str, text: str, start: int, end: int, op_ids, kind: str = "prose"):
    """Edits renaming the quoted or `code` op ids in `text[start:end]` (a docstring, a doc)."""
    if not op_ids:
        return []
    return [
        make_edit(path, text, m.start(), m.end(), op_ids[m.group(0)], kind, "op id renamed")
        for m in delimited_op_ids(op_ids).finditer(text, start, end)
    ]
