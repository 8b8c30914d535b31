"""Kernel registry op ids renamed by `plan.op_ids` (kind `string`).

An op id is only ever rewritten as a whole literal: `KernelSpec(op="...")`,
`select_kernel("...")`, `get_kernel("...")`, a fused op's `op = "..."`, or a test's
expected value. A longer string that merely contains it is left alone.
"""

from __future__ import annotations

from migrate.changes import Edit
from migrate.rewrite.context import Context, FileJob
from migrate.rewrite.cstfacts import Facts
from migrate.rewrite.literals import HOLE, literal_of
from migrate.rewrite.refs import Ref, literal_edits


def rewrite_op_ids(job: FileJob, facts: Facts, ctx: Context) -> list[Edit]:
    if not ctx.op_ids:
        return []
    edits = []
    for site in facts.strings:
        if site.docstring:
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
