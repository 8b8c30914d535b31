"""Names a package `__init__` binds without spelling them: importing a submodule.

Running `from .exceptions import merge` (or `import pkg.exceptions`, `from
pkg.exceptions import x`) inside `pkg/__init__.py` sets `exceptions` in the package's
namespace, which is the module's globals: `exceptions.merge` and `del exceptions` there
read that binding (toolz 1.0.0's `toolz/curried/__init__.py` ends with `del exceptions`).
When the plan moves `pkg.exceptions`, the import follows (other forms), and so must the
name:
- moved within the package (`pkg.dictops`): the name is respelled to the new leaf;
- moved out of it: nothing binds the name any more; a `del` of it is dropped (the
  namespace ends as it did), a read of it has no safe spelling (an error).
A name the file binds itself anywhere, or one the file reads before the import ran, is
not this binding: left alone.
"""

from __future__ import annotations

import ast

from migrate.changes import Edit
from migrate.errors import Diagnostic
from migrate.index.imports import bound_submodule, imports_of
from migrate.rewrite.context import Context, FileJob
from migrate.rewrite.spans import ast_offset, line_starts, make_edit, note_at, whole_lines


def _imported_leaves(tree: ast.Module, package: str) -> dict[str, int]:
    """Leaf -> line of the first import-time statement that imports `package.<leaf>`
    (the one reading of a file's imports, `index/imports.py`: a function body or a
    `TYPE_CHECKING` block runs nothing when the package is imported)."""
    out: dict[str, int] = {}
    for ref in imports_of(tree, package, True):
        leaf = bound_submodule(package, ref.module) if ref.at_import_time else None
        if leaf is not None:
            out[leaf] = min(out.get(leaf, ref.line), ref.line)
    return out


def _bound_anywhere(tree: ast.Module) -> set[str]:
    """Every name the file binds in any scope (the conservative test of "its own")."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            out.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.add(node.name)
    return out


def implicit_submodule_edits(job: FileJob, ctx: Context) -> tuple[list[Edit], list[Diagnostic]]:
    tree, package = job.ast, job.old_module
    if not job.is_init or tree is None or not package:
        return [], []
    moved = {
        old.rpartition(".")[2]: new
        for old, new in ctx.relocation.moved_modules.items()
        if old.rpartition(".")[0] == package
    }
    if not moved or not any(leaf in job.text for leaf in moved):
        return [], []
    leaves = {k: v for k, v in _imported_leaves(tree, package).items() if k in moved}
    own = _bound_anywhere(tree)
    leaves = {k: v for k, v in leaves.items() if k not in own}
    if not leaves:
        return [], []
    new_package = ctx.relocation.module(package) or package
    starts = line_starts(job.text)
    edits, notes = [], []
    consumed: set[int] = set()  # targets of a `del` rewritten whole

    def off(node, end=False):
        if end:
            return ast_offset(job.text, starts, node.end_lineno, node.end_col_offset)
        return ast_offset(job.text, starts, node.lineno, node.col_offset)

    for node in ast.walk(tree):
        if isinstance(node, ast.Delete):
            gone = [t for t in node.targets if isinstance(t, ast.Name) and t.id in leaves]
            hit = [t for t in gone if moved[t.id].rpartition(".")[0] != new_package]
            if hit and node.lineno > min(leaves[t.id] for t in hit):
                renamed = {t.id: moved[t.id].rpartition(".")[2] for t in gone if t not in hit}
                edits += _drop_del(job, node, hit, off, moved, renamed)
                consumed.update(id(t) for t in node.targets)
            continue
        if not (isinstance(node, ast.Name) and node.id in leaves) or id(node) in consumed:
            continue
        if isinstance(node.ctx, ast.Store) or node.lineno <= leaves[node.id]:
            continue
        new = moved[node.id]
        parent, _, leaf = new.rpartition(".")
        what = f"`{node.id}` (bound by importing {package}.{node.id}) is now {new}"
        if parent != new_package:
            if not isinstance(node.ctx, ast.Del):
                why = f"cannot spell {new}: {what}, which this package does not bind"
                notes.append(note_at(job.new_path, job.text, off(node), why))
            continue
        if leaf in own:
            why = f"cannot spell {new}: {what}, and `{leaf}` is bound here to something else"
            notes.append(note_at(job.new_path, job.text, off(node), why))
            continue
        edits.append(
            make_edit(job.new_path, job.text, off(node), off(node, True), leaf, "code", what)
        )
    return edits, notes


def _drop_del(job: FileJob, node: ast.Delete, hit, off, moved, renamed) -> list[Edit]:
    """`del sub` (or `sub` out of `del a, sub`) for a submodule that left the package:
    nothing binds it any more, and the namespace ends as it did without the `del`."""
    names = ", ".join(t.id for t in hit)
    why = f"`del {names}`: {', '.join(moved[t.id] for t in hit)} is no submodule of this package"
    why += " any more, so importing it binds nothing here"
    kept = [t for t in node.targets if t not in hit]
    if kept:
        spelled = [
            renamed.get(getattr(t, "id", None)) or ast.get_source_segment(job.text, t) for t in kept
        ]
        text = "del " + ", ".join(spelled)
        return [make_edit(job.new_path, job.text, off(node), off(node, True), text, "code", why)]
    lines = whole_lines(job.text, off(node), off(node, True))
    if lines is None:  # shares its line: the statement stays, as `pass`
        return [make_edit(job.new_path, job.text, off(node), off(node, True), "pass", "code", why)]
    return [make_edit(job.new_path, job.text, *lines, "", "code", why)]
