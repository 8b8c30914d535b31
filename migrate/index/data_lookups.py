"""The files a module finds next to itself: literal paths built from its own location.

`data_lookups(tree)` reads `os.path.join(os.path.dirname(__file__), "a", "b")`,
`Path(__file__).parent / "a"`, `.with_name("a")`, `.joinpath("a", "b")`,
`importlib.resources.files(__package__) / "a"` (or `__name__`), and the resource readers
given the module's own package (`pkgutil.get_data(__package__, "a/b")`,
`read_text`/`read_binary`/`open_text`/`open_binary`/`path`/`is_resource`), directly or
through a name the module binds once to such a location (`HERE = dirname(__file__)`).
Each lookup is the path relative to the module's directory (`..` for a parent); a tail
that is not a literal ends it (`join(HERE, "configs", name)` looks up `configs`).

It is verify's own reader, apart from the rewriter's (`rewrite/data_paths.py`), so the
oracle does not share the engine's blind spots; a code fact (`CodeFacts.lookups`), read
in the same parse, only for files whose text can hold one (`MARKER`).
"""

from __future__ import annotations

import ast
import posixpath
import re

MARKER = re.compile(
    r"__file__|\b(?:files|get_data|read_text|read_binary|open_text|open_binary|path|is_resource)"
    r"\(\s*__(?:package|name)__\b"
)
_SAME = frozenset(("abspath", "realpath", "normpath"))
_PATH_CLASSES = frozenset(("Path", "PurePath", "PosixPath", "PurePosixPath"))
_READERS = frozenset(
    ("get_data", "read_text", "read_binary", "open_text", "open_binary", "path", "is_resource")
)
_FILE = "<file>"  # the module's own file: only its parent or siblings are looked up


def _name(func: ast.AST) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _literal(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value:
        return None if node.value.startswith("/") else node.value
    return None


def _own_package(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id in ("__package__", "__name__")


def _join(loc: str | None, parts: list[ast.AST]) -> tuple[str | None, bool]:
    """(`loc` joined with the literal parts up to the first that is not one, whether all
    were literal)."""
    if loc is None or loc == _FILE:
        return None, False
    for part in parts:
        text = _literal(part)
        if text is None:
            return loc, False
        loc = posixpath.normpath(posixpath.join(loc, text))
    return loc, True


def _parent(loc: str | None) -> str | None:
    if loc is None:
        return None
    return "." if loc == _FILE else posixpath.normpath(posixpath.join(loc, ".."))


class _Locations:
    """Evaluates expressions to a location relative to the module's directory."""

    def __init__(self, names: dict[str, ast.AST]):
        self.names = names
        self.partial = False  # the last `at` stopped at a part that is not a literal
        self._seen: set[str] = set()

    def at(self, node: ast.AST) -> str | None:
        self.partial = False
        return self._at(node)

    def _at(self, node: ast.AST) -> str | None:
        if isinstance(node, ast.Name):
            if node.id == "__file__":
                return _FILE
            value = self.names.get(node.id)
            if value is None or node.id in self._seen:
                return None
            self._seen.add(node.id)
            try:
                return self._at(value)
            finally:
                self._seen.discard(node.id)
        if isinstance(node, ast.Attribute) and node.attr == "parent":
            return _parent(self._at(node.value))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            loc = self._at(node.left)
            joined, whole = _join(loc, [node.right])
            self.partial |= not whole
            return joined if whole else None
        if isinstance(node, ast.Call):
            return self._call(node)
        return None

    def _call(self, node: ast.Call) -> str | None:
        name, args = _name(node.func), node.args
        method = isinstance(node.func, ast.Attribute)
        plain = not method or _is_os_path(node.func)  # `dirname(x)`, `os.path.dirname(x)`
        if name == "dirname" and plain and len(args) == 1:
            return _parent(self._at(args[0]))
        if name in _SAME and plain and len(args) == 1:
            return self._at(args[0])
        if name == "join" and plain and args:
            return self._joined(self._at(args[0]), args[1:])
        if name in _PATH_CLASSES and args:
            loc = self._at(args[0])
            return loc if len(args) == 1 else self._joined(loc, args[1:])
        if name == "files" and len(args) == 1 and _own_package(args[0]):
            return "."
        if not method:
            return None
        if name in ("resolve", "absolute") and not args:
            return self._at(node.func.value)
        if name == "with_name" and len(args) == 1:
            return _join(_parent(self._at(node.func.value)), args)[0]
        if name == "joinpath":
            return self._joined(self._at(node.func.value), args)
        return None

    def _joined(self, loc: str | None, parts: list[ast.AST]) -> str | None:
        joined, whole = _join(loc, parts)
        self.partial |= not whole
        return joined


def _is_os_path(func: ast.AST) -> bool:
    """`os.path.<name>`, `path.<name>` (`from os import path`), `posixpath.<name>`."""
    if not isinstance(func, ast.Attribute):
        return False
    v = func.value
    return (isinstance(v, ast.Attribute) and v.attr == "path") or (
        isinstance(v, ast.Name) and v.id in ("path", "posixpath")
    )


def _bound_once(tree: ast.Module) -> dict[str, ast.AST]:
    """name -> value of the module-level `name = value` statements whose name nothing
    else in the file binds (a location read through it is the value's)."""
    stores: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, ast.arg):
            stores[node.arg] = stores.get(node.arg, 0) + 1
    out = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            t = stmt.targets[0]
            if isinstance(t, ast.Name) and stores.get(t.id) == 1:
                out[t.id] = stmt.value
    return out


def _reader(node: ast.Call) -> str | None:
    """`get_data(__package__, "a/b")` and the other resource readers: the path read."""
    if _name(node.func) in _READERS and len(node.args) == 2 and _own_package(node.args[0]):
        text = _literal(node.args[1])
        return posixpath.normpath(text) if text else None
    return None


def data_lookups(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, path relative to the module's directory) of each lookup, outermost first:
    `Path(__file__).parent / "a" / "b"` is one lookup of `a/b`, not also one of `a`."""
    locs = _Locations(_bound_once(tree))
    out: list[tuple[int, str]] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Call, ast.BinOp, ast.Attribute)):
            found = _reader(node) if isinstance(node, ast.Call) else None
            loc = found or locs.at(node)
            if loc is not None and loc != _FILE and set(loc.split("/")) - {".", ".."}:
                out.append((node.lineno, loc))
                if not locs.partial:
                    continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return sorted(set(out))
