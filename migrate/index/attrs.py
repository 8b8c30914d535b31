"""Where a module's code reaches into another module by attribute, from one `ast` walk.

`attribute_facts(tree, module, is_package)` gives, for one file:
- `refs`: every `name.attr[.attr...]` chain (and `getattr(name, "attr")`,
  `patch.object(name, "attr")`, `monkeypatch.setattr(name, "attr", ...)`) whose root
  `name` is bound by an import, with the dotted name the import binds it to, plus every
  `patch("pkg.mod.attr")` / `monkeypatch.setattr("pkg.mod.attr", ...)` string target;
- `bindings`: the module's top-level names bound only by imports (name -> dotted), so a
  chain can continue through a re-exported module;
- `stars`: modules it star-imports; `dynamic`: it writes `globals()` or `sys.modules`.

Which dotted names are modules is decided by the caller against its tree: this module
knows one file's syntax, nothing about the repository. `code_facts` computes it in the
same parse as the other facts (`CodeFacts.attrs`); verify's attributes-resolve reads it.
A name rebound by anything but an import in the scope that uses it is not followed.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from migrate.index.imports import absolute

_PATCHERS = {"patch", "mock.patch", "unittest.mock.patch", "mocker.patch"}
_OBJECT_PATCHERS = {"object", "setattr"}  # patch.object(mod, "x"), monkeypatch.setattr(mod, "x")


@dataclass(frozen=True)
class AttrRef:
    line: int
    target: str  # the dotted name the root is bound to (a module, or a symbol of one)
    attrs: tuple[str, ...]  # the attribute chain read from it
    text: str  # as written, for the finding
    string: bool = False  # a dotted string target: `target` is only its first component
    called: bool = False  # `name.attr(...)`: calling what the chain names


@dataclass
class AttrFacts:
    refs: list[AttrRef] = field(default_factory=list)
    bindings: dict[str, str] = field(default_factory=dict)
    stars: list[str] = field(default_factory=list)
    dynamic: bool = False


def _import_binds(stmt: ast.stmt, module: str, is_package: bool) -> list[tuple[str, str]]:
    """(local name, dotted name it is bound to) of an import statement."""
    if isinstance(stmt, ast.Import):
        out = []
        for a in stmt.names:
            if a.asname:
                out.append((a.asname, a.name))
            else:
                top = a.name.split(".")[0]
                out.append((top, top))
        return out
    if isinstance(stmt, ast.ImportFrom):
        base = absolute(stmt.module, stmt.level, module, is_package)
        if not base:
            return []
        return [(a.asname or a.name, f"{base}.{a.name}") for a in stmt.names if a.name != "*"]
    return []


def _stored(node: ast.AST) -> set[str]:
    """Names a statement or expression binds other than by import (no descent into defs)."""
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
            stack += n.decorator_list  # a def's body is its own scope
            continue
        if isinstance(n, ast.Lambda):
            continue
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(n.id)
        elif isinstance(n, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and n.name:
            out.add(n.name)
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            out.update(n.names)
        stack.extend(ast.iter_child_nodes(n))
    return out


def _scope_bindings(body: list[ast.stmt], module: str, is_package: bool, outer: dict) -> dict:
    """name -> dotted for the import-bound names visible in a scope whose code is `body`."""
    imported: dict[str, set[str]] = {}
    other: set[str] = set()
    stack = list(body)
    while stack:
        stmt = stack.pop()
        binds = _import_binds(stmt, module, is_package)
        if binds:
            for name, dotted in binds:
                imported.setdefault(name, set()).add(dotted)
            continue
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            other.add(stmt.name)
            continue
        for child in ast.iter_child_nodes(stmt):
            if isinstance(child, ast.stmt):
                stack.append(child)
            else:
                other |= _stored(child)
        if isinstance(stmt, ast.ExceptHandler) and stmt.name:
            other.add(stmt.name)
    scope = {k: v for k, v in outer.items() if k not in other and k not in imported}
    for name, dotted in imported.items():
        if name not in other and len(dotted) == 1:
            scope[name] = next(iter(dotted))
    return scope


def attr_chain(node: ast.AST) -> tuple[str, list[str]] | None:
    """(root name, attributes) of a pure `a.b.c` chain of names and attributes, else None."""
    attrs = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return node.id, attrs[::-1]
    return None


def _literal(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


class _Walker(ast.NodeVisitor):
    def __init__(self, facts: AttrFacts, module: str, is_package: bool, scope: dict):
        self.facts, self.module, self.is_package = facts, module, is_package
        self.scope = scope

    def _ref(self, line: int, name: str, attrs: list[str], text: str, called=False) -> None:
        if attrs and name in self.scope:
            ref = AttrRef(line, self.scope[name], tuple(attrs), text, called=called)
            self.facts.refs.append(ref)

    def _nested(self, node, body: list[ast.stmt], params: set[str]) -> None:
        inner = {k: v for k, v in self.scope.items() if k not in params}
        inner = _scope_bindings(body, self.module, self.is_package, inner)
        saved, self.scope = self.scope, inner
        for stmt in body:
            self.visit(stmt)
        self.scope = saved

    def visit_FunctionDef(self, node):
        for d in node.decorator_list:
            self.visit(d)
        self.visit(node.args)
        if node.returns:
            self.visit(node.returns)
        params = {a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}
        params |= {a.arg for a in (node.args.vararg, node.args.kwarg) if a}
        self._nested(node, node.body, params)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        for d in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(d)
        self._nested(node, node.body, set())

    def visit_Lambda(self, node):
        self.visit(node.args)
        params = {a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}
        params |= {a.arg for a in (node.args.vararg, node.args.kwarg) if a}
        saved = self.scope
        self.scope = {k: v for k, v in saved.items() if k not in params}
        self.visit(node.body)
        self.scope = saved

    def _comprehension(self, node):
        targets = set()
        for gen in node.generators:
            targets |= _stored(gen.target)
        saved = self.scope
        self.scope = {k: v for k, v in saved.items() if k not in targets}
        self.generic_visit(node)
        self.scope = saved

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

    def visit_Attribute(self, node: ast.Attribute):
        found = attr_chain(node)
        if found is None:
            self.generic_visit(node)
            return
        name, attrs = found
        if isinstance(node.ctx, ast.Load):
            self._ref(node.lineno, name, attrs, ".".join([name, *attrs]))
        elif len(attrs) > 1:  # `mod.sub.x = v` still reads `mod.sub`
            self._ref(node.lineno, name, attrs[:-1], ".".join([name, *attrs[:-1]]))

    def visit_Call(self, node: ast.Call):
        self._call(node)
        found = attr_chain(node.func) if isinstance(node.func, ast.Attribute) else None
        if found is None:
            self.generic_visit(node)
            return
        name, attrs = found
        self._ref(node.func.lineno, name, attrs, ".".join([name, *attrs]), called=True)
        for child in [*node.args, *node.keywords]:
            self.visit(child)

    def _call(self, node: ast.Call) -> None:
        func = attr_chain(node.func)
        if func is None:
            return
        fname = ".".join([func[0], *func[1]])
        args = node.args
        getter = fname == "getattr" and len(args) == 2
        patcher = func[1] and func[1][-1] in _OBJECT_PATCHERS and len(args) >= 2
        if getter or patcher:
            self._object_ref(node, args[0], args[1])
        if (fname in _PATCHERS or fname.endswith(".setattr")) and args:
            value = _literal(args[0])
            if value and "." in value and all(p.isidentifier() for p in value.split(".")):
                first, *rest = value.split(".")
                self.facts.refs.append(AttrRef(node.lineno, first, tuple(rest), value, True))

    def _object_ref(self, node: ast.Call, obj: ast.AST, attr: ast.AST) -> None:
        chain, name = attr_chain(obj), _literal(attr)
        if chain and name and name.isidentifier():
            root, attrs = chain
            self._ref(node.lineno, root, [*attrs, name], f'{".".join([root, *attrs])}."{name}"')


def _dynamic_node(node: ast.AST) -> bool:
    """`globals()[...] = v`, `globals().update(...)`, `sys.modules[...] = m`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        inner = node.func.value
        if (
            isinstance(inner, ast.Call)
            and isinstance(inner.func, ast.Name)
            and inner.func.id in ("globals", "vars")
            and node.func.attr in ("update", "setdefault", "__setitem__")
        ):
            return True
    if isinstance(node, (ast.Assign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for t in targets:
            if isinstance(t, ast.Subscript):
                v = t.value
                if isinstance(v, ast.Call) and getattr(v.func, "id", "") in ("globals", "vars"):
                    return True
                if isinstance(v, ast.Attribute) and v.attr == "modules":
                    return True
    return False


def _stars_and_dynamic(tree: ast.Module, module: str, is_package: bool) -> tuple[list, bool]:
    """Star-imported modules and whether a write to `globals()`/`sys.modules` occurs at
    any depth, in one walk of the tree."""
    stars, dynamic = [], False
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if any(a.name == "*" for a in node.names):
                stars.append(absolute(node.module, node.level, module, is_package) or "?")
        elif not dynamic and _dynamic_node(node):
            dynamic = True
    return stars, dynamic


def attribute_facts(tree: ast.Module, module: str, is_package: bool) -> AttrFacts:
    facts = AttrFacts()
    scope = _scope_bindings(tree.body, module, is_package, {})
    facts.bindings = dict(scope)
    facts.stars, facts.dynamic = _stars_and_dynamic(tree, module, is_package)
    walker = _Walker(facts, module, is_package, scope)
    for stmt in tree.body:
        walker.visit(stmt)
    return facts
