"""Uses of a module that loses a symbol, found by binding: `mod.func` where `mod` is
bound to `pkg.mod` by any import form, in any scope, and `func` moved to `pkg.newmod`.

The file's style is kept: a `from pkg import mod` user gets `from pkg import newmod`
(relative when the binding was relative, `import pkg.newmod as m` when it was that) next
to the binding import, so function-local, class-level, `TYPE_CHECKING` and `try` imports
stay where they were; `import pkg.mod` users get `pkg.newmod.func` and `import
pkg.newmod`, unless the file binds `pkg` to something else too. A new local name never
collides with one the file binds or reads: an alias is picked and the dry run says so.
Star imports of the module get an explicit import of each moved name the file uses.

The imports this needs, and the removal of a binding import left without uses (every
`mod.x` became `newmod.x`, unless something outside the file may read it), are scheduled
on the file's import scratch area; its finaliser (`import_scratch.py`) places them and
keeps the statements' layout.
A `try` import whose `except ImportError` branch rebinds the old name gets the same
fallback for the new one (`newmod = None`, or `newmod = mod` for a fallback module), so
both branches stay executable.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from dataclasses import dataclass, field

from migrate.changes import Edit
from migrate.errors import Diagnostic, Pos
from migrate.index.bindings import Bindings, ModuleBinding, ModuleUse, find_uses
from migrate.index.forward_refs import forward_references
from migrate.rewrite import effect_imports, relative
from migrate.rewrite.computed_all import computed_all_edits, export_list_names
from migrate.rewrite.context import Context, FileJob
from migrate.rewrite.import_scratch import ImportScratch
from migrate.rewrite.patch_targets import kept_patches, patch_note
from migrate.rewrite.reload_notes import reload_notes
from migrate.rewrite.scan import may_bind
from migrate.rewrite.spans import ast_offset, line_col, line_starts, make_edit, note_at


@dataclass
class UseResult:
    edits: list[Edit] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)
    handled: set[int] = field(default_factory=set)  # starts of chains/literals rewritten here
    dropped: set[tuple[int, str]] = field(default_factory=set)  # (import start, local) it drops


def watched(ctx: Context) -> frozenset[str]:
    """Modules that lose a symbol: their bindings are what this form follows."""
    return frozenset(mod for mod, _ in ctx.relocation.symbols)


def rewrite_module_uses(job: FileJob, ctx: Context, scratch: ImportScratch) -> UseResult:
    """Respell the uses; the imports they need and drop are scheduled on `scratch`."""
    res = UseResult()
    mods = watched(ctx)
    aliases = ctx.module_aliases
    if not may_bind(job.text, mods | frozenset(aliases)):
        return res
    tree, model = job.ast, job.scopes
    if tree is None or model is None:
        return res  # libcst reports it
    res.notes += reload_notes(job, ctx)
    stars: dict[str, set[str]] = {}
    for mod, sym in ctx.relocation.symbols:
        stars.setdefault(mod, set()).add(sym)
    uses = find_uses(model, tree, job.text, mods, stars, aliases, runtime=True)
    if not uses and not any(b.value in ctx.star_exports for b in model.scopes[0].stars):
        return res
    facts = dataclasses.replace(model, uses=uses)
    _Speller(job, ctx, facts, tree, res, scratch).run()
    return res


def untouched_import(job: FileJob, ctx: Context, node: ast.ImportFrom) -> bool:
    """Whether no form rewrites import `node` (no moved module or name in it): only such
    a statement may take an added name (the scratch's merge guard)."""
    base = relative.resolve(job.old_package, node.level, node.module) if node.level else node.module
    if base is None or ctx.relocation.module(base) is not None:
        return False
    return all(ctx.relocation.dotted(f"{base}.{a.name}") is None for a in node.names)


_PLACED = "an import for names that moved, placed as isort would"
_AFTER = "names used through this import moved to another module"
_STAR = "names this star import gave moved to another module: imported from there"


class _Speller:
    def __init__(self, job, ctx: Context, facts: Bindings, tree, res: UseResult, scratch):
        self.job, self.ctx, self.facts, self.res = job, ctx, facts, res
        self.scratch: ImportScratch = scratch
        self.text = job.text
        self.nl = "\r\n" if "\r\n" in self.text else "\n"
        self.taken = set(facts.names)
        self.new_names: dict[str, str] = {}  # local this pass binds -> the module it binds
        self.locals: dict[tuple[int, str], str] = {}  # (scope, dst) -> local
        self.imported = {
            a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
        }
        # (star statement, new module) -> (its binding, moved names it must import)
        self.star_names: dict[tuple[tuple[int, int], str], tuple[ModuleBinding, set[str]]] = {}
        self.star_read: set[str] = set()  # of those, the names this module reads itself
        self.tree = tree
        self.starts = line_starts(self.text)
        self.rewritten: set[int] = set()  # offsets of binding names a use edit replaced
        self.unused: dict[tuple[tuple[int, int], str], ModuleBinding] = {}  # of _unused_bindings
        self.fresh: dict[ModuleBinding, list[str]] = {}  # binding -> locals imported by it
        # (module, symbol) this file patches on an old module that still binds it: its
        # patches and reads of it there stay (patch_targets.py)
        self.kept = (
            kept_patches(tree, facts.uses, ctx.symbol_callers) if ctx.symbol_callers else set()
        )
        self.patched_said: set[tuple[str, str]] = set()  # (local, symbol) kept and noted

    def run(self) -> None:
        for use in self.facts.uses:
            dst = self.ctx.relocation.symbols.get((use.module, use.attr))
            if dst is None:
                continue
            if use.kind == "star":
                self._star_name(use.binding, dst, use.attr, read=True)
                continue
            self._use(use, dst)
        self._star_reexports()
        back: dict[str, set[str]] = {}  # star-imported module -> names imported beside it
        for (_, dst), (b, names) in self.star_names.items():
            spelled = self._from_module(dst, b)
            shown = self._exported(b, names)
            plain = sorted(n for n in names if n in shown)
            stmts = [f"from {spelled} import {', '.join(plain)}"] if plain else []
            # a name nothing here reads or lists: `X as X`, the explicit re-export that
            # ruff's F401 accepts (T49), one statement each as isort writes them
            stmts += [f"from {spelled} import {n} as {n}" for n in sorted(names - shown)]
            for stmt in stmts:
                self.scratch.add(stmt, b.stmt, b.indent, _STAR, _PLACED, not_before=True)
            back.setdefault(b.value, set()).update(names)
        for s, e, new in computed_all_edits(self.tree, self.text, self.facts, back) if back else ():
            why = "the star import's module no longer lists them: the export list names them"
            self.res.edits.append(make_edit(self.job.new_path, self.text, s, e, new, "code", why))
        for stmt, gone in self._kept_for_effect(self._unused_bindings()).items():
            self.scratch.drop(stmt, gone)
            self.res.dropped.update((stmt[0], local) for local in gone)
        self._fallbacks()

    def _star_name(self, b: ModuleBinding, dst: str, name: str, read: bool = False) -> None:
        self.star_names.setdefault((b.stmt, dst), (b, set()))[1].add(name)
        if read:
            self.star_read.add(name)

    def _exported(self, b: ModuleBinding, names: set[str]) -> set[str]:
        """The `names` this module reads or names in its export list: a literal
        `__all__`, or a computed one that reads the star-imported module's `__all__`
        (`computed_all`, which adds them there)."""
        listed = export_list_names(self.tree)
        if computed_all_edits(self.tree, self.text, self.facts, {b.value: set(names)}):
            listed |= names
        return {n for n in names if n in listed or n in self.star_read}

    # -- star re-exports ------------------------------------------------------------
    def _star_reexports(self) -> None:
        """A module-level `from mod import *` bound every name mod's star export gave,
        used here or not: the module (a package `__init__` above all) re-exported them.
        Each moved one gets `from <new module> import <name>` beside the star import,
        unless the module binds the name itself after it (its own binding won there, and
        still does), imports the very symbol by name, is the new module, or star-imports
        the new module, which gives the name. A name the module binds only before the
        star import (which overrode it) has no safe spelling: an error."""
        scope = self.facts.scopes[0]
        rel = self.ctx.relocation
        starred = {rel.module(b.value) or b.value for b in scope.stars}
        for b in scope.stars:
            for name, dst in self.ctx.star_exports.get(b.value, {}).items():
                if dst == self.job.new_module or (
                    dst in starred and (dst, name) in self.ctx.star_given
                ):
                    continue
                # a binding inside an `except` handler or a `match` case (`except
                # ImportError: Klass = None`) runs only when the star may not: the star's
                # name is still the one the module reads (f12 F6)
                events = [e for e in scope.events.get(name, []) if not e.contained]
                symbol = f"{b.value}.{name}"
                if any(e.pos > b.stmt[0] or _binds_value(e, symbol) for e in events):
                    continue
                if events:
                    why = (
                        f"cannot keep {name} re-exported: `from {b.value} import *` here "
                        f"bound it over the module's own earlier binding, and {name} moves "
                        f"to {dst}; bind it by hand"
                    )
                    self.res.notes.append(note_at(self.job.new_path, self.text, b.stmt[0], why))
                    continue
                self._star_name(b, dst, name)

    def _add(self, s: int, e: int, new: str, reason: str) -> None:
        self.res.edits.append(make_edit(self.job.new_path, self.text, s, e, new, "code", reason))

    # -- one use ------------------------------------------------------------------
    def _use(self, use: ModuleUse, dst: str) -> None:
        s, e = use.span
        what = f"{use.module}.{use.attr} is now {dst}.{use.attr}"
        if use.binding.form == "runtime":  # a static import would change when it runs
            line = self.text.count("\n", 0, use.binding.stmt[0]) + 1
            why = (
                f"cannot spell {dst}: {what}, read through `{use.binding.local}`, a module "
                f"bound at run time (importlib.import_module, line {line}); import {dst} "
                "there by hand"
            )
            self.res.notes.append(note_at(self.job.new_path, self.text, s, why))
            return
        callers = self.ctx.symbol_callers.get((use.module, use.attr))
        if (use.module, use.attr) in self.kept:
            if use.patch:
                self._kept_patch(use, dst, callers)
            else:  # read from the namespace this file patches: it sees the patch there
                self.res.handled.update(x for x in (use.span[0], use.key) if x >= 0)
            moved = self.ctx.relocation.module(use.module)
            # the old module moves too, read through a parent (`core.mod`, `pkg.core.mod`);
            # a binding of the module itself (`m`, `mod`) follows with its import
            if moved is not None and moved != use.module and use.binding.value != use.module:
                spelling = self._spelling(use.binding, moved)
                if spelling is None:
                    why = f"cannot spell {moved}: {use.module} is now {moved}"
                    self.res.notes.append(note_at(self.job.new_path, self.text, s, why))
                else:
                    self._edit(s, e, spelling, use, f"{use.module} is now {moved}")
            return
        patched = self.ctx.patched_bindings.get((self.job.old_module, use.binding.local))
        if patched and use.kind == "attr":
            self._patched_binding(use, dst, patched, kept=bool(callers))
            if callers:
                return
        if dst == self.job.new_module and use.kind == "attr" and self.text[e : e + 1] == ".":
            self._edit(s, e + 1, "", use, f"{what}, defined in this module")
            return
        scope = self.facts.scopes[use.binding.scope]
        if use.scope != use.binding.scope and use.binding.local in scope.globals:
            line = self.text.count("\n", 0, use.binding.stmt[0]) + 1
            why = (
                f"cannot spell {dst}: {what}, and `{use.binding.local}` here is the import "
                f"a function makes global (line {line}): an import added beside it would "
                f"bind the new module in that function only; import {dst} by hand"
            )
            self.res.notes.append(note_at(self.job.new_path, self.text, s, why))
            return
        spelling = self._spelling(use.binding, dst)
        if spelling is None:
            why = f"cannot spell {dst}: {what}"
            self.res.notes.append(note_at(self.job.new_path, self.text, s, why))
            return
        applicability, reason = "safe", what
        if use.kind == "named" and callers:
            applicability = "review"
            reason = (
                f"{what}; but {use.module} still calls {use.attr} through its own globals "
                f"in {', '.join(callers)}, which patching {dst} does not reach"
            )
        self._edit(s, e, spelling, use, reason, applicability)

    def _patched_binding(
        self, use: ModuleUse, dst: str, patched: tuple[str, ...], kept: bool
    ) -> None:
        """A read `local.sym` through this module's binding of the old module, which a
        patch string replaces whole (`mock.patch("pkg.term.win32")`): the patch reaches
        the read only while it goes through that binding. When the old module still binds
        `sym` (imported back), the read stays as it is; otherwise it must follow `sym`,
        and a person is told that the patch no longer reaches it."""
        local, here = use.binding.local, self.job.old_module
        if kept:
            self.res.handled.update(x for x in (use.span[0], use.key) if x >= 0)
        if (local, use.attr) in self.patched_said:
            return  # one note for each name read through the binding
        self.patched_said.add((local, use.attr))
        shown = ", ".join(patched[:3]) + (
            f" and {len(patched) - 3} more" if len(patched) > 3 else ""
        )
        if kept:
            why = (
                f"{local}.{use.attr} kept: {use.attr} moves to {dst}, but {here}.{local} is "
                f"patched whole ({shown}) and {use.module} still binds {use.attr} (imported "
                f"back); read from {dst}, it would escape that patch"
            )
        else:
            why = (
                f"{local}.{use.attr} is now read from {dst}: {here}.{local} is patched whole "
                f"({shown}), and that patch no longer reaches this read of {use.attr}"
            )
        self.res.notes.append(note_at(self.job.new_path, self.text, use.span[0], why, "warning"))

    def _kept_patch(self, use: ModuleUse, dst: str, callers: tuple[str, ...]) -> None:
        """A patch of a moved symbol that its old module still binds (it imports it back
        for `callers`) keeps patching the old module: it replaces the name in that one
        namespace, which is where those callers read it. A person is told what reads it
        from the new module instead and no longer sees the patch."""
        self.res.handled.update(x for x in (use.span[0], use.key) if x >= 0)
        self.res.notes.append(
            note_at(
                self.job.new_path,
                self.text,
                use.span[0],
                patch_note(use.module, use.attr, dst, callers, self.ctx),
                "warning",
            )
        )

    def _edit(self, s, e, new, use: ModuleUse, reason, applicability="safe") -> None:
        self.res.edits.append(
            make_edit(self.job.new_path, self.text, s, e, new, "code", reason, applicability)
        )
        self.res.handled.add(s)
        self.rewritten.add(use.span[0])
        if use.key >= 0:
            self.res.handled.add(use.key)

    def _root_is_safe(self, b: ModuleBinding, dst: str) -> bool:
        """`pkg.newmod.func` is safe only when every binding of `pkg` in the file is an
        `import pkg...` (nothing rebinds the root)."""
        root = dst.split(".")[0]
        if root != b.local:
            return False
        for scope in self.facts.scopes:
            for ev in scope.events.get(root, []):
                if ev.binding is None or ev.binding.form != "import_root":
                    return False
        return True

    def _spelling(self, b: ModuleBinding, dst: str) -> str | None:
        if b.form == "import_root" and self._root_is_safe(b, dst):
            if dst not in self.imported:
                self.imported.add(dst)
                self._insert(b, f"import {dst}")
            return dst
        key = (b.scope, dst)
        if key in self.locals:
            return self.locals[key]
        existing = self._existing_local(b, dst)
        if existing is not None:
            self.locals[key] = existing
            return existing
        parent, _, leaf = dst.rpartition(".")
        local = self._fresh(leaf, dst)
        if b.form == "import_as" or not parent:
            stmt = f"import {dst}" + (f" as {local}" if local != dst else "")
        else:
            stmt = f"from {self._from_module(parent, b)} import {leaf}"
            stmt += f" as {local}" if local != leaf else ""
        self._insert(b, stmt)
        self.locals[key] = local
        self.fresh.setdefault(b, []).append(local)
        return local

    def _existing_local(self, b: ModuleBinding, dst: str) -> str | None:
        """A name that the binding's scope already binds to `dst` by import, and only so."""
        scope = self.facts.scopes[b.scope]
        for name, events in scope.events.items():
            values = {ev.binding.value if ev.binding else None for ev in events}
            if values == {dst} and events[0].binding.form != "import_root":
                return name
        return None

    def _fresh(self, leaf: str, dst: str) -> str:
        if self.new_names.get(leaf) == dst:
            return leaf  # the same module under the same name in another scope
        if leaf not in self.taken:
            self.taken.add(leaf)
            self.new_names[leaf] = dst
            return leaf
        parent_leaf = dst.rpartition(".")[0].rpartition(".")[2]
        for cand in [f"{parent_leaf}_{leaf}" if parent_leaf else f"{leaf}_mod"] + [
            f"{leaf}_mod{i}" for i in range(2, 100)
        ]:
            if self.new_names.get(cand) == dst:
                return cand
            if cand not in self.taken:
                self.taken.add(cand)
                self.new_names[cand] = dst
                self.res.notes.append(
                    Diagnostic(
                        Pos(self.job.new_path),
                        f"imports {dst} as `{cand}`: `{leaf}` is already bound in this file",
                        "warning",
                    )
                )
                return cand
        raise AssertionError("no free alias")  # 100 collisions cannot happen in practice

    def _from_module(self, module: str, b: ModuleBinding) -> str:
        if b.form in ("relative", "star") and b.level:
            return relative.spell(module, self.job.new_package, b.level)
        return module

    def _insert(self, b: ModuleBinding, stmt: str) -> None:
        self.scratch.add(stmt, b.stmt, b.indent, _AFTER, _PLACED)

    def _line_end(self, offset: int) -> int:
        nl = self.text.find("\n", offset)
        return len(self.text) if nl == -1 else nl + 1

    # -- old bindings left without uses ---------------------------------------------
    def _unused_bindings(self) -> dict[tuple[int, int], set[str]]:
        """Import statement span -> locals it binds that no read is left of.

        Conservative: every `Name` read of the local anywhere in the file (any scope)
        must be a use this pass respelled; no `del`/`global` of it, no string naming it
        (`__all__`, `mock.patch("...mod")`), not a package `__init__` (re-exports), and no
        other file imports it from this module."""
        if self.job.is_init:
            return {}
        reads: dict[str, set[int]] = {}
        attr_reads: dict[str, set[int]] = {}  # `x.local`: read where `local` is a class's
        blocked: set[str] = set()
        quoted: set[int] = set()  # forward references: their names are reads, as in code
        for string, expr in forward_references(self.tree, self.text):
            quoted.add(id(string))
            for node in ast.walk(expr):
                if isinstance(node, ast.Name):
                    off = ast_offset(self.text, self.starts, node.lineno, node.col_offset)
                    reads.setdefault(node.id, set()).add(off)
        for node in ast.walk(self.tree):
            if id(node) in quoted:
                continue
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Load):
                    off = ast_offset(self.text, self.starts, node.lineno, node.col_offset)
                    reads.setdefault(node.id, set()).add(off)
                elif isinstance(node.ctx, ast.Del):
                    blocked.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                # `self.mod`: a class body's binding read through the instance (d12 D1)
                end = ast_offset(self.text, self.starts, node.end_lineno, node.end_col_offset)
                attr_reads.setdefault(node.attr, set()).add(end - len(node.attr))
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                blocked.update(node.names)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                blocked.update(_dotted_words(node.value))
        out: dict[tuple[int, int], set[str]] = {}
        for use in self.facts.uses:
            b = use.binding
            if b.form not in ("from", "relative", "import_as") or b.local in blocked:
                continue
            if b.scope == 0 and f"{self.job.old_module}.{b.local}" in self.ctx.imported_names:
                continue
            left = reads.get(b.local, set()) - self.rewritten
            if self.facts.scopes[b.scope].kind == "class":
                left |= attr_reads.get(b.local, set()) - self.rewritten
            if left or not self._removable(b):
                continue
            out.setdefault(b.stmt, set()).add(b.local)
            self.unused[(b.stmt, b.local)] = b
        return out

    def _kept_for_effect(self, out: dict[tuple[int, int], set[str]]):
        """`out` less the bindings whose drop would stop the file importing a module
        whose import does more than define names, when nothing else the file imports
        before or around them runs it (`effect_imports.py`): those are kept, marked for
        ruff, and the dry run says why."""
        effects = self.ctx.import_effects
        todo = [b for (_, _), b in self.unused.items() if b.value in effects]
        if not todo:
            return out
        imports = effect_imports.scoped_imports(self.tree)
        at = {
            ast_offset(self.text, self.starts, n.lineno, n.col_offset): (n, c) for n, c in imports
        }
        kept: list[tuple[ModuleBinding, tuple]] = []
        for b in sorted(todo, key=lambda b: (len(at.get(b.stmt[0], (None, ()))[1]), b.stmt)):
            node, chain = at.get(b.stmt[0], (None, None))
            if node is None:
                continue  # not a statement that runs (`TYPE_CHECKING`): dropped as before
            gone = {(s, local) for (s, _), locals_ in out.items() for local in locals_}
            gone -= {(k.stmt[0], k.local) for k, _ in kept}
            if any(k.value == b.value and chain[: len(c)] == c for k, c in kept):
                continue  # a binding kept above runs it
            if not self._runs_otherwise(b.value, chain, imports, gone):
                kept.append((b, chain))
                out[b.stmt].discard(b.local)
                self._keep(b, node)
        return {stmt: locals_ for stmt, locals_ in out.items() if locals_}

    def _runs_otherwise(self, module: str, chain: tuple, imports, gone) -> bool:
        return effect_imports.runs_otherwise(
            module,
            chain,
            imports,
            gone,
            text=self.text,
            package=self.job.old_package,
            own=self.job.old_module,
            reach=self.ctx.effect_reach.get(module, frozenset()),
            rel=self.ctx.relocation,
        )

    def _keep(self, b: ModuleBinding, node: ast.Import | ast.ImportFrom) -> None:
        """Keep binding `b` (its import is what runs its module), marked `# noqa: F401`."""
        alias = next(
            (a for a in node.names if effect_imports.alias_local(node, a) == b.local), None
        )
        effect = self.ctx.import_effects[b.value]
        why = (
            f"keeps `{b.local}` imported: its uses moved, but importing {b.value} runs "
            f"`{effect}`, and nothing else this file imports runs it"
        )
        marker = effect_imports.marker_at(self.text, alias.lineno if alias else node.lineno)
        if marker is not None:
            self.scratch.keep(b.stmt, *marker, why + " (marked for ruff F401)")
        self.res.notes.append(note_at(self.job.new_path, self.text, b.stmt[0], why, "warning"))

    def _removable(self, b: ModuleBinding) -> bool:
        """The statement holds only plain aliases and is not alone in its body, unless
        a new import is added there."""
        node = self._stmt_node(b.stmt)
        if node is None or any(a.name == "*" for a in node.names):
            return False
        body = self._body(node)
        return self.scratch.has_adds(b.stmt) or (body is not None and len(body) > 1)

    def _stmt_node(self, stmt: tuple[int, int]) -> ast.Import | ast.ImportFrom | None:
        line = line_col(self.text, stmt[0])[0]
        for node in ast.walk(self.tree):
            if (
                isinstance(node, (ast.Import, ast.ImportFrom))
                and node.lineno == line
                and ast_offset(self.text, self.starts, line, node.col_offset) == stmt[0]
            ):
                return node
        return None

    def _body(self, node: ast.stmt) -> list[ast.stmt] | None:
        for parent in ast.walk(self.tree):
            for name in ("body", "orelse", "finalbody"):
                body = getattr(parent, name, None)
                if isinstance(body, list) and any(s is node for s in body):
                    return body
            for h in getattr(parent, "handlers", None) or []:
                if any(s is node for s in h.body):
                    return h.body
        return None

    # -- try/except ImportError fallbacks ----------------------------------------
    def _fallbacks(self) -> None:
        """`except ImportError: mod = X` gets `newmod = X` (a constant) or `newmod = mod`
        for each new local imported next to `mod` in the `try` body."""
        for b, locals_ in self.fresh.items():
            for stmt in self._handler_rebinds(b):
                value = stmt.value if isinstance(stmt, ast.Assign) else None
                rhs = b.local
                if isinstance(value, ast.Constant):
                    rhs = ast.get_source_segment(self.text, value) or b.local
                line = self.starts[stmt.lineno - 1]
                indent = self.text[line : line + stmt.col_offset]
                end = ast_offset(self.text, self.starts, stmt.end_lineno, stmt.end_col_offset)
                at = self._line_end(end)
                text = "".join(f"{indent}{local} = {rhs}{self.nl}" for local in locals_)
                if at == len(self.text) and not self.text.endswith("\n"):
                    text = self.nl + text.rstrip("\r\n")
                why = f"the ImportError fallback of `{b.local}` binds {', '.join(locals_)} too"
                self._add(at, at, text, why)

    def _handler_rebinds(self, b: ModuleBinding) -> list[ast.stmt]:
        """Top-level statements of the `except` handlers of the `try` whose body holds
        the binding import, that rebind its local (the last one per handler)."""
        out = []
        for node in ast.walk(self.tree):
            if not isinstance(node, ast.Try) or not node.body:
                continue
            first = ast_offset(self.text, self.starts, node.body[0].lineno, 0)
            last = node.body[-1]
            end = ast_offset(self.text, self.starts, last.end_lineno, last.end_col_offset)
            if not first <= b.stmt[0] < end:
                continue
            for h in node.handlers:
                hits = [s for s in h.body if b.local in _stmt_binds(s)]
                if hits:
                    out.append(hits[-1])
        return out


def _binds_value(event, value: str) -> bool:
    """Whether a binding event imports exactly `value` (`from mod import name`)."""
    return event.binding is not None and event.binding.value == value


def _stmt_binds(stmt: ast.stmt) -> set[str]:
    """Names a statement binds at its own level (assignments and imports)."""
    out: set[str] = set()
    if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for t in targets:
            out.update(n.id for n in ast.walk(t) if isinstance(n, ast.Name))
    elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
        for a in stmt.names:
            out.add(a.asname or a.name.split(".")[0])
    return out


_WORD = re.compile(r"^[A-Za-z_][\w.]*$")


def _dotted_words(value: str) -> set[str]:
    """The components of a string that is one dotted name (`"mod"`, `"pkg.use.mod"`)."""
    return set(value.split(".")) if _WORD.match(value) else set()
