"""How a file spells imports of its own package: an import the rewrite adds follows it.

A file whose every import of its own top-level package is relative (`from ._result
import Result`) gets an added own-package import relative too (`from ._errors import
X`, not `from pluggy._errors import X`), as long as the relative spelling needs no more
leading dots than the file already uses (the relative-import rule of docs/rewrite.md).
Any absolute own-package import in the file, or none at all, keeps added ones absolute.
"""

from __future__ import annotations

import ast

from migrate.rewrite.relative import relative_spelling


def relative_depth(text: str, package: str) -> int:
    """The most leading dots the file's own-package imports use; 0 when any of them is
    absolute, when it has none, or when it does not parse."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return 0
    top = package.split(".")[0]
    depth = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            depth = max(depth, node.level)
        elif top in _absolute_tops(node):
            return 0
    return depth


def _absolute_tops(node: ast.AST) -> set[str]:
    if isinstance(node, ast.ImportFrom):
        return {(node.module or "").split(".")[0]}
    if isinstance(node, ast.Import):
        return {a.name.split(".")[0] for a in node.names}
    return set()


def in_file_style(stmt: str, package: str, depth: int) -> str:
    """`stmt` (`from X import ...`, X absolute) spelled relative to `package` when the
    file's style is relative (`depth`: `relative_depth`) and X is in its package."""
    if not depth or not package or not stmt.startswith("from "):
        return stmt
    module, sep, rest = stmt[len("from ") :].partition(" import ")
    if not sep or module.startswith("."):
        return stmt
    rel = relative_spelling(module, package)
    if rel is None or rel[0] > depth:
        return stmt
    return f"from {'.' * rel[0]}{rel[1]} import {rest}"
