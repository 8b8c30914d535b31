"""A symbol move moves the symbol's declaration in the source module's `.pyi` stub too.

A type checker reads a module's stub instead of its code: left behind, the declaration
says the old module still has the name, and the new module's stub (or its code, when it
has none) lacks it. When the source module has a stub, every top-level declaration of a
moved name (each `@overload` included, with its comments and decorators) is cut from it
and its `__all__` drops the name. The declarations go to the target's stub: appended
when the target has one, written as a new stub when the target module is new (with the
imports the declarations read, spelled in their new locations, and what they read from
the source stub imported from it). A target module that exists without a stub gets none:
a new stub would hide the rest of it from the type checker; its code is what it types.
Nor does a new target module into which a module without a stub moves code too.
"""

from __future__ import annotations

import ast

from migrate.changes import ChangeSet, apply_edits
from migrate.errors import Diagnostic, Pos
from migrate.index.repo import RepoIndex
from migrate.relocate import Relocation
from migrate.rewrite import symbols as sym  # the one span/import rule of symbol moves
from migrate.rewrite.import_scratch import ImportScratch
from migrate.rewrite.spans import line_starts, make_edit, newline_of, with_newline


def move_stub_declarations(plan, cs: ChangeSet, index: RepoIndex, rel: Relocation) -> None:
    """The stub half of a symbol move, run after `symbols.apply_symbol_moves` on the same
    ChangeSet (`plan`: its SymbolPlan)."""

    stubs_after = {rel.files.get(p, p) for p in index.files if p.endswith(".pyi")}
    # new modules that also receive code from a module with no stub: a stub of the rest
    # would hide that code from the type checker, so they get none (as a stubless target)
    unstubbed = {
        mv.dst_path[:-3] + ".pyi"
        for mv in plan.moves
        if not mv.dst_exists and mv.src_path[:-3] + ".pyi" not in index.files
    }
    codes: dict[str, list[str]] = {}
    newlines: dict[str, str] = {}  # a new stub's line ending: its first source's
    needs: dict[str, list[str]] = {}
    for mv in plan.moves:
        stub = mv.src_path[:-3] + ".pyi"
        text = index.text(stub) if stub in index.files else None
        try:
            tree = ast.parse(text) if text else None
        except SyntaxError:
            tree = None
        nodes = [n for n in tree.body if sym.node_names(n) & set(mv.syms)] if tree else []
        if tree is not None:
            cs.notes += _nested_declarations(rel.files.get(stub, stub), tree, mv)
        dst_stub = mv.dst_path[:-3] + ".pyi"
        if text is None and mv.dst_exists and dst_stub in stubs_after:
            cs.notes.append(_undeclared(dst_stub, mv))
        if not nodes:
            continue
        starts = line_starts(text)
        spans = sym._merge(sorted(sym._span(text, starts, n) for n in nodes))
        stub_new = rel.files.get(stub, stub)
        taken = sym._take_edits(cs, stub_new, spans)
        nl = newline_of(text)
        newlines.setdefault(mv.dst_path[:-3] + ".pyi", nl)
        pieces = [apply_edits(text[s:e], taken[(s, e)]).strip("\r\n") for s, e in spans]
        why = f"{mv.sym} moved to {mv.dst}: its stub declaration moves with it"
        for s, e in spans:
            cs.edits.append(make_edit(stub_new, text, s, e, "", "code", why))
        busy = [(s, e) for s, e in spans]
        for s, e, new, reason in sym._all_edits(text, tree, set(mv.syms)):
            if not any(bs < e and s < be for bs, be in busy):
                cs.edits.append(make_edit(stub_new, text, s, e, new, "code", reason))
        if (mv.dst_exists and dst_stub not in stubs_after) or dst_stub in unstubbed:
            continue  # the target's code types it (see the module docstring)
        codes.setdefault(dst_stub, []).append((nl * 3).join(pieces) + nl)
        package = mv.mod if mv.src_path.endswith("__init__.py") else mv.mod.rpartition(".")[0]
        imports = sym._import_lines(tree, package, rel)
        used = set().union(*(sym._uses(n) for n in nodes))
        lines = [ln for name, ln in imports.items() if name in used]
        defined = sym._top_level(tree)
        local = sorted(n for n in used if n in defined and n not in mv.syms and n not in imports)
        if local:
            lines.append(f"from {rel.module(mv.mod) or mv.mod} import {', '.join(local)}")
        needs.setdefault(dst_stub, []).extend(lines)
    for path, pieces in codes.items():
        exists = path in stubs_after
        _write(cs, index, rel, path, pieces, needs.get(path, []), exists, newlines[path])


def _undeclared(dst_stub: str, mv) -> Diagnostic:
    """Code from a module without a stub moves into one that has a stub (review23 R8's
    remainder): there is no declaration to move, and the stub is all a type checker
    reads of the target, so the moved names are hidden from it: say so."""
    names = [*mv.syms, *mv.helpers]
    one = len(names) == 1
    why = (
        f"this stub does not declare {', '.join(names)}, which {'moves' if one else 'move'} "
        f"into {mv.dst} from {mv.mod} (a module without a stub): a type checker reading "
        f"the stub does not see {'it' if one else 'them'}; declare "
        f"{'it' if one else 'them'} here by hand"
    )
    return Diagnostic(Pos(dst_stub), why, "warning")


def _nested_declarations(path: str, tree: ast.Module, mv) -> list[Diagnostic]:
    """A warning for each declaration of a moved name inside a block of the stub (`if
    sys.version_info >= ...:`, `try:`): only top-level ones move, so it stays behind,
    declaring a name its module no longer has."""
    out = []
    blocks = [n for n in tree.body if not isinstance(n, sym._DEFS)]
    while blocks:
        node = blocks.pop(0)
        for field in ("body", "orelse", "finalbody", "handlers"):
            for child in getattr(node, field, None) or []:
                if isinstance(child, ast.ExceptHandler):
                    blocks.append(child)
                    continue
                for name in sorted(sym.node_names(child) & set(mv.syms)):
                    why = (
                        f"{name} is declared inside a block of this stub: only top-level "
                        f"declarations move; move it to the stub of {mv.dst} by hand"
                    )
                    pos = Pos(path, child.lineno, child.col_offset + 1)
                    out.append(Diagnostic(pos, why, "warning"))
                if not isinstance(child, sym._DEFS):
                    blocks.append(child)
    return sorted(out, key=lambda d: (d.pos.line, d.pos.col))


def _write(cs, index, rel, path: str, pieces, imports, exists: bool, nl: str) -> None:
    """`nl`: the first source stub's line ending, for a new stub."""
    why = "imports used by stub declarations moved into this stub"
    if not exists:
        scratch = ImportScratch(path, "", new_module=True)
        for stmt in dict.fromkeys(imports):
            scratch.add_top(stmt, why)
        head = apply_edits("", scratch.finalise(None)) if not scratch.empty else ""
        cs.writes[path] = ("code", with_newline(head + "\n\n".join(pieces), nl))
        return
    old = next((o for o, n in rel.files.items() if n == path), path)
    text = index.text(old) or ""
    scratch = ImportScratch(path, text)
    bound = sym._bound_names(text)
    for stmt in dict.fromkeys(imports):
        if not sym._binds(stmt) <= bound:
            scratch.add_top(stmt, why)
    cs.edits += scratch.finalise(None)
    nl = newline_of(text)
    tail = ("" if text.endswith("\n") or not text else nl) + nl + nl + (nl + nl).join(pieces)
    tail = with_newline(tail, nl)
    cs.edits.append(make_edit(path, text, len(text), len(text), tail, "code", why))
