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
from migrate.index.repo import RepoIndex, root_of_path
from migrate.layout.names import OPS_PKG as OPS
from migrate.layout.names import README_SENTENCE, README_SEP
from migrate.plan.model import Plan
from migrate.relocate import Relocation
from migrate.rewrite import strlist
from migrate.rewrite.import_scratch import ImportScratch
from migrate.rewrite.spans import ast_offset, line_starts, make_edit

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


def _alias(a: ast.alias) -> str:
    return a.name + (f" as {a.asname}" if a.asname else "")


def _import_edits(
    text: str, path: str, groups: list[str], add: list[str], remove: frozenset[str] = frozenset()
) -> list[Edit]:
    """Add `add` to and drop `remove` from the group imports, when the file imports every
    group explicitly (a loop over `_GROUPS` needs no edit). Which statement changes is
    decided here; how it is laid out, by the import finaliser (`import_scratch.py`)."""
    tree = ast.parse(text)
    imports = _group_imports(tree, set(groups))
    imported = {n for _, names in imports for n in names}
    if not imports or not set(groups) <= imported:
        return []  # groups are imported by a loop over _GROUPS, or not at all
    reason = "group imports follow _GROUPS"
    scratch = ImportScratch(path, text, can_merge=lambda node: False)
    if len(imports) == 1 and len(imports[0][1]) > 1:
        node, names = imports[0]
        others = [_alias(a) for a in node.names if a.name not in names or a.asname]
        new_names = [*others, *strlist.updated(names, set(remove), add)]
        if new_names == [_alias(a) for a in node.names] or not new_names:
            return []
        scratch.set_names(node, new_names, reason)
        return scratch.finalise(tree)
    kept = [(n, names) for n, names in imports if not set(names) <= remove]
    for i, (node, _) in enumerate(imports):
        gone = [a for a in node.names if a.name in remove and a.asname is None]
        if not kept and add and i == len(imports) - 1:
            # every group statement goes: the last one stays, for the first new group
            rest = [_alias(a) for a in node.names if a not in gone]
            scratch.set_names(node, [*rest, add[0]], reason)
            kept, add = [(node, [add[0]])], add[1:]
        elif gone:
            scratch.remove(node, gone, reason)
    # one statement a group: a new group gets a statement of its own, like its neighbours,
    # beside the group statement it sorts after (an own-code import is placed by sorting
    # only where that keeps the order of the others: `import_layout._place`)
    if kept:
        starts = line_starts(text)

        def span_of(node):
            return (
                ast_offset(text, starts, node.lineno, node.col_offset),
                ast_offset(text, starts, node.end_lineno, node.end_col_offset),
            )

        last = kept[-1][0]  # the layout of a new statement: the last one's
        span = span_of(last)
        stmt = text[span[0] : span[1]]
        head = stmt[: stmt.index(" import ") + len(" import ")]
        eol = text.find("\n", span[1])
        tail = text[span[1] : len(text) if eol == -1 else eol].strip()  # a pragma is repeated
        indent = text[starts[last.lineno - 1] : span[0]]
        firsts = [(n, min((x for x in names if x not in remove), default="")) for n, names in kept]
        for g in add:
            new = head + g + (f"  {tail}" if tail.startswith("#") else "")
            before = [n for n, first in firsts if first < g]
            if not before:
                scratch.add_before(new, span_of(kept[0][0])[0], indent, reason)
            else:
                scratch.add(new, span_of(before[-1]), indent, reason, reason)
    return scratch.finalise(tree)


def _insert(items: list[tuple[str, str]], g: str, sorted_before: bool) -> None:
    """Insert group `g` into the (name, separator-after) items, keeping the "and" last."""
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


def _drop(items: list[tuple[str, str]], g: str) -> None:
    """Remove group `g`; the item before it takes its separator (so "and" stays last)."""
    k = next(i for i, (n, _) in enumerate(items) if n == g)
    if k == len(items) - 1 and k > 0:
        and_sep = items[k - 1][1]
        items.pop()
        items[-1] = (items[-1][0], "")
        if len(items) > 1:
            items[-2] = (items[-2][0], and_sep)
        return
    _, sep = items.pop(k)
    if k > 0:
        items[k - 1] = (items[k - 1][0], sep)


def _regenerated(items: list[tuple[str, str]], groups: list[str]) -> list[tuple[str, str]]:
    """The whole sentence rebuilt from `groups`, in the old one's separators and order."""
    seps = [s for _, s in items[:-1]]
    and_sep = next((s for s in reversed(seps) if "and" in s), None)
    order = sorted(groups) if [n for n, _ in items] == sorted(n for n, _ in items) else groups
    out = [(n, ", ") for n in order]
    if out:
        out[-1] = (out[-1][0], "")
    if and_sep and len(out) > 1:
        out[-2] = (out[-2][0], " and " if "," not in and_sep else ", and ")
    return out


def _wrapped(items: list[tuple[str, str]], text: str, start: int, end: int) -> str:
    """The items filled to the width of the sentence's own lines (a wrapped paragraph)."""
    line_start = text.rfind("\n", 0, start) + 1
    width = max(len(line) for line in text[line_start:end].split("\n"))
    col, out = start - line_start, []
    for n, sep in items:
        token = f"`{n}`{sep.strip()}"
        if out and col + 1 + len(token) > width:
            out.append("\n")
            col = 0
        elif out:
            out.append(" ")
            col += 1
        out.append(token)
        col += len(token)
    return "".join(out)


def _readme_edit(
    text: str,
    path: str,
    add: list[str],
    remove: frozenset[str] = frozenset(),
    after: list[str] | None = None,
) -> Edit | None:
    """The README group sentence with `add` added and `remove` dropped, in its style.

    Given `after` (`_GROUPS` once the plan ran), a sentence that still disagrees with it
    (drift that was already there) is regenerated from it, as an edit to review.
    """
    m = README_SENTENCE.search(text)
    if m is None:
        return None
    span = m.group(1)
    names = re.findall(r"`([^`\n]+)`", span)
    seps = re.findall(rf"`({README_SEP})`", span)
    items = list(zip(names, [*seps, ""], strict=True))
    sorted_before = names == sorted(names)
    for g in remove:
        if g in [n for n, _ in items] and len(items) > 1:
            _drop(items, g)
    for g in add:
        if g not in [n for n, _ in items]:
            _insert(items, g, sorted_before)
    applicability = "safe"
    if after is not None and sorted(n for n, _ in items) != sorted(after):
        items = _regenerated(items, after)
        applicability = "review"  # it fixes drift the plan did not cause
    new = "".join(f"`{n}`{s}" for n, s in items)
    if applicability == "review" and "\n" in span:
        new = _wrapped(items, text, m.start(1), m.end(1))
    if new == span:
        return None
    return make_edit(
        path,
        text,
        m.start(1),
        m.end(1),
        new,
        "code",  # not prose: test_kernels_namespace checks it against _GROUPS in every commit
        "README group list follows _GROUPS"
        + (" (it had drifted from _GROUPS already)" if applicability == "review" else ""),
        applicability,
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


def _test_dirs(index: RepoIndex, group: str, ops_dir: str) -> list[str]:
    """Directories holding a group's tests and CI benchmarks (`.../kernels/ops/<g>`,
    `.../kernels/benchmark/<g>`) outside the package itself."""
    found = set()
    for kind in ("ops", "benchmark"):
        marker = f"/kernels/{kind}/{group}/"
        for f in index.files:
            at = ("/" + f).find(marker)
            if at != -1 and not f.startswith(ops_dir + "/"):
                found.add(("/" + f)[1 : at + len(marker) - 1])
    return sorted(found)


def removal_changes(
    index: RepoIndex, relocation: Relocation, plan: Plan, ops_dir: str
) -> tuple[dict[str, str], list[Diagnostic]]:
    """Files a removed group leaves behind (its `__init__.py` files, now-empty test and
    benchmark dirs' `__init__.py`), as removals; anything else left there is a warning."""
    removals, notes = {}, []
    new_paths = set(relocation.files.values())
    for name in plan.groups_remove:
        dirs = [f"{ops_dir}/{name}", *_test_dirs(index, name, ops_dir)]
        for d in dirs:
            left = [f for f in index.files_under(d) if f not in relocation.files]
            left = [f for f in left if f not in new_paths and "__pycache__" not in f]
            inits = [f for f in left if f.endswith("/__init__.py")]
            rest = [f for f in left if f not in inits]
            if rest and d != dirs[0]:
                notes.append(
                    Diagnostic(
                        name.pos,
                        f"group {name} is removed but {d}/ keeps {len(rest)} file(s) no move "
                        f"covers: {', '.join(rest[:8])}",
                        "warning",
                    )
                )
            if not rest:
                removals.update(dict.fromkeys(inits, "delete"))
    return removals, notes


FOUNDED_INIT = '''"""Operator groups: one package per logical group of callable kernel APIs.

Importing this package imports every group in `_GROUPS`, so that all their lazy
`KernelSpec` registrations are present; a group import stays metadata-only.
Keep `_GROUPS` and the directories below in sync.
"""

from importlib import import_module

_GROUPS = {groups}

for _group in _GROUPS:
    import_module(f"{{__name__}}.{{_group}}")

del import_module, _group

__all__ = list(_GROUPS)
'''


def _group_packages(index: RepoIndex, relocation: Relocation, ops_dir: str, groups) -> dict:
    """The `__init__.py` writes of new groups' packages that no file or move provides."""
    existing = set(relocation.files.values()) | (set(index.files) - set(relocation.files))
    writes = {}
    for g in groups:
        path = f"{ops_dir}/{g}/__init__.py"
        if path not in existing:
            writes[path] = ("code", GROUP_INIT.format(name=g.replace("_", " ").capitalize()))
    return writes


def _ops_dir(index: RepoIndex, relocation: Relocation, ops: str) -> str | None:
    """The directory the moves give the ops package (`<root>/sglang/kernels/ops`), or None."""
    rel_dir = ops.replace(".", "/")
    for new in sorted(relocation.files.values()):
        root = root_of_path(index.roots, new)
        if root is None:
            continue
        inner = new if root in (".", "") else new[len(root) + 1 :]
        if inner.startswith(rel_dir + "/"):
            return rel_dir if root in (".", "") else f"{root}/{rel_dir}"
    return None


def _founded(index: RepoIndex, relocation: Relocation, plan: Plan, ops: str):
    """A plan that moves kernels into an ops package the tree does not have yet founds it:
    `__init__.py` declares `_GROUPS` (the plan's `groups.add`, in its order) and imports
    each group, and every group gets its package. Moves into undeclared groups are errors,
    as for an existing package."""
    ops_dir = _ops_dir(index, relocation, ops)
    if ops_dir is None:
        where = Pos(plan.path, 1, 1)
        return [], {}, [Diagnostic(where, f"groups.add: no move creates the {ops} package")]
    notes = implicit_groups(relocation, plan, [], ops)
    listed = "".join(f'\n    "{g}",' for g in plan.groups_add)
    writes = {f"{ops_dir}/__init__.py": ("code", FOUNDED_INIT.format(groups=f"({listed}\n)"))}
    writes.update(_group_packages(index, relocation, ops_dir, plan.groups_add))
    return [], writes, notes


def group_changes(
    index: RepoIndex, relocation: Relocation, plan: Plan, ops: str = OPS
) -> tuple[list[Edit], dict[str, tuple[str, str]], list[Diagnostic]]:
    """(edits, writes, notes) that add `plan.groups_add`, drop `plan.groups_remove` and
    check implicit groups. Removed groups' leftovers are in `group_removals`.

    Writes map a new file's path to `("code", text)`, as `ChangeSet.writes` does.
    """
    init = index.modules.get(ops)
    if init is None and plan.groups_add and not plan.groups_remove:
        return _founded(index, relocation, plan, ops)
    if init is None or not init.endswith("__init__.py"):
        if plan.groups_add or plan.groups_remove:
            return (
                [],
                {},
                [
                    Diagnostic(
                        Pos(plan.path, 1, 1),
                        f"groups.add/remove needs the {ops} package; it is not indexed",
                    )
                ],
            )
        return [], {}, []
    text = index.text(init) or ""
    found = groups_tuple(text)
    if found is None:
        return [], {}, [Diagnostic(Pos(init, 1, 1), "no literal `_GROUPS = (...)` tuple found")]
    lit, groups = found
    remove = frozenset(g for g in plan.groups_remove if g in groups)
    notes = implicit_groups(relocation, plan, [g for g in groups if g not in remove], ops)
    add = [g for g in plan.groups_add if g not in groups or g in remove]
    notes += [
        Diagnostic(Pos(plan.path, 1, 1), f"group {g!r} already exists", "warning")
        for g in plan.groups_add
        if g in groups and g not in remove
    ]
    if not add and not remove:
        return [], {}, notes
    after = strlist.updated(groups, set(remove), add)
    init_new = relocation.files.get(init, init)
    what = ", ".join([*(f"+{g}" for g in add), *(f"-{g}" for g in sorted(remove))])
    edits = [
        make_edit(
            init_new,
            text,
            lit.start,
            lit.end,
            strlist.render(text, lit, after),
            "code",
            f"operator groups {what} in _GROUPS",
        )
    ]
    edits += _import_edits(text, init_new, groups, add, remove)
    ops_dir = init.rsplit("/", 1)[0]
    readme = f"{ops_dir.rsplit('/', 1)[0]}/README.md"
    if readme in index.files:
        new_readme = relocation.files.get(readme, readme)
        e = _readme_edit(index.text(readme) or "", new_readme, add, remove, after)
        if e:
            edits.append(e)
        elif README_SENTENCE.search(index.text(readme) or "") is None:
            notes.append(
                Diagnostic(
                    Pos(readme, 1, 1),
                    "no 'Operator groups ...:' sentence to add the group to",
                    "warning",
                )
            )
    return edits, _group_packages(index, relocation, ops_dir, add), notes


def group_removals(index: RepoIndex, relocation: Relocation, plan: Plan, ops: str = OPS):
    """(removals, notes) of the groups `plan.groups_remove` retires."""
    init = index.modules.get(ops)
    if not plan.groups_remove or init is None:
        return {}, []
    return removal_changes(index, relocation, plan, init.rsplit("/", 1)[0])
