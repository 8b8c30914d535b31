"""New operator groups: `_GROUPS`, the group imports, the README sentence and the package.

The organization rules require these to change together (a namespace test compares the
README with `_GROUPS`), and real migrations let the README drift from `_GROUPS` for
several releases. So a group is added in all places at once, all as `code` edits (the
README sentence too: it must change in the same commit as `_GROUPS`), in each place's
own style (sorted lists stay sorted, unsorted ones grow at the end). A move into
`sglang.kernels.ops.<g>` for a `g` that is neither an existing group nor in `groups.add`
would create a group by accident: that is an error.
"""

from __future__ import annotations

import ast
import re

from migrate.changes import Edit
from migrate.errors import Diagnostic, Pos
from migrate.index.repo import RepoIndex
from migrate.layout.names import OPS_PKG as OPS
from migrate.plan.model import Plan
from migrate.relocate import Relocation
from migrate.rewrite import strlist
from migrate.rewrite.spans import ast_offset, line_starts, make_edit

MAX_LINE = 100  # SGLang's ruff line length: a longer import is wrapped
README_SENTENCE = re.compile(
    r"Operator groups[^:\n]*:[ \t]*(`[A-Za-z0-9_]+`(?:(?:,[ \t\r\n]*(?:and[ \t\r\n]+)?"
    r"|[ \t\r\n]+and[ \t\r\n]+)`[A-Za-z0-9_]+`)*)"
)
GROUP_INIT = '''"""{name} operators: lazy `KernelSpec` registrations only.

Importing this group must stay metadata-only: no GPU implementation, no compile.
"""
'''


def groups_tuple(text: str) -> tuple[strlist.ListLiteral, list[str]] | None:
    """The literal `_GROUPS = (...)` of an ops `__init__.py` and its names, or None."""
    tree = ast.parse(text)
    starts = line_starts(text)
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "_GROUPS" for t in node.targets)
            and isinstance(node.value, (ast.Tuple, ast.List))
        ):
            v = node.value
            lit = strlist.parse_list(text, ast_offset(text, starts, v.lineno, v.col_offset))
            if lit and lit.only_strings:
                return lit, lit.values()
    return None


def _group_imports(tree: ast.Module, groups: set[str]) -> list[tuple[ast.ImportFrom, list[str]]]:
    """`from sglang.kernels.ops import g...` / `from . import g...` statements naming groups."""
    out = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (
            (node.level == 0 and node.module == OPS) or (node.level == 1 and not node.module)
        ):
            names = [a.name for a in node.names if a.name in groups and a.asname is None]
            if names:
                out.append((node, names))
    return out


def _import_edits(text: str, path: str, groups: list[str], add: list[str]) -> list[Edit]:
    """Add `add` to the group imports when the file imports every group explicitly."""
    tree = ast.parse(text)
    starts = line_starts(text)
    imports = _group_imports(tree, set(groups))
    imported = {n for _, names in imports for n in names}
    if not imports or not set(groups) <= imported:
        return []  # groups are imported by a loop over _GROUPS, or not at all
    reason = "import the new group(s) like every other group"
    if len(imports) == 1 and len(imports[0][1]) > 1:
        node, names = imports[0]
        start = ast_offset(text, starts, node.lineno, node.col_offset)
        end = ast_offset(text, starts, node.end_lineno, node.end_col_offset)
        new_names = strlist.updated(names, set(), add)
        stmt = text[start:end]
        head = stmt[: stmt.index(" import ") + len(" import ")]
        body = stmt[len(head) :]
        nl = "\r\n" if "\r\n" in text else "\n"
        lead = text[starts[node.lineno - 1] : start]
        if body.startswith("(") and "\n" in body:
            first = body[1 : body.index("\n")].rstrip("\r")  # a comment after "(" stays
            indent = re.search(r"\n([ \t]+)\S", body)
            ind = indent.group(1) if indent else lead + "    "
            new_body = "(" + first + nl + "".join(f"{ind}{n},{nl}" for n in new_names) + lead + ")"
        else:
            inner = ", ".join(new_names)
            new_body = f"({inner})" if body.startswith("(") else inner
            eol = text.find("\n", end)
            tail = text[end : len(text) if eol == -1 else eol].rstrip("\r")
            if len(lead) + len(head) + len(new_body) + len(tail) > MAX_LINE:
                # wrap as ruff format would, the trailing comment moving after "("
                items = "".join(f"{lead}    {n},{nl}" for n in new_names)
                new_body = "(" + tail + nl + items + lead + ")"
                end += len(tail)
        return [make_edit(path, text, start, end, head + new_body, "code", reason)]
    order = [names[0] for _, names in imports]
    edits = []
    for g in add:
        anchor = imports[-1][0]
        before = order == sorted(order) and next((n for n in imports if n[1][0] > g), None)
        ref = before[0] if before else anchor
        line_start = starts[ref.lineno - 1]
        line_end = starts[ref.end_lineno] if ref.end_lineno < len(starts) else len(text)
        line = text[line_start:line_end]
        new_line = re.sub(rf"\bimport {re.escape(ref.names[0].name)}\b", f"import {g}", line)
        if not new_line.endswith("\n"):
            new_line = "\n" + new_line
        at = line_start if before else line_end
        edits.append(make_edit(path, text, at, at, new_line, "code", reason))
    return edits


def _readme_edit(text: str, path: str, add: list[str]) -> Edit | None:
    m = README_SENTENCE.search(text)
    if m is None:
        return None
    span = m.group(1)
    names = re.findall(r"`([A-Za-z0-9_]+)`", span)
    seps = re.findall(r"`((?:,[ \t\r\n]*(?:and[ \t\r\n]+)?|[ \t\r\n]+and[ \t\r\n]+))`", span)
    items = list(zip(names, [*seps, ""], strict=True))
    for g in add:
        if g in names:
            continue
        sorted_before = names == sorted(names)
        k = next((i for i, (n, _) in enumerate(items) if n > g), len(items))
        k = k if sorted_before else len(items)
        if k == len(items):
            last_sep = items[-2][1] if len(items) > 1 else ", "
            if len(items) > 1:
                items[-2] = (items[-2][0], ", " if "and" in last_sep else last_sep)
            items[-1] = (items[-1][0], last_sep if "and" in last_sep else ", ")
            items.append((g, ""))
        elif k == 0:
            items.insert(0, (g, ", "))
        else:
            prev, sep = items[k - 1]
            and_sep = "and" in sep  # "`b` and `d`" + c -> "`b`, `c` and `d`"
            items[k - 1] = (prev, ", " if and_sep else sep)
            items.insert(k, (g, sep if and_sep else ", "))
        names = [n for n, _ in items]
    new = "".join(f"`{n}`{s}" for n, s in items)
    if new == span:
        return None
    return make_edit(
        path,
        text,
        m.start(1),
        m.end(1),
        new,
        "code",  # not prose: test_kernels_namespace checks it against _GROUPS in every commit
        "README group list follows _GROUPS",
    )


def _move_pos(plan: Plan, new_name: str) -> Pos:
    best = None
    for mv in plan.moves:
        inside = new_name == mv.dst or new_name.startswith(mv.dst + ".")
        if inside and (best is None or len(mv.dst) > len(best.dst)):
            best = mv
    return best.dst_pos if best else Pos(plan.path, 1, 1)


def implicit_groups(
    relocation: Relocation, plan: Plan, groups: list[str], ops: str = OPS
) -> list[Diagnostic]:
    """Errors for moves that would create a group nobody declared in `groups.add`."""
    known = set(groups) | set(plan.groups_add)
    news = set(relocation.moved_modules.values()) | set(relocation.modules.values())
    news |= set(relocation.symbols.values())
    notes, seen = [], set()
    for name in sorted(news):
        if not name.startswith(ops + "."):
            continue
        group = name[len(ops) + 1 :].split(".")[0]
        if group in known or group in seen:
            continue
        seen.add(group)
        notes.append(
            Diagnostic(
                _move_pos(plan, name),
                f"move into {ops}.{group} creates operator group {group!r}, which is not in "
                "_GROUPS: add it under `groups: add:` (or move into an existing group)",
            )
        )
    return notes


def group_changes(
    index: RepoIndex, relocation: Relocation, plan: Plan, ops: str = OPS
) -> tuple[list[Edit], dict[str, tuple[str, str]], list[Diagnostic]]:
    """(edits, writes, notes) that add `plan.groups_add` and check implicit groups.

    Writes map a new file's path to `("code", text)`, as `ChangeSet.writes` does.
    """
    init = index.modules.get(ops)
    if init is None or not init.endswith("__init__.py"):
        if plan.groups_add:
            return (
                [],
                {},
                [
                    Diagnostic(
                        Pos(plan.path, 1, 1),
                        f"groups.add needs the {ops} package; it is not indexed",
                    )
                ],
            )
        return [], {}, []
    text = index.text(init) or ""
    found = groups_tuple(text)
    if found is None:
        return [], {}, [Diagnostic(Pos(init, 1, 1), "no literal `_GROUPS = (...)` tuple found")]
    lit, groups = found
    notes = implicit_groups(relocation, plan, groups, ops)
    add = [g for g in plan.groups_add if g not in groups]
    notes += [
        Diagnostic(Pos(plan.path, 1, 1), f"group {g!r} already exists", "warning")
        for g in plan.groups_add
        if g in groups
    ]
    if not add:
        return [], {}, notes
    init_new = relocation.files.get(init, init)
    edits = [
        make_edit(
            init_new,
            text,
            lit.start,
            lit.end,
            strlist.render(text, lit, strlist.updated(groups, set(), add)),
            "code",
            f"add operator group(s) {', '.join(add)} to _GROUPS",
        )
    ]
    edits += _import_edits(text, init_new, groups, add)
    ops_dir = init.rsplit("/", 1)[0]
    readme = f"{ops_dir.rsplit('/', 1)[0]}/README.md"
    if readme in index.files:
        e = _readme_edit(index.text(readme) or "", relocation.files.get(readme, readme), add)
        if e:
            edits.append(e)
        else:
            notes.append(
                Diagnostic(
                    Pos(readme, 1, 1),
                    "no 'Operator groups ...:' sentence to add the group to",
                    "warning",
                )
            )
    after = set(relocation.files.values()) | (set(index.files) - set(relocation.files))
    writes = {}
    for g in add:
        path = f"{ops_dir}/{g}/__init__.py"
        if path not in after:
            writes[path] = ("code", GROUP_INIT.format(name=g.replace("_", " ").capitalize()))
    return edits, writes, notes
