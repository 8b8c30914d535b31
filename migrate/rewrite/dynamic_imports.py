"""Module names computed at run time under a package that loses modules (trial23 T26).

`importlib.import_module("." + name, "pkg.old")`, `import_module(f"pkg.old.{name}")`,
`__import__("pkg.old." + name)`: no rewrite can follow a name built at run time, so
when modules move out of `pkg.old` (which stays) or are renamed in it, such a call gets
a review note naming them. A literal full name is the strings pass's (it is respelled).
"""

from __future__ import annotations

import ast
import re

from migrate.errors import Diagnostic
from migrate.index.calls import IMPORT_CALLS, callee_name
from migrate.index.literal import str_literal
from migrate.index.repo import RepoIndex
from migrate.relocate import Relocation
from migrate.rewrite.spans import ast_offset, line_starts, note_at

_CALL = re.compile(r"\b(?:import_module|__import__)\s*\(")


def _may_call(text: str) -> bool:
    """`_CALL` found in `text`; the plain substring tests first (every match spells one of
    them): the regex alone tries each position of every Python file (~1 CPU-s on SGLang)."""
    return ("import_module" in text or "__import__" in text) and _CALL.search(text) is not None


def losing_packages(rel: Relocation) -> dict[str, list[str]]:
    """package -> `leaf -> new module` for the modules that leave it or are renamed in
    it while it stays (either way its computed names no longer find them)."""
    out: dict[str, list[str]] = {}
    for old, new in sorted(rel.moved_modules.items()):
        package, _, leaf = old.rpartition(".")
        stays = package and rel.module(package) in (None, package)
        if stays and new != old:
            out.setdefault(package, []).append(f"{leaf} -> {new}")
    return out


def _computed_package(call: ast.Call) -> str | None:
    """The package a computed module name of `call` starts in: the literal head of an
    f-string or a `+`, or the `package` argument of a relative name; None for a
    literal name (the strings pass's) or nothing readable."""
    first = call.args[0] if call.args else None
    package = str_literal(call.args[1]) if len(call.args) > 1 else None
    package = next((str_literal(k.value) for k in call.keywords if k.arg == "package"), package)
    head = None
    if isinstance(first, ast.JoinedStr) and first.values:
        head = str_literal(first.values[0])
    elif isinstance(first, ast.BinOp) and isinstance(first.op, ast.Add):
        left = first.left
        while isinstance(left, ast.BinOp) and isinstance(left.op, ast.Add):
            left = left.left
        head = str_literal(left)
    elif first is not None and str_literal(first) is None:
        return package  # a name computed whole: relative to `package`, if any
    if head is None:
        return None
    if head.startswith("."):
        return package
    return head.rpartition(".")[0] if "." in head else None


def dynamic_import_notes(index: RepoIndex, rel: Relocation) -> list[Diagnostic]:
    losing = losing_packages(rel)
    if not losing:
        return []
    out = []
    for path, info in sorted(index.files.items()):
        if not info.is_python or info.is_symlink:
            continue
        text = index.text(path) or ""
        if not _may_call(text) or not any(p in text for p in losing):
            continue
        tree = index.ast(path)
        for node in ast.walk(tree) if tree is not None else ():
            if not isinstance(node, ast.Call):
                continue
            package = _computed_package(node) if callee_name(node) in IMPORT_CALLS else None
            if package not in losing:
                continue
            gone = ", ".join(losing[package])
            why = (
                f"modules renamed in or moved out of {package} ({gone}): a module name "
                "computed at run time here no longer finds them; review by hand"
            )
            at = ast_offset(text, line_starts(text), node.lineno, node.col_offset)
            out.append(note_at(rel.files.get(path, path), text, at, why, "warning"))
    return out
