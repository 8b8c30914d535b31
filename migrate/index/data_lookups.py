"""The files a module finds next to itself: literal paths built from its own location.

`data_lookups(tree)` reads `os.path.join(os.path.dirname(__file__), "a", "b")`,
`Path(__file__).parent / "a"`, `.with_name("a")`, `.joinpath("a", "b")`,
`importlib.resources.files(__package__) / "a"` (or `__name__`), and the resource readers
given the module's own package (`pkgutil.get_data(__package__, "a/b")`,
`read_text`/`read_binary`/`open_text`/`open_binary`/`path`/`is_resource`), directly or
through a name the module binds once to such a location (`HERE = dirname(__file__)`).
Also a package named by its literal name (`files("pkg.sub") / "a"`, `get_data("pkg.sub",
"a")`), the module's own name with another suffix (`Path(__file__).with_suffix(".json")`,
`splitext(__file__)[0] + ".json"`) and paths in f-strings (`f"{HERE}/a/b"`).

Each lookup is the path relative to the module's directory (`..` for a parent); one
relative to a package named by its name starts `<pkg.sub>`, and `<>` stands for the
module's file name without its suffix (`<>.json`): `target` resolves them in a tree. A
tail that is not a literal ends it at its literal prefix (`join(HERE, "configs", name)`
and `join(HERE, f"configs/{name}")` look up `configs`); nothing is built on a lookup
so ended (`join(join(HERE, name), "x")` looks up nothing).

It is verify's own reader, apart from the rewriter's (`rewrite/data_paths.py`), so the
oracle does not share the engine's blind spots; a code fact (`CodeFacts.lookups`), read
in the same parse, only for files whose text can hold one (`MARKER`).
"""

from __future__ import annotations

import ast
import posixpath
import re

from migrate.index.literal import str_literal

MARKER = re.compile(
    r"__file__|\b(?:files|get_data|read_text|read_binary|open_text|open_binary|path|is_resource)"
    r"\(\s*(?:__(?:package|name)__\b|[\"'][A-Za-z_][\w.]*[\"']\s*[,)])"
)
_DOTTED = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$")
STEM = "<>"  # the module's file name without its suffix
_SAME = frozenset(("abspath", "realpath", "normpath"))
_PATH_CLASSES = frozenset(("Path", "PurePath", "PosixPath", "PurePosixPath"))
_READERS = frozenset(
    ("get_data", "read_text", "read_binary", "open_text", "open_binary", "path", "is_resource")
)
_FILE = "<file>"  # the module's own file: only its parent or siblings are looked up


def _name(func: ast.AST) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _literal(node: ast.AST) -> str | None:
    """A relative path named by a literal (an absolute one is no package data)."""
    value = str_literal(node)
    return None if not value or value.startswith("/") else value


def _package(node: ast.AST) -> str | None:
    """The location of the package `node` names: `.` for the module's own
    (`__package__`, `__name__`), `<pkg.sub>` for a literal name."""
    if isinstance(node, ast.Name) and node.id in ("__package__", "__name__"):
        return "."
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return f"<{node.value}>" if _DOTTED.match(node.value) else None
    return None


def _prefix_dirs(node: ast.AST) -> str:
    """The whole directories an f-string starts with (`f"a/b/{x}.txt"` gives `a/b`)."""
    text = ""
    for value in node.values if isinstance(node, ast.JoinedStr) else ():
        if not isinstance(value, ast.Constant):
            break
        text += value.value
    return "" if text.startswith("/") else text.rpartition("/")[0]


def _joined_path(loc: str, text: str) -> str | None:
    """`loc` joined with `text`, normalized; None where `..` climbs out of a package
    named by its name (its directory's parent is not known from the text)."""
    out = posixpath.normpath(posixpath.join(loc, text))
    if loc.startswith("<"):
        anchor = loc.partition("/")[0]
        return out if out == anchor or out.startswith(anchor + "/") else None
    return out


def _join(loc: str | None, parts: list[ast.AST]) -> tuple[str | None, bool]:
    """(`loc` joined with the literal parts up to the first that is not one, and the
    whole directories an f-string part starts with; whether all were literal)."""
    if loc is None or loc == _FILE or loc.startswith(STEM):
        return None, False
    for part in parts:
        text = _literal(part)
        if text is None:
            dirs = _prefix_dirs(part)
            return (_joined_path(loc, dirs) if dirs else loc), False
        loc = _joined_path(loc, text)
        if loc is None:
            return None, False
    return loc, True


def _parent(loc: str | None) -> str | None:
    if loc is None or loc.startswith(STEM):
        return None
    return "." if loc == _FILE else _joined_path(loc, "..")


def _with_suffix(loc: str | None, suffix: ast.AST) -> str | None:
    """`loc` with its last name's suffix replaced (`with_suffix(".json")`)."""
    if not (isinstance(suffix, ast.Constant) and isinstance(suffix.value, str)):
        return None
    if loc == _FILE:
        return STEM + suffix.value
    if loc is None or loc.startswith(STEM) or loc.rpartition("/")[2] in ("", ".", ".."):
        return None
    return posixpath.splitext(loc)[0] + suffix.value


class _Locations:
    """Evaluates expressions to a location relative to the module's directory."""

    def __init__(self, names: dict[str, ast.AST]):
        self.names = names
        self.partial = False  # the last `at` stopped at a part that is not a literal
        self._seen: set[str] = set()

    def at(self, node: ast.AST) -> str | None:
        self.partial = False
        return self._at(node)

    def _base(self, node: ast.AST) -> str | None:
        """The location a lookup builds on: none when it ended at a non-literal part."""
        loc = self._at(node)
        return None if self.partial else loc

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
            return _parent(self._base(node.value))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            return self._joined(self._base(node.left), [node.right])
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self._added(self._base(node.left), node.right)
        if isinstance(node, ast.JoinedStr):
            return self._fstring(node)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call):
            return self._stem(node)
        if isinstance(node, ast.Call):
            return self._call(node)
        return None

    def _added(self, loc: str | None, right: ast.AST) -> str | None:
        """`splitext(__file__)[0] + ".json"`, `HERE + "/a"`."""
        text = right.value if isinstance(right, ast.Constant) else None
        if loc is None or not isinstance(text, str) or not text:
            return None
        if loc == STEM:
            return None if "/" in text else STEM + text
        if text.startswith("/") and not loc.startswith(STEM) and loc != _FILE:
            return self._joined(loc, [ast.Constant(text.lstrip("/"))])
        return None

    def _fstring(self, node: ast.JoinedStr) -> str | None:
        """`f"{HERE}/a/b"`: a location, then literal text up to the next placeholder."""
        first, rest = node.values[0], node.values[1:]
        if not isinstance(first, ast.FormattedValue) or first.format_spec or first.conversion > 0:
            return None
        loc = self._base(first.value)
        text = rest[0].value if rest and isinstance(rest[0], ast.Constant) else ""
        if loc is None or loc == _FILE or not text.startswith("/"):
            return None
        if len(rest) == 1:
            return self._joined(loc, [ast.Constant(text.lstrip("/"))])
        self.partial = True
        dirs = text.lstrip("/").rpartition("/")[0]
        return _joined_path(loc, dirs) if dirs and not loc.startswith(STEM) else loc

    def _stem(self, node: ast.Subscript) -> str | None:
        """`os.path.splitext(__file__)[0]`: the module's file without its suffix."""
        call, index = node.value, node.slice
        if _name(call.func) != "splitext" or len(call.args) != 1:
            return None
        if not (isinstance(index, ast.Constant) and index.value == 0):
            return None
        return STEM if self._base(call.args[0]) == _FILE else None

    def _call(self, node: ast.Call) -> str | None:
        name, args = _name(node.func), node.args
        method = isinstance(node.func, ast.Attribute)
        plain = not method or _is_os_path(node.func)  # `dirname(x)`, `os.path.dirname(x)`
        if name == "dirname" and plain and len(args) == 1:
            return _parent(self._base(args[0]))
        if name in _SAME and plain and len(args) == 1:
            return self._at(args[0])
        if name == "join" and plain and args:
            return self._joined(self._base(args[0]), args[1:])
        if name in _PATH_CLASSES and args:
            if len(args) == 1:
                return self._at(args[0])
            return self._joined(self._base(args[0]), args[1:])
        if name == "files" and len(args) == 1:
            return _package(args[0])
        if not method:
            return None
        if name in ("resolve", "absolute") and not args:
            return self._at(node.func.value)
        if name == "with_name" and len(args) == 1:
            return _join(_parent(self._base(node.func.value)), args)[0]
        if name == "with_suffix" and len(args) == 1:
            return _with_suffix(self._base(node.func.value), args[0])
        if name == "joinpath":
            return self._joined(self._base(node.func.value), args)
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
    """`get_data(__package__, "a/b")`, `get_data("pkg.sub", "a/b")` and the other
    resource readers: the path read."""
    if _name(node.func) not in _READERS or len(node.args) != 2:
        return None
    package, text = _package(node.args[0]), _literal(node.args[1])
    return _joined_path(package, text) if package and text else None


def data_lookups(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, path relative to the module's directory) of each lookup, outermost first:
    `Path(__file__).parent / "a" / "b"` is one lookup of `a/b`, not also one of `a`."""
    locs = _Locations(_bound_once(tree))
    out: list[tuple[int, str]] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Call, ast.BinOp, ast.Attribute, ast.JoinedStr, ast.Subscript)):
            found = _reader(node) if isinstance(node, ast.Call) else None
            loc = found or locs.at(node)
            if loc is not None and loc not in (_FILE, STEM) and set(loc.split("/")) - {".", ".."}:
                out.append((node.lineno, loc))
                if not locs.partial:
                    continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return sorted(set(out))
