"""The tree the rules read: path -> text plus module names, from a repo or a plan's result.

Rules never touch the disk. A `Tree` is built either from a `RepoIndex` (the checkout as
it is) or from the materialized tree a `ChangeSet` leaves (`materialize`), so `migrate
check --plan` judges the post-migration tree before anything is written. It implements
the one tree protocol (`index.facts.CodeTree`) as the index does: module names by the
same rule (`index.repo.import_name`), the same cached code facts and target resolver.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from migrate.changes import ChangeSet
from migrate.index.facts import FactsCache
from migrate.index.repo import RepoIndex, import_name
from migrate.materialize import materialize


class Tree(FactsCache):
    """A read-only view: sorted repo-relative paths, lazily read text, cached ASTs and
    code facts (`facts(path)`, the same layer as `RepoIndex.facts`)."""

    def __init__(
        self, paths: Iterable[str], read: Callable[[str], str | None], roots=(".",)
    ) -> None:
        self.paths: list[str] = sorted(set(paths))
        self._path_set = set(self.paths)
        self.roots: tuple[str, ...] = tuple(r.rstrip("/") or "." for r in roots)
        self._read = read
        self._text: dict[str, str | None] = {}
        self.modules: dict[str, str] = {}  # dotted -> path
        self._packages: set[str] | None = None  # every dotted prefix of a module
        self.module_by_path: dict[str, str] = {}
        for path in self.paths:
            hit = import_name(path, self.roots)
            if hit is not None:
                self.modules.setdefault(hit[0], path)
                self.module_by_path[path] = hit[0]

    def text(self, path: str) -> str | None:
        if path not in self._text:
            self._text[path] = self._read(path) if path in self._path_set else None
        return self._text[path]

    def exists(self, path: str) -> bool:
        return path in self._path_set

    def files_under(self, directory: str) -> list[str]:
        prefix = directory.rstrip("/") + "/"
        return [p for p in self.paths if p.startswith(prefix)]

    def module_of(self, path: str) -> str | None:
        return self.module_by_path.get(path)

    def package_dir(self, name: str) -> str | None:
        """Directory of package `name` (regular or namespace) under the first root holding it."""
        init = self.modules.get(name)
        if init and init.endswith("__init__.py"):
            return init.rsplit("/", 1)[0] if "/" in init else "."
        rel = name.replace(".", "/")
        for root in self.roots:
            d = rel if root in (".", "") else f"{root}/{rel}"
            if self.files_under(d):
                return d
        return None

    def is_module(self, name: str) -> bool:
        """True for a module or a package (namespace packages included)."""
        if self._packages is None:
            self._packages = {
                m.rsplit(".", i)[0] for m in self.modules for i in range(1, m.count(".") + 1)
            }
        return name in self.modules or name in self._packages


def tree_from_index(index: RepoIndex) -> Tree:
    return Tree(index.files, index.text, index.roots)


def virtual_tree(index: RepoIndex, changeset: ChangeSet) -> Tree:
    """The tree `changeset` would produce from `index`, without writing anything: a view
    of the one materializer (`migrate.materialize`)."""
    result = materialize(changeset, index)
    return Tree(result.paths, result.text, index.roots)
