"""Attribute chains through import bindings: calls, decorators, annotations, isinstance.

`import a.b` binds `a`, so every `a.b.f` must be spelled `x.y.f` once the module moves.
A chain through an alias (`import a.b as m`, `from a import b`) keeps working unless a
symbol left the aliased module: then the chain is spelled absolutely and the module it
now lives in is imported next to the binding import (scheduled on the file's import
scratch area, `import_scratch.py`, which places it). A chain through a binding of a
moved module's parent package (`from a import b; b.c.f` with `a.b.c` renamed `a.b.d`)
keeps the binding and reads its new tail (`b.d.f`).
Only the moved prefix of a chain is replaced; the rest keeps its exact text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from migrate.changes import Edit
from migrate.errors import Diagnostic
from migrate.index.bindings import ModuleBinding, find_uses
from migrate.index.forward_refs import forward_references
from migrate.rewrite.context import Context, FileJob
from migrate.rewrite.cstfacts import Chain, Facts
from migrate.rewrite.import_scratch import ImportScratch
from migrate.rewrite.imports import ImportResult
from migrate.rewrite.names import module_part, relocate, shadowed
from migrate.rewrite.spans import ast_offset, line_starts, make_edit, note_at


@dataclass
class ChainResult:
    edits: list[Edit] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)
    resolved_notes: list[Diagnostic] = field(default_factory=list)  # imports.py notes now moot


def _prefix_edit(job: FileJob, facts: Facts, chain: Chain, new: str, reason: str) -> Edit | None:
    """Replace the shortest leading part of `chain` so that it reads `new`."""
    old_parts, new_parts = chain.dotted.split("."), new.split(".")
    k = 0
    while (
        k < len(old_parts) - 1 and k < len(new_parts) - 1 and old_parts[-1 - k] == new_parts[-1 - k]
    ):
        k += 1
    keep_old, keep_new = len(old_parts) - k, len(new_parts) - k
    end = chain.ends[keep_old - 1]
    text = ".".join(new_parts[:keep_new])
    if facts.text[chain.start : end] == text:
        return None
    return make_edit(job.new_path, facts.text, chain.start, end, text, "code", reason)


def rewrite_chains(
    job: FileJob,
    facts: Facts,
    ctx: Context,
    imports: ImportResult,
    scratch: ImportScratch,
    done: set[int] = frozenset(),
) -> ChainResult:
    """`done`: starts of chains that module_uses.py already respelled by binding; the
    imports the chains now need are scheduled on `scratch`."""
    res = ChainResult()
    instead: dict[str, list[str]] = {}  # stale `import deleted.pkg` -> modules chains need
    # modules this pass imports: at module level (indent "") that covers every scope,
    # else the binding's own statement
    added: set[tuple[str, int | None]] = set()
    quoted = _forward_reference_spans(job) if any(c.quoted for c in facts.chains) else []
    heads: dict[int, ModuleBinding] | None = None  # chain start -> its import binding
    for chain in facts.chains:
        if chain.start in done:
            continue
        if chain.quoted and not any(s < chain.start < e for s, e in quoted):
            continue  # a `Literal[...]` value or `Annotated[...]` metadata: not a reference
        local = chain.dotted.split(".")[0]
        binding = imports.bindings.get(local)
        if binding is None:
            continue
        if heads is None:
            heads = _heads(job, imports)
        if heads is not None:  # by binding: the import the head is bound to there
            bound = heads.get(chain.start)
            if bound is None:
                continue  # a parameter or a local named like an import: not a reference
            binding = imports.by_site.get((bound.stmt[0], local), binding)
        rest = chain.dotted[len(local) :]
        full = binding.old + rest
        new = None if shadowed(full, ctx) else relocate(full, ctx)
        if new is None or new == full:
            continue
        if binding.root and any(full == r or full.startswith(r + ".") for r in imports.refused):
            continue
        under = not binding.root and (new == binding.new or new.startswith(binding.new + "."))
        if chain.quoted and not under and binding.root:
            continue  # a dotted old name spelled in a forward reference: the strings
            # pass owns it; one through a from-import binding (`"core.mod.Klass"`, whose
            # `core.mod` moved out of the package) spells nothing old: respelled here,
            # as the same chain outside a string is
        if under:
            # still reachable through the (rewritten) binding: `sub.cond.X` with `sub`
            # bound to the package whose submodule `cond` became `conditions` reads
            # `sub.conditions.X`, through the same local name (no import added: the
            # file relied on the package loading its submodule, as it still does)
            tail = new[len(binding.new) :]
            if tail != rest:
                edit = _prefix_edit(job, facts, chain, local + tail, f"{full} is now {new}")
                if edit is not None:
                    res.edits.append(edit)
            continue
        module = module_part(new, ctx.new_modules)
        root = new.split(".")[0]
        if not binding.root and root in facts.defined and root not in imports.bindings:
            why = f"cannot spell {new}: the file defines `{root}` itself"
            res.notes.append(note_at(job.new_path, facts.text, chain.start, why))
            continue
        edit = _prefix_edit(job, facts, chain, new, f"{full} is now {new}")
        if edit is None:
            continue
        res.edits.append(edit)
        stale = _stale_root(full, imports) if binding.root else None
        if stale is not None and module is not None:
            instead.setdefault(stale, [])
            if module not in instead[stale]:
                instead[stale].append(module)
            continue
        site = binding.site
        if (
            module is None
            or module in imports.imported
            or (module, None) in added
            or (module, binding.site.stmt_start) in added
            or _imported_via_root(module, binding, imports)
        ):
            continue
        added.add((module, None if binding.site.indent == "" else binding.site.stmt_start))
        scratch.add_before(
            f"import {module}",
            site.stmt_start,
            site.indent,
            f"{new} is reached through module {module}, which the file did not import",
        )
    for old, modules in instead.items():
        (s, e), note = imports.stale_roots[old]
        res.edits.append(
            make_edit(
                job.new_path,
                facts.text,
                s,
                e,
                ", ".join(modules),
                "code",
                f"{old} is removed; the chains that used it now need {', '.join(modules)}",
            )
        )
        res.resolved_notes.append(note)
    return res


def _heads(job: FileJob, imports: ImportResult) -> dict[int, ModuleBinding] | None:
    """Chain start -> the import binding its head name has at that place, read through
    the file's one scope model (`bindings.find_uses`: parameters, locals, function
    imports and class bodies resolved as Python does); None: the file has no model."""
    model, tree = job.scopes, job.ast
    if model is None or tree is None:
        return None
    watched = frozenset(b.old for b in imports.by_site.values())
    return {u.span[0]: u.binding for u in find_uses(model, tree, job.text, watched)}


def _forward_reference_spans(job: FileJob) -> list[tuple[int, int]]:
    """Spans of the strings that are forward references (`forward_refs.py`'s one rule)."""
    if job.ast is None:
        return []
    starts = line_starts(job.text)
    return [
        (
            ast_offset(job.text, starts, s.lineno, s.col_offset),
            ast_offset(job.text, starts, s.end_lineno, s.end_col_offset),
        )
        for s, _ in forward_references(job.ast, job.text)
    ]


def _stale_root(full: str, imports: ImportResult) -> str | None:
    """The stale `import deleted.pkg` a chain `deleted.pkg.x.y` went through, if any."""
    for old in imports.stale_roots:
        if full.startswith(old + "."):
            return old
    return None


def _imported_via_root(module: str, binding, imports: ImportResult) -> bool:
    """True when a rewritten `import` already loads `module` (or a submodule of it)."""
    return any(m == module or m.startswith(module + ".") for m in imports.imported)
