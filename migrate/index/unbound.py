"""Names a module reads while it is being imported that nothing binds: a `NameError` on
import. Read at import time: module-level statements, class bodies, decorators, default
values and (without `from __future__ import annotations`) annotations; not function or
lambda bodies, which run later.

Deliberately generous about what is bound: any name stored anywhere at module level or in
a class body, every import, every builtin; a module with a star import binds everything.
A package `__init__` also binds `sub` by importing `pkg.sub` (`from .sub import x`), and a
`del name` needs the name bound like a read does (toolz's `del exceptions` after its
submodule was renamed was a `NameError` on import that verify did not see).
"""

from __future__ import annotations

import ast
import builtins

from migrate.index.bindings import Bindings, Visitor, name_reads
from migrate.index.imports import absolute, bound_submodule

_MODULE_NAMES = frozenset(
    ("__name__", "__file__", "__doc__", "__spec__", "__loader__", "__package__", "__path__",
     "__builtins__", "__cached__", "__annotations__", "__dict__", "__debug__",
     "__build_class__", "__qualname__", "__module__")
)  # fmt: skip
BUILTINS = frozenset(dir(builtins)) | _MODULE_NAMES


def _future_annotations(tree: ast.Module) -> bool:
    return any(
        isinstance(s, ast.ImportFrom)
        and s.module == "__future__"
        and any(a.name == "annotations" for a in s.names)
        for s in tree.body
    )


class _ImportTime(Visitor):
    """Collect Name loads and every binding of the code that runs at import time (the
    binding walk's fast visitor: contexts, operators and constants hold no name)."""

    def __init__(self, lazy_annotations: bool, module: str | None = None, is_package=False):
        self.lazy = lazy_annotations
        self.loads: list[tuple[int, str]] = []
        self.bound: set[str] = set()
        self.star = False
        self.module, self.is_package = module, is_package

    def visit_Name(self, node: ast.Name):
        if isinstance(node.ctx, (ast.Load, ast.Del)):  # `del x` needs x bound too
            self.loads.append((node.lineno, node.id))
        else:
            self.bound.add(node.id)

    def _submodule(self, name: str | None) -> None:
        """Importing `pkg.sub` inside `pkg/__init__.py` binds `sub` there."""
        leaf = bound_submodule(self.module, name) if self.is_package else None
        if leaf is not None:
            self.bound.add(leaf)

    def visit_Import(self, node):
        self.bound.update(a.asname or a.name.split(".")[0] for a in node.names)
        for a in node.names:
            self._submodule(a.name)

    def visit_ImportFrom(self, node):
        for a in node.names:
            if a.name == "*":
                self.star = True
            self.bound.add(a.asname or a.name)
        self._submodule(absolute(node.module, node.level, self.module or "", self.is_package))

    def _annotation(self, node):
        if node is not None and not self.lazy:
            self.visit(node)

    def _arguments(self, args: ast.arguments):
        for d in [*args.defaults, *args.kw_defaults]:
            if d is not None:
                self.visit(d)
        for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if a is not None:
                self._annotation(a.annotation)

    def visit_FunctionDef(self, node):
        self.bound.add(node.name)
        for d in node.decorator_list:
            self.visit(d)
        self._arguments(node.args)
        self._annotation(node.returns)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        self._arguments(node.args)

    def visit_ClassDef(self, node):
        self.bound.add(node.name)
        for d in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(d)
        for stmt in node.body:
            self.visit(stmt)

    def visit_AnnAssign(self, node):
        self._annotation(node.annotation)
        self.visit(node.target)
        if node.value is not None:
            self.visit(node.value)

    def visit_ExceptHandler(self, node):
        if node.name:
            self.bound.add(node.name)
        self.generic_visit(node)

    def visit_Global(self, node):
        self.bound.update(node.names)

    visit_Nonlocal = visit_Global

    def visit_MatchAs(self, node):
        if node.name:
            self.bound.add(node.name)
        self.generic_visit(node)

    visit_MatchStar = visit_MatchAs

    def _comprehension(self, node):
        for gen in node.generators:
            for n in ast.walk(gen.target):
                if isinstance(n, ast.Name):
                    self.bound.add(n.id)
        self.generic_visit(node)

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension


def unbound_at_import(
    tree: ast.Module, module: str | None = None, is_package: bool = False
) -> list[tuple[int, str]]:
    """[(line, name)] of every import-time read (or `del`) of a name nothing binds
    (`module`, `is_package`: where the file is, for the submodules a package binds)."""
    walker = _ImportTime(_future_annotations(tree), module, is_package)
    for stmt in tree.body:
        walker.visit(stmt)
    if walker.star:
        return []
    known = walker.bound | BUILTINS
    return [(line, name) for line, name in walker.loads if name not in known]


def unbound_later(model: Bindings, tree: ast.Module, text: str) -> list[tuple[int, str]]:
    """[(line, name)] of every read of a name nothing in the file binds, wherever it runs:
    function and lambda bodies, annotations (evaluated or not) and string annotations
    too, resolved through the file's one binding walk (`bindings.name_reads`). A type
    checker rejects these names and calling the code raises `NameError`; importing the
    module may not (humanize's `Num` lost by a symbol move was read only in lazy
    annotations). Generous like `unbound_at_import`: a name any function declares
    `global`/`nonlocal`, or a comprehension binds (`:=`), counts as bound. The caller
    skips modules whose names cannot be known (a star import, `globals()` writes)."""
    known = set(BUILTINS) | {"__class__"}
    for scope in model.scopes:
        known |= scope.globals
        if scope.comprehension:
            known |= set(scope.events)
    return [
        (r.line, r.name)
        for r in name_reads(model, tree, text)
        if r.home is None and r.name not in known
    ]
