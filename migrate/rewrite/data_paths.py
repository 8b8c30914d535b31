"""Data found relative to code must move with the code that finds it.

Tuning configs are loaded through `os.path.dirname(__file__)` + `"configs"`; C++ sources
relative to a package found with `find_spec("pkg")`. A missing config silently falls back
to a default, so a loader moved without its data is a silent performance regression:
the plan is refused, naming the path move it lacks. (Checked here rather than in plan
validation because it reads the code that does the loading.)
"""

from __future__ import annotations

import ast
import posixpath
import re

from migrate.errors import Diagnostic, Pos
from migrate.index.repo import RepoIndex
from migrate.relocate import Relocation

_RELPATH = re.compile(r"^[\w\-][\w.\-]*(?:/[\w.\-]+)*/?$")
_ANCHORS = {"find_spec", "import_module"}


def _directories(index: RepoIndex) -> set[str]:
    dirs = set()
    for path in index.files:
        d = posixpath.dirname(path)
        while d and d not in dirs:
            dirs.add(d)
            d = posixpath.dirname(d)
    return dirs


def _callee(node: ast.Call) -> str:
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")


def _anchors(tree: ast.AST, path: str, index: RepoIndex, uses_file: bool) -> list[str]:
    dirs = [posixpath.dirname(path)] if uses_file else []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _callee(node) in _ANCHORS and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                d = index.package_dir(arg.value)
                if d is not None:
                    dirs.append(d)
    return dirs


def _joined_literals(tree: ast.AST) -> list[ast.Constant]:
    """`os.path.join(<something with __file__>, "..", "configs")` as one `../configs`."""
    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and _callee(node) == "join" and len(node.args) > 2):
            continue
        if "__file__" not in ast.unparse(node.args[0]):
            continue
        rest = node.args[1:]
        if all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in rest):
            joined = ast.Constant(posixpath.join(*(a.value for a in rest)))
            joined.lineno, joined.col_offset = rest[0].lineno, rest[0].col_offset
            out.append(joined)
    return out


def data_path_problems(index: RepoIndex, rel: Relocation) -> list[Diagnostic]:
    problems = []
    dirs = None
    for path in sorted(index.python_files()):
        text = index.text(path) or ""
        uses_file = "__file__" in text
        if not uses_file and "find_spec" not in text and "import_module" not in text:
            continue
        if not uses_file and not any(s in text for s in ("/", "configs")):
            continue
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        anchors = _anchors(tree, path, index, uses_file)
        if not anchors:
            continue
        dirs = _directories(index) if dirs is None else dirs
        for node in [*ast.walk(tree), *_joined_literals(tree)]:
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            s = node.value
            if len(s) < 2 or not (_RELPATH.match(s) or _RELPATH.match(s.lstrip("./"))):
                continue
            for anchor in anchors:
                old = posixpath.normpath(posixpath.join(anchor, s))
                if not (old in index.files or old in dirs) or old == path:
                    continue
                new_anchor = rel.path(anchor) or anchor
                if anchor == posixpath.dirname(path):
                    new_anchor = posixpath.dirname(rel.files.get(path, path))
                expected = posixpath.normpath(posixpath.join(new_anchor, s))
                actual = rel.path(old) or old
                if expected != actual:
                    fate = f"moves to {actual}" if actual != old else "stays"
                    problems.append(
                        Diagnostic(
                            Pos(path, node.lineno, node.col_offset + 1),
                            f"{path} finds {old} relative to {anchor}, which moves to "
                            f"{new_anchor}, but {old} {fate}"
                            f": add a move `{old} -> {expected}` so the data moves with its loader",
                        )
                    )
    return problems
