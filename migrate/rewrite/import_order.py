"""The order isort/ruff give imports: the one model the import finaliser (added imports)
and the import layout pass (respelled, split, added statements) both place by.

Sections, a blank line apart: `__future__`, the standard library, third party, first
party (the repository's own top-level packages), local folder (relative imports). In a
section, plain `import` statements come before `from` ones (unless the project sorts
them together: force-sort-within-sections); modules in case-insensitive natural order,
relative ones farthest parent first; statements of one module by their first name,
names ordered by type (CONSTANTS, Classes, the rest). Every one of these follows the
project's own settings where it has them (`isort_config.py`): known-first-party and
the other known sections, src, force-sort-within-sections, case-sensitive,
order-by-type, force-single-line, combine-as-imports, lines-after-imports, line length.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass

from migrate.rewrite.isort_config import ImportStyle, StyleFinder

FUTURE, STDLIB, THIRD_PARTY, FIRST_PARTY, LOCAL = range(5)
_DIGITS = re.compile(r"(\d+)")


def first_party_names(index, relocation, src: tuple[str, ...] | None = None) -> frozenset[str]:
    """The repository's own top-level names, as ruff finds them: the modules and packages
    at the top of each of `src` (None: ruff's default `[".", "src"]` and the import roots,
    with the top-level packages of every module the index and the relocation know)."""
    if src is None:
        roots = {""} | {f"{r.strip('/')}/" for r in (*index.roots, "src") if r not in ("", ".")}
        out = {m.split(".")[0] for m in [*index.modules, *relocation.moved_modules.values()]}
    else:
        roots = {f"{r}/" if r else "" for r in src}
        out = {m.split(".")[0] for m in relocation.moved_modules.values()}
    for path in index.files:
        if not path.endswith(".py"):
            continue
        for root in roots:
            if path.startswith(root):
                top = path[len(root) :].split("/")[0].removesuffix(".py")
                if top.isidentifier():
                    out.add(top)
    return frozenset(out)


def _natural(s: str) -> tuple:
    """ruff's natural order: digit runs compare as numbers (`mod2` before `mod10`)."""
    return tuple(int(p) if i % 2 else p for i, p in enumerate(_DIGITS.split(s)))


@dataclass(frozen=True)
class ImportOrder:
    """Where an import statement sorts, for one file: its repository's first-party names
    and its project's settings."""

    first_party: frozenset[str] = frozenset()
    style: ImportStyle = ImportStyle()

    def section(self, node: ast.Import | ast.ImportFrom) -> int:
        """The isort section of an import statement."""
        if isinstance(node, ast.ImportFrom) and node.level:
            return LOCAL
        module = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
        module = module or ""
        top = module.split(".")[0]
        if top == "__future__":
            return FUTURE
        known = self._known(module)
        if known is not None:
            return known
        if top in self.first_party:
            return FIRST_PARTY
        if top in sys.stdlib_module_names:
            return STDLIB
        return THIRD_PARTY

    def _known(self, module: str) -> int | None:
        """The section a known-* setting gives `module` (its longest listed prefix)."""
        s = self.style
        tables = (
            (s.known_first_party, FIRST_PARTY),
            (s.known_third_party, THIRD_PARTY),
            (s.known_local_folder, LOCAL),
            (s.extra_standard_library, STDLIB),
        )
        parts = module.split(".")
        for n in range(len(parts), 0, -1):
            prefix = ".".join(parts[:n])
            for names, sec in tables:
                if prefix in names:
                    return sec
        return None

    def _text_key(self, name: str) -> tuple:
        lower = () if self.style.case_sensitive else _natural(name.lower())
        return (lower, _natural(name))

    def name_key(self, name: str, asname: str | None = None) -> tuple:
        """A name's place in a `from` import: ruff's member key (order-by-type: CONSTANTS,
        Classes, the rest), then case-insensitive natural order, then the alias."""
        if self.style.order_by_type:
            kind = 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2
        else:
            kind = 0
        return (name != "*", kind, self._text_key(name), asname or "")

    def key(self, node: ast.Import | ast.ImportFrom) -> tuple:
        """A statement's place in its section (`import` lines first, then `from` lines,
        unless force-sort-within-sections sorts them by module together)."""
        if isinstance(node, ast.Import):
            alias = node.names[0]
            return (0, 0, 0, self._text_key(alias.name), (), alias.asname or "")
        level = node.level or 0
        first = node.names[0]
        kind = 0 if self.style.force_sort_within_sections else 1
        module = self._text_key(node.module or "")
        return (kind, 1 if level else 0, -level, module, self.name_key(first.name, first.asname))

    def full_key(self, node: ast.Import | ast.ImportFrom) -> tuple:
        """Section first, then the place in it."""
        return (self.section(node), self.key(node))

    def names_sorted(self, names: list[ast.alias]) -> bool:
        """Whether a `from` import's names are in this order."""
        keys = [self.name_key(a.name, a.asname) for a in names]
        return keys == sorted(keys)

    def mergeable(self, node: ast.stmt) -> bool:
        """Whether isort would combine `node` with another `from` import of its module:
        no star, no alias unless combine-as-imports, never under force-single-line."""
        if not isinstance(node, ast.ImportFrom) or self.style.force_single_line:
            return False
        return not any(
            a.name == "*" or (a.asname and not self.style.combine_as) for a in node.names
        )

    @property
    def line_length(self) -> int:
        return self.style.line_length


def file_package(tree, path: str) -> str | None:
    """The top of the package holding `path` (its directory and each parent with an
    `__init__.py`): ruff counts it first party for the file whatever its src says."""
    parts = path.split("/")[:-1]
    top = None
    while parts and tree.exists("/".join([*parts, "__init__.py"])):
        top = parts[-1]
        parts = parts[:-1]
    return top


class Orders:
    """The import order of each file of one run (settings read once per directory)."""

    def __init__(self, index, relocation):
        self._index, self._relocation = index, relocation
        self._styles = StyleFinder(index)
        self._first_party: dict[tuple[str, ...] | None, frozenset[str]] = {}

    def of(self, path: str) -> ImportOrder:
        """The order for the file at `path` (an existing file or one the plan creates)."""
        style = self._styles.style_of(path)
        if style.src not in self._first_party:
            self._first_party[style.src] = first_party_names(
                self._index, self._relocation, style.src
            )
        first_party = self._first_party[style.src]
        own = file_package(self._index, path) if style.src is not None else None
        if own and own not in first_party:
            first_party = first_party | {own}
        return ImportOrder(first_party, style)


def orders_by_dir(index, relocation) -> dict[str, ImportOrder]:
    """Directory -> the import order of the Python files in it (each file's own settings
    and first party depend on its directory only)."""
    orders = Orders(index, relocation)
    dirs = {p.rsplit("/", 1)[0] if "/" in p else "" for p in index.files if p.endswith(".py")}
    return {d: orders.of(f"{d}/_.py" if d else "_.py") for d in sorted(dirs)}
