"""Uses of a module that loses a symbol, found by binding: `mod.func` where `mod` is
bound to `pkg.mod` by any import form, in any scope, and `func` moved to `pkg.newmod`.

The file's style is kept: a `from pkg import mod` user gets `from pkg import newmod`
(relative when the binding was relative, `import pkg.newmod as m` when it was that) next
to the binding import, so function-local, class-level, `TYPE_CHECKING` and `try` imports
stay where they were; `import pkg.mod` users get `pkg.newmod.func` and `import
pkg.newmod`, unless the file binds `pkg` to something else too. A new local name never
collides with one the file binds or reads: an alias is picked and the dry run says so.
Star imports of the module get an explicit import of each moved name the file uses.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from dataclasses import dataclass, field
from functools import lru_cache

from migrate.changes import Edit
from migrate.errors import Diagnostic, Pos
from migrate.index.bindings import Bindings, ModuleBinding, ModuleUse, find_uses
from migrate.rewrite import relative
from migrate.rewrite.context import Context, FileJob
from migrate.rewrite.import_scratch import ImportScratch
from migrate.rewrite.spans import line_col, make_edit


@dataclass
class UseResult:
    edits: list[Edit] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)
    handled: set[int] = field(default_factory=set)  # starts of chains/literals rewritten here


def watched(ctx: Context) -> frozenset[str]:
    """Modules that lose a symbol: their bindings are what this form follows."""
    return frozenset(mod for mod, _ in ctx.relocation.symbols)


@lru_cache(maxsize=8)
def _leaf_regex(mods: frozenset[str]) -> re.Pattern:
    leaves = sorted({m.rsplit(".", 1)[-1] for m in mods})
    return re.compile(r"\b(?:" + "|".join(map(re.escape, leaves)) + r")\b")


def may_bind(text: str, mods: frozenset[str]) -> bool:
    """Cheap text test: every binding form spells the module's last component."""
    return bool(mods) and "import" in text and _leaf_regex(mods).search(text) is not None


def rewrite_module_uses(job: FileJob, ctx: Context, scratch: ImportScratch) -> UseResult:
    """Respell the uses; the imports they need are scheduled on `scratch`."""
    res = UseResult()
    mods = watched(ctx)
    if not may_bind(job.text, mods):
        return res
    tree, model = job.ast, job.scopes
    if tree is None or model is None:
        return res  # libcst reports it
    stars: dict[str, set[str]] = {}
    for mod, sym in ctx.relocation.symbols:
        stars.setdefault(mod, set()).add(sym)
    uses = find_uses(model, tree, job.text, mods, stars)
    if not uses:
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


class _Speller:
    def __init__(self, job, ctx: Context, facts: Bindings, tree, res: UseResult, scratch):
        self.job, self.ctx, self.facts, self.res = job, ctx, facts, res
        self.scratch: ImportScratch = scratch
        self.text = job.text
        self.taken = set(facts.names)
        self.locals: dict[tuple[int, str], str] = {}  # (scope, dst) -> local
        self.imported = {
            a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
        }
        self.star_names: dict[tuple[tuple[int, int], str], set[str]] = {}

    def run(self) -> None:
        for use in self.facts.uses:
            dst = self.ctx.relocation.symbols.get((use.module, use.attr))
            if dst is None:
                continue
            if use.kind == "star":
                key = (use.binding.stmt, dst)
                self.star_names.setdefault(key, set()).add(use.attr)
                continue
            self._use(use, dst)
        for (stmt, dst), names in self.star_names.items():
            b = next(u.binding for u in self.facts.uses if u.binding.stmt == stmt)
            spelled = self._from_module(dst, b)
            self._insert(b, f"from {spelled} import {', '.join(sorted(names))}")

    # -- one use ------------------------------------------------------------------
    def _use(self, use: ModuleUse, dst: str) -> None:
        s, e = use.span
        what = f"{use.module}.{use.attr} is now {dst}.{use.attr}"
        if dst == self.job.new_module and use.kind == "attr" and self.text[e : e + 1] == ".":
            self._edit(s, e + 1, "", use, f"{what}, defined in this module")
            return
        spelling = self._spelling(use.binding, dst)
        if spelling is None:
            line, col = line_col(self.text, s)
            self.res.notes.append(
                Diagnostic(Pos(self.job.new_path, line, col), f"cannot spell {dst}: {what}")
            )
            return
        applicability, reason = "safe", what
        callers = self.ctx.symbol_callers.get((use.module, use.attr))
        if use.kind == "named" and callers:
            applicability = "review"
            reason = (
                f"{what}; but {use.module} still calls {use.attr} through its own globals "
                f"in {', '.join(callers)}, which patching {dst} does not reach"
            )
        self._edit(s, e, spelling, use, reason, applicability)

    def _edit(self, s, e, new, use: ModuleUse, reason, applicability="safe") -> None:
        self.res.edits.append(
            make_edit(self.job.new_path, self.text, s, e, new, "code", reason, applicability)
        )
        self.res.handled.add(s)
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
        if leaf not in self.taken:
            self.taken.add(leaf)
            return leaf
        parent_leaf = dst.rpartition(".")[0].rpartition(".")[2]
        for cand in [f"{parent_leaf}_{leaf}" if parent_leaf else f"{leaf}_mod"] + [
            f"{leaf}_mod{i}" for i in range(2, 100)
        ]:
            if cand not in self.taken:
                self.taken.add(cand)
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
