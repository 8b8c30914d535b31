"""Symbol moves (`from: mod:sym`, `to: newmod`): the definition itself moves.

The definition (decorators and the comment block above it included) is cut from `mod`
and added to `newmod` (created as a `code` write when missing) together with the imports
it uses, spelled absolutely in their new locations. Private helpers (`_name`) that only
the symbol uses move with it; a private helper that other code in `mod` also uses makes
the plan refused, as does a move that would make `mod` and `newmod` import each other.
Public names of `mod` the symbol uses are imported from `mod`. Code left in `mod` that
still calls the symbol gets `from newmod import sym`. References elsewhere are rewritten
by the other forms (`Relocation.dotted` knows symbol moves).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace

from migrate.changes import ChangeSet, Edit, apply_edits
from migrate.errors import Diagnostic, Pos
from migrate.index.repo import RepoIndex
from migrate.relocate import Relocation, module_to_path
from migrate.rewrite import relative
from migrate.rewrite.spans import line_starts, make_edit

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass
class SymbolMove:
    mod: str
    sym: str
    dst: str
    src_path: str
    spans: list[tuple[int, int]]
    imports: list[str]
    helpers: list[str]
    back_import: bool
    dst_path: str
    dst_exists: bool


@dataclass
class SymbolPlan:
    moves: list[SymbolMove] = field(default_factory=list)
    moving: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    errors: list[Diagnostic] = field(default_factory=list)
    touched: set[str] = field(default_factory=set)

    def apply(self, cs: ChangeSet, index: RepoIndex, rel: Relocation) -> None:
        apply_symbol_moves(self, cs, index, rel)


def _top_level(tree: ast.Module) -> dict[str, ast.stmt]:
    out = {}
    for node in tree.body:
        if isinstance(node, _DEFS):
            out[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    out[t.id] = node
    return out


def _import_lines(tree: ast.Module, package: str, rel: Relocation) -> dict[str, str]:
    """Local name -> one absolute import statement binding it, in new locations."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for a in node.names:
                new = rel.module(a.name) or a.name
                if a.asname:
                    out[a.asname] = f"import {new} as {a.asname}"
                else:
                    out[a.name.split(".")[0]] = f"import {new}"
        elif isinstance(node, ast.ImportFrom):
            base = relative.resolve(package, node.level, node.module) if node.level else node.module
            if base is None:
                continue
            for a in node.names:
                if a.name == "*":
                    continue
                full = f"{base}.{a.name}"
                new_base, _, leaf = (rel.dotted(full) or full).rpartition(".")
                local = a.asname or a.name
                alias = f" as {local}" if local != leaf else ""
                out[local] = f"from {new_base} import {leaf}{alias}"
    return out


def _uses(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _node_names(node: ast.stmt) -> set[str]:
    if isinstance(node, _DEFS):
        return {node.name}
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
    return {t.id for t in targets if isinstance(t, ast.Name)}


def _span(text: str, starts: list[int], node: ast.stmt) -> tuple[int, int]:
    """Whole lines of `node`, with its decorators, the comments right above it and the
    blank lines after it (or before it, when it ends the file)."""
    lines = text.splitlines(keepends=True)
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    while first > 1 and lines[first - 2].lstrip().startswith("#"):
        first -= 1
    last = node.end_lineno
    while last < len(lines) and not lines[last].strip():
        last += 1
    if last >= len(lines):
        while first > 1 and not lines[first - 2].strip():
            first -= 1
    end = starts[last] if last < len(starts) else len(text)
    return starts[first - 1], end


def _module_imports(tree: ast.Module, package: str) -> set[str]:
    out = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = relative.resolve(package, node.level, node.module) if node.level else node.module
            if base:
                out.add(base)
                out.update(f"{base}.{a.name}" for a in node.names)
    return out


def _target_path(index: RepoIndex, rel: Relocation, dst: str, src_path: str):
    for old, new in rel.moved_modules.items():
        if new == dst:
            old_path = index.modules[old]
            return rel.files.get(old_path, old_path), True
    if dst in index.modules:
        path = index.modules[dst]
        return rel.files.get(path, path), True
    root = index.files[src_path].root or "."
    return module_to_path(dst, root, package=False), False


def plan_symbol_moves(index: RepoIndex, rel: Relocation) -> SymbolPlan:
    plan = SymbolPlan()
    for (mod, sym), dst in sorted(rel.symbols.items()):
        src_path = index.modules[mod]
        text = index.text(src_path) or ""
        tree = ast.parse(text)
        package = mod if src_path.endswith("__init__.py") else mod.rpartition(".")[0]
        defs = _top_level(tree)
        imports = _import_lines(tree, package, rel)
        moving_nodes = [defs[sym]]
        moving = {sym}
        queue = [defs[sym]]
        while queue:
            for name in sorted(_uses(queue.pop())):
                if name in defs and name not in moving and name.startswith("_"):
                    moving.add(name)
                    moving_nodes.append(defs[name])
                    queue.append(defs[name])
        staying = [n for n in tree.body if not (_node_names(n) & moving)]
        pos = Pos(src_path, defs[sym].lineno, defs[sym].col_offset + 1)
        for helper in sorted(moving - {sym}):
            users = [
                ", ".join(sorted(_node_names(n))) or f"line {n.lineno}"
                for n in staying
                if helper in _uses(n)
            ]
            if users:
                plan.errors.append(
                    Diagnostic(
                        pos,
                        f"cannot move {mod}:{sym} to {dst}: it uses the private helper {helper}, "
                        f"which {mod} also uses in {', '.join(users)}; move {helper} explicitly "
                        "(a `from: mod:name` entry) or make it public",
                    )
                )
        used = set().union(*(_uses(n) for n in moving_nodes))
        needed = _merge_from(list(dict.fromkeys(ln for n, ln in imports.items() if n in used)))
        publics = sorted(n for n in used if n in defs and n not in moving)
        new_src = rel.module(mod) or mod
        if publics:
            needed.append(f"from {new_src} import {', '.join(publics)}")
        back = any(sym in _uses(n) for n in staying)
        dst_path, exists = _target_path(index, rel, dst, src_path)
        if publics and (back or _imports_dst(index, src_path, tree, package, dst, rel)):
            plan.errors.append(
                Diagnostic(
                    pos,
                    f"cannot move {mod}:{sym} to {dst}: {dst} would import {mod} for "
                    f"{', '.join(publics)} while {mod} imports {dst}"
                    + (f" for {sym}" if back else "")
                    + ": an import cycle; move those names too or choose another target",
                )
            )
        starts = line_starts(text)
        spans = _merge(sorted(_span(text, starts, n) for n in moving_nodes))
        if spans and spans[-1][1] == len(text):  # cut at the end: drop the blank lines before
            s, e = spans[-1]
            while s > 0 and not text[text.rfind("\n", 0, s - 1) + 1 : s].strip():
                s = text.rfind("\n", 0, s - 1) + 1
            spans[-1] = (s, e)
        plan.moves.append(
            SymbolMove(
                mod,
                sym,
                dst,
                src_path,
                spans,
                needed,
                sorted(moving - {sym}),
                back,
                dst_path,
                exists,
            )
        )
        plan.moving[(mod, sym)] = tuple(sorted(moving - {sym}))
        plan.touched.add(src_path)
    return plan


def _merge_from(lines: list[str]) -> list[str]:
    """`from m import a` + `from m import b` -> `from m import a, b` (first position kept)."""
    out: list[str] = []
    where: dict[str, int] = {}
    for line in lines:
        if line.startswith("from "):
            head, names = line.split(" import ", 1)
            if head in where:
                out[where[head]] += f", {names}"
                continue
            where[head] = len(out)
        out.append(line)
    return out


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in spans:
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def _imports_dst(index, src_path, tree, package, dst, rel) -> bool:
    return any(rel.dotted(n) == dst or n == dst for n in _module_imports(tree, package))


def _after_imports(text: str) -> int:
    """Offset after the last top-level import (or the docstring, or 0)."""
    tree = ast.parse(text)
    starts = line_starts(text)
    last = 0
    for i, node in enumerate(tree.body):
        is_doc = i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        if isinstance(node, (ast.Import, ast.ImportFrom)) or is_doc:
            last = node.end_lineno
        elif last:
            break
    return starts[last] if last < len(starts) else len(text)


def _take_edits(cs: ChangeSet, path: str, spans) -> dict[tuple[int, int], list[Edit]]:
    """Remove the edits inside the moved spans from `cs`; return them per span."""
    taken: dict[tuple[int, int], list[Edit]] = {s: [] for s in spans}
    kept = []
    for e in cs.edits:
        span = next(
            (s for s in spans if e.path == path and s[0] <= e.start and e.end <= s[1]), None
        )
        if span is None:
            kept.append(e)
        else:
            taken[span].append(replace(e, start=e.start - span[0], end=e.end - span[0]))
    cs.edits = kept
    return taken


def apply_symbol_moves(plan: SymbolPlan, cs: ChangeSet, index: RepoIndex, rel: Relocation):
    new_files: dict[str, list[str]] = {}
    new_imports: dict[str, list[str]] = {}
    appended: dict[str, list[str]] = {}
    for mv in plan.moves:
        src_new = rel.files.get(mv.src_path, mv.src_path)
        text = index.text(mv.src_path) or ""
        nl = "\r\n" if "\r\n" in text else "\n"
        taken = _take_edits(cs, src_new, mv.spans)
        code = (nl * 3).join(
            apply_edits(text[s:e], taken[(s, e)]).strip("\r\n") for s, e in mv.spans
        ) + nl
        why = f"{mv.sym} moved to {mv.dst}" + (
            f" with its private helpers {', '.join(mv.helpers)}" if mv.helpers else ""
        )
        for s, e in mv.spans:
            cs.edits.append(make_edit(src_new, text, s, e, "", "code", why))
        if mv.back_import:
            at = _after_imports(text)
            cs.edits.append(
                make_edit(
                    src_new,
                    text,
                    at,
                    at,
                    f"from {mv.dst} import {mv.sym}{nl}",
                    "code",
                    f"{mv.mod} still uses {mv.sym}, which now lives in {mv.dst}",
                )
            )
        if mv.dst_exists:
            new_imports.setdefault(mv.dst_path, []).extend(mv.imports)
            appended.setdefault(mv.dst_path, []).append(code)
        else:
            new_imports.setdefault(mv.dst_path, []).extend(mv.imports)
            new_files.setdefault(mv.dst_path, []).append(code)
    for path, codes in new_files.items():
        imports = list(dict.fromkeys(new_imports.get(path, [])))
        head = "\n".join(imports) + ("\n\n\n" if imports else "")
        cs.writes[path] = ("code", head + "\n\n".join(codes))  # codes end with a newline
    for path, codes in appended.items():
        old = next((o for o, n in rel.files.items() if n == path), path)
        text = index.text(old) or ""
        nl = "\r\n" if "\r\n" in text else "\n"
        imports = [i for i in dict.fromkeys(new_imports.get(path, [])) if i not in text]
        if imports:
            at = _after_imports(text)
            cs.edits.append(
                make_edit(
                    path,
                    text,
                    at,
                    at,
                    nl.join(imports) + nl,
                    "code",
                    "imports used by definitions moved into this module",
                )
            )
        tail = ("" if text.endswith("\n") or not text else nl) + nl + nl + (nl + nl).join(codes)
        cs.edits.append(
            make_edit(
                path,
                text,
                len(text),
                len(text),
                tail,
                "code",
                "definitions moved into this module by the plan",
            )
        )
