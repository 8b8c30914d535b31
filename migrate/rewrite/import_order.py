"""The order isort/ruff give imports (ruff's default `I` rules): the one definition the
import finaliser and the import layout pass both sort by.

Sections, a blank line apart: `__future__`, the standard library, third party, first
party (the repository's own top-level packages), local folder (relative imports). In a
section, plain `import` statements come before `from` ones; modules in case-insensitive
order, relative ones farthest parent first; statements of one module by their first
name, names ordered by type (CONSTANTS, Classes, the rest).
"""

from __future__ import annotations

import ast
import sys

FUTURE, STDLIB, THIRD_PARTY, FIRST_PARTY, LOCAL = range(5)


def section(node: ast.Import | ast.ImportFrom, first_party: frozenset[str]) -> int:
    """The isort section of an import statement."""
    if isinstance(node, ast.ImportFrom) and node.level:
        return LOCAL
    module = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
    top = (module or "").split(".")[0]
    if top == "__future__":
        return FUTURE
    if top in first_party:
        return FIRST_PARTY
    if top in sys.stdlib_module_names:
        return STDLIB
    return THIRD_PARTY


def key(node: ast.Import | ast.ImportFrom) -> tuple:
    """A statement's place in its section (`import` lines first, then `from` lines)."""
    if isinstance(node, ast.Import):
        return (0, 0, 0, node.names[0].name.lower(), ())
    level = node.level or 0
    first = node.names[0]
    return (1, 1 if level else 0, -level, (node.module or "").lower(), name_key(first.name))


def full_key(node: ast.Import | ast.ImportFrom, first_party: frozenset[str]) -> tuple:
    """Section first, then the place in it."""
    return (section(node, first_party), key(node))


def name_key(name: str) -> tuple:
    """ruff/isort `order-by-type`: CONSTANTS, Classes, then the rest; case-insensitive."""
    kind = 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2
    return (kind, name.lower())
