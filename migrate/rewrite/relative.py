"""Relative imports: resolve with the file's OLD package, spell with its NEW one.

The rule (docs/rewrite.md): a relative import is resolved to an absolute name using the
package the file lived in before the plan, relocated like any absolute name, then spelled
relative to the package the file lives in after the plan. The relative spelling is kept
when it needs no more leading dots than the original had; otherwise the import becomes
absolute. So files that move together with their targets keep their relative imports
unchanged, and an import never starts climbing out of the package it used to stay in.
"""

from __future__ import annotations

from migrate.index.imports import resolve_relative as resolve

__all__ = ["relative_spelling", "resolve", "spell"]


def relative_spelling(target: str, package: str) -> tuple[int, str] | None:
    """(level, dotted tail) naming `target` from inside `package`, or None if they share
    no top-level package."""
    t, p = target.split("."), package.split(".")
    common = 0
    while common < min(len(t), len(p)) and t[common] == p[common]:
        common += 1
    if common == 0:
        return None
    return len(p) - common + 1, ".".join(t[common:])


def spell(target: str, new_package: str | None, old_level: int) -> str:
    """The module part of a `from X import` for `target`: relative when the rule allows."""
    if old_level and new_package:
        rel = relative_spelling(target, new_package)
        if rel is not None and rel[0] <= old_level:
            return "." * rel[0] + rel[1]
    return target
