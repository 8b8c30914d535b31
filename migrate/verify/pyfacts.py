"""Cheap `ast` facts of one module, enough for the static checks: bindings, imports, targets."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from migrate.verify.attrs import AttrFacts

TARGET = re.compile(r"^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$")


@dataclass(frozen=True)
class ImportRef:
    module: str  # absolute module the statement imports from (or imports)
    names: tuple[str, ...]  # `from module import names`; empty for `import module`
    line: int
    toplevel: bool  # runs at import time (not inside a def, not under TYPE_CHECKING)


@dataclass
class ModuleFacts:
    names: set[str] = field(default_factory=set)
    dynamic: bool = False  # module-level __getattr__, `globals()` or `sys.modules` writes
    imports: list[ImportRef] = field(default_factory=list)
    classes: dict[str, set[str]] = field(default_factory=dict)
    targets: list[tuple[int, str]] = field(default_factory=list)  # "mod:attr" literals
    fused: list[tuple[int, str]] = field(default_factory=list)  # register_fused_op attrs
    attrs: AttrFacts | None = None  # attribute chains into other modules (verify/attrs.py)


def absolute(module: str | None, level: int, current: str, is_package: bool) -> str:
    if not level:
        return module or ""
    if not current:
        return ""  # a file outside the import roots: its relative imports are unknowable
    pkg = current if is_package else current.rpartition(".")[0]
    parts = pkg.split(".") if pkg else []
    base = parts[: len(parts) - (level - 1)] if level > 1 else parts
    return ".".join([*base, module] if module else base)


def _targets(t: ast.AST):
    if isinstance(t, ast.Name):
        yield t.id
    elif isinstance(t, (ast.Tuple, ast.List, ast.Starred)):
        for e in getattr(t, "elts", [getattr(t, "value", None)]):
            if e is not None:
                yield from _targets(e)


def _is_type_checking(test: ast.AST) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _bind_top(facts: ModuleFacts, body: list[ast.stmt]) -> None:
    """Names bound at import time, descending into if/try/with/for blocks."""
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            facts.names.add(stmt.name)
            if stmt.name == "__getattr__":
                facts.dynamic = True
            if isinstance(stmt, ast.ClassDef):
                facts.classes[stmt.name] = _class_attrs(stmt)
        elif isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                facts.names.update(_targets(t))
        elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
            facts.names.update(_targets(stmt.target))
        elif isinstance(stmt, ast.Import):
            facts.names.update(a.asname or a.name.split(".")[0] for a in stmt.names)
        elif isinstance(stmt, ast.ImportFrom):
            facts.names.update(a.asname or a.name for a in stmt.names if a.name != "*")
        for block in ("body", "orelse", "finalbody"):
            if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                _bind_top(facts, getattr(stmt, block, []) or [])
        for h in getattr(stmt, "handlers", []) or []:
            _bind_top(facts, h.body)


def _class_attrs(cls: ast.ClassDef) -> set[str]:
    out: set[str] = set()
    for stmt in cls.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(stmt.name)
        elif isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                out.update(_targets(t))
        elif isinstance(stmt, ast.AnnAssign):
            out.update(_targets(stmt.target))
    return out


class _Imports(ast.NodeVisitor):
    def __init__(self, facts: ModuleFacts, module: str, is_package: bool):
        self.facts, self.module, self.is_package = facts, module, is_package
        self.depth = 0  # > 0 inside a def or under `if TYPE_CHECKING`

    def _nested(self, node):
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _nested

    def visit_If(self, node: ast.If):
        if _is_type_checking(node.test):
            self.depth += 1
            for s in node.body:
                self.visit(s)
            self.depth -= 1
            for s in node.orelse:
                self.visit(s)
        else:
            self.generic_visit(node)

    def visit_Import(self, node: ast.Import):
        for a in node.names:
            self.facts.imports.append(ImportRef(a.name, (), node.lineno, self.depth == 0))

    def visit_ImportFrom(self, node: ast.ImportFrom):
        mod = absolute(node.module, node.level, self.module, self.is_package)
        names = tuple(a.name for a in node.names if a.name != "*")
        self.facts.imports.append(ImportRef(mod, names, node.lineno, self.depth == 0))

    def visit_Constant(self, node: ast.Constant):
        # A dotted module before the colon: `"sglang:metric_name"` is a metric, not a target.
        value = node.value
        if isinstance(value, str) and TARGET.match(value) and "." in value.split(":")[0]:
            self._target(node.lineno, value)

    def _target(self, line: int, value: str) -> None:
        if (line, value) not in self.facts.targets:
            self.facts.targets.append((line, value))

    def visit_Call(self, node: ast.Call):
        f = node.func
        name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", "")
        for kw in node.keywords:
            v = kw.value
            literal = isinstance(v, ast.Constant) and isinstance(v.value, str)
            if kw.arg == "target" and literal and TARGET.match(v.value):
                self._target(v.lineno, v.value)
        if name == "register_fused_op" and len(node.args) >= 3:
            mod, attr = node.args[1], node.args[2]
            if (
                isinstance(mod, ast.Name)
                and mod.id == "__name__"
                and isinstance(attr, ast.Constant)
                and isinstance(attr.value, str)
            ):
                self.facts.fused.append((node.lineno, attr.value))
        self.generic_visit(node)


def module_facts(text: str, module: str, is_package: bool) -> ModuleFacts | None:
    """Facts of a module's source, or None when it does not parse."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    from migrate.verify.attrs import attribute_facts

    facts = ModuleFacts()
    _bind_top(facts, tree.body)
    _Imports(facts, module, is_package).visit(tree)
    facts.attrs = attribute_facts(tree, module, is_package)
    facts.dynamic = facts.dynamic or facts.attrs.dynamic
    return facts
