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
from migrate.index.facts import CodeFacts


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
        if self.exists(f"{module}.{name}"):
            return True
        facts = self.facts(module)
        return facts is not None and (name in facts.names or facts.dynamic)
