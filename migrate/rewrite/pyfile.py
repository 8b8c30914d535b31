"""Rewrite one Python file: cheap checks first, then one libcst pass and every form.

A file is handed to libcst only when its text names an old location or an `ast` look at
its relative imports shows one that changes; anything else is returned untouched.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache, partial

import libcst as cst

from migrate.changes import Edit, apply_edits
from migrate.errors import Diagnostic, Pos
from migrate.rewrite import import_time, relative
from migrate.rewrite.attributes import rewrite_chains
from migrate.rewrite.context import Context, FileJob, FileResult
from migrate.rewrite.cstfacts import gather
from migrate.rewrite.implicit_submodules import implicit_submodule_edits
from migrate.rewrite.import_scratch import ImportScratch
from migrate.rewrite.imports import rewrite_imports
from migrate.rewrite.module_uses import rewrite_module_uses, untouched_import
from migrate.rewrite.names import is_gone, relocate
from migrate.rewrite.op_id_tables import has_computed_op_id, rewrite_op_id_tables
from migrate.rewrite.op_ids import rewrite_op_ids
from migrate.rewrite.overlaps import settled
from migrate.rewrite.parent_chains import reads_moved_child
from migrate.rewrite.python_prose import rewrite_prose
from migrate.rewrite.python_rootless import rootless_notes
from migrate.rewrite.registry import has_ancestor_table, rewrite_ancestor_tables, rewrite_tables
from migrate.rewrite.strings import computed_group_notes, rewrite_strings
from migrate.rewrite.text_imports import from_import_changes


def _ast_nodes(job: FileJob):
    """Every node of the file's `ast`, or None when it does not parse (libcst reports it)."""
    return None if job.ast is None else ast.walk(job.ast)


def relative_imports_change(job: FileJob, ctx: Context) -> bool:
    """Whether any relative import of the file must be respelled (ast only)."""
    nodes = _ast_nodes(job)
    if nodes is None:
        return True
    for node in nodes:
        if not isinstance(node, ast.ImportFrom) or not node.level:
            continue
        base = relative.resolve(job.old_package, node.level, node.module)
        if base is None:
            continue
        old = "." * node.level + (node.module or "")
        for alias in node.names:
            if alias.name == "*":
                new_base = ctx.relocation.module(base) or base
            else:
                full = f"{base}.{alias.name}"
                new_base, _, leaf = (relocate(full, ctx) or full).rpartition(".")
                if leaf != alias.name:
                    return True
            if relative.spell(new_base, job.new_package, node.level) != old:
                return True
    return False


@lru_cache(maxsize=4)
def _with_op_ids(pattern: str, op_ids: tuple[str, ...]) -> re.Pattern:
    """The names regex plus op ids as whole quoted strings: what makes a line "hot"."""
    if not op_ids:
        return re.compile(pattern)
    alt = "|".join(re.escape(o) for o in sorted(op_ids, key=len, reverse=True))
    return re.compile(f"{pattern}|(?<=[\"'])(?:{alt})(?=[\"'])")


def hot_regex(regex: re.Pattern, ctx: Context) -> re.Pattern:
    return _with_op_ids(regex.pattern, tuple(sorted(ctx.op_ids)))


def _hit_matters(hit: str, ctx: Context) -> bool | None:
    """Whether a regex hit alone needs libcst; None for `from parent import` (ask ast)."""
    if hit.startswith("from") and hit[4:5] in (" ", "\t"):
        return None
    if "/" in hit or hit in ctx.op_ids:
        return True
    if any(hit == mod for mod, _ in ctx.relocation.symbols):
        return True
    # A bare parent package (`"sglang." + x`) names nothing that moves.
    return relocate(hit, ctx) is not None or is_gone(hit, ctx)


def parent_imports_change(job: FileJob, ctx: Context) -> bool:
    """Whether a `from parent import x` imports a moved or removed `parent.x` (ast only)."""
    nodes = _ast_nodes(job)
    if nodes is None:
        return True
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if relocate(full, ctx) is not None or is_gone(full, ctx):
                    return True
    return False


def prose_imports_change(job: FileJob, ctx: Context) -> bool:
    """Whether a `from parent import x` that is not code (a doctest, a comment) imports a
    moved `parent.x`: the prose pass respells it (t12 T59: boltons' `>>> from boltons
    import ioutils` in the moved ioutils' own docstrings)."""
    edits, notes, _ = from_import_changes(ctx.relocation, job.text, job.new_path, "prose", "")
    return bool(edits or notes)


def needs_libcst(job: FileJob, ctx: Context, regex: re.Pattern) -> bool:
    """Cheap checks (text, then `ast`) that the file has something to edit."""
    verdicts = {_hit_matters(m.group(0), ctx) for m in hot_regex(regex, ctx).finditer(job.text)}
    if True in verdicts:
        return True
    if None in verdicts and (parent_imports_change(job, ctx) or prose_imports_change(job, ctx)):
        return True
    if has_ancestor_table(job.text, ctx) or has_computed_op_id(job.text, ctx.op_ids):
        return True
    return "from ." in job.text and relative_imports_change(job, ctx)


def rewrite_python(job: FileJob, ctx: Context, regex: re.Pattern) -> FileResult:
    result = _rewrite_python(job, ctx, regex)
    result.notes += rootless_notes(job, ctx, result.edits)
    if result.edits:
        result.import_events = _import_events(job, result.edits)
    return result


def _import_events(job: FileJob, edits: list[Edit]) -> dict:
    """Import-time events of the file before and after `edits`, by `import_time.key`:
    the plan's cycle check needs both for every edited file, and this worker has the old
    `ast` already (a pool spreads the new text's parse over the cores)."""
    tree = job.ast
    if tree is None:
        return {}
    try:
        new_text = apply_edits(job.text, edits)
    except ValueError:
        return {}  # overlapping or stale: the ChangeSet check reports it
    old, new = (job.text, job.old_package), (new_text, job.new_package)
    return {
        import_time.key(*old): import_time.events(*old, tree),
        import_time.key(*new): import_time.events(*new),
    }


_LONE_CR = re.compile(r"\r(?!\n)")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _rewrite_python(job: FileJob, ctx: Context, regex: re.Pattern) -> FileResult:
    """Every form on one file; the imports they add or drop go through one scratch area,
    which one finaliser turns into edits at the end (`import_scratch.py`)."""
    result = FileResult(job.new_path)
    lone = _LONE_CR.search(job.text)
    if lone is not None:  # Python breaks lines there; every offset here counts "\n" only
        before = job.text[: lone.start()]
        line = len(_LINE_BREAK.findall(before)) + 1
        col = len(before) - max(before.rfind("\n"), before.rfind("\r"))
        result.parse_error = Diagnostic(
            Pos(job.old_path, line, col),
            "a lone CR (\\r) ends this line: old Mac line endings are not supported; "
            "convert the file to LF (or CRLF) line endings first",
        )
        return result
    order = ctx.import_order(job.old_path)
    scratch = ImportScratch(
        job.new_path, job.text, partial(untouched_import, job, ctx), order=order
    )
    uses = rewrite_module_uses(job, ctx, scratch)
    implicit, implicit_notes = implicit_submodule_edits(job, ctx)
    uses.edits += implicit
    result.notes = [*uses.notes, *implicit_notes, *computed_group_notes(job, job.text, ctx)]
    child_reads = reads_moved_child(job, ctx)
    if not child_reads and not needs_libcst(job, ctx, regex):
        edits = uses.edits if scratch.empty else scratch.finalise(job.ast, uses.edits)
        result.edits, overlaps = settled(job.new_path, job.text, edits)
        result.notes += overlaps
        return result
    # A chain through an alias (`nm.sym`) of a module that lost a symbol, or through a
    # package whose submodule moved (`sub.cond`), does not spell an old name: such files
    # are parsed whole.
    whole = (
        child_reads
        or any(mod in job.text for mod, _ in ctx.relocation.symbols)
        or has_ancestor_table(job.text, ctx)
        or has_computed_op_id(job.text, ctx.op_ids)
    )
    try:
        hot = None if whole else hot_regex(regex, ctx)
        _, facts = gather(job.old_path, job.text, hot, job.ast if hot is not None else None)
    except cst.ParserSyntaxError as exc:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else "syntax error"
        result.parse_error = Diagnostic(
            Pos(job.old_path, exc.raw_line, exc.raw_column + 1), f"libcst cannot parse: {msg}"
        )
        return result
    result.parsed = True
    imports = rewrite_imports(job, facts, ctx)
    for stmt, why, site in imports.keeps:
        scratch.add(stmt, (site.stmt_start, site.stmt_end), site.indent, why, why)
    chains = rewrite_chains(job, facts, ctx, imports, scratch, uses.handled)
    tables, handled = rewrite_tables(job, facts, ctx, regex)
    ancestor_tables = rewrite_ancestor_tables(job, facts, ctx, handled)
    op_tables = rewrite_op_id_tables(job, facts, ctx)
    strings = rewrite_strings(job, facts, ctx, regex, handled, imports.bindings, uses.handled)
    edits = [
        *uses.edits,
        *imports.edits,
        *chains.edits,
        *tables.edits,
        *ancestor_tables.edits,
        *op_tables.edits,
        *strings.edits,
        *rewrite_op_ids(job, facts, ctx),
        *rewrite_prose(job, facts, ctx, regex),
    ]
    if not scratch.empty:  # composed with the edits inside the statements it rewrites
        edits = scratch.finalise(job.ast, edits)
    result.edits, overlaps = settled(job.new_path, job.text, edits)
    moot = {id(n) for n in chains.resolved_notes}
    # a binding of a removed module whose every use followed its moved symbols is gone
    moot |= {i for i, key in imports.stale_bindings.items() if key in uses.dropped}
    import_notes = [n for n in imports.notes if id(n) not in moot]
    result.notes += [
        *overlaps,
        *import_notes,
        *chains.notes,
        *tables.notes,
        *ancestor_tables.notes,
        *op_tables.notes,
        *strings.notes,
    ]
    return result
