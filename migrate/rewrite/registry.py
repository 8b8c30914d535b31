"""Table-plus-loop registrations: `for mod, fn in TABLE: ... f"old.pkg.{mod}:{fn}"`.

When the f-string's literal prefix names a package that moved as a whole, strings.py
relocates the prefix like any name. When the package was split up (its modules went to
different groups), no new prefix is right for every row; instead the prefix becomes the
deepest package common to every row's new module and each row's literal is rewritten to
its path below that prefix. Rows are only ever literal strings in a literal table (inline
or one module-level assignment); anything else is reported, not guessed.
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
from migrate.rewrite.literals import HOLE, literal_of
from migrate.rewrite.names import common_prefix, relocate
from migrate.rewrite.refs import find_refs, literal_edits
from migrate.rewrite.spans import line_col, make_edit, note_at


@dataclass
class TableResult:
    edits: list[Edit] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)


def _hole_name(node: cst.FormattedString, index: int) -> str | None:
    """The bare name of the `index`-th expression of an f-string, if it is one."""
    exprs = [p for p in node.parts if isinstance(p, cst.FormattedStringExpression)]
    if index < len(exprs) and isinstance(exprs[index].expression, cst.Name):
        return exprs[index].expression.value
    return None


def _loop_rows(facts: Facts, start: int, var: str):
    """Literal strings the loop variable `var` takes in the innermost loop around `start`."""
    for node, s, e in sorted(facts.fors, key=lambda t: t[1], reverse=True):
        if not s <= start < e:
            continue
        target, position = node.target, None
        if isinstance(target, cst.Name) and target.value == var:
            position = -1
        elif isinstance(target, (cst.Tuple, cst.List)):
            for i, el in enumerate(target.elements):
                if isinstance(el.value, cst.Name) and el.value.value == var:
                    position = i
        if position is None:
            continue
        table = node.iter
        if isinstance(table, cst.Name):
            table = facts.assigns.get(table.value)
        if not isinstance(table, (cst.List, cst.Tuple)):
            return None
        rows = []
        for el in table.elements:
            cell = el.value
            if position >= 0:
                if not isinstance(cell, (cst.Tuple, cst.List)) or position >= len(cell.elements):
                    return None
                cell = cell.elements[position].value
            if not isinstance(cell, cst.SimpleString) or id(cell) not in facts.spans:
                return None
            rows.append(cell)
        return rows
    return None


def rewrite_tables(
    job: FileJob, facts: Facts, ctx: Context, regex: re.Pattern
) -> tuple[TableResult, set[int]]:
    res, handled = TableResult(), set()
    for site in facts.strings:
        if not isinstance(site.node, cst.FormattedString):
            continue
        lit = literal_of(site.node, facts)
        for ref in find_refs(lit.virtual, regex, ctx):
            if not ref.dynamic or ref.new is not None:
                continue
            hole_index = lit.virtual[: ref.end + 1].count(HOLE)
            var = _hole_name(site.node, hole_index)
            rows = _loop_rows(facts, site.start, var) if var else None
            line, col = line_col(facts.text, site.start)
            if not rows:
                continue  # strings.py reports the stale dynamic name
            olds = [f"{ref.old}.{r.evaluated_value}" for r in rows]
            news = [relocate(o, ctx) for o in olds]
            missing = [o for o, n in zip(olds, news, strict=False) if n is None]
            if len(missing) == len(olds) and relocate(ref.old, ctx) is None:
                continue  # the prefix stays and no row moves: every computed name resolves
            if missing:
                res.notes.append(
                    Diagnostic(
                        Pos(job.new_path, line, col),
                        f"table row(s) {', '.join(missing)} name nothing the plan moves",
                        kind=TABLE_ROWS,
                    )
                )
                handled.add(id(site.node))
                continue
            prefix = common_prefix([n.rpartition(".")[0] for n in news])  # their package
            if not prefix:
                continue
            reason = f"table-driven names under {ref.old} now live under {prefix}"
            res.edits.extend(
                literal_edits(job.new_path, facts.text, lit, ref, prefix, "string", reason)
            )
            for row, new in zip(rows, news, strict=False):
                tail = new[len(prefix) + 1 :]
                if tail != row.evaluated_value:
                    s, e = facts.span(row)
                    quote = row.quote
                    prefix_len = len(row.prefix)
                    res.edits.append(
                        make_edit(
                            job.new_path,
                            facts.text,
                            s + prefix_len + len(quote),
                            e - len(quote),
                            tail,
                            "string",
                            reason,
                        )
                    )
            handled.add(id(site.node))
    return res, handled


def ancestor_packages(ctx: Context) -> frozenset[str]:
    """Packages above moved modules that stay where they are (`pkg.ops.attention` when
    `pkg.ops.attention.dsv4.x` moves): a computed name built on one may reach a moved
    module through its table rows."""
    return _ancestors(tuple(sorted(ctx.relocation.moved_modules)))


@lru_cache(maxsize=8)
def _ancestors(moved: tuple[str, ...]) -> frozenset[str]:
    out = set()
    for name in moved:
        parts = name.split(".")
        out.update(".".join(parts[:i]) for i in range(2, len(parts)))
    return frozenset(out - set(moved))


_CHAIN_END = re.compile(r"(?<![\w.])[A-Za-z_][\w.]*\Z")
_CHAIN_MAX = 300  # characters looked back from a `.{` for the dotted name before it


def ancestor_tables(relocation) -> frozenset[str]:
    """The unmoved ancestors of moved modules that an f-string prefix may name."""
    return _ancestors(tuple(sorted(relocation.moved_modules)))


def names_ancestor_table(text: str, ancestors: frozenset[str]) -> bool:
    """Cheap text test for an f-string `"<ancestor>.{...}"` (candidate files): at each
    `.{` (a substring search), the dotted name just before it is one of `ancestors`.
    (One regex alternating every ancestor scanned each file position by position.)"""
    if not ancestors:
        return False
    i = text.find(".{")
    while i != -1:
        m = _CHAIN_END.search(text, max(0, i - _CHAIN_MAX), i)
        if m is not None and m.group(0) in ancestors:
            return True
        i = text.find(".{", i + 2)
    return False


def has_ancestor_table(text: str, ctx: Context) -> bool:
    return names_ancestor_table(text, ancestor_tables(ctx.relocation))


def rewrite_ancestor_tables(
    job: FileJob, facts: Facts, ctx: Context, handled: set[int] = frozenset()
) -> TableResult:
    """`f"pkg.ops.attention.{_mod}:{_fn}"` over a literal table whose row
    `dsv4.rms_normalize_hip` names a moved module: the row is rewritten to where the module
    went below the same prefix; a row whose module left the prefix is reported."""
    res = TableResult()
    anc = ancestor_packages(ctx)
    if not anc:
        return res
    for site in facts.strings:
        if not isinstance(site.node, cst.FormattedString) or id(site.node) in handled:
            continue
        lit = literal_of(site.node, facts)
        for hole, pos in enumerate(i for i, ch in enumerate(lit.virtual) if ch == HOLE):
            head = re.search(r"([A-Za-z_][\w.]*)\.$", lit.virtual[:pos])
            if head is None or head.group(1) not in anc:
                continue
            prefix = head.group(1)
            if prefix in ctx.gone or relocate(prefix, ctx) is not None:
                continue  # a moved or split-up prefix: rewrite_tables owns it
            var = _hole_name(site.node, hole)
            rows = _loop_rows(facts, site.start, var) if var else None
            for row in rows or ():
                old = f"{prefix}.{row.evaluated_value}"
                new = relocate(old, ctx)
                if new is None or new == old:
                    continue
                s, e = facts.span(row)
                if not new.startswith(prefix + "."):
                    why = (
                        f"table row {row.evaluated_value!r} names {old}, which moves to "
                        f"{new}, outside {prefix}: the f-string prefix cannot reach it"
                    )
                    res.notes.append(note_at(job.new_path, facts.text, s, why))
                    continue
                start = s + len(row.prefix) + len(row.quote)
                res.edits.append(
                    make_edit(
                        job.new_path,
                        facts.text,
                        start,
                        e - len(row.quote),
                        new[len(prefix) + 1 :],
                        "string",
                        f"table row of {prefix}.{{{var}}}: {old} is now {new}",
                    )
                )
    return res
