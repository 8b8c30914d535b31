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
import re
from dataclasses import dataclass, field, replace

from migrate.changes import ChangeSet, Edit, apply_edits
from migrate.errors import Diagnostic, MigrateError, Pos
from migrate.index.bindings import module_bindings, name_reads
from migrate.index.facts import is_globals_call
from migrate.index.forward_refs import annotation_strings
from migrate.index.imports import is_type_checking
from migrate.index.repo import RepoIndex
from migrate.index.star_exports import StarExports, star_names
from migrate.index.unbound import BUILTINS
from migrate.relocate import Relocation, module_to_path
from migrate.rewrite import effect_imports, relative
from migrate.rewrite.decorator_effects import class_effects, import_time_decorators
from migrate.rewrite.import_order import Orders
from migrate.rewrite.import_scratch import ImportScratch
from migrate.rewrite.import_style import in_file_style, relative_depth
from migrate.rewrite.overlaps import settled
from migrate.rewrite.scan import may_bind
from migrate.rewrite.spans import (
    ast_offset,
    file_header_line,
    line_starts,
    make_edit,
    newline_of,
    note_at,
    whole_lines,
    with_newline,
)

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass
class SymbolMove:
    """Every definition of one module moving to one target, planned together: they may
    share private helpers and use each other without importing back."""

    mod: str
    syms: list[str]
    dst: str
    src_path: str
    spans: list[tuple[int, int]]
    imports: list[str]
    helpers: list[str]
    back_import: list[str]  # moved names code left in `mod` still uses
    dst_path: str
    dst_exists: bool
    future: list[str] = field(default_factory=list)  # `from __future__ import ...` lines
    type_checking: list[str] = field(default_factory=list)  # imports under TYPE_CHECKING
    source_edits: list[tuple[int, int, str, str]] = field(default_factory=list)  # s, e, new, why
    # top-level imports of the source that only the moved code used: (statement, aliases)
    unused_imports: list[tuple[ast.stmt, list[ast.alias]]] = field(default_factory=list)
    local_imports: list[tuple[int, int, str]] = field(default_factory=list)  # s, e, new
    # moved names whose decorator runs the project's code at import (a registry): the
    # source imports them back (`name as name`) so importing it still runs it
    registered: list[str] = field(default_factory=list)

    @property
    def sym(self) -> str:
        return ", ".join(self.syms)


@dataclass
class SymbolPlan:
    moves: list[SymbolMove] = field(default_factory=list)
    moving: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    errors: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
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
    """Local name -> one absolute import statement binding it, in new locations; a name
    bound by a top-level `try:` of imports (`except ImportError:` a fallback import or
    constant: wcwidth's `lru_cache`, T61) -> that whole statement, so the moved code binds
    it as its module did, not through an import of that module (a cycle)."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Try):
            block = _import_block(node, package, rel)
            if block is not None:
                for name in _block_names(node):
                    out.setdefault(name, block)
        elif isinstance(node, ast.Import):
            for a in node.names:
                new = rel.module(a.name) or a.name
                if a.asname:
                    out[a.asname] = f"import {new} as {a.asname}"
                else:
                    out[a.name.split(".")[0]] = f"import {new}"
        elif isinstance(node, ast.ImportFrom):
            base = relative.resolve(package, node.level, node.module) if node.level else node.module
            if base is None or base == "__future__":
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


def _import_block(node: ast.Try, package: str, rel: Relocation) -> str | None:
    """A `try:` whose every part only imports (or binds a constant, or passes), as
    absolute statements in new locations; None for any other `try`."""
    if not _is_import_block(node):
        return None
    parts = [("try:", node.body)]
    parts += [
        (f"except {ast.unparse(h.type)}:" if h.type else "except:", h.body) for h in node.handlers
    ]
    parts += [("else:", node.orelse)] if node.orelse else []
    lines: list[str] = []
    for head, body in parts:
        lines.append(head)
        for stmt in body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                one = _import_lines(ast.Module(body=[stmt], type_ignores=[]), package, rel)
                if not one and not (
                    isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"
                ):
                    return None  # a star import: what it binds is not spelled here
                lines += [f"    {line}" for line in dict.fromkeys(one.values())]
            else:
                lines.append(f"    {ast.unparse(stmt)}")
    return "\n".join(lines)


def _is_import_block(node: ast.stmt) -> bool:
    """A `try:` whose every part only imports, binds a name to a constant or passes (no
    `finally`, no `except ... as e`): an import with its fallback."""
    if not isinstance(node, ast.Try) or node.finalbody or any(h.name for h in node.handlers):
        return False
    bodies = [node.body, node.orelse, *(h.body for h in node.handlers)]
    return all(
        isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Pass))
        or (
            isinstance(stmt, ast.Assign)
            and all(isinstance(t, ast.Name) for t in stmt.targets)
            and isinstance(stmt.value, ast.Constant)
        )
        for body in bodies
        for stmt in body
    )


def _block_names(node: ast.Try) -> set[str]:
    """The names a `try:` statement's parts bind (imports and assignments)."""
    out: set[str] = set()
    for stmt in ast.walk(node):
        if isinstance(stmt, ast.Import):
            out.update(a.asname or a.name.split(".")[0] for a in stmt.names)
        elif isinstance(stmt, ast.ImportFrom):
            out.update(a.asname or a.name for a in stmt.names if a.name != "*")
        elif isinstance(stmt, ast.Assign):
            out.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
    return out


def _uses(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def node_names(node: ast.stmt) -> set[str]:
    if isinstance(node, _DEFS):
        return {node.name}
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
    return {t.id for t in targets if isinstance(t, ast.Name)}


def _span(text: str, starts: list[int], node: ast.stmt) -> tuple[int, int]:
    """Whole lines of `node`, with its decorators, the comments right above it and the
    blank lines after it (or before it, when it ends the file)."""
    lines = text.splitlines(keepends=True)
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    while (
        first > 1
        and lines[first - 2].lstrip().startswith("#")
        and not file_header_line(first - 1, lines[first - 2])
    ):
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
    old = rel.old_module(dst)
    if old is not None:
        old_path = index.modules[old]
        return rel.files.get(old_path, old_path), True
    if dst in index.modules:
        path = index.modules[dst]
        return rel.files.get(path, path), True
    root = index.files[src_path].root or "."
    return module_to_path(dst, root, package=False), False


def _type_checking_imports(tree: ast.Module, package: str, rel: Relocation) -> dict[str, str]:
    """Like `_import_lines`, for imports under a top-level `if TYPE_CHECKING:`."""
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and is_type_checking(node.test):
            out.update(_import_lines(ast.Module(body=node.body, type_ignores=[]), package, rel))
    return out


def _future_lines(tree: ast.Module, text: str) -> list[str]:
    return [
        ast.get_source_segment(text, n)
        for n in tree.body
        if isinstance(n, ast.ImportFrom) and n.module == "__future__"
    ]


def _closure(defs: dict[str, ast.stmt], syms: list[str]) -> set[str]:
    """The symbols plus every private helper they use, transitively."""
    moving = set(syms)
    queue = [defs[s] for s in syms]
    while queue:
        for name in sorted(_uses(queue.pop())):
            if name in defs and name not in moving and name.startswith("_"):
                moving.add(name)
                queue.append(defs[name])
    return moving


def _local_relative_imports(text, nodes, package, dst, rel) -> list[tuple[int, int, str]]:
    """Relative imports inside moved definitions, respelled for the new module: resolved
    against the OLD package, relocated, spelled from the target's package."""
    starts = line_starts(text)
    out = []
    dst_pkg = dst.rpartition(".")[0]
    for node in nodes:
        for sub in ast.walk(node):
            if not isinstance(sub, ast.ImportFrom) or not sub.level:
                continue
            base = relative.resolve(package, sub.level, sub.module)
            if base is None:
                continue
            new_base = rel.module(base) or base
            spelled = relative.spell(new_base, dst_pkg, sub.level)
            seg_start = ast_offset(text, starts, sub.lineno, sub.col_offset)
            m = _REL_FROM.match(text, seg_start)
            if m is None:  # even when unchanged: it overrides the source file's respelling
                continue
            out.append((m.start(1), m.end(1), spelled))
    return out


_REL_FROM = re.compile(r"from\s+(\.+[\w.]*)\s+import")


def _all_edits(text: str, tree: ast.Module, gone: set[str]) -> list[tuple[int, int, str, str]]:
    """Drop `gone` from a literal top-level `__all__` list or tuple."""
    starts = line_starts(text)
    out = []
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        value = getattr(node, "value", None)
        if not (isinstance(target, ast.Name) and target.id == "__all__"):
            continue
        if not isinstance(value, (ast.List, ast.Tuple)):
            continue
        elts = value.elts
        drop = [
            i
            for i, e in enumerate(elts)
            if isinstance(e, ast.Constant) and isinstance(e.value, str) and e.value in gone
        ]
        if not drop:
            continue

        def off(n, end=False):
            if end:
                return ast_offset(text, starts, n.end_lineno, n.end_col_offset)
            return ast_offset(text, starts, n.lineno, n.col_offset)

        why = "moved names leave __all__"
        kept = [i for i in range(len(elts)) if i not in drop]
        if not kept or (len(kept) == 1 and isinstance(value, ast.Tuple)):
            rest = f"{ast.get_source_segment(text, elts[kept[0]])}," if kept else ""
            new = f"[{rest}]" if isinstance(value, ast.List) else f"({rest})"
            out.append((off(value), off(value, True), new, why))
            continue
        last_kept = kept[-1]
        runs: list[list[int]] = []  # consecutive dropped elements before the last kept one
        for i in (i for i in drop if i < last_kept):
            if runs and runs[-1][-1] == i - 1:
                runs[-1].append(i)
            else:
                runs.append([i])
        for run in runs:
            cut = _element_cut(
                text, off(elts[run[0]]), off(elts[run[-1]], True), off(elts[run[-1] + 1])
            )
            out.append((*cut, "", why))
        tail = [i for i in drop if i > last_kept]
        if tail:
            out.append((off(elts[last_kept], True), off(elts[tail[-1]], True), "", why))
    return out


def _element_cut(text: str, s: int, last_end: int, nxt: int) -> tuple[int, int]:
    """The span that drops a run of elements of a literal list, the first starting at `s`
    and the last ending at `last_end` (the next one starts at `nxt`): the run and what
    follows it, when the next one is on the same line; else the run, its comma and the
    blanks before it, so the line break stays (the whole lines when the run had them to
    itself). One span for the run: a cut per element overlapped (t12 T58)."""
    gap = text[last_end:nxt]
    if "\n" not in gap:
        return s, nxt
    e = last_end + (gap.index(",") + 1 if "," in gap else len(gap.split("\n", 1)[0]))
    start = s
    while start > 0 and text[start - 1] in " \t":
        start -= 1
    return whole_lines(text, s, e) or (start, e)


def _unused_imports(
    tree, staying, moving_nodes, outside=frozenset()
) -> list[tuple[ast.stmt, list[ast.alias]]]:
    """Imports that only the moved code used, at the top level and under a top-level
    `if TYPE_CHECKING:`: removed from the source by the import finaliser
    (`import_scratch.py`), composed with the other edits of them. Names read in string
    annotations count as uses. A `TYPE_CHECKING` block whose every statement goes is
    removed whole (with no names), and then so is an import that only its test used
    (`from typing import TYPE_CHECKING`). A name another module reads from this one
    (`outside`: `from mod import name`, `m.name`) is a use: its import stays."""
    blocks = [n for n in staying if isinstance(n, ast.If) and is_type_checking(n.test) and n.body]
    stay_uses: set[str] = set()
    for n in staying:
        if n in blocks:  # its test is counted below, once we know whether it stays
            inner = [*n.body, *n.orelse]
            stay_uses |= set().union(*(_reads(x) for x in inner if not _is_import(x)))
        elif not _is_import(n):
            stay_uses |= _reads(n)
    stay_uses |= _all_names(tree) | set(outside)
    moved_uses = set().union(*(_reads(n) for n in moving_nodes)) if moving_nodes else set()

    def gone_from(node) -> list[ast.alias] | None:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            return None
        names = [(a, a.asname or a.name.split(".")[0]) for a in node.names if a.name != "*"]
        if not names or len(names) != len(node.names):
            return None
        return [a for a, local in names if local in moved_uses and local not in stay_uses]

    out: list[tuple[ast.stmt, list[ast.alias]]] = []
    emptied = []
    for block in blocks:
        found = [(x, gone_from(x)) for x in block.body if _is_import(x)]
        found = [(x, gone) for x, gone in found if gone]
        whole = not block.orelse and len(found) == len(block.body)
        if whole and all(len(gone) == len(x.names) for x, gone in found):
            emptied.append(block)
            out.append((block, []))
        elif len(found) < len(block.body) or any(len(g) < len(x.names) for x, g in found):
            out += found  # something stays in the block: only the imports go
    for block in blocks:
        if block not in emptied:
            stay_uses |= _reads(block.test)
    tests = set().union(*(_reads(b.test) for b in emptied)) if emptied else set()
    moved_uses |= tests
    for node in tree.body:
        if _is_import(node):
            gone = gone_from(node)
            if gone:
                out.append((node, gone))
        elif _is_import_block(node):  # `try:` of imports (T61): carried, and goes whole
            names = _block_names(node)
            if names and names <= moved_uses and not names & stay_uses:
                out.append((node, []))
    return out


def _is_import(node: ast.stmt) -> bool:
    return isinstance(node, (ast.Import, ast.ImportFrom))


def _reads(node: ast.AST) -> set[str]:
    """The names `node` reads: in code, and in its string annotations (their values)."""
    out = _uses(node)
    for string in annotation_strings(node):
        try:
            out |= _uses(ast.parse(string.value.strip(), mode="eval"))
        except (SyntaxError, ValueError):
            continue
    return out


def _all_names(tree: ast.Module) -> set[str]:
    out = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            out |= {c.value for c in ast.walk(node.value) if isinstance(c, ast.Constant)}
    return out


def emptied_by_symbol_moves(index: RepoIndex, rel: Relocation) -> set[str]:
    """Source files that symbol moves leave with nothing of their own: every top-level
    definition moves (with the private helpers it takes along), and what stays is only
    imports, a docstring, `__all__` or `pass`. Deleting such a file loses nothing."""
    syms: dict[str, list[str]] = {}
    for mod, sym in rel.symbols:
        syms.setdefault(mod, []).append(sym)
    out = set()
    for mod, names in syms.items():
        path = index.modules.get(mod)
        try:
            tree = ast.parse(index.text(path) or "") if path else None
        except SyntaxError:
            continue
        if tree is None:
            continue
        defs = _top_level(tree)
        if any(n not in defs for n in names):
            continue  # the plan validation reports it
        moving = _closure(defs, names)
        if all(_is_scaffolding(n) for n in tree.body if not (node_names(n) & moving)):
            out.add(path)
    return out


def _is_scaffolding(node: ast.stmt) -> bool:
    if isinstance(node, (ast.Import, ast.ImportFrom, ast.Pass)):
        return True
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        return isinstance(node.value.value, str)  # a docstring
    return (
        node_names(node) == {"__all__"} if isinstance(node, (ast.Assign, ast.AnnAssign)) else False
    )


def plan_symbol_moves(index: RepoIndex, rel: Relocation) -> SymbolPlan:
    plan = SymbolPlan()
    groups: dict[tuple[str, str], list[str]] = {}
    for (mod, sym), dst in sorted(rel.symbols.items()):
        if (mod, sym) not in rel.reexports:  # a lazy export: its entry follows, not a def
            groups.setdefault((mod, dst), []).append(sym)
    leaving: dict[str, set[str]] = {}  # module -> every name leaving it, whatever target
    for (mod, _), syms in groups.items():
        leaving.setdefault(mod, set()).update(syms)
    outside = read_from_outside(index, set(leaving))
    stars = StarExports.of_index(index)
    for (mod, dst), syms in sorted(groups.items()):
        # one `__all__` edit per module, for every target (two would overlap and one lost)
        gone = leaving.pop(mod, set())
        _plan_group(index, rel, mod, dst, syms, plan, gone, outside.get(mod, set()), stars)
    _clip_spans(index, plan.moves)
    return plan


def read_from_outside(index: RepoIndex, mods: set[str]) -> dict[str, set[str]]:
    """Module -> the names other modules read from it: `from module import name`, and
    the chains `module.name` through an import binding (`import pkg.module as m; m.x`).
    An import of the module that binds such a name is a use of it: never removed."""
    out: dict[str, set[str]] = {}
    if not mods:
        return out
    leaves = frozenset(mods)
    for path, info in index.files.items():
        if not info.is_python or info.is_symlink:
            continue
        text = index.text(path)  # every such read spells the module's last component
        if text is None or not may_bind(text, leaves):
            continue
        facts = index.facts(path)
        if facts is None or facts.module in mods:
            continue
        for imp in facts.imports:
            if imp.module in mods:
                out.setdefault(imp.module, set()).update(imp.names)
        for star in facts.star_imports:  # `*`: what the star gives is read (`_star_read`)
            if star in mods:
                out.setdefault(star, set()).add("*")
        for ref in facts.attrs.refs if facts.attrs is not None else ():
            for i, attr in enumerate(ref.attrs):
                prefix = ".".join((ref.target, *ref.attrs[:i]))
                if prefix in mods:
                    out.setdefault(prefix, set()).add(attr)
    return out


def _clip_spans(index: RepoIndex, moves: list[SymbolMove]) -> None:
    """Moves out of one file never overlap, and a run of cuts that ends the file takes the
    blank lines before it too (so two adjacent moves at the end cannot collide)."""
    by_src: dict[str, list[list]] = {}
    for mv in moves:
        for i, (s, e) in enumerate(mv.spans):
            by_src.setdefault(mv.src_path, []).append([s, e, mv, i])
    for path, spans in by_src.items():
        text = index.text(path) or ""
        spans.sort(key=lambda t: (t[0], t[1]))
        end = 0
        for item in spans:
            item[0] = max(item[0], end)
            end = max(end, item[1])
        if spans and spans[-1][1] == len(text):
            k = len(spans) - 1
            while k > 0 and spans[k - 1][1] == spans[k][0]:
                k -= 1
            s = spans[k][0]
            while s > 0 and not text[text.rfind("\n", 0, s - 1) + 1 : s].strip():
                s = text.rfind("\n", 0, s - 1) + 1
            spans[k][0] = s
        for s, e, mv, i in spans:
            mv.spans[i] = (s, e)


def _plan_group(
    index, rel, mod, dst, syms: list[str], plan: SymbolPlan, gone, outside, stars: StarExports
) -> None:
    """`gone`: every name leaving `mod`; `outside`: the names other modules read from it;
    `stars`: what the tree's star imports give."""
    src_path = index.modules[mod]
    text = index.text(src_path) or ""
    tree = ast.parse(text)
    package = mod if src_path.endswith("__init__.py") else mod.rpartition(".")[0]
    defs = _top_level(tree)
    imports = _import_lines(tree, package, rel)
    tc_imports = _type_checking_imports(tree, package, rel)
    moving = _closure(defs, syms)
    moving_nodes = list(dict.fromkeys(defs[n] for n in [*syms, *sorted(moving - set(syms))]))
    # every other top-level definition of a moving name goes with it: the `@overload`
    # variants before the implementation (left behind, the module's name became the last
    # stub, typing's dummy) or an earlier definition the last one replaces
    moving_nodes += [
        n for n in tree.body if isinstance(n, _DEFS) and n.name in moving and n not in moving_nodes
    ]
    staying = [n for n in tree.body if not (node_names(n) & moving)]
    first = defs[syms[0]]
    pos = Pos(src_path, first.lineno, first.col_offset + 1)
    what = f"{mod}:{', '.join(syms)}"
    for helper in sorted(moving - set(syms)):
        users = [
            ", ".join(sorted(node_names(n))) or f"line {n.lineno}"
            for n in staying
            if helper in _uses(n)
        ]
        if users:
            plan.errors.append(
                Diagnostic(
                    pos,
                    f"cannot move {what} to {dst}: it uses the private helper {helper}, "
                    f"which {mod} also uses in {', '.join(users)}; move {helper} explicitly "
                    "(a `from: mod:name` entry) or make it public",
                )
            )
    staying_names = set(defs) - moving
    for name, users in _rebound(staying, moving).items():
        plan.errors.append(
            Diagnostic(
                pos,
                f"cannot move {what} to {dst}: {mod} rebinds {name} (`global {name}` in "
                f"{users}): after the move it would rebind its own copy, which readers of "
                f"{dst}.{name} never see; move {users} too",
            )
        )
    # a global the moved code rebinds that staying code defines or reads (trial25 T53)
    kept = (staying_names | {u for n in staying for u in _uses(n)}) - moving
    kept_rebound = _rebound(moving_nodes, kept)
    for name, users in kept_rebound.items():
        plan.errors.append(
            Diagnostic(
                pos,
                f"cannot move {what} to {dst}: the moved {users} rebinds {name} (`global "
                f"{name}`), which stays in {mod}: after the move it would rebind {dst}'s copy, "
                f"which readers of {mod}.{name} never see; move {name} too",
            )
        )
    starts = line_starts(text)
    spans = _merge(sorted(_span(text, starts, n) for n in moving_nodes))
    facts = index.facts(src_path)
    needs = _needs(facts, tree, text, spans, moving, stars)
    unbound = sorted(n for n, how in needs.items() if how == "unbound")
    if unbound:
        plan.warnings.append(
            Diagnostic(
                pos,
                f"the code moving to {dst} reads {', '.join(unbound)}, which {mod} binds by "
                "no statement and no star import of it gives: left unimported, as in "
                f"{mod} (a builtin set at run time, such as gettext's `_`, or a NameError)",
                severity="warning",
            )
        )
        needs = {n: how for n, how in needs.items() if how != "unbound"}
    # a module global the moved code reads while a function rebinds it (`global name`):
    # imported into dst it is a copy taken once (trial25 T53, colorama's orig_stdout)
    read = set(needs) - moving - set(kept_rebound)
    for name, users in _rebound(staying, read).items():
        plan.errors.append(
            Diagnostic(
                pos,
                f"cannot move {what} to {dst}: the moved code reads {name}, which {mod} "
                f"rebinds at run time (`global {name}` in {users}): {dst} would import a "
                f"copy of {name} taken once, blind to every later rebinding; move "
                f"{users} with it, or keep the code that reads {name} in {mod}",
            )
        )
    for name in _rebound(moving_nodes, read - kept):  # the moved code's own global
        needs.pop(name)
    for line in _namespace_reads(moving_nodes, facts):
        plan.errors.append(
            Diagnostic(
                Pos(src_path, line, 1),
                f"cannot move {what} to {dst}: the moved code reads its module's namespace "
                f"at run time (`globals()` or `sys.modules[__name__]`, line {line}): after "
                f"the move it would read {dst}'s, where {mod}'s names are not; move the "
                "module whole, or look the names up in an explicit table",
            )
        )
    used = set(needs)
    needed = _merge_from(list(dict.fromkeys(ln for n, ln in imports.items() if n in used)))
    tc_lines = [ln for n, ln in tc_imports.items() if n in used and n not in imports]
    carried = set(imports) | set(tc_imports) | moving
    publics = sorted(n for n in used if n not in carried and needs[n] == "runtime")
    typing_only = sorted(n for n in used if n not in carried and needs[n] == "typing")
    new_src = rel.module(mod) or mod
    # a name the plan moves out of `mod` to another module is imported from there: the
    # source may be deleted (trial23 T38's plan: `from pkg.ext import Extension` in
    # pkg/factory.py after pkg.ext was retired)
    moved_away = {n for n in publics + typing_only if rel.symbols.get((mod, n), dst) != dst}
    for names, lines in ((publics, needed), (typing_only, tc_lines)):
        by_dst: dict[str, list[str]] = {}
        for n in names:
            if n in moved_away:
                by_dst.setdefault(rel.symbols[(mod, n)], []).append(n)
        lines += [f"from {d} import {', '.join(ns)}" for d, ns in sorted(by_dst.items())]
    publics = [n for n in publics if n not in moved_away]
    typing_only = [n for n in typing_only if n not in moved_away]
    origins = _star_origins(index, rel, facts, stars, [n for n in publics if n not in defs])
    needed = _merge_from(list(dict.fromkeys([*needed, *(i for v in origins.values() for i in v)])))
    publics = [n for n in publics if n not in origins]
    if publics:
        needed.append(f"from {new_src} import {', '.join(publics)}")
    if typing_only:  # bound under `if TYPE_CHECKING:` only: for the type checker there too
        tc_lines.append(f"from {new_src} import {', '.join(typing_only)}")
    tc_needed = _merge_from(list(dict.fromkeys(tc_lines)))
    back = [sym for sym in syms if any(sym in _uses(n) for n in staying)]
    dst_path, exists = _target_path(index, rel, dst, src_path)
    imports_dst = _imports_dst(index, src_path, tree, package, dst, rel)
    registered = {} if imports_dst else _registered(facts, tree, defs, moving, back, index, mod)
    if publics and registered and not back:
        # An own-code decorator may only change the definition (jmespath's
        # @with_str_method), so this is no reason to refuse a valid plan: say it, and let
        # verify's import-reach check judge the result.
        plan.warnings.append(
            Diagnostic(
                pos,
                f"{', '.join(f'{n} ({d})' for n, d in registered.items())}: the repository's "
                f"own code runs as {'it is' if len(registered) == 1 else 'they are'} "
                f"defined; {mod} cannot import "
                f"{'it' if len(registered) == 1 else 'them'} back from {dst}, which imports "
                f"{mod} for {', '.join(publics)} (an import cycle), so importing {mod} no "
                f"longer runs {'it' if len(registered) == 1 else 'them'}: review whether "
                f"it registers anything",
                severity="warning",
            )
        )
        registered = {}
    if publics and (back or registered or imports_dst):
        why = [f"for {', '.join(back)}"] if back else []
        why += [f"for {n} ({d} runs as it is defined)" for n, d in registered.items()]
        plan.errors.append(
            Diagnostic(
                pos,
                f"cannot move {what} to {dst}: {dst} would import {mod} for "
                f"{', '.join(publics)} while {mod} imports {dst}"
                + (f" {' and '.join(why)}" if why else "")
                + ": an import cycle; move those names too or choose another target",
            )
        )
    mv = SymbolMove(
        mod,
        list(syms),
        dst,
        src_path,
        spans,
        needed,
        sorted(moving - set(syms)),
        back + list(registered),
        dst_path,
        exists,
        registered=list(registered),
        future=_future_lines(tree, text),
        type_checking=tc_needed,
        source_edits=_all_edits(text, tree, gone),
        unused_imports=_unused_imports(
            tree, staying, moving_nodes, _star_read(tree, facts, outside)
        ),
    )
    mv.local_imports = _local_relative_imports(text, moving_nodes, package, dst, rel)
    plan.moves.append(mv)
    for sym in syms:
        plan.moving[(mod, sym)] = tuple(sorted(moving - {sym}))
    plan.touched.add(src_path)


def _star_origins(index, rel, facts, stars: StarExports, names: list[str]) -> dict[str, list[str]]:
    """name -> the imports that bind it where it comes from, for the `names` the module
    gets only through star imports whose names the tree knows (`stars.known`): the
    giver's own definition from the giver (or where the plan moves it), a name the giver
    imports from where it imports it (trial24 T44: `from enum import Enum`, not the
    source's star re-export of it). The last star giving a name wins, as in Python."""
    if facts is None or not names:
        return {}
    givers: dict[str, str] = {}
    for star in facts.star_imports:
        if stars.known(star):
            givers.update(stars(star))
        else:  # it may rebind any name the ones before it gave
            givers = {}
    out = {}
    for name in names:
        giver = givers.get(name)
        path = index.modules.get(giver) if giver else None
        gfacts = index.facts(path) if path else None
        b = gfacts.bindings.get(name) if gfacts is not None else None
        if b is None or (b.kind == "from" and not (b.module and b.imported)):
            continue
        if b.kind == "import" and name != b.module.split(".")[0]:
            out[name] = [f"import {b.module} as {name}"]
            continue
        if b.kind == "import":  # `import a.b.c` binds `a`: each such statement, whole
            dotted = _root_imports(index.text(path) or "", name)
            if dotted:
                out[name] = [f"import {d}" for d in dotted]
            continue
        module, leaf = (b.module, b.imported) if b.kind == "from" else (giver, name)
        if leaf == "*":
            continue
        module = rel.symbols.get((module, leaf)) or rel.module(module) or module
        out[name] = [f"from {module} import {leaf}" + ("" if leaf == name else f" as {name}")]
    return out


def _root_imports(text: str, root: str) -> list[str]:
    """The modules of the top-level `import a.b` statements of `text` that bind `root`
    (no alias), in order: what `import a` alone would leave unloaded."""
    try:
        body = ast.parse(text).body
    except SyntaxError:
        return []
    return list(
        dict.fromkeys(
            a.name
            for n in body
            if isinstance(n, ast.Import)
            for a in n.names
            if a.asname is None and a.name.split(".")[0] == root
        )
    )


def _star_read(tree: ast.Module, facts, outside: set[str]) -> set[str]:
    """`outside` with, when another module star-imports this one (`*`), every name of
    its top-level imports that the star gives (`star_exports.star_names`): read there."""
    if "*" not in outside:
        return outside
    bound = {a.asname or a.name.split(".")[0] for n in tree.body if _is_import(n) for a in n.names}
    return set(outside) | star_names(bound, facts.all_names if facts is not None else None)


def _registered(facts, tree, defs, moving, back, index, mod: str) -> dict[str, str]:
    """Moved name -> the first thing defining it runs of the project's own code at import
    (`decorator_effects`: a decorator `@register("relu")`, a base's `__init_subclass__`,
    a metaclass), for the names the source does not import back already."""
    model = facts.scope_model_from(tree) if facts is not None else None
    binds = module_bindings(model) if model is not None else {}
    class_at = _class_at(index)
    out = {}
    for name in sorted(moving - set(back)):
        node = defs.get(name)
        if node is None:
            continue
        found = [f"@{d}" for d in import_time_decorators(node, binds, index.modules)]
        if isinstance(node, ast.ClassDef):
            found += class_effects(node, binds, mod, class_at, index.modules)
        if found:
            out[name] = found[0]
    return out


def _class_at(index: RepoIndex):
    """dotted -> (the top-level class of the tree's own code it names, its module's
    bindings, its module), following re-exports (`from .base import Op` in `pkg`); None
    for anything else."""
    cache: dict[str, tuple | None] = {}

    def at(dotted: str):
        if dotted in cache:
            return cache[dotted]
        cache[dotted] = None  # a re-export cycle ends here
        module, _, name = dotted.rpartition(".")
        path = index.modules.get(module)
        facts = index.facts(path) if path else None
        found = None
        if facts is not None:
            try:
                body = ast.parse(index.text(path) or "").body
            except SyntaxError:
                body = []
            node = next(
                (n for n in reversed(body) if isinstance(n, ast.ClassDef) and n.name == name),
                None,
            )
            bound = facts.bindings.get(name)
            if node is not None:
                found = (node, facts.bindings, module)
            elif bound is not None and bound.kind in ("import", "from") and bound.target:
                found = at(bound.target)
        cache[dotted] = found
        return found

    return at


def _rebound(nodes: list[ast.stmt], names: set[str]) -> dict[str, str]:
    """name of `names` -> the definitions among `nodes` that rebind it by `global name`
    (the module-level name a function assigns: it must stay in the function's module)."""
    out: dict[str, list[str]] = {}
    for n in nodes:
        for sub in ast.walk(n):
            if isinstance(sub, ast.Global):
                for g in sub.names:
                    if g in names:
                        who = ", ".join(sorted(node_names(n))) or f"line {n.lineno}"
                        out.setdefault(g, [])
                        if who not in out[g]:
                            out[g].append(who)
    return {g: ", ".join(users) for g, users in sorted(out.items())}


def _namespace_reads(nodes: list[ast.stmt], facts) -> list[int]:
    """Lines where `nodes` read their module's namespace as a mapping: `globals()` (where
    the module does not rebind `globals`) and `sys.modules[__name__]` (trial25 T51:
    arrow's `globals().get(name)` found the locale classes of the module it was in)."""
    model = facts.scope_model if facts is not None else None
    own = set(model.scopes[0].events) if model is not None else set()
    out = []
    for n in nodes:
        for sub in ast.walk(n):
            if is_globals_call(sub) and "globals" not in own:
                out.append(sub.lineno)
            elif isinstance(sub, ast.Subscript) and _is_sys_modules(sub.value):
                key = sub.slice
                if isinstance(key, ast.Name) and key.id == "__name__":
                    out.append(sub.lineno)
    return sorted(set(out))


def _is_sys_modules(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "modules"
        and isinstance(node.value, ast.Name)
        and node.value.id == "sys"
    )


def _needs(
    facts, tree: ast.Module, text: str, spans, moving: set[str], stars: StarExports
) -> dict[str, str]:
    """name -> how the module binds it ("runtime", or "typing" when only under
    `if TYPE_CHECKING:`), for every module-level name the code in `spans` reads (its
    string annotations and the annotations `from __future__ import annotations` leaves
    unevaluated included), resolved through the module's one binding walk. A name the
    module binds by no statement of its own but that a star import gives, or may give
    (a star whose names the tree cannot know: `stars.known`), is "runtime" (the module
    has it); a builtin is not needed; a name no star gives is "unbound" (gettext's `_`,
    put into builtins at run time, review23 R7: importing it from the module fails)."""
    model = facts.scope_model if facts is not None else None
    if model is None:
        return {}
    module = model.scopes[0].events
    checking = _type_checking_ranges(tree, text)
    unknown = facts.star_unresolved or facts.writes_globals
    unknown = unknown or not all(stars.known(m) for m in facts.star_imports)
    given = {n for m in facts.star_imports for n in stars(m)}
    # a name only a function binds, by `global name`, is the module's too (trial25 T53)
    declared = {g for sub in ast.walk(tree) if isinstance(sub, ast.Global) for g in sub.names}
    out: dict[str, str] = {}
    for read in name_reads(model, tree, text):
        name = read.name
        if read.home not in (0, None) or name in moving or name in out:
            continue
        if not any(s <= read.pos < e for s, e in spans):
            continue
        if read.home == 0:
            inside = all(any(s <= ev.pos < e for s, e in checking) for ev in module[name])
            out[name] = "typing" if inside else "runtime"
        elif name in given or name in declared or (unknown and name not in BUILTINS):
            out[name] = "runtime"
        elif facts.star_imports and name not in BUILTINS:
            out[name] = "unbound"
    return out


def _type_checking_ranges(tree: ast.Module, text: str) -> list[tuple[int, int]]:
    """Offsets of the bodies of top-level `if TYPE_CHECKING:` blocks (not their `else`)."""
    starts = line_starts(text)
    out = []
    for node in tree.body:
        if isinstance(node, ast.If) and is_type_checking(node.test) and node.body:
            first, last = node.body[0], node.body[-1]
            s = ast_offset(text, starts, first.lineno, first.col_offset)
            out.append((s, ast_offset(text, starts, last.end_lineno, last.end_col_offset)))
    return out


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


def _bound_names(text: str) -> set[str]:
    """Names bound at the top level of an existing target module."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return set()
    out = set()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out |= {a.asname or a.name.split(".")[0] for a in node.names}
        else:
            out |= node_names(node) if isinstance(node, (*_DEFS, ast.Assign)) else set()
    return out


def _binds(line: str) -> set[str]:
    node = ast.parse(line).body[0]
    if isinstance(node, ast.Try):  # a `try:` of imports (`_import_block`)
        return _block_names(node)
    return {a.asname or a.name.split(".")[0] for a in node.names}


def _moved_code(mv: SymbolMove, text: str, taken, nl: str) -> str:
    pieces = []
    for s, e in mv.spans:
        edits = list(taken[(s, e)])
        for ls, le, new in mv.local_imports:
            if s <= ls and le <= e:  # spelled for the new module: wins over the old one's
                edits = [x for x in edits if not (x.start < le - s and ls - s < x.end)]
                edits.append(make_edit("", text[s:e], ls - s, le - s, new, "code", "respelled"))
        pieces.append(apply_edits(text[s:e], edits).strip("\r\n"))
    return (nl * 3).join(pieces) + nl


def apply_symbol_moves(plan: SymbolPlan, cs: ChangeSet, index: RepoIndex, rel: Relocation):
    new_files: dict[str, list[str]] = {}
    new_imports: dict[str, list[str]] = {}
    appended: dict[str, list[str]] = {}
    futures: dict[str, list[str]] = {}
    checking: dict[str, list[str]] = {}
    newlines: dict[str, str] = {}  # a new module's line ending: its first source's
    _remove_unused_imports(plan, cs, index, rel)
    for mv in plan.moves:
        src_new = rel.files.get(mv.src_path, mv.src_path)
        text = index.text(mv.src_path) or ""
        nl = newline_of(text)
        newlines.setdefault(mv.dst_path, nl)
        taken = _take_edits(cs, src_new, mv.spans)
        code = _moved_code(mv, text, taken, nl)
        why = f"{mv.sym} moved to {mv.dst}" + (
            f" with its private helpers {', '.join(mv.helpers)}" if mv.helpers else ""
        )
        for s, e in mv.spans:
            cs.edits.append(make_edit(src_new, text, s, e, "", "code", why))
        busy = [(e.start, e.end) for e in cs.edits if e.path == src_new]
        for s, e, new, reason in mv.source_edits:
            if not new:  # a deletion may end where a cut begins
                e = min([e] + [cs for cs, ce in mv.spans if s < cs < e])
            hits = [x for x in cs.edits if x.path == src_new and x.start < e and s < x.end]
            # a comment's rewrite inside what the edit drops goes with it (moot); any
            # other overlap has no composition: dropping either edit breaks the file
            moot = [x for x in hits if s <= x.start and x.end <= e and x.kind == "prose"]
            if len(moot) < len(hits):
                why = f"{reason}: another rewrite of these lines cannot be combined with it"
                raise MigrateError(note_at(src_new, text, s, why))
            if moot:
                gone = {id(x) for x in moot}
                cs.edits = [x for x in cs.edits if id(x) not in gone]
            cs.edits.append(make_edit(src_new, text, s, e, new, "code", reason))
            busy.append((s, e))
        if mv.back_import:
            names = ", ".join(f"{n} as {n}" if n in mv.registered else n for n in mv.back_import)
            back = ImportScratch(src_new, text)
            here = _package_of(rel.module(mv.mod) or mv.mod, src_new)
            used = [n for n in mv.back_import if n not in mv.registered]
            why = f"{mv.mod} still uses {', '.join(used)}, which now lives in {mv.dst}"
            if mv.registered:  # a decorator of them runs the project's code at import
                why = (f"{why}; " if used else "") + (
                    f"{', '.join(mv.registered)} (now in {mv.dst}) must still be "
                    f"registered when {mv.mod} is imported"
                )
            back.add_top(
                in_file_style(f"from {mv.dst} import {names}", here, relative_depth(text, here)),
                why,
                clear_of=tuple(busy),
            )
            cs.edits += back.finalise(None)
        there = _package_of(mv.dst, mv.dst_path)
        depth = 0 if mv.dst_exists else relative_depth(text, _package_of(mv.mod, mv.src_path))
        carried = [in_file_style(i, there, depth) for i in mv.imports]
        new_imports.setdefault(mv.dst_path, []).extend(carried)
        futures.setdefault(mv.dst_path, []).extend(mv.future)
        checking.setdefault(mv.dst_path, []).extend(mv.type_checking)
        (appended if mv.dst_exists else new_files).setdefault(mv.dst_path, []).append(code)
    orders = Orders(index, rel)
    for path, codes in new_files.items():
        order = orders.of(path)
        scratch = ImportScratch(path, "", new_module=True, order=order)
        _schedule(scratch, new_imports.get(path, []), futures.get(path, []), checking.get(path, []))
        head = apply_edits("", scratch.finalise(None)) if not scratch.empty else ""
        code = [ln for ln in codes[0].splitlines() if ln.strip() and ln.lstrip()[0] != "#"]
        stmt = code and not code[0].startswith(("def ", "class ", "async def ", "@"))
        if head and stmt and order.style.lines_after_imports < 0:
            head = head[: -len("\n")]  # one blank line before a statement, two before a def
        written = head + "\n\n".join(codes)  # codes end with a newline
        cs.writes[path] = ("code", with_newline(written, newlines[path]))
    for path, codes in appended.items():
        _append(cs, index, rel, path, codes, new_imports, futures, checking)


def _remove_unused_imports(plan: SymbolPlan, cs: ChangeSet, index: RepoIndex, rel) -> None:
    """The imports only moved code used leave each source, through one import scratch per
    source (two moves out of it may drop names of one statement), composed with the
    reference edits of those statements (a respelled or split import loses its names
    too); an edit that cannot be composed refuses the plan."""
    by_src: dict[str, list[SymbolMove]] = {}
    for mv in plan.moves:
        if mv.unused_imports:
            by_src.setdefault(mv.src_path, []).append(mv)
    why = "import only the moved code used"
    for path, moves in by_src.items():
        src_new = rel.files.get(path, path)
        text = index.text(path) or ""
        scratch = ImportScratch(src_new, text)
        gone: dict[tuple[int, int], tuple[ast.stmt, list[ast.alias]]] = {}
        for mv in moves:  # each move parsed the source itself: one statement, one removal
            for node, aliases in mv.unused_imports:
                first, kept = gone.setdefault((node.lineno, node.col_offset), (node, []))
                names = {(a.name, a.asname) for a in aliases}
                every = getattr(first, "names", ())  # a whole `if TYPE_CHECKING:` has none
                kept += [a for a in every if (a.name, a.asname) in names and a not in kept]
        syntax = ast.parse(text)
        kept = effect_imports.kept_in_source(index, rel, path, text, syntax, list(gone.values()))
        for node, aliases in gone.values():
            left = [a for a in aliases if (id(node), id(a)) not in kept]
            if left or not aliases:
                scratch.remove(node, left, why)
        for line, at, marker, note in kept.values():
            if marker is not None:
                scratch.keep((at, at), at, marker, note + " (marked for ruff F401)")
            cs.notes.append(Diagnostic(Pos(src_new, line, 1), note, "warning"))
        cuts = sorted(s for mv in moves for s, _ in mv.spans)
        mine = [e for e in cs.edits if e.path == src_new]
        composed = []
        for e in scratch.finalise(syntax, mine):
            if e.reason == why and not e.new:  # a deletion may end where a cut begins
                end = min([e.end] + [c for c in cuts if e.start < c < e.end])
                e = make_edit(src_new, text, e.start, end, "", "code", why)
            composed.append(e)
        edits, overlaps = settled(src_new, text, composed)
        if overlaps:
            raise MigrateError(overlaps)
        cs.edits = [e for e in cs.edits if e.path != src_new] + edits


def _package_of(module: str, path: str) -> str:
    return module if path.endswith("__init__.py") else module.rpartition(".")[0]


def _schedule(scratch: ImportScratch, imports, futures, checking, bound=frozenset()) -> None:
    """The imports definitions moved into one module need, onto its import scratch area
    (names it binds already are not imported again)."""
    new = [i for i in dict.fromkeys(imports) if not _binds(i) <= bound]
    tc = [i for i in dict.fromkeys(checking) if not _binds(i) <= bound]
    why = "imports used by definitions moved into this module"
    for stmt in dict.fromkeys(futures):
        if stmt not in scratch.text:
            why_future = "the moved definitions were written under these future imports"
            scratch.add_top(stmt, why_future, future=True)
    for stmt in new:
        scratch.add_top(stmt, why, block=stmt.startswith("try:"))
    if tc and "TYPE_CHECKING" not in bound:
        typing = _typing_local([*new, scratch.text])
        if typing is not None:  # trial23 T32: `t.TYPE_CHECKING`, not a second import
            scratch.guard = f"{typing}.TYPE_CHECKING"
        else:
            scratch.add_top("from typing import TYPE_CHECKING", why)
    for stmt in tc:
        scratch.add_top(stmt, why, type_checking=True)


def _typing_local(sources: list[str]) -> str | None:
    """The name a top-level `import typing [as t]` of one of `sources` (the imports the
    moved code carries, the target's text) binds typing to, if any."""
    for source in sources:
        try:
            body = ast.parse(source).body
        except SyntaxError:
            continue
        for node in body:
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name == "typing":
                        return a.asname or "typing"
    return None


def _append(cs, index, rel, path, codes, new_imports, futures, checking) -> None:
    old = next((o for o, n in rel.files.items() if n == path), path)
    text = index.text(old) or ""
    nl = newline_of(text)
    scratch = ImportScratch(path, text)
    bound = _bound_names(text)
    _schedule(
        scratch, new_imports.get(path, []), futures.get(path, []), checking.get(path, []), bound
    )
    cs.edits += scratch.finalise(None)
    tail = ("" if text.endswith("\n") or not text else nl) + nl + nl + (nl + nl).join(codes)
    tail = with_newline(tail, nl)  # the moved code may come from a file with other breaks
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
