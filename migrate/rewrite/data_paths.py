"""Data found relative to code must move with the code that finds it.

Tuning configs are loaded through `os.path.dirname(__file__)` + `"configs"`; C++ sources
relative to a module found with `find_spec("pkg.mod")`. A missing config silently falls
back to a default, so a loader moved without its data is a silent performance
regression: the plan is refused, naming the path move it lacks. (Checked here rather
than in plan validation because it reads the code that does the loading.)

Only the loader's path expressions are read: `os.path.join(<anchor>, "a", "b", ...)` and
`<anchor> / "a" / "b"`, where the anchor is the module's directory (`dirname(__file__)`,
`Path(__file__).parent`, `dirname(spec.origin)` of a `find_spec`, the package of
`importlib.resources.files(__package__)`), directly or through a name bound to it; also
`Path(__file__).with_name("a")`, `<anchor>.joinpath("a", "b")` and the resource readers
`pkgutil.get_data(__package__, "a/b")`, `importlib.resources.read_text(__package__, "a")`.
Other string literals (a dict key such as `table["configs"]`) are not
paths. Every file below a directory the loader names must land below the directory it
names once moved, so a nested target (`configs/sp_collective/ ->
communication/configs/sp_collective/`) is fine when the lookup resolves there.

A loader that stays while the code it lists by path moves (a docs generator's
`root.joinpath("pkg", "sub").rglob("*.py")`) has no plan-level remedy: its literal parts
are respelled to the new place, as a string path would be (`CodeLookup`), or, where the
parts are not plain literals, the dry run warns.
"""

from __future__ import annotations

import ast
import posixpath
import re
from dataclasses import dataclass

from migrate.changes import Edit
from migrate.errors import Diagnostic, Pos
from migrate.index.calls import callee_name
from migrate.index.repo import RepoIndex
from migrate.relocate import Relocation

_DIRNAME_WRAPPERS = {"realpath", "abspath", "normpath", "resolve", "absolute"}
# (package, "relative/resource") readers: pkgutil's and importlib.resources' legacy API
_RESOURCE_READERS = {
    "get_data",
    "read_text",
    "read_binary",
    "open_text",
    "open_binary",
    "path",
    "is_resource",
}
# a file that may name data of its own package without `__file__` (the cheap prefilter)
_READERS = "|".join(sorted({"files", *_RESOURCE_READERS}))
_OWN_PACKAGE = re.compile(rf"\b(?:{_READERS})\(\s*__(?:package|name)__\b")
_READER_CALLS = tuple(f"{r}(" for r in _READERS.split("|"))


def _names_own_package(text: str) -> bool:
    """`_OWN_PACKAGE` found in `text`; a reader's `name(` first (every match spells one):
    the regex alone tries each position of every Python file (~1.5 CPU-s on SGLang)."""
    return any(c in text for c in _READER_CALLS) and _OWN_PACKAGE.search(text) is not None


def _callee(node: ast.AST) -> str:
    return callee_name(node) or ""


class _Paths:
    """Resolve path expressions of one module to repo-relative paths (or None)."""

    def __init__(self, tree: ast.Module, path: str, index: RepoIndex):
        self.path, self.index = path, index
        self.here = posixpath.dirname(path)
        self.names: dict[str, ast.AST] = {}
        self.origins: dict[str, str] = {}  # anchor directory -> the file it is the dir of
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                t = node.targets[0]
                if isinstance(t, ast.Name):
                    self.names.setdefault(t.id, node.value)

    def _file(self, node: ast.AST, depth: int) -> str | None:
        """The file a `__file__`-like expression names."""
        if isinstance(node, ast.Name) and node.id == "__file__":
            return self.path
        if isinstance(node, ast.Attribute) and node.attr == "origin":
            spec = node.value
            if isinstance(spec, ast.Name) and depth < 4:
                spec = self.names.get(spec.id, spec)
            if _callee(spec) == "find_spec" and spec.args:
                arg = spec.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    return self.index.modules.get(arg.value)
            return None
        if _callee(node) in _DIRNAME_WRAPPERS and depth < 8:
            inner = node.args[0] if node.args else getattr(node.func, "value", None)
            return self._file(inner, depth + 1) if inner is not None else None
        if _callee(node) == "Path" and node.args:
            return self._file(node.args[0], depth + 1)
        return None

    def _package_dir(self, node: ast.AST) -> str | None:
        """The directory of the package a `files(...)`/resource-reader argument names:
        `__package__`/`__name__` (this module's own package), or a literal package name."""
        if isinstance(node, ast.Name) and node.id in ("__package__", "__name__"):
            self.origins.setdefault(self.here, self.path)
            return self.here
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            init = self.index.modules.get(node.value)
            if init is not None and init.endswith("/__init__.py"):
                return posixpath.dirname(init)
        return None

    def resolve(self, node: ast.AST, depth: int = 0) -> str | None:
        """The repo-relative path an expression names, when it is built from an anchor
        and literals (a trailing non-literal part is dropped: its parent is named)."""
        if depth > 8:
            return None
        if isinstance(node, ast.Name) and node.id in self.names:
            return self.resolve(self.names[node.id], depth + 1)
        if _callee(node) == "dirname" and node.args:
            f = self._file(node.args[0], depth + 1)
            if f is not None:
                self.origins.setdefault(posixpath.dirname(f), f)
                return posixpath.dirname(f)
            inner = self.resolve(node.args[0], depth + 1)
            return posixpath.dirname(inner) if inner else None
        if isinstance(node, ast.Attribute) and node.attr == "parent":
            f = self._file(node.value, depth + 1)
            if f is not None:
                self.origins.setdefault(posixpath.dirname(f), f)
                return posixpath.dirname(f)
            inner = self.resolve(node.value, depth + 1)
            return posixpath.dirname(inner) if inner else None
        if _callee(node) in _DIRNAME_WRAPPERS:
            inner = node.args[0] if node.args else getattr(node.func, "value", None)
            return self.resolve(inner, depth + 1) if inner is not None else None
        if _callee(node) == "with_name" and isinstance(node.func, ast.Attribute):
            f = self._file(node.func.value, depth + 1)
            if f is None or not node.args or not _literal(node.args[0]):
                return None
            self.origins.setdefault(posixpath.dirname(f), f)
            return posixpath.join(posixpath.dirname(f), node.args[0].value)
        if _callee(node) == "joinpath" and isinstance(node.func, ast.Attribute) and node.args:
            return self._joined(node.func.value, node.args, depth)
        if _callee(node) == "files" and len(node.args) == 1:
            return self._package_dir(node.args[0])
        if _callee(node) == "join" and len(node.args) >= 2:
            return self._joined(node.args[0], node.args[1:], depth)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            return self._joined(node.left, [node.right], depth)
        return None

    def _joined(self, base: ast.AST, parts: list[ast.AST], depth: int) -> str | None:
        anchor = self.resolve(base, depth + 1)
        if anchor is None:
            return None
        out = anchor
        for p in parts:
            if not (isinstance(p, ast.Constant) and isinstance(p.value, str)):
                break
            out = posixpath.join(out, p.value)
        return posixpath.normpath(out)

    def _parts(self, node: ast.AST) -> tuple[ast.AST, list[ast.AST]] | None:
        """(anchor expression, the parts joined to it) of a path-building expression."""
        callee = _callee(node)
        if callee == "join" and len(node.args) >= 2:
            return node.args[0], node.args[1:]
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            return node.left, [node.right]
        if callee == "joinpath" and isinstance(node.func, ast.Attribute) and node.args:
            return node.func.value, node.args
        return None

    def lookups(self, tree: ast.Module):
        """(node, anchor, path) for each outermost path expression with a literal part."""
        for node in ast.walk(tree):
            callee = _callee(node)
            if callee == "with_name" and isinstance(node.func, ast.Attribute):
                target = self.resolve(node)
                if target is not None:
                    yield node, posixpath.dirname(target), posixpath.normpath(target)
                continue
            if callee in _RESOURCE_READERS and len(node.args) >= 2 and _literal(node.args[1]):
                anchor = self._package_dir(node.args[0])
                if anchor is not None:
                    yield node, anchor, posixpath.normpath(f"{anchor}/{node.args[1].value}")
                continue
            split = self._parts(node)
            if split is None:
                continue
            base, parts = split
            anchor = self.resolve(base)
            first = parts[0]
            if anchor is None or not (
                isinstance(first, ast.Constant) and isinstance(first.value, str)
            ):
                continue
            target = self._joined(base, parts, 0)
            if target and target != anchor:
                yield node, anchor, target


def _literal(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _where(anchor: str) -> str:
    return anchor or "the repository root"


def _problem(path, node, old, anchor, new_anchor, expected, actual) -> Diagnostic:
    fate = f"moves to {actual}" if actual != old else "stays"
    return Diagnostic(
        Pos(path, node.lineno, node.col_offset + 1),
        f"{path} finds {old} relative to {_where(anchor)}, which moves to "
        f"{_where(new_anchor)}, but {old} {fate}: add a move `{old} -> {expected}` so the "
        "data moves with its loader",
    )


def _offset(text: str, line: int, col: int) -> int:
    """The character offset of ast's (1-based line, UTF-8 byte column) in `text`."""
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    start = starts[line - 1]
    line_text = text[start : starts[line] if line < len(starts) else len(text)]
    return start + len(line_text.encode()[:col].decode("utf-8", "replace"))


def _respelling(text, path, node, old, anchor, actual) -> Edit | None:
    """The edit that respells a `join(<anchor>, "a", "b")`/`<anchor>.joinpath("a", "b")`
    whose parts are all plain one-line literals spelling exactly `old` below `anchor`."""
    callee = _callee(node)
    if callee == "joinpath" and isinstance(node.func, ast.Attribute):
        parts = list(node.args)
    elif callee == "join" and len(node.args) >= 2:
        parts = list(node.args[1:])
    else:
        return None
    if node.keywords or not parts or not all(_literal(p) for p in parts):
        return None
    if any(p.lineno != p.end_lineno for p in parts):
        return None
    if posixpath.normpath(posixpath.join(anchor, *[p.value for p in parts])) != old:
        return None
    start = _offset(text, parts[0].lineno, parts[0].col_offset)
    end = _offset(text, parts[-1].end_lineno, parts[-1].end_col_offset)
    first = text[start:end]
    quote = first[0] if first[:1] in ("'", '"') else None
    new_tail = posixpath.relpath(actual, anchor or ".")
    if quote is None or ".." in new_tail.split("/") or any(c in new_tail for c in "\\'\""):
        return None
    pieces = new_tail.split("/") if len(parts) > 1 else [new_tail]
    new = ", ".join(f"{quote}{p}{quote}" for p in pieces)
    return Edit(
        path,
        start,
        end,
        first,
        new,
        "string",
        node.lineno,
        node.col_offset + 1,
        f"path to {old} respelled: the plan moves it to {actual}",
    )


def _left_behind(index: RepoIndex, path, node, old, anchor, actual) -> Diagnostic:
    """The loader stays and what it finds moves: no move in the plan can mend that (trial24
    T41). Code listed by path (a package or module the plan moves, as a docs generator
    lists `pkg/sub/*.py`) is a warning with its new place; data stays a refusal."""
    pos = Pos(path, node.lineno, node.col_offset + 1)
    code = old.endswith(".py") or f"{old}/__init__.py" in index.files
    if code:
        return Diagnostic(
            pos,
            f"{path} finds the code at {old} by path, relative to {_where(anchor)}; the plan "
            f"moves it to {actual}: after the migration this lookup finds nothing there "
            "(respell the path)",
            severity="warning",
        )
    return Diagnostic(
        pos,
        f"{path} stays and finds {old} relative to {_where(anchor)}, but the plan moves "
        f"{old} to {actual}: keep {old} where it is, or move the loader with it",
    )


@dataclass(frozen=True)
class CodeLookup:
    """A loader that stays finds code the plan moves, by path: `edit` respells its
    literal parts (None where they are not plain literals, then `warning` stands); the
    lookup spans `span` of the (unmoved) file `warning.pos.file`."""

    warning: Diagnostic
    edit: Edit | None
    span: tuple[int, int]


def data_path_problems(
    index: RepoIndex, rel: Relocation, lookups: list[CodeLookup] | None = None
) -> list[Diagnostic]:
    """The lookups the plan breaks. Given `lookups`, a lookup of moved code from a loader
    that stays goes there (its warning or respelling is the engine's to settle)."""
    problems = []
    for path in sorted(index.python_files()):
        text = index.text(path) or ""
        if "__file__" not in text and "find_spec" not in text and not _names_own_package(text):
            continue
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        paths = _Paths(tree, path, index)
        seen = set()
        for node, anchor, old in paths.lookups(tree):
            files = [old] if old in index.files else index.files_under(old)
            if not files or old == path or (old, anchor) in seen:
                continue
            if path.startswith(old.rstrip("/") + "/"):
                continue  # a directory holding the loader itself: a project root, not data
            seen.add((old, anchor))
            origin = paths.origins.get(anchor)
            if origin is not None:  # the directory of a module: it goes where the module goes
                new_anchor = posixpath.dirname(rel.files.get(origin, origin))
            else:
                new_anchor = rel.path(anchor) or anchor
            tail = posixpath.relpath(old, anchor)
            expected = posixpath.normpath(posixpath.join(new_anchor, tail))
            if expected == old:
                # The lookup still lands where it did: only moving the looked-up file or
                # directory itself breaks it (files moving inside a directory that stays,
                # such as a package root, are the plan's own moves).
                actual = rel.path(old) or old
                if actual == old:
                    continue
                problem = _left_behind(index, path, node, old, anchor, actual)
                if lookups is not None and problem.severity == "warning":
                    span = (
                        _offset(text, node.lineno, node.col_offset),
                        _offset(text, node.end_lineno, node.end_col_offset),
                    )
                    edit = _respelling(text, path, node, old, anchor, actual)
                    lookups.append(CodeLookup(problem, edit, span))
                else:
                    problems.append(problem)
                continue
            for f in files:
                if (rel.path(f) or f) != expected + f[len(old) :]:
                    actual = rel.path(old) or old
                    problems.append(_problem(path, node, old, anchor, new_anchor, expected, actual))
                    break
    return problems
