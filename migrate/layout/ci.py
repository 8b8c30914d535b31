"""CI registration calls as CI sees them: top-level bare-name `register_*_ci(...)` calls."""

from __future__ import annotations

import ast
import re

_REGISTER = re.compile(r"^register_[a-z0-9]+_ci$")


def ci_registrations(tree: ast.Module) -> list[ast.Call]:
    out = []
    for stmt in tree.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            f = stmt.value.func
            if isinstance(f, ast.Name) and _REGISTER.match(f.id):
                out.append(stmt.value)
    return out


def main_block(tree: ast.Module) -> ast.If | None:
    """The top-level `if __name__ == "__main__":` block, if any."""
    for stmt in tree.body:
        if isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Compare):
            t = stmt.test
            parts = [t.left, *t.comparators]
            if any(isinstance(p, ast.Name) and p.id == "__name__" for p in parts) and any(
                isinstance(p, ast.Constant) and p.value == "__main__" for p in parts
            ):
                return stmt
    return None
