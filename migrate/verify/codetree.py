"""One revision's code as the static checks see it: the one tree protocol plus verify's
queries.

Not a model of its own: `CodeTree` implements `index.tree.CodeTree` by delegating to the
revision's `RepoIndex` (its paths, modules, cached ASTs and code facts), so the rules and
the target resolver read it as they read any tree; it adds the questions verify asks
(is a module the repo's own, does `from module import name` work, `module.name`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cached_property

from migrate.index import RepoIndex
from migrate.index.exports import lazy_table, owner_module
from migrate.index.facts import CodeFacts, prefetch_facts

MODULE_ATTRS = frozenset(
    ("__name__", "__file__", "__doc__", "__spec__", "__loader__", "__package__", "__path__",
     "__dict__", "__builtins__", "__cached__", "__all__")
)  # fmt: skip


@dataclass
class CodeTree:
    """One revision as verify reads it: the one tree protocol (`index.tree.CodeTree`),
    delegated to the revision's index, plus verify's questions about modules."""

    index: RepoIndex
    _tables: dict = field(default_factory=dict, repr=False, compare=False)  # lazy exports

    # -- the tree protocol, the index's -------------------------------------------------
    @property
    def roots(self) -> tuple[str, ...]:
        return self.index.roots

    @property
    def modules(self) -> dict[str, str]:
        return self.index.modules

    @property
    def paths(self) -> list[str]:
        return self.index.paths

    def exists(self, path: str) -> bool:
        return self.index.exists(path)

    def text(self, path: str) -> str | None:
        return self.index.text(path)

    def files_under(self, directory: str) -> list[str]:
        return self.index.files_under(directory)

    def module_of(self, path: str) -> str | None:
        return self.index.module_of(path)

    def is_module(self, name: str) -> bool:
        return self.index.is_module(name)

    def package_dir(self, name: str) -> str | None:
        return self.index.package_dir(name)

    def ast(self, path: str) -> ast.Module | None:
        return self.index.ast(path)

    def facts(self, path: str) -> CodeFacts | None:
        """Facts of any Python file; one outside the import roots resolves only absolute
        imports (its relative ones are left unresolved, hence unchecked)."""
        return self.index.facts(path)

    def deferred_unbound(self, path: str) -> list[tuple[int, str]]:
        """Later reads of names nothing binds (`index.facts.deferred_unbound`)."""
        return self.index.deferred_unbound(path)

    def prefetch(self, paths=None, deferred=frozenset()) -> None:
        """Parse `paths` (default: every Python file) now, on every core, when a check is
        about to read the facts of most of the tree, with `deferred_unbound` of those in
        `deferred` on the same parse; the answers are the same either way."""
        every = self.index.python_files() if paths is None else paths
        prefetch_facts(self.index, every, deferred=deferred)

    # -- verify's queries -----------------------------------------------------------------
    def module_facts(self, module: str) -> CodeFacts | None:
        path = self.index.modules.get(module)
        return self.facts(path) if path else None

    def python_files(self, only: set[str] | None = None) -> list[tuple[str, str]]:
        """(path, module or "") of every Python file (or those in `only`), scripts included."""
        paths = self.index.python_files()
        if only is not None:
            paths = [p for p in paths if p in only]
        return [(p, self.index.module_of(p) or "") for p in paths]

    @cached_property
    def own_tops(self) -> set[str]:
        """Top-level packages of the repo's own code: imports of these must resolve."""
        return {m.split(".")[0] for m in self.index.modules}

    def is_own(self, module: str) -> bool:
        return module.split(".")[0] in self.own_tops

    def binds(self, module: str, name: str) -> bool:
        """`from module import name` works: a submodule, a top-level binding, or dynamic."""
        return self.has_attr(module, name) is not False

    def has_attr(self, module: str, name: str, _seen: frozenset = frozenset()) -> bool | None:
        """Whether `module.name` exists: True, False, or None when it cannot be known
        statically (a module `__getattr__` or `globals()` writes, an unparsable file, a star
        import of a module that is not the repo's or is itself dynamic)."""
        if self.is_module(f"{module}.{name}") or name in MODULE_ATTRS:
            return True
        facts = self.module_facts(module)
        if facts is None:  # a namespace package has only submodules
            return False if module not in self.index.modules and self.is_module(module) else None
        if name in facts.names:
            return True
        attrs_dynamic = facts.attrs is not None and facts.attrs.dynamic  # sys.modules writes
        if facts.getattr_hook:  # a table-driven hook (its globals() cache is the table's)
            served = self._lazy_export(module, name, _seen)
            if served is not None:
                return served
        if facts.getattr_hook or facts.writes_globals or facts.star_unresolved or attrs_dynamic:
            return None
        for star in facts.star_imports:
            if star in _seen or not self.is_own(star) or not self.is_module(star):
                return None
            star_facts = self.module_facts(star)
            exported = star_facts.all_names if star_facts else None
            if name not in exported if exported is not None else name.startswith("_"):
                continue  # the star binds what `__all__` lists, else the public names
            found = self.has_attr(star, name, _seen | {module})
            if found is not False:
                return found
        return False

    def _lazy_export(self, module: str, name: str, seen: frozenset) -> bool | None:
        """What a module's lazy-export table says of `name` (index/exports.py): its owner
        has it or not; absent from a closed table, it is missing; otherwise unknown."""
        if module not in self._tables:
            path = self.index.modules.get(module)
            text = (self.index.text(path) or "") if path else ""
            try:
                self._tables[module] = lazy_table(ast.parse(text)) if "_EXPORTS" in text else None
            except (SyntaxError, ValueError):
                self._tables[module] = None
        table = self._tables[module]
        if table is None:
            return None
        if name not in table.entries:
            return False if table.closed else None
        owner = owner_module(table.entries[name], module, lambda top: top in self.own_tops)
        if not self.is_module(owner) or owner in seen:
            return False if not self.is_module(owner) else None
        return self.has_attr(owner, name, seen | {module})

    def module_alias(self, module: str, name: str) -> str | None:
        """The module `module.name` is, when `module` binds `name` by an import of one."""
        facts = self.module_facts(module)
        binding = facts.bindings.get(name) if facts else None
        target = binding.target if binding else None
        return target if target and target in self.index.modules else None
