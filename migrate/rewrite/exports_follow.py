"""Lazy exports follow their module: a PEP 562 `_EXPORTS` entry of a group whose owner
module moves to another group leaves the old group's `__init__.py` for the new group's.

A group `__init__.py` with a module-level `__getattr__` that reads a literal
`_EXPORTS = {"name": "owner.module"}` exports `name` lazily (the code facts say it has
the hook; the static evaluator reads the table). When the plan moves the owner into group
`h`, the name is now `sglang.kernels.ops.<h>.name`: that is a *re-export relocation*
`(old group, name) -> new group`, so every user bound to the old group (`from ...ops
import g; g.name`, `from ...ops.g import name`, patch strings) is respelled by the
binding-based forms, while no definition moves (`Relocation.reexports`).

The entry itself is cut from the source table and added to the destination's `_EXPORTS`
in its style (relative owners when its table spells any, its quotes and indentation);
a destination without a table gets one with a self-contained `__getattr__`. A
destination with a `__getattr__` of its own but no literal table is an error.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from migrate.changes import Edit
from migrate.errors import Diagnostic, Pos
from migrate.index.exports import TABLE, lazy_table, owner_module
from migrate.index.facts import code_facts
from migrate.index.repo import RepoIndex
from migrate.relocate import Relocation
from migrate.rewrite.registrations_follow import _whole_lines
from migrate.rewrite.spans import ast_offset, line_starts, make_edit

REASON = "lazy export follows its module to group {to}"
GETATTR = '''

def __getattr__(name):
    """Names exported lazily (PEP 562): imported from their module on first access."""
    owner = {table}.get(name)
    if owner is None:
        raise AttributeError(f"module {{__name__!r}} has no attribute {{name!r}}")
    from importlib import import_module

    value = getattr(import_module(owner), name)
    globals()[name] = value
    return value
'''


@dataclass(frozen=True)
class Export:
    path: str  # the exporting group's __init__.py (BASE path)
    group: str  # its package, dotted
    name: str
    owner: str  # the owner module, absolute (BASE)
    new_owner: str
    new_group: str  # package of the destination group, dotted


@dataclass
class Followed:
    exports: list[Export] = field(default_factory=list)
    edits: list[Edit] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)
    cut: list[tuple[str, int, int]] = field(default_factory=list)  # (new path, start, end)


def _table(tree: ast.Module) -> ast.Dict | None:
    table = lazy_table(tree)
    return table.node if table is not None else None


def _entries(index: RepoIndex, path: str, module: str):
    """(name, owner module, value node) of a module's lazy-export table."""
    text = index.text(path) or ""
    if TABLE not in text or "__getattr__" not in text:
        return []
    try:
        table = lazy_table(ast.parse(text))
    except SyntaxError:
        return []
    if table is None:
        return []
    out = []
    for key, value in zip(table.node.keys, table.node.values, strict=True):
        owner = owner_module(value.value, module, index.is_module)
        out.append((key.value, owner, value))
    return out


def lazy_exports(index: RepoIndex, ops: str) -> list[tuple[str, str, str, str, ast.AST]]:
    """(path, group package, name, owner module, value node) of every lazy export of a
    group `__init__.py` directly under `ops`."""
    out = []
    for path in index.python_files():
        module = index.module_of(path)
        if path.endswith("__init__.py") and module and module.rpartition(".")[0] == ops:
            out += [(path, module, n, o, v) for n, o, v in _entries(index, path, module)]
    return out


def respelled(index: RepoIndex, rel: Relocation, exports: list[Export]) -> Followed:
    """Relative `_EXPORTS` owners whose module moves while the entry stays (a move inside
    the group, or the group renamed without it): the value is respelled from the table's
    new place, relative when the owner is still below it, else absolute. Absolute
    spellings are the string rewriter's."""
    out = Followed()
    followed = {(e.path, e.name) for e in exports}
    packages = {m.rsplit(".", i)[0] for m in rel.moved_modules for i in range(1, m.count(".") + 1)}
    for package in sorted(packages):
        path = index.modules.get(package)
        if not path or not path.endswith("__init__.py"):
            continue
        text = index.text(path) or ""
        starts = line_starts(text)
        new_pkg = rel.module(package) or package
        new_path = rel.files.get(path, path)
        for name, owner, value in _entries(index, path, package):
            new_owner = rel.module(owner)
            if (path, name) in followed or new_owner is None or value.value == owner:
                continue
            spelled = (
                new_owner[len(new_pkg) + 1 :] if new_owner.startswith(new_pkg + ".") else new_owner
            )
            if spelled == value.value:
                continue
            a = ast_offset(text, starts, value.lineno, value.col_offset) + 1
            b = ast_offset(text, starts, value.end_lineno, value.end_col_offset) - 1
            out.cut.append((new_path, a - 1, b + 1))
            out.edits.append(
                make_edit(
                    new_path,
                    text,
                    a,
                    b,
                    spelled,
                    "code",
                    f"lazy export {name} follows {owner} to {new_owner}",
                )
            )
    return out


def follow_exports(index: RepoIndex, rel: Relocation, ops: str) -> list[Export]:
    """The lazy exports whose owner the plan moves into another group (a group that is
    itself renamed carries its table along: nothing to follow)."""
    found = []
    for path, group, name, owner, _ in lazy_exports(index, ops):
        if rel.module(group) is not None:
            continue
        new_owner = rel.module(owner)
        if new_owner is None or not new_owner.startswith(ops + "."):
            continue
        new_group = ".".join(new_owner.split(".")[: len(ops.split(".")) + 1])
        if new_group != group:
            found.append(Export(path, group, name, owner, new_owner, new_group))
    return found


def _quote(text: str, node: ast.AST, starts) -> str:
    return text[ast_offset(text, starts, node.lineno, node.col_offset)]


def _dest_edits(index, rel, dest_mod: str, moved: list[Export], out: Followed, appended) -> None:
    old_path = index.modules.get(dest_mod)
    if old_path is None or not old_path.endswith("__init__.py"):
        for e in moved:
            out.notes.append(
                Diagnostic(
                    Pos(e.path),
                    f"lazy export {e.name} must move to {dest_mod}, which has no "
                    "__init__.py in the tree yet: move it by hand",
                )
            )
        return
    new_path = rel.files.get(old_path, old_path)
    text = index.text(old_path) or ""
    tree, starts = ast.parse(text), line_starts(text)
    table = _table(tree)
    why = REASON.format(to=dest_mod.rsplit(".", 1)[-1])
    if table is None:
        if code_facts(text, dest_mod, True).getattr_hook:
            for e in moved:
                out.notes.append(
                    Diagnostic(
                        Pos(new_path),
                        f"lazy export {e.name} must move to {dest_mod}, whose __getattr__ "
                        f"reads no literal {TABLE}: add it there by hand",
                    )
                )
            return
        rows = "".join(f'    "{e.name}": "{e.new_owner}",\n' for e in moved)
        lead = "\n\n" if text.endswith("\n") or new_path in appended else "\n\n\n"
        lead = lead if text.strip() or new_path in appended else ""
        body = f"{lead}{TABLE} = {{\n{rows}}}\n" + GETATTR.format(table=TABLE)
        out.edits.append(make_edit(new_path, text, len(text), len(text), body, "code", why))
        return
    spelled = [v.value for v in table.values if isinstance(v, ast.Constant)]
    relative = any(isinstance(s, str) and not index.is_module(s) for s in spelled)

    def owner(e: Export) -> str:
        if relative and e.new_owner.startswith(dest_mod + "."):
            return e.new_owner[len(dest_mod) + 1 :]
        return e.new_owner

    end = ast_offset(text, starts, table.end_lineno, table.end_col_offset) - 1  # the `}`
    if not table.keys:
        entries = ", ".join(f'"{e.name}": "{owner(e)}"' for e in moved)
        out.edits.append(make_edit(new_path, text, end, end, entries, "code", why))
        return
    last = table.values[-1]
    q = _quote(text, table.keys[-1], starts)
    last_end = ast_offset(text, starts, last.end_lineno, last.end_col_offset)
    if table.lineno == table.end_lineno:  # one line: `{"a": "x"}`
        entries = "".join(f", {q}{e.name}{q}: {q}{owner(e)}{q}" for e in moved)
        out.edits.append(make_edit(new_path, text, last_end, last_end, entries, "code", why))
        return
    key = table.keys[-1]
    indent = " " * key.col_offset
    after = text[last_end:end]
    comma = "" if after.lstrip().startswith(",") else ","
    line_end = text.find("\n", last_end) + 1 if comma == "" else last_end
    rows = "".join(f"{indent}{q}{e.name}{q}: {q}{owner(e)}{q},\n" for e in moved)
    if comma:
        out.edits.append(
            make_edit(new_path, text, last_end, last_end, ",\n" + rows.rstrip("\n"), "code", why)
        )
    else:
        out.edits.append(make_edit(new_path, text, line_end, line_end, rows, "code", why))


def export_edits(
    index: RepoIndex, rel: Relocation, exports: list[Export], ops: str, appended=frozenset()
) -> Followed:
    """Cut every followed entry from its table and add it to the destination's
    (`appended`: paths an earlier pass already appends statements to)."""
    out = Followed(exports=list(exports))
    by_dest: dict[str, list[Export]] = {}
    for e in exports:
        text = index.text(e.path) or ""
        tree, starts = ast.parse(text), line_starts(text)
        table = _table(tree)
        key, value = next(
            (k, v)
            for k, v in zip(table.keys, table.values, strict=True)
            if isinstance(k, ast.Constant) and k.value == e.name
        )
        a = ast_offset(text, starts, key.lineno, key.col_offset)
        b = ast_offset(text, starts, value.end_lineno, value.end_col_offset)
        a, b = _whole_lines(text, a, b, comma=True)
        new_path = rel.files.get(e.path, e.path)
        out.cut.append((new_path, a, b))
        why = REASON.format(to=e.new_group.rsplit(".", 1)[-1])
        out.edits.append(make_edit(new_path, text, a, b, "", "code", why))
        by_dest.setdefault(e.new_group, []).append(e)
    for dest, moved in sorted(by_dest.items()):
        _dest_edits(index, rel, dest, moved, out, appended)
    return out
