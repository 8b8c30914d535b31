"""One revision's code as the static checks see it: the index plus lazily parsed facts."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from migrate.index import RepoIndex
from migrate.verify.pyfacts import ModuleFacts, module_facts

MODULE_ATTRS = frozenset(
    ("__name__", "__file__", "__doc__", "__spec__", "__loader__", "__package__", "__path__",
     "__dict__", "__builtins__", "__cached__", "__all__")
)  # fmt: skip


@dataclass
class CodeTree:
    index: RepoIndex
    _facts: dict[str, ModuleFacts | None] = field(default_factory=dict, repr=False)

    def facts(self, module: str) -> ModuleFacts | None:
        path = self.index.modules.get(module)
        return self.path_facts(path) if path else None

    def path_facts(self, path: str) -> ModuleFacts | None:
        """Facts of any Python file; one outside the import roots resolves only absolute
        imports (its relative ones are left unresolved, hence unchecked)."""
        if path not in self._facts:
            text = self.index.text(path)
            module = self.index.module_of(path) or ""
            self._facts[path] = (
                module_facts(text, module, path.endswith("__init__.py")) if text else None
            )
        return self._facts[path]

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
        statically (a dynamic module, an unparsable file, a star import of one)."""
        if self.exists(f"{module}.{name}") or name in MODULE_ATTRS:
            return True
        facts = self.facts(module)
        if facts is None:
            return False if module not in self.index.modules and self.exists(module) else None
        if name in facts.names:
            return True
        if facts.dynamic:
            return None
        for star in facts.attrs.stars if facts.attrs else ():
            if name.startswith("_"):
                break
            if star in _seen or not self.is_own(star) or not self.exists(star):
                return None
            found = self.has_attr(star, name, _seen | {module})
            if found is not False:
                return found
        return False

    def attr_path(self, module: str, attrs: str) -> bool:
        """`module:a.b` resolves: `a` is bound; `b` too when `a` is a visible class."""
        head, _, rest = attrs.partition(".")
        if not self.binds(module, head):
            return False
        facts = self.facts(module)
        if rest and facts and head in facts.classes and not facts.dynamic:
            return rest.split(".")[0] in facts.classes[head]
        return True
