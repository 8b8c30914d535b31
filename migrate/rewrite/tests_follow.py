"""Tests follow their kernels: a test or CI benchmark under `kernels/{ops,benchmark}/<g>/`
whose kernels all move to group `h` moves to `kernels/{ops,benchmark}/<h>/` (same name
below the group directory), with its CI registrations and budget untouched.

What a test tests is what it imports from the kernel namespace (the one thing a file
states about its subject). A file whose moved kernels go to two groups, or that tests
kernels staying in `g` beside kernels leaving it, is split with the split machinery
(tests_split/: CI registrations kept, budgets apportioned): each top-level test goes
to the group of the kernels it uses, through the import bindings its code needs (the
split's dependency graph), to `<h>/<same name>`; tests of kernels that stay, and tests
of no kernel, stay at the file's path. A test that uses kernels of two groups is not
guessed: the file is reported, to be split with the plan's `splits:`. Files the plan
moves or splits itself are left to the plan.
"""

from __future__ import annotations

import ast
import re

from migrate.errors import Diagnostic, Pos
from migrate.index.facts import CodeFacts, code_facts
from migrate.index.repo import RepoIndex
from migrate.layout.names import OPS_PKG as OPS
from migrate.plan.model import Move, Plan, Split, SplitOutput
from migrate.relocate import Relocation
from migrate.rewrite.op_id_follow import group_of

TEST_DIR = re.compile(r"^(|.*/)(test/registered/kernels/(?:ops|benchmark))/([^/]+)/(.+\.py)$")


def _groups_after(names: set[str], relocate, group: str) -> tuple[set[str], bool]:
    """(new groups of the moved kernels of `group` among `names`, whether one stays)."""
    new_groups, stays = set(), False
    for name in names:
        if group_of(name) != group:
            continue
        new = relocate(name)
        if new is None:
            if name.count(".") > OPS.count(".") + 1:  # a kernel module, not the group itself
                stays = True
            continue
        if group_of(new) and group_of(new) != group:
            new_groups.add(group_of(new))
    return new_groups, stays


def follow_target(
    text: str, path: str, relocate, facts: CodeFacts | None = None
) -> tuple[str | None, str | None]:
    """(new path, None) when the test at `path` follows its kernels to another group,
    (None, why not) when they go several ways, (None, None) when it stays. What it tests
    is what it imports: the file's code facts (`facts`, else read from `text`)."""
    m = TEST_DIR.match(path)
    if m is None or OPS not in text:
        return None, None
    head, kind_dir, group, rest = m.groups()
    facts = facts or code_facts(text, None, False)
    imported = facts.imported if facts is not None else set()
    new_groups, stays = _groups_after(imported, relocate, group)
    if not new_groups:
        return None, None
    if len(new_groups) > 1 or stays:
        to = sorted(new_groups) + ([group] if stays else [])
        return None, (
            f"tests kernels going to groups {', '.join(to)}: split it with the plan's "
            "`splits:` so each part follows its kernels"
        )
    return f"{head}{kind_dir}/{new_groups.pop()}/{rest}", None


def _import_bindings(tree: ast.Module) -> dict[str, set[str]]:
    """Top-level name -> absolute dotted names it is bound to by an import (`import a.b`
    binds `a` to every `a...` module the file imports that way)."""
    out: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for a in node.names:
                key = a.asname or a.name.split(".")[0]
                out.setdefault(key, set()).add(a.name)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for a in node.names:
                if a.name != "*":
                    out.setdefault(a.asname or a.name, set()).add(f"{node.module}.{a.name}")
    return out


def unit_groups(text: str, group: str, relocate) -> dict[str, str | None] | str:
    """Each top-level test of the file -> the new group of the kernels it uses (None: it
    stays), through the bindings the test needs; or why the tests cannot be told apart."""
    import libcst as cst

    from migrate.tests_split.cases import cases_in
    from migrate.tests_split.deps import build_graph

    try:
        tree, module = ast.parse(text), cst.parse_module(text)
    except (SyntaxError, cst.ParserSyntaxError):
        return "it does not parse"
    units = {c.unit for c in cases_in(tree)}
    graph, bound = build_graph(module, units), _import_bindings(tree)
    out: dict[str, str | None] = {}
    for stmt in graph.stmts:
        if stmt.unit is None:
            continue
        _, names = graph.closure({stmt.index})
        used = {d for n in names | stmt.uses for d in bound.get(n, ())}
        new_groups, stays = _groups_after(used, relocate, group)
        if len(new_groups) > 1 or (new_groups and stays):
            to = sorted(new_groups) + ([group] if stays else [])
            return f"its test {stmt.unit} uses kernels going to groups {', '.join(to)}"
        out[stmt.unit] = new_groups.pop() if new_groups else None
    return out


def derived_split(index: RepoIndex, path: str, text: str, rel, plan: Plan) -> Split | str:
    """The split that sends each test of `path` after its kernels, or why there is none."""
    head, kind_dir, group, rest = TEST_DIR.match(path).groups()
    where = unit_groups(text, group, rel.dotted)
    if isinstance(where, str):
        return where
    pos = Pos(plan.path, 1, 1)
    by_group: dict[str, list[str]] = {}
    for unit, g in where.items():
        if g is not None:
            by_group.setdefault(g, []).append(unit)
    outputs = []
    for g, units in sorted(by_group.items()):
        out = f"{head}{kind_dir}/{g}/{rest}"
        if out in index.files and out not in rel.files:
            return f"{out} already exists"
        outputs.append(SplitOutput(out, tuple(units), pos))
    if any(g is None for g in where.values()):
        outputs.append(SplitOutput(path, ("rest",), pos))
    return Split(path, tuple(outputs), pos)


def follow_tests(
    index: RepoIndex, rel: Relocation, plan: Plan
) -> tuple[list[Move], list, list[Split]]:
    """(derived path moves, notes, derived splits) for tests whose kernels change group."""
    moves, notes, splits = [], [], []
    split = {sp.file for sp in plan.splits}
    for path in sorted(index.files):
        if path in rel.files or path in split or not TEST_DIR.match(path):
            continue
        text = index.text(path)
        if text is None or OPS not in text:
            continue  # it imports nothing from the kernel namespace: it stays
        new_path, why = follow_target(text, path, rel.dotted, index.facts(path))
        if why:
            split = derived_split(index, path, text, rel, plan)
            if isinstance(split, Split):
                splits.append(split)
            else:
                notes.append(Diagnostic(Pos(path, 1, 1), f"{why}, but {split}", "warning"))
        if new_path is None:
            continue
        if new_path in index.files and new_path not in rel.files:
            notes.append(
                Diagnostic(
                    Pos(path, 1, 1),
                    f"its kernels moved to another group, but {new_path} already exists: it stays",
                    "warning",
                )
            )
            continue
        pos = Pos(plan.path, 1, 1)
        moves.append(Move(path, new_path, pos, pos, pos))
    return moves, notes, splits
