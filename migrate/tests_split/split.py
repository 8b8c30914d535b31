"""Split one test file into several: each output gets its tests and exactly what they need.

Statements are copied verbatim through libcst (comments and formatting kept); only
import lists are pruned to the names an output uses and each CI registration's
`est_time` is replaced by its apportioned share. Helpers needed by several outputs are
copied into each of them (see docs/splits.md for why).
"""

from __future__ import annotations

import ast
import fnmatch
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst

from migrate.errors import Diagnostic, Pos
from migrate.plan.model import Split, SplitOutput
from migrate.tests_split.budgets import (
    UNIT_LIMIT_S,
    apportion,
    durations_for_file,
    is_unit_stage,
    load_junit_durations,
)
from migrate.tests_split.cases import TestCase, cases_in
from migrate.tests_split.deps import FileGraph, build_graph, is_registration_call
from migrate.tests_split.registrations import Registration, registrations_in


@dataclass
class SplitResult:
    outputs: dict[str, str] = field(default_factory=dict)  # path -> text
    notes: list[Diagnostic] = field(default_factory=list)
    # output path -> [(registration of the source, its est_time share in this output)]
    budgets: dict[str, list[tuple[Registration, int]]] = field(default_factory=dict)
    cases: dict[str, list[str]] = field(default_factory=dict)  # output -> case names
    units: dict[str, list[str]] = field(default_factory=dict)  # output -> tests it took
    shared: dict[str, list[str]] = field(default_factory=dict)  # helper -> outputs

    @property
    def ok(self) -> bool:
        return not any(n.severity == "error" for n in self.notes)


def _assign(units: list[tuple[str, int]], split: Split, path: str, notes: list) -> dict[str, str]:
    """Test unit -> output path, by `take` names/patterns; `rest` takes the leftovers."""
    rest = [o for o in split.into if o.takes_rest]
    if len(rest) > 1:
        notes.append(Diagnostic(rest[1].pos, "only one split output may take `rest`"))
    used: set[tuple[str, str]] = set()
    out: dict[str, str] = {}
    for unit, line in units:
        hits = []
        for o in split.into:
            for pat in o.take:
                if pat != "rest" and fnmatch.fnmatchcase(unit, pat):
                    used.add((o.path, pat))
                    if o.path not in hits:
                        hits.append(o.path)
        if len(hits) > 1:
            notes.append(
                Diagnostic(
                    Pos(path, line, 1),
                    f"test {unit} is taken by several split outputs: {', '.join(hits)}",
                )
            )
        if hits:
            out[unit] = hits[0]
        elif rest:
            out[unit] = rest[0].path
        else:
            notes.append(
                Diagnostic(
                    Pos(path, line, 1),
                    f"test {unit} is not assigned to any "
                    "split output (add it to a `take` list or use `take: [rest]`)",
                )
            )
    for o in split.into:
        for pat in o.take:
            if pat != "rest" and (o.path, pat) not in used:
                notes.append(
                    Diagnostic(o.pos, f"take {pat!r} of {o.path} matches no test in {split.file}")
                )
    return out


def _bound_names(alias: cst.ImportAlias, is_from: bool) -> set[str]:
    """Names an alias binds, as libcst's scopes spell them: `import a.b.c` binds `a`, and
    accesses like `a.b.c.f()` are recorded against `a.b.c`, so every prefix counts."""
    if alias.asname is not None:
        return {alias.asname.name.value}
    dotted = cst.Module([]).code_for_node(alias.name)
    if is_from:
        return {dotted}
    parts = dotted.split(".")
    return {".".join(parts[: i + 1]) for i in range(len(parts))}


def _close_import(small, keep: list, orig_last: cst.ImportAlias):
    """Make `keep[-1]` the last alias, keeping its own comment and the original layout."""
    last = keep[-1]
    if not (isinstance(small, cst.ImportFrom) and small.lpar is not None):
        last = last.with_changes(comma=cst.MaybeSentinel.DEFAULT)  # `import a, b` -> `import b`
        return small.with_changes(names=[*keep[:-1], last])
    own = last.comma.whitespace_after if isinstance(last.comma, cst.Comma) else None
    if not isinstance(own, cst.ParenthesizedWhitespace):  # `(a, b, c)` on one line
        comma = orig_last.comma
        return small.with_changes(names=[*keep[:-1], last.with_changes(comma=comma)])
    orig = orig_last.comma.whitespace_after if isinstance(orig_last.comma, cst.Comma) else None
    if isinstance(orig, cst.ParenthesizedWhitespace):  # trailing comma style: keep it
        ws = own.with_changes(indent=orig.indent, last_line=orig.last_line)
        last = last.with_changes(comma=last.comma.with_changes(whitespace_after=ws))
        return small.with_changes(names=[*keep[:-1], last])
    # no trailing comma originally: the newline before `)` came from the `)` itself
    ws = own.with_changes(indent=False, last_line=cst.SimpleWhitespace(""))
    last = last.with_changes(comma=last.comma.with_changes(whitespace_after=ws))
    rpar = small.rpar.with_changes(whitespace_before=cst.SimpleWhitespace(""))
    return small.with_changes(names=[*keep[:-1], last], rpar=rpar)


def _prune_import(stmt: cst.SimpleStatementLine, names: set[str]) -> cst.SimpleStatementLine | None:
    """Keep only the aliases whose bound name is needed; None when nothing is left."""
    body = []
    for small in stmt.body:
        if isinstance(small, cst.ImportFrom) and isinstance(small.names, cst.ImportStar):
            body.append(small)
            continue
        aliases = list(small.names)
        is_from = isinstance(small, cst.ImportFrom)
        keep = [a for a in aliases if _bound_names(a, is_from) & names]
        if not keep:
            continue
        if keep[-1] is not aliases[-1]:
            small = _close_import(small, keep, aliases[-1])
        else:
            small = small.with_changes(names=keep)
        body.append(small)
    if not body:
        return None
    body[-1] = body[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
    return stmt.with_changes(body=body)


def _set_est_time(call: cst.Call, seconds: int) -> cst.Call:
    args = list(call.args)
    for i, arg in enumerate(args):
        kw = arg.keyword.value if arg.keyword else None
        if kw == "est_time" or (kw is None and i == 0 and arg.star == ""):
            args[i] = arg.with_changes(value=cst.Integer(str(seconds)))
            return call.with_changes(args=args)
    return call


def _weights(
    out_cases: dict[str, list[TestCase]], durations: dict | None, path: str, notes: list
) -> dict[str, float]:
    counts = {o: float(len(cs)) for o, cs in out_cases.items()}
    if not durations:
        return counts
    missing = [c.name for cs in out_cases.values() for c in cs if c.name not in durations]
    if missing:
        notes.append(
            Diagnostic(
                Pos(path),
                f"{len(missing)} case(s) have no measured duration "
                f"(e.g. {missing[0]}); budgets follow case counts",
                "warning",
            )
        )
        return counts
    return {o: sum(durations[c.name] for c in cs) for o, cs in out_cases.items()}


def _share_budgets(
    regs: list[Registration], weights: dict[str, float], path: str, notes: list
) -> dict[str, list[int]]:
    outs = list(weights)
    shares: dict[str, list[int]] = {o: [] for o in outs}
    for reg in regs:
        est = reg.est_time
        pos = Pos(path, reg.line, 1)
        if est is None:
            notes.append(
                Diagnostic(
                    pos,
                    f"register_{reg.backend}_ci has no literal est_time; "
                    "its budget cannot be apportioned",
                )
            )
            est = 0
        if isinstance(est, float) and not est.is_integer():
            notes.append(
                Diagnostic(
                    pos,
                    f"est_time {est} is not whole seconds; rounded to "
                    f"{round(est)} before apportioning",
                    "warning",
                )
            )
        total = int(round(est))
        if total < len(outs):
            notes.append(
                Diagnostic(
                    pos,
                    f"est_time {total} s of register_{reg.backend}_ci "
                    f"cannot give each of {len(outs)} outputs at least 1 s",
                )
            )
        parts = apportion(total, [weights[o] for o in outs])
        for o, s in zip(outs, parts, strict=True):
            shares[o].append(s)
            if is_unit_stage(reg.stage, reg.suite) and s > UNIT_LIMIT_S:
                notes.append(
                    Diagnostic(
                        pos,
                        f"{o}: unit test budget {s} s for "
                        f"{reg.effective_suite} is over {UNIT_LIMIT_S} s",
                        "warning",
                    )
                )
    return shares


def _blank_prefix(lines) -> int:
    n = 0
    for line in lines:
        if line.comment is not None:
            break
        n += 1
    return n


def _respace(node: cst.BaseStatement, dropped_before: cst.BaseStatement | None):
    """Keep the vertical gap a dropped statement used to open before a kept one."""
    if dropped_before is None:
        return node
    lines = list(node.leading_lines)
    own = _blank_prefix(lines)
    gap = max(own, _blank_prefix(dropped_before.leading_lines))
    return node.with_changes(leading_lines=[cst.EmptyLine()] * gap + lines[own:])


def _carry_comments(
    node: cst.BaseStatement, reg: Registration, above: list[cst.EmptyLine]
) -> cst.BaseStatement:
    """CI reads the comments in the 3 lines above a registration; some of them may have
    sat above a statement this output drops. Put any such comment back above the call.
    `above`: lines kept just above it anyway (the module header, when it comes first)."""
    lines = list(node.leading_lines)
    own = {line.comment.value.strip() for line in [*above, *lines] if line.comment is not None}
    lost = [c for c in reg.comments if c not in own]
    if not lost:
        return node
    extra = [cst.EmptyLine(comment=cst.Comment(c)) for c in lost]
    return node.with_changes(leading_lines=[*lines, *extra])


def _calls_only(stmt: cst.BaseStatement, tests: set[str]) -> bool:
    """`test_x()` / `test_x(args)` lines calling only tests in `tests`."""
    return isinstance(stmt, cst.SimpleStatementLine) and all(
        isinstance(s, cst.Expr)
        and isinstance(s.value, cst.Call)
        and isinstance(s.value.func, cst.Name)
        and s.value.func.value in tests
        for s in stmt.body
    )


def _main_lines_dropped(node: cst.If, elsewhere: set[str]) -> list[int]:
    """Lines of the entry point that only call tests which went to another output
    (none when that would leave the block empty)."""
    if not elsewhere or not isinstance(node.body, cst.IndentedBlock):
        return []
    drop = [k for k, s in enumerate(node.body.body) if _calls_only(s, elsewhere)]
    return drop if len(drop) < len(node.body.body) else []


def _trim_main(node: cst.If, elsewhere: set[str]) -> cst.If:
    drop = set(_main_lines_dropped(node, elsewhere))
    if not drop:
        return node
    body = [s for k, s in enumerate(node.body.body) if k not in drop]
    return node.with_changes(body=node.body.with_changes(body=body))


def _main_uses(graph: FileGraph, elsewhere: set[str]) -> dict[int, set[str]]:
    """What each `__main__` block still uses once trimmed for an output."""
    out = {}
    for s in graph.stmts:
        drop = set(_main_lines_dropped(s.node, elsewhere)) if s.is_main else set()
        if drop:
            kept = set().union(*(u for k, u in enumerate(s.line_uses) if k not in drop))
            only_dropped = set().union(*(s.line_uses[k] for k in drop)) - kept
            out[s.index] = s.uses - only_dropped
    return out


def _render(
    graph: FileGraph,
    keep: set[int],
    names: set[str],
    regs: list[Registration],
    est: list[int],
    elsewhere: set[str] = frozenset(),
) -> str:
    body, reg_i, first_dropped = [], 0, None
    for info in graph.stmts:
        node = info.node
        if info.index not in keep:
            first_dropped = first_dropped or node
            continue
        if info.is_import and not info.always:  # `from __future__` stays whole
            node = _prune_import(node, names)
            if node is None:
                first_dropped = first_dropped or info.node
                continue
        elif info.is_main:
            node = _trim_main(node, elsewhere)
        elif info.is_registration:  # registrations in source order, like `registrations_in`
            if first_dropped is not None:
                above = list(graph.module.header) if not body else []
                node = _carry_comments(node, regs[reg_i], above)
            smalls = []
            for small in node.body:
                if is_registration_call(small):
                    small = small.with_changes(value=_set_est_time(small.value, est[reg_i]))
                    reg_i += 1
                smalls.append(small)
            node = node.with_changes(body=smalls)
        if body:
            node = _respace(node, first_dropped)
        elif first_dropped is not None:  # it opens the file now: the old first gap
            lines = list(node.leading_lines)
            gap = _blank_prefix(first_dropped.leading_lines)
            lines = [cst.EmptyLine()] * gap + lines[_blank_prefix(lines) :]
            node = node.with_changes(leading_lines=lines)
        body.append(node)
        first_dropped = None
    return graph.module.with_changes(body=body).code


def split_file(
    source_text: str,
    source_path: str,
    split: Split,
    durations: dict | str | Path | None = None,
) -> SplitResult:
    """Split `source_text` (the file at `source_path`) as `split` says.

    `durations` maps case names (`Class::test[id]`, `test[id]`) to measured seconds;
    a JUnit XML path or `load_junit_durations` result is narrowed to this file first.
    Without it budgets follow case counts. Problems come back as `notes`; outputs are
    produced whenever the source parses.
    """
    res = SplitResult()
    if isinstance(durations, (str, Path)):
        durations = load_junit_durations(durations)
    if durations and any(isinstance(k, tuple) for k in durations):
        durations = durations_for_file(durations, source_path)
    try:
        tree = ast.parse(source_text, filename=source_path)
        module = cst.parse_module(source_text)
    except (SyntaxError, cst.ParserSyntaxError) as exc:
        res.notes.append(
            Diagnostic(Pos(source_path, getattr(exc, "lineno", 0) or 0), f"cannot split: {exc}")
        )
        return res
    cases = cases_in(tree)
    regs = registrations_in(tree, source_text)
    unit_names = {c.unit for c in cases}
    unit_lines = {  # the def line of each test class/function (the last one wins, as in Python)
        s.name: s.lineno for s in tree.body if getattr(s, "name", None) in unit_names
    }
    units = sorted(unit_lines.items(), key=lambda kv: kv[1])
    where = _assign(units, split, source_path, res.notes)
    graph = build_graph(module, set(unit_lines))

    out_cases: dict[str, list[TestCase]] = {o.path: [] for o in split.into}
    for c in cases:
        if c.unit in where:
            out_cases[where[c.unit]].append(c)
    for o in split.into:
        res.units[o.path] = [u for u, _ in units if where.get(u) == o.path]
        res.cases[o.path] = [c.name for c in out_cases[o.path]]
        if not out_cases[o.path]:
            res.notes.append(Diagnostic(o.pos, f"split output {o.path} receives no test"))

    weights = _weights(out_cases, durations, source_path, res.notes)
    shares = _share_budgets(regs, weights, source_path, res.notes)
    used_by: dict[int, list[str]] = {}
    for o in split.into:
        keep, names = _select(graph, o, where, source_path, unit_lines, res.notes)
        for i in keep:
            used_by.setdefault(i, []).append(o.path)
        elsewhere = {u for u, p in where.items() if p != o.path}
        res.outputs[o.path] = _render(graph, keep, names, regs, shares[o.path], elsewhere)
        res.budgets[o.path] = list(zip(regs, shares[o.path], strict=True))
    for i, outs in sorted(used_by.items()):
        info = graph.stmts[i]
        helper = not (info.always or info.is_import or info.unit)
        if len(outs) > 1 and helper and info.defines:
            for name in sorted(info.defines):
                res.shared[name] = outs
    _check_main(graph, where, res, source_path)
    return res


def _select(
    graph: FileGraph,
    out: SplitOutput,
    where: dict[str, str],
    path: str,
    unit_lines: dict[str, int],
    notes: list,
) -> tuple[set[int], set[str]]:
    start = {
        s.index
        for s in graph.stmts
        if s.always or (s.unit is not None and where.get(s.unit) == out.path)
    }
    elsewhere = {u for u, p in where.items() if p != out.path}
    keep, names = graph.closure(start, _main_uses(graph, elsewhere))
    for i in sorted(keep):
        unit = graph.stmts[i].unit
        if unit is not None and where.get(unit) not in (out.path, None):
            notes.append(
                Diagnostic(
                    Pos(path, unit_lines.get(unit, 0), 1),
                    f"{out.path} needs test {unit}, which goes to "
                    f"{where[unit]}: its cases would run twice",
                )
            )
    return keep, names


def _check_main(graph: FileGraph, where: dict[str, str], res: SplitResult, path: str) -> None:
    """A `__main__` block that calls tests by name breaks in outputs without them."""
    for s in graph.stmts:
        if s.is_main and s.calls_units:
            called = s.calls_units
            if called:
                res.notes.append(
                    Diagnostic(
                        Pos(path),
                        "the __main__ block calls tests by "
                        f"name ({', '.join(sorted(called))}); each output keeps only "
                        "the calls of its own tests: check its entry point",
                        "warning",
                    )
                )
