"""One revision's code as the static checks see it: queries over the index's code facts.

Not a model of its own: the facts are the index's (`RepoIndex.facts`, see
`migrate.index.facts`); this adds the questions verify asks of them (is a module the
repo's own, does `from module import name` work); registry targets resolve through
the one target resolver, `index.targets.Resolver`, on the same index).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from migrate.index import RepoIndex
from migrate.index.facts import CodeFacts, prefetch_facts

MODULE_ATTRS = frozenset(
    ("__name__", "__file__", "__doc__", "__spec__", "__loader__", "__package__", "__path__",
     "__dict__", "__builtins__", "__cached__", "__all__")
)  # fmt: skip


@dataclass
class CodeTree:
    index: RepoIndex

    def facts(self, module: str) -> CodeFacts | None:
        path = self.index.modules.get(module)
        return self.path_facts(path) if path else None

    def path_facts(self, path: str) -> CodeFacts | None:
        """Facts of any Python file; one outside the import roots resolves only absolute
        imports (its relative ones are left unresolved, hence unchecked)."""
        return self.index.facts(path)

    def prefetch(self, paths=None) -> None:
        """Parse `paths` (default: every Python file) now, on every core, when a check is
        about to read the facts of most of the tree; the facts are the same either way."""
        prefetch_facts(self.index, self.index.python_files() if paths is None else paths)

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

    def exists(self, module: str) -> bool:
        return self.index.exists(module)

    def binds(self, module: str, name: str) -> bool:
        """`from module import name` works: a submodule, a top-level binding, or dynamic."""
        return self.has_attr(module, name) is not False

    def has_attr(self, module: str, name: str, _seen: frozenset = frozenset()) -> bool | None:
        """Whether `module.name` exists: True, False, or None when it cannot be known
        statically (a module `__getattr__` or `globals()` writes, an unparsable file, a star
        import of a module that is not the repo's or is itself dynamic)."""
        if self.exists(f"{module}.{name}") or name in MODULE_ATTRS:
            return True
        facts = self.facts(module)
        if facts is None:  # a namespace package has only submodules
            return False if module not in self.index.modules and self.exists(module) else None
        if name in facts.names:
            return True
        attrs_dynamic = facts.attrs is not None and facts.attrs.dynamic  # sys.modules writes
        if facts.getattr_hook or facts.writes_globals or facts.star_unresolved or attrs_dynamic:
            return None
        for star in facts.star_imports:
            if star in _seen or not self.is_own(star) or not self.exists(star):
                return None
            star_facts = self.facts(star)
            exported = star_facts.all_names if star_facts else None
            if name.startswith("_") and (exported is None or name not in exported):
                continue
            found = self.has_attr(star, name, _seen | {module})
            if found is not False:
                return found
        return False

    def module_alias(self, module: str, name: str) -> str | None:
        """The module `module.name` is, when `module` binds `name` by an import of one."""
        facts = self.facts(module)
        binding = facts.bindings.get(name) if facts else None
        target = binding.target if binding else None
        return target if target and target in self.index.modules else None
