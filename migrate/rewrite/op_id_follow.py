"""Op ids follow their kernel: a registration whose kernel changes group takes the new
group's name (`<group>.<name>`), unless the plan's `op_ids:` says otherwise.

The registrations are read by the rules' static evaluator (literal specs, f-string
tables, `_EXPORTS`, fused ops with their class's `op = "..."`), so every spelling a
group `__init__.py` uses is seen. A registration's new group is the group of its
target's new module when that lies under `sglang.kernels.ops`, else the group its
registering file moves to (a backend target in `cake_kernels/` stays registered where
it was). The renames join `plan.op_ids`, so every whole-literal use (`select_kernel`,
`get_kernel`, a fused op's `op = "..."`, tests) is rewritten by the one op-id rewriter.

An op id computed by an f-string (`f"attention.{name}"`) has no literal to rewrite; when
every row of its table moves to the same group the f-string's literal prefix is edited,
otherwise the split is an error that stops apply.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace

from migrate.changes import Edit
from migrate.errors import TABLE_ROWS, Diagnostic, Pos
from migrate.index.repo import RepoIndex
from migrate.layout.names import OPS_PKG as OPS
from migrate.plan.model import OpIdRename, Plan
from migrate.relocate import Relocation
from migrate.rewrite.spans import ast_offset, line_starts, make_edit


def group_of(module: str | None, ops: str = OPS) -> str | None:
    if not module or not module.startswith(ops + "."):
        return None
    return module[len(ops) + 1 :].split(".", 1)[0]


@dataclass
class Followed:
    """What following the kernels implies: op-id renames, prefix edits, errors, and the
    registrations whose kernel left the group of the file that registers it."""

    renames: dict[str, tuple[str, Pos]] = field(default_factory=dict)  # old -> (new, pos)
    edits: list[Edit] = field(default_factory=list)
    errors: list[Diagnostic] = field(default_factory=list)
    strays: list[tuple[str, object, str]] = field(default_factory=list)  # (group, reg, to)
    notes: list[Diagnostic] = field(default_factory=list)  # warnings for the dry run


def _dst_pos(plan: Plan, new_module: str) -> Pos:
    best = None
    for mv in plan.moves:
        inside = new_module == mv.dst or new_module.startswith(mv.dst + ".")
        if not mv.is_path and inside and (best is None or len(mv.dst) > len(best.dst)):
            best = mv
    return best.pos if best else Pos(plan.path, 1, 1)


def registrations_by_group(index: RepoIndex):
    """(registering group, Registration) of the tree, fused ops expanded."""
    from migrate.rules.context import Context

    return Context(index).registrations


def _new_group(index: RepoIndex, rel: Relocation, reg, group: str) -> tuple[str | None, str]:
    """(new group, new target module) of a registration made by `group`.

    A kernel registered in its own group follows the kernel; one registered on purpose by
    another group (a backend in `elementwise` that stays a `layernorm` op) follows the
    file that registers it."""
    new_target = rel.target(reg.target) or reg.target
    tmod, old_tmod = new_target.split(":", 1)[0], reg.target.split(":", 1)[0]
    reg_mod = index.module_of(reg.path)
    reg_group = group_of(rel.moved_modules.get(reg_mod, reg_mod))
    if group_of(old_tmod) == group and group_of(tmod) and group_of(tmod) != group:
        return group_of(tmod), tmod
    return reg_group, tmod


def follow_op_ids(index: RepoIndex, rel: Relocation, plan: Plan) -> Followed:
    out = Followed()
    explicit = {o.src for o in plan.op_ids}
    by_site: dict[tuple[str, int, int], list[tuple[str, str, str]]] = {}
    seen: dict[str, tuple[str, object]] = {}
    regs = registrations_by_group(index)
    site_count: dict[tuple[str, int, int], int] = {}
    for _, reg in regs:
        key = (reg.path, reg.line, reg.col)
        site_count[key] = site_count.get(key, 0) + 1
    for group, reg in regs:
        if reg.op is None or reg.target is None:
            continue
        head, _, name = reg.op.partition(".")
        new_group, tmod = _new_group(index, rel, reg, group)
        reg_mod = index.module_of(reg.path)
        reg_group = group_of(rel.moved_modules.get(reg_mod, reg_mod))
        if new_group and reg_group and new_group != reg_group:
            out.strays.append((group, reg, new_group))
        if head != group or not name or new_group is None or new_group == group:
            continue
        if reg.op in explicit:
            continue
        new = f"{new_group}.{name}"
        if reg.op in seen and seen[reg.op][0] != new:
            out.errors.append(
                Diagnostic(
                    Pos(reg.path, reg.line, reg.col),
                    f"op id {reg.op} is registered for kernels going to two groups "
                    f"({seen[reg.op][0]} and {new}): name it in the plan's op_ids",
                )
            )
            continue
        seen[reg.op] = (new, reg)
        out.renames[reg.op] = (new, _dst_pos(plan, tmod))
        by_site.setdefault((reg.path, reg.line, reg.col), []).append((reg.op, new, group))
    strayed = {(r.path, r.line, r.col, r.op) for _, r, _ in out.strays}
    for (path, line, col), renames in sorted(by_site.items()):
        # rows that move to another file's table take their new id with them
        kept = [r for r in renames if (path, line, col, r[0]) not in strayed]
        whole = len(kept) == site_count[(path, line, col)]
        _computed_site(index, rel, path, line, col, kept, out, whole)
    return out


def _op_node(tree: ast.Module, line: int, col: int) -> ast.AST | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.lineno == line and node.col_offset + 1 == col:
            for kw in node.keywords:
                if kw.arg == "op":
                    return kw.value
            return node.args[0] if node.args else None
    return None


def _computed_site(index, rel, path, line, col, renames, out: Followed, whole=True) -> None:
    """An op id spelled as an f-string: edit its literal prefix, or report why not."""
    if not renames:
        return
    text = index.text(path) or ""
    tree = ast.parse(text)
    node = _op_node(tree, line, col)
    if node is None or not isinstance(node, ast.JoinedStr):
        return  # a literal (op_ids.py rewrites it) or a fused op's class attribute
    heads = {(old.split(".", 1)[0], new.split(".", 1)[0]) for old, new, _ in renames}
    first = node.values[0] if node.values else None
    old_head = next(iter(heads))[0]
    if (
        not whole
        or len(heads) != 1
        or not isinstance(first, ast.Constant)
        or not str(first.value).startswith(old_head + ".")
    ):
        out.errors.append(
            Diagnostic(
                Pos(path, line, col),
                "computed op id ("
                + ast.unparse(node)
                + ") renames to "
                + ", ".join(sorted({n for _, n, _ in renames}))
                + ": its rows go to different groups or its group is not a literal prefix; "
                "spell the ids out or name them in op_ids",
                kind=TABLE_ROWS,
            )
        )
        for old, _, _ in renames:
            out.renames.pop(old, None)
        return
    new_head = next(iter(heads))[1]
    starts = line_starts(text)
    start = ast_offset(text, starts, node.lineno, node.col_offset)
    quote_at = next(i for i in range(start, len(text)) if text[i] in "'\"")
    prefix_at = quote_at + (3 if text[quote_at : quote_at + 3] in ('"""', "'''") else 1)
    if not text.startswith(old_head + ".", prefix_at):
        return  # an f-string prefix spelled with escapes: the op-id rewriter reports it
    out.edits.append(
        make_edit(
            rel.files.get(path, path),
            text,
            prefix_at,
            prefix_at + len(old_head),
            new_head,
            "string",
            f"computed op ids {old_head}.* follow their kernels to group {new_head}",
        )
    )


def with_followed_op_ids(plan: Plan, followed: Followed) -> Plan:
    """The plan with the derived op-id renames appended to its explicit ones."""
    extra = tuple(OpIdRename(old, new, pos) for old, (new, pos) in sorted(followed.renames.items()))
    return replace(plan, op_ids=plan.op_ids + extra) if extra else plan
