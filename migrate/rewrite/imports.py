"""Import statements: `import a.b [as m]`, `from a.b import c [as d]`, `from a import *`,
relative forms, wherever they sit (module level, functions, TYPE_CHECKING, try/except).

Each statement is edited in place and keeps its form: only the module span changes when
every imported name goes to one new module; a name whose new leaf differs is aliased to
its old local name (so no use in the file changes and nothing new is bound); a statement
whose names go to several modules is split into one statement per module.
Also returns the bindings the statement creates, for attribute chains.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

import libcst as cst

from migrate.changes import Edit
from migrate.errors import Diagnostic
from migrate.index.forward_refs import annotation_strings
from migrate.rewrite import relative
from migrate.rewrite.context import Context, FileJob
from migrate.rewrite.cstfacts import Facts, ImportSite, dotted_of
from migrate.rewrite.import_split import split_from_import
from migrate.rewrite.names import is_gone, relocate, shadowed
from migrate.rewrite.spans import make_edit, note_at
from migrate.rewrite.submodule_keep import kept_module


@dataclass
class Binding:
    """A local name bound by an import: `root` for `import a.b` (binds `a`)."""

    local: str
    old: str  # what it referred to before the plan
    new: str  # what it refers to after the rewrite
    root: bool
    site: ImportSite


@dataclass
class ImportResult:
    edits: list[Edit] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)
    bindings: dict[str, Binding] = field(default_factory=dict)  # the last per name
    # (statement start, local) -> its binding: a chain's head resolved through the scope
    # model finds the statement that binds it there (`attributes.rewrite_chains`)
    by_site: dict[tuple[int, str], Binding] = field(default_factory=dict)
    imported: set[str] = field(default_factory=set)  # modules named by `import X` after
    refused: set[str] = field(default_factory=set)  # imports left as they were (see notes)
    # `import deleted.pkg` (no alias) -> (span of the name, its stale note): attributes.py
    # replaces it with the modules its chains now need, or leaves the note.
    stale_roots: dict[str, tuple[tuple[int, int], Diagnostic]] = field(default_factory=dict)
    # id of the stale note of a binding `from pkg import gone` / `import pkg.gone as m` ->
    # (statement start, local): moot when every use of that local followed the symbols
    # the plan moved out of `pkg.gone` and the binding left (module_uses, trial23 T38)
    stale_bindings: dict[int, tuple[int, str]] = field(default_factory=dict)
    # (statement, the site it goes beside): a package `__init__` keeps importing a
    # submodule whose every re-exported name moved out of it (`submodule_keep.py`)
    keeps: list[tuple[str, str, ImportSite]] = field(default_factory=list)  # + reason


def _bind(res: ImportResult, b: Binding, keep: bool = False) -> None:
    """Record `b` by name (`keep`: unless the name is bound already) and by statement."""
    if keep:
        res.bindings.setdefault(b.local, b)
        res.by_site.setdefault((b.site.stmt_start, b.local), b)
    else:
        res.bindings[b.local] = b
        res.by_site[(b.site.stmt_start, b.local)] = b


def _name_of(alias: cst.ImportAlias) -> str:
    return dotted_of(alias.name) or ""


def _asname(alias: cst.ImportAlias) -> str | None:
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    return None


def rewrite_imports(job: FileJob, facts: Facts, ctx: Context) -> ImportResult:
    res = ImportResult()
    for site in facts.imports:
        if isinstance(site.node, cst.Import):
            _plain_import(job, facts, ctx, site, res)
        else:
            _from_import(job, facts, ctx, site, res)
    _keep_old_roots(job, facts, ctx, res)
    return res


def _plain_import(job, facts, ctx, site: ImportSite, res: ImportResult) -> None:
    rel = ctx.relocation
    for alias in site.node.names:
        old = _name_of(alias)
        new = rel.module(old)
        local = _asname(alias)
        res.imported.add(new or old)
        if new is None and local is not None and is_gone(old, ctx):
            new = _whole_package(job, ctx, old, local)
        if new is None and is_gone(old, ctx):
            note = _stale(job, facts, alias.name, old)
            res.notes.append(note)
            if local is None:
                res.stale_roots[old] = (facts.span(alias.name), note)
            else:
                res.stale_bindings[id(note)] = (site.stmt_start, local)
        if local is not None:
            _bind(res, Binding(local, old, new or old, False, site))
        else:
            root = old.split(".")[0]
            _bind(res, Binding(root, root, root, True, site), keep=True)
        if new is None:
            continue
        if local is None and new.split(".")[0] != old.split(".")[0]:
            new_root = new.split(".")[0]
            if new_root in facts.defined:
                why = (
                    f"cannot rewrite `import {old}` to `import {new}`: the file defines "
                    f"`{new_root}` itself"
                )
                res.notes.append(note_at(job.new_path, facts.text, facts.span(alias.name)[0], why))
                res.refused.add(old)
                continue
            _bind(res, Binding(new_root, new_root, new_root, True, site))
        s, e = facts.span(alias.name)
        res.edits.append(
            make_edit(job.new_path, facts.text, s, e, new, "code", f"module {old} moved to {new}")
        )


def _from_import(job, facts, ctx, site: ImportSite, res: ImportResult) -> None:
    node: cst.ImportFrom = site.node
    rel = ctx.relocation
    level = len(node.relative)
    mod = dotted_of(node.module) if node.module is not None else None
    base = relative.resolve(job.old_package, level, mod) if level else mod
    if base is None:
        return
    star = isinstance(node.names, cst.ImportStar)
    # (new base, new leaf, old leaf, local, alias node)
    entries = []
    if star and rel.module(base) is None and base in ctx.gone_stars:
        _gone_star(job, facts, ctx, site, res, base, level)
        return
    if star:
        entries.append((rel.module(base) or base, "*", "*", None, None))
    else:
        for alias in node.names:
            leaf = _name_of(alias)
            full = f"{base}.{leaf}"
            kept = shadowed(full, ctx, len(base.split(".")))
            new_full = full if kept else relocate(full, ctx) or full
            local = _asname(alias) or leaf
            if new_full == full and not kept and is_gone(full, ctx):
                new_full = _whole_package(job, ctx, full, local) or full
            if new_full == full and not kept and is_gone(full, ctx):
                note = _stale(job, facts, alias.name, full)
                res.notes.append(note)
                res.stale_bindings[id(note)] = (site.stmt_start, local)
            new_base, _, new_leaf = new_full.rpartition(".")
            _bind(res, Binding(local, full, new_full, False, site))
            entries.append((new_base, new_leaf, leaf, local, alias))
        keep = kept_module(job, ctx, site.stmt_start, base, [e[0] != base for e in entries])
        if keep is not None:
            res.notes += [keep.note] if keep.note is not None else []
            if keep.stmt is not None:
                res.keeps.append((keep.stmt, keep.why, site))

    groups: dict[str, list] = {}
    for entry in entries:
        groups.setdefault(entry[0], []).append(entry)
    if "" in groups:  # a module moved to the top level: no `from` names its parent
        res.edits.append(_top_level_edit(job, facts, site, groups, level, base))
        return
    old_spelling = "." * level + (mod or "")
    spellings = {b: relative.spell(b, job.new_package, level) for b in groups}
    renamed = [e for e in entries if e[1] != e[2]]
    if len(groups) == 1 and not renamed and spellings[next(iter(groups))] == old_spelling:
        return
    reason = _reason(base, groups, level, job)
    if len(groups) == 1:
        new_base = next(iter(groups))
        if spellings[new_base] != old_spelling:
            s, e = _module_span(facts, node)
            res.edits.append(
                make_edit(job.new_path, facts.text, s, e, spellings[new_base], "code", reason)
            )
        for _, new_leaf, _leaf, local, alias in renamed:
            s, e = facts.span(alias.name)
            text = new_leaf if _asname(alias) else f"{new_leaf} as {local}"
            res.edits.append(make_edit(job.new_path, facts.text, s, e, text, "code", reason))
        return
    newline = "\r\n" if "\r\n" in facts.text else "\n"
    s, e = facts.span(node)
    if star:
        stmts = [f"from {spellings[b]} import *" for b in groups]
        text = (newline + site.indent).join(stmts)
    else:
        line_end = facts.text.find("\n", e)
        trailing = facts.text[e : len(facts.text) if line_end == -1 else line_end]
        parts = [
            (spellings[b], [(alias, leaf, local) for _, leaf, _, local, alias in group])
            for b, group in groups.items()
        ]
        text = split_from_import(node, parts, trailing, newline, site.indent)
    res.edits.append(make_edit(job.new_path, facts.text, s, e, text, "code", reason))


def _whole_package(job: FileJob, ctx: Context, full: str, local: str) -> str | None:
    """Where a deleted package went as a whole, for `from pkg import core` (or `import
    pkg.core as core`) whose every use in the file reads a submodule the plan moved into
    one package under the same name (`core.mod` -> `pkg.engine.mod`): that package, bound
    under the same local (`from pkg import engine as core`), so no use changes. Reads in
    string annotations count; a rebinding of the local (`core = None` in an `except
    ImportError`, another scope's `core = ...`) reads nothing and no use changes, so it
    is no obstacle; nor is a chain through a symbol that leaves its module (`core.mod.func`
    with `pkg.core.mod:func` moved): the uses pass respells it. None otherwise."""
    new = ctx.package_fallback.get(full)
    tree = job.ast
    if new is None or tree is None or new not in ctx.new_modules:
        return None
    roots: list[ast.AST] = [tree]
    for string in annotation_strings(tree):
        if local not in string.value:
            continue
        try:
            roots.append(ast.parse(string.value.strip(), mode="eval"))
        except (SyntaxError, ValueError):
            return None  # a forward reference naming the local that no one can read
    parents = {id(c): p for r in roots for p in ast.walk(r) for c in ast.iter_child_nodes(p)}
    seen = False
    for node in (n for r in roots for n in ast.walk(r)):
        if not (isinstance(node, ast.Name) and node.id == local):
            continue
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            continue  # a rebinding: no read of the package, and its text stays
        attrs, up = [], parents.get(id(node))
        while isinstance(up, ast.Attribute):
            attrs.append(up.attr)
            up = parents.get(id(up))
        if not attrs or not isinstance(node.ctx, ast.Load):
            return None
        for i in range(len(attrs), 0, -1):  # the longest part of the chain the plan moves
            tail = ".".join(attrs[:i])
            moved = ctx.relocation.dotted(f"{full}.{tail}")
            if moved is not None:
                head, _, sym = f"{full}.{tail}".rpartition(".")
                if (head, sym) in ctx.relocation.symbols:
                    continue  # a symbol leaving its module: the uses pass respells it
                if moved != f"{new}.{tail}":
                    return None
                break
        else:
            return None
        seen = True
    return new if seen else None


def _gone_star(job, facts, ctx, site: ImportSite, res: ImportResult, base: str, level: int):
    """`from pkg import *` of a package the plan deletes: the imports of what its star
    gave, from where each now lives (`Context.gone_stars`), or a stale note."""
    spec = ctx.gone_stars[base]
    if spec is None:
        res.notes.append(_stale(job, facts, site.node, base))
        return
    newline = "\r\n" if "\r\n" in facts.text else "\n"
    stmts = []
    for module, names in spec:
        spelled = relative.spell(module, job.new_package, level)
        listed = ", ".join(a if a == b else f"{a} as {b}" for a, b in names) if names else "*"
        stmts.append(f"from {spelled} import {listed}")
    s, e = facts.span(site.node)
    why = f"{base} is deleted: what its star import gave is imported from where it lives now"
    text = (newline + site.indent).join(stmts)
    res.edits.append(make_edit(job.new_path, facts.text, s, e, text, "code", why))


def _top_level_edit(job, facts, site: ImportSite, groups: dict, level: int, base: str):
    """The statement rewritten when some of its names are now top-level modules
    (`from pkg.old import norm` with pkg.old.norm -> normlib): those become
    `import normlib as norm`; the other names keep a `from` statement (split as usual)."""
    node: cst.ImportFrom = site.node
    newline = "\r\n" if "\r\n" in facts.text else "\n"
    s, e = facts.span(node)
    line_end = facts.text.find("\n", e)
    trailing = facts.text[e : len(facts.text) if line_end == -1 else line_end]
    top = groups.pop("")
    parts = [
        (relative.spell(b, job.new_package, level), [(a, lf, loc) for _, lf, _, loc, a in g])
        for b, g in groups.items()
    ]
    stmts = [split_from_import(node, parts, trailing, newline, site.indent)] if parts else []
    for _, leaf, _old, local, _alias in top:
        stmts.append(f"import {leaf}" if local == leaf else f"import {leaf} as {local}")
    text = (newline + site.indent).join(stmts)
    groups[""] = top
    why = _reason(base, groups, level, job)
    return make_edit(job.new_path, facts.text, s, e, text, "code", why)


def _stale(job: FileJob, facts: Facts, node, name: str) -> Diagnostic:
    why = f"`{name}` no longer exists after the plan and no move says where it went"
    return note_at(job.new_path, facts.text, facts.span(node)[0], why)


def _module_span(facts: Facts, node: cst.ImportFrom) -> tuple[int, int]:
    if node.relative:
        start = facts.span(node.relative[0])[0]
        if node.module is not None:
            return start, facts.span(node.module)[1]
        # Dots only: the span ends after the last dot.
        return start, start + len(node.relative)
    return facts.span(node.module)


def _reason(base: str, groups: dict, level: int, job: FileJob) -> str:
    targets = ", ".join(sorted(groups))
    if groups.keys() == {base}:
        return f"relative import of {base} respelled: the file moved to {job.new_path}"
    why = f"names imported from {base} now live in {targets}"
    return why + (" (relative import: see docs/rewrite.md)" if level else "")


def _keep_old_roots(job, facts, ctx, res: ImportResult) -> None:
    """`import a.b` -> `import x.y` stops binding `a`: keep an import binding `a` when the
    file still uses `a` for something that did not move."""
    rel = ctx.relocation
    for site in facts.imports:
        if not isinstance(site.node, cst.Import):
            continue
        for alias in site.node.names:
            old = _name_of(alias)
            new = rel.module(old)
            if _asname(alias) or new is None:
                continue
            root, new_root = old.split(".")[0], new.split(".")[0]
            if root == new_root:
                continue
            still_used = facts.name_counts[root] > 0 or any(
                c.split(".")[0] == root and (rel.dotted(c) or c).split(".")[0] == root
                for c in facts.all_chains
            )
            others = any(
                _other_binds(s, root, alias, rel) for s in facts.imports if s is not site
            ) or any(_other_binds_alias(a, root, rel) for a in site.node.names if a is not alias)
            if not still_used or others:
                continue
            keep = _longest_kept_prefix(old, ctx)
            for i, edit in enumerate(res.edits):
                if edit.start == facts.span(alias.name)[0] and edit.kind == "code":
                    res.edits[i] = Edit(
                        edit.path,
                        edit.start,
                        edit.end,
                        edit.old,
                        f"{keep}, {new}",
                        "code",
                        edit.line,
                        edit.col,
                        edit.reason + f"; `{root}` is still used",
                        edit.applicability,
                    )


def _other_binds(site: ImportSite, root: str, alias, rel) -> bool:
    node = site.node
    if isinstance(node, cst.Import):
        return any(_other_binds_alias(a, root, rel) for a in node.names)
    if isinstance(node.names, cst.ImportStar):
        return False
    return any((_asname(a) or _name_of(a)) == root for a in node.names)


def _other_binds_alias(a: cst.ImportAlias, root: str, rel) -> bool:
    if _asname(a):
        return _asname(a) == root
    name = _name_of(a)
    return (rel.module(name) or name).split(".")[0] == root


def _longest_kept_prefix(old: str, ctx: Context) -> str:
    parts = old.split(".")
    for i in range(len(parts) - 1, 0, -1):
        cand = ".".join(parts[:i])
        if ctx.relocation.module(cand) is None and cand not in ctx.gone:
            return cand
    return parts[0]
