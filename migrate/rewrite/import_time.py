"""What a module's top level does when it is imported, in order: the import-time events.

A pure function of a file's text and its package (relative imports resolve against it),
so the events a rewrite worker computed for a text it already parsed are exactly what
the cycle check (`import_cycles.py`) would compute again: `key` names a text and package,
and the check looks events up by key before parsing.
"""

from __future__ import annotations

import ast
import hashlib
from dataclasses import dataclass

from migrate.index.imports import is_type_checking
from migrate.rewrite import relative


@dataclass(frozen=True)
class Event:
    kind: str  # "bind" | "import" | "from"
    line: int
    module: str | None = None
    names: tuple[tuple[str, str], ...] = ()  # (imported name, local name)
    guarded: bool = False


Key = tuple[str, "str | None"]

_CATCH = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


def key(text: str, package: str | None) -> Key:
    """The memo key of `events(text, package)` (a digest: texts cross process pipes)."""
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16)
    return digest.hexdigest(), package


def events(text: str, package: str | None, tree: ast.Module | None = None) -> list[Event]:
    """Import-time effects of a module's top level, in order (`tree`: `text` parsed)."""
    if tree is None:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            return []
    out: list[Event] = []
    _walk(tree.body, package, False, out)
    return out


def _catches_import_error(node: ast.Try) -> bool:
    for h in node.handlers:
        if h.type is None:
            return True
        types = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]
        if any(isinstance(t, ast.Name) and t.id in _CATCH for t in types):
            return True
    return False


def _walk(body: list[ast.stmt], package: str | None, guarded: bool, out: list[Event]) -> None:
    for node in body:
        if isinstance(node, ast.Import):
            for a in node.names:
                local = a.asname or a.name.split(".")[0]
                out.append(Event("import", node.lineno, a.name, ((a.name, local),), guarded))
        elif isinstance(node, ast.ImportFrom):
            base = relative.resolve(package, node.level, node.module) if node.level else node.module
            if base is None or base == "__future__":
                continue
            names = tuple((a.name, a.asname or a.name) for a in node.names)
            out.append(Event("from", node.lineno, base, names, guarded))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append(Event("bind", node.lineno, names=((node.name, node.name),)))
        elif isinstance(node, ast.If):
            if not is_type_checking(node.test):
                _walk(node.body, package, guarded, out)
            _walk(node.orelse, package, guarded, out)
        elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            _walk(node.body, package, guarded or _catches_import_error(node), out)
            for h in node.handlers:
                _walk(h.body, package, guarded, out)
            _walk(node.orelse + node.finalbody, package, guarded, out)
        elif isinstance(node, (ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While)):
            _walk(node.body, package, guarded, out)
        else:
            bound = {
                n.id
                for n in ast.walk(node)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
            }
            if bound:
                out.append(Event("bind", node.lineno, names=tuple((b, b) for b in bound)))
