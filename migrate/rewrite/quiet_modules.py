"""Which modules initialise quietly: importing them binds their own names and nothing else.

The layout pass keeps an import of the repository's own code where the edits put it,
because the order a package initialises its modules in is behaviour (a module that reads
a registry its sibling fills a line earlier). That order cannot be observed when the
module a respelled statement initialises is quiet: running it earlier or later changes
nothing another module can see, so the statement may go to its sorted place (trial23
T21). Quiet, read from the module's text after the plan (a new module's text as the
symbols pass writes it, a moved module's own text):

- it imports no code of the repository (which could run anything), only the standard
  library and third-party packages, `__future__`, and anything under `if TYPE_CHECKING:`;
- every other top-level statement binds a name of the module and runs nothing of it: a
  docstring, `def`/`class` (decorators, bases and defaults calling only imported or
  builtin names), `X = ...`/`X: T = ...` to plain names whose value calls only imported
  or builtin names (`TypeVar("T")`, `logging.getLogger(__name__)`), `__all__`, `pass`,
  and the same inside class bodies; `try:`/`if:` holding only imports.
A statement call (`warnings.filterwarnings(...)`, `sys.path.insert(...)`), a store into
anything but a plain name (`os.environ["X"] = ...`), or a call of the module's own
functions or classes at import makes it not quiet. Left: a module that reads a sibling
through its package's attribute without importing it (`pkg.z` bound by an earlier import)
sees the sibling's absence; the implicit-submodule form (implicit_submodules.py) reports
such reads where the plan moves the sibling.
"""

from __future__ import annotations

import ast
import builtins
from functools import lru_cache

from migrate.index.imports import is_type_checking, package_of, resolve_relative
from migrate.index.repo import RepoIndex
from migrate.relocate import Relocation

_BUILTINS = frozenset(dir(builtins))


class QuietModules:
    """Module name (after the plan) -> whether it initialises quietly; `writes`: the
    files the rewrite writes whole (new modules), path -> text."""

    def __init__(self, index: RepoIndex, relocation: Relocation, writes: dict[str, str]):
        self._texts: dict[str, str] = {}
        self._own = {m.split(".")[0] for m in index.modules}
        for old, path in index.modules.items():
            if path.endswith(".py"):
                new = relocation.module(old) or old
                self._texts[new] = path
        self._index = index
        self._written = {}
        for path, text in writes.items():
            module = _module_of_path(index, path)
            if module:
                self._written[module] = text
                self._own.add(module.split(".")[0])
        self.quiet = lru_cache(maxsize=None)(self._quiet)

    def text(self, module: str) -> str | None:
        if module in self._written:
            return self._written[module]
        path = self._texts.get(module)
        return self._index.text(path) if path else None

    def known(self, module: str) -> bool:
        return module in self._written or module in self._texts

    def _quiet(self, module: str) -> bool:
        text = self.text(module)
        if text is None:
            return False
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            return False
        own = self._own
        imported: set[str] = set()
        for stmt in tree.body:
            for node in _run_at_import(stmt):
                if isinstance(node, ast.ImportFrom):
                    mine = node.level or (node.module or "").split(".")[0] in own
                    if mine and not _type_checking_only(tree, node):
                        return False
                    imported.update(a.asname or a.name for a in node.names)
                elif isinstance(node, ast.Import):
                    for a in node.names:
                        if a.name.split(".")[0] in own and not _type_checking_only(tree, node):
                            return False
                        imported.add(a.asname or a.name.split(".")[0])
        callable_ok = imported | _BUILTINS
        return all(_binds_only(s, callable_ok) for s in tree.body)

    def of_file(self, path: str):
        """`statement_quiet` for the import statements of the file now at `path`."""
        current = _module_of_path(self._index, path)
        package = path.endswith("__init__.py")
        return lambda node: self.statement_quiet(node, current, package)

    def statement_quiet(self, node: ast.stmt, current: str | None, is_package: bool) -> bool:
        """Whether every module the import statement `node` in module `current` may
        initialise is quiet (the packages that hold `current` are initialised already)."""
        here = package_of(current, is_package) or ""
        loaded = {".".join(here.split(".")[:i]) for i in range(1, len(here.split(".")) + 1)}
        if isinstance(node, ast.ImportFrom):
            base = resolve_relative(here if current else None, node.level, node.module)
            if not base:
                return False
            targets = [base] + [
                f"{base}.{a.name}" for a in node.names if self.known(f"{base}.{a.name}")
            ]
        else:
            targets = [a.name for a in node.names]
        every = set()
        for t in targets:
            parts = t.split(".")
            every.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
        return all(m in loaded or self.quiet(m) for m in every - {""})


def _run_at_import(stmt: ast.stmt):
    """The nodes of `stmt` that run when the module does (not the bodies of functions)."""
    todo = [stmt]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and child in node.body:
                continue
            if isinstance(node, ast.Lambda) and child is node.body:
                continue
            todo.append(child)


def _module_of_path(index: RepoIndex, path: str) -> str | None:
    for root in index.roots:
        r = "" if root in ("", ".") else root.strip("/") + "/"
        if path.startswith(r) and path.endswith(".py"):
            rel = path[len(r) :].removesuffix(".py").removesuffix("/__init__")
            parts = rel.split("/")
            if all(p.isidentifier() for p in parts):
                return ".".join(parts)
    return None


def _type_checking_only(tree: ast.Module, node: ast.stmt) -> bool:
    """Whether `node` sits inside a top-level `if TYPE_CHECKING:` (never runs)."""
    for stmt in tree.body:
        guarded = isinstance(stmt, ast.If) and is_type_checking(stmt.test)
        if guarded and any(n is node for s in stmt.body for n in ast.walk(s)):
            return True
    return False


def _calls_only(expr: ast.AST | None, ok: set[str] | frozenset[str]) -> bool:
    """Every call in `expr` calls a name bound by an import or a builtin (no lambda
    or comprehension hides one: they run nothing until called)."""
    if expr is None:
        return True
    for node in ast.walk(expr):
        if isinstance(node, ast.Call):
            head = node.func
            while isinstance(head, ast.Attribute):
                head = head.value
            if not (isinstance(head, ast.Name) and head.id in ok):
                return False
        elif isinstance(node, (ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr)):
            return False
    return True


def _decorators_ok(decorators: list[ast.expr], ok) -> bool:
    """A decorator is called: its head too must be an imported or builtin name."""
    for dec in decorators:
        head = dec.func if isinstance(dec, ast.Call) else dec
        while isinstance(head, (ast.Attribute, ast.Call, ast.Subscript)):
            head = head.func if isinstance(head, ast.Call) else head.value
        if not (isinstance(head, ast.Name) and head.id in ok and _calls_only(dec, ok)):
            return False
    return True


def _binds_only(stmt: ast.stmt, ok) -> bool:
    """Whether the top-level (or class-body) statement only binds names of its own."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Pass)):
        return True
    if isinstance(stmt, ast.Expr):
        return isinstance(stmt.value, ast.Constant)  # a docstring, `...`
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = stmt.args
        parts = [*a.defaults, *(d for d in a.kw_defaults if d)]
        every = [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
        parts += [x.annotation for x in every if x is not None] + [stmt.returns]
        return _decorators_ok(stmt.decorator_list, ok) and all(_calls_only(p, ok) for p in parts)
    if isinstance(stmt, ast.ClassDef):
        parts = [*stmt.bases, *(k.value for k in stmt.keywords)]
        ok_head = _decorators_ok(stmt.decorator_list, ok)
        body = all(_binds_only(s, ok) for s in stmt.body)
        return ok_head and body and all(_calls_only(p, ok) for p in parts)
    if isinstance(stmt, ast.Assign):
        return all(isinstance(t, ast.Name) for t in stmt.targets) and _calls_only(stmt.value, ok)
    if isinstance(stmt, ast.AnnAssign):
        plain = isinstance(stmt.target, ast.Name)
        return plain and _calls_only(stmt.value, ok) and _calls_only(stmt.annotation, ok)
    if isinstance(stmt, ast.If) and is_type_checking(stmt.test):
        return all(isinstance(s, (ast.Import, ast.ImportFrom)) for s in stmt.body + stmt.orelse)
    if isinstance(stmt, (ast.If, ast.Try)):
        if isinstance(stmt, ast.If) and not _calls_only(stmt.test, ok):
            return False
        bodies = [stmt.body, stmt.orelse, getattr(stmt, "finalbody", [])]
        bodies += [h.body for h in getattr(stmt, "handlers", [])]
        return all(_binds_only(s, ok) for b in bodies for s in b)
    return False
