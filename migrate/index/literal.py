"""The value of a string literal in the syntax tree, or None: one spelling of the test
for every reader of literal names (attribute names, module names, data paths)."""

from __future__ import annotations

import ast


def str_literal(node: ast.AST | None) -> str | None:
    """`node`'s value when it is a plain string constant (not bytes, not an f-string)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None
