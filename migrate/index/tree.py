"""The one tree protocol: what every stage reads of a tree of files and modules.

Two implementations, one contract: the checkout's index (`index.repo.RepoIndex`) and the
tree a ChangeSet leaves (`materialize.Tree`, which is also the view of an unchanged tree
read from git or from test fixtures). Rules, the target resolver, verify's checks and the
code facts all read a `CodeTree`, so they judge a checkout and a plan's result alike.

Paths are repo-relative posix strings; modules are dotted names, and both trees name
modules by one rule (`import_name`). `exists` asks about a path, `is_module` about a
module or (namespace) package.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left
from collections.abc import Iterable
from functools import cached_property
from typing import Protocol

from migrate.index.facts import CodeFacts, FactsCache

IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class CodeTree(Protocol):
    """What the code facts, the target resolver, the rules and verify read of a tree."""

    roots: tuple[str, ...]
    modules: dict[str, str]  # dotted -> path

    @property
    def paths(self) -> list[str]: ...  # every file, sorted
    def exists(self, path: str) -> bool: ...
    def text(self, path: str) -> str | None: ...
    def files_under(self, directory: str) -> list[str]: ...
    def module_of(self, path: str) -> str | None: ...
    def is_module(self, name: str) -> bool: ...  # a module or a (namespace) package
    def package_dir(self, name: str) -> str | None: ...
    def ast(self, path: str) -> ast.Module | None: ...
    def facts(self, path: str) -> CodeFacts | None: ...


def module_name(path: str, root: str) -> str | None:
    """Dotted module name of `path` under import root `root`, or None."""
    if not path.endswith(".py"):
        return None
    if root not in (".", ""):
        prefix = root.rstrip("/") + "/"
        if not path.startswith(prefix):
            return None
        path = path[len(prefix) :]
    parts = path[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    if not parts or not all(IDENT.match(p) for p in parts):
        return None
    return ".".join(parts)


def import_name(path: str, roots: tuple[str, ...]) -> tuple[str, str] | None:
    """(dotted module name, root) of `path` under the first of `roots` that names it,
    longest root first (with roots [".", "python"] a file under python/ is named
    relative to python/); None when it is not importable. Every tree names modules so."""
    for root in sorted(roots, key=lambda r: (r in (".", ""), -len(r))):
        name = module_name(path, root)
        if name is not None:
            return name, root
    return None


def stub_module(stub: str, roots: tuple[str, ...]) -> str | None:
    """The module a `.pyi` stub types (`pkg/mod.pyi` -> `pkg.mod`): its `.py` path's name."""
    hit = import_name(stub[:-1], roots) if stub.endswith(".pyi") else None
    return hit[0] if hit else None


def name_modules(paths: Iterable[str], roots: tuple[str, ...]) -> dict[str, str]:
    """dotted -> path of every importable Python file (the first path naming a module wins)."""
    modules: dict[str, str] = {}
    for path in paths:
        hit = import_name(path, roots) if path.endswith(".py") else None
        if hit is not None:
            modules.setdefault(hit[0], path)
    return modules


class TreeQueries(FactsCache):
    """The protocol's derived queries, for a tree that gives `paths`, `roots`, `modules`
    and `text`: one implementation of packages, package directories and listings."""

    @cached_property
    def packages(self) -> set[str]:
        """Every importable package: regular ones and namespace directories holding modules."""
        pkgs = {m.rsplit(".", i)[0] for m in self.modules for i in range(1, m.count(".") + 1)}
        pkgs.update(n for n, p in self.modules.items() if p.endswith("__init__.py"))
        return pkgs

    def is_package(self, name: str) -> bool:
        return name in self.packages

    def is_module(self, name: str) -> bool:
        return name in self.modules or name in self.packages

    def path_of(self, name: str) -> str | None:
        """The file of module `name` (an `__init__.py` for a regular package), or None."""
        return self.modules.get(name)

    def files_under(self, directory: str) -> list[str]:
        prefix = directory.rstrip("/") + "/"
        paths = self.paths  # sorted: the paths under `prefix` are one run, found by bisection
        start = bisect_left(paths, prefix)
        return paths[start : bisect_left(paths, prefix[:-1] + "0", start)]  # "0" follows "/"

    def package_dir(self, name: str) -> str | None:
        """Repo-relative directory of package `name` (regular or namespace) under the first
        root holding it."""
        init = self.modules.get(name)
        if init and init.endswith("__init__.py"):
            return init.rsplit("/", 1)[0] if "/" in init else "."
        rel = name.replace(".", "/")
        for root in self.roots:
            d = rel if root in (".", "") else f"{root}/{rel}"
            prefix, paths = d + "/", self.paths
            at = bisect_left(paths, prefix)  # sorted: the first path >= prefix, if any under it
            if at < len(paths) and paths[at].startswith(prefix):
                return d
        return None

    def submodules(self, package: str) -> list[str]:
        """Every module strictly inside `package` (recursive), sorted."""
        prefix = package + "."
        return sorted(m for m in self.modules if m.startswith(prefix))
