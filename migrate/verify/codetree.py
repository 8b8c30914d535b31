"""One revision's code as the static checks see it: the index plus lazily parsed facts."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from migrate.index import RepoIndex
from migrate.verify.pyfacts import ModuleFacts, module_facts


@dataclass
class CodeTree:
    index: RepoIndex
    _facts: dict[str, ModuleFacts | None] = field(default_factory=dict, repr=False)

    def facts(self, module: str) -> ModuleFacts | None:
        if module not in self._facts:
            path = self.index.modules.get(module)
            text = self.index.text(path) if path else None
            self._facts[module] = (
                module_facts(text, module, path.endswith("__init__.py")) if text else None
            )
        return self._facts[module]

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

    def attr_path(self, module: str, attrs: str) -> bool:
        """`module:a.b` resolves: `a` is bound; `b` too when `a` is a visible class."""
        head, _, rest = attrs.partition(".")
        if not self.binds(module, head):
            return False
        facts = self.facts(module)
        if rest and facts and head in facts.classes and not facts.dynamic:
            return rest.split(".")[0] in facts.classes[head]
        return True
