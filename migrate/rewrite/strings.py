"""Old names inside string literals of code (kind `string`).

Covers patch targets (`mock.patch`, `mocker.patch`, `monkeypatch.setattr/delattr`),
`importlib.import_module`, `importlib.util.find_spec`, `__import__`, `module:attr`
registry and entry-point targets, implicitly concatenated literals and f-string
prefixes. A patch target follows the symbol unless its old module still binds it
(`patch_targets.py` says why and when). A name the plan removes without saying where it
went is reported, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from migrate.changes import Edit
from migrate.entry_groups import computed_group_note, computed_groups, group_note, moved_name_in
from migrate.errors import Diagnostic
from migrate.oldnames import name_spans
from migrate.rewrite.context import Context, FileJob
from migrate.rewrite.cstfacts import Facts, StringSite
from migrate.rewrite.literals import literal_of
from migrate.rewrite.patch_targets import PATCHERS, patch_note
from migrate.rewrite.refs import Ref, find_refs, literal_edits, stale
from migrate.rewrite.spans import note_at

IMPORTERS = {"import_module", "find_spec", "__import__", "resolve_name"}


@dataclass
class StringResult:
    edits: list[Edit] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)


def classify(site: StringSite, ref: Ref, ctx: Context) -> tuple[str, str]:
    """(reason, applicability) for relocating `ref` inside the string at `site`."""
    callee = (site.call or "").rsplit(".", 1)[-1]
    what = f"{ref.old} is now {ref.new}"
    if callee in PATCHERS and site.arg_index == 0:
        return f"patch target: {what}", "safe"
    if callee in IMPORTERS:
        return f"import by name: {what}", "safe"
    if site.keyword == "target" or ":" in ref.old:
        return f"registry target: {what}", "safe"
    return f"string names an old location: {what}", "safe"


def _kept_patch(site: StringSite, ref: Ref, ctx: Context) -> str | None:
    """The target a patch string `"pkg.mod.sym"` keeps when `sym` moves but `mod` still
    binds it (imported back for its callers): the patch replaces the name in that one
    namespace, where those callers read it, so it stays on `mod` (respelled only if `mod`
    itself moves). None: not such a patch (it follows the symbol)."""
    callee = (site.call or "").rsplit(".", 1)[-1]
    if callee not in PATCHERS or site.arg_index != 0 or ref.symbol is None:
        return None
    mod, sym = ref.symbol
    if ref.old != f"{mod}.{sym}" or ref.symbol not in ctx.symbol_callers:
        return None
    return f"{ctx.relocation.module(mod) or mod}.{sym}"


def _object_patch_of_moved_symbol(site: StringSite, lit, bindings, ctx: Context):
    """`patch.object(mod, "sym")` / `monkeypatch.setattr(mod, "sym", v)` where `sym`
    left `mod`: after the plan it would set an attribute nothing reads."""
    callee = (site.call or "").rsplit(".", 1)[-1]
    if callee not in ("object", "setattr", "delattr") or site.arg_index != 1:
        return None
    if not site.first_arg:
        return None
    local, _, rest = site.first_arg.partition(".")
    binding = bindings.get(local)
    if binding is None:
        return None
    module = binding.old + ("." + rest if rest else "") if not binding.root else site.first_arg
    dst = ctx.relocation.symbols.get((module, lit.virtual))
    if dst is None:
        return None
    return (
        f"{site.call}({site.first_arg}, {lit.virtual!r}) would patch nothing: "
        f"{lit.virtual} moves from {module} to {dst}; patch it in {dst} (and where it is "
        "imported) instead"
    )


def rewrite_strings(
    job: FileJob,
    facts: Facts,
    ctx: Context,
    regex: re.Pattern,
    handled: set[int],
    bindings: dict | None = None,
    by_binding: set[int] = frozenset(),
) -> StringResult:
    """`handled`: ids of literals another form (registry tables) already rewrote;
    `by_binding`: starts of what module_uses.py respelled or kept by binding (the name
    of `patch.object(mod, "name")`, a forward reference's `mod` in `"mod.Cls"`)."""
    res = StringResult()
    names: list[tuple[int, int]] | None = None  # spans that are names, not references
    for site in facts.strings:
        if site.docstring or id(site.node) in handled:
            continue
        lit = literal_of(site.node, facts)
        if ctx.relocation.symbols and bindings and site.start not in by_binding:
            problem = _object_patch_of_moved_symbol(site, lit, bindings, ctx)
            if problem:
                res.notes.append(note_at(job.new_path, facts.text, site.start, problem))
        if not regex.search(lit.virtual):
            continue
        if names is None:
            names = name_spans(job.old_path, facts.text)
        if any(a <= site.start < b for a, b in names):  # an entry-point group: kept
            for ref in find_refs(lit.virtual, regex, ctx):
                if ref.new is not None and ref.new != ref.old:
                    note = group_note(ref.old, ref.new)
                    res.notes.append(note_at(job.new_path, facts.text, site.start, note, "warning"))
            continue
        for ref in find_refs(lit.virtual, regex, ctx):
            spans = lit.source_spans(ref.start, ref.end)
            if spans and spans[0][0] in by_binding:
                continue  # a forward reference module_uses.py respelled by its binding
            kept = _kept_patch(site, ref, ctx)
            if kept is not None:
                mod, sym = ref.symbol
                dst = ctx.relocation.symbols[ref.symbol]
                why = patch_note(mod, sym, dst, ctx.symbol_callers[ref.symbol], ctx)
                res.notes.append(note_at(job.new_path, facts.text, site.start, why, "warning"))
                if kept != ref.old:
                    why = f"patch target: {mod} is now {kept.rpartition('.')[0]}"
                    res.edits.extend(
                        literal_edits(job.new_path, facts.text, lit, ref, kept, "string", why)
                    )
            elif ref.new is not None and ref.new != ref.old:
                how = classify(site, ref, ctx)  # (reason, applicability)
                res.edits.extend(
                    literal_edits(job.new_path, facts.text, lit, ref, ref.new, "string", *how)
                )
            elif stale(ref, ctx):
                what = "dynamic name built on" if ref.dynamic else "string names"
                why = (
                    f"{what} `{ref.old}`, which the plan removes; no single new "
                    "location exists, so it is left for a person to fix"
                )
                at = spans[0][0] if spans else site.start
                res.notes.append(note_at(job.new_path, facts.text, at, why))
    return res


def computed_group_notes(job: FileJob, text: str, ctx: Context) -> list:
    """A warning at each computed entry-point group (`f"{PKG}.plugins"`) that can equal a
    moved module's name: it is kept (`entry_groups.py`), and a person decides."""
    out = []
    for a, b, pattern in computed_groups(job.old_path, text):
        old = moved_name_in(pattern, ctx.relocation)
        if old is not None:
            new = ctx.relocation.module(old) or "nothing (it is removed)"
            note = computed_group_note(text[a:b], old, new)
            out.append(note_at(job.new_path, text, a, note, "warning"))
    return out
