"""Where a module's code reaches into another module by attribute, from one `ast` walk.

`walk_attributes(tree, model, AttrWalker, module, is_package)` gives, for one file:
- `refs`: every `name.attr[.attr...]` chain (and `getattr(name, "attr")`,
  `patch.object(name, "attr")`, `monkeypatch.setattr(name, "attr", ...)`) whose root
  `name` is bound by an import, with the dotted name the import binds it to, plus every
  `patch("pkg.mod.attr")` / `monkeypatch.setattr("pkg.mod.attr", ...)` string target;
- `bindings`: the module's top-level names bound only by imports (name -> dotted), so a
  chain can continue through a re-exported module;
- `stars`: modules it star-imports (in source order); `dynamic`: it writes `globals()` or
  `sys.modules` (found by the same walk).

Which dotted names are modules is decided by the caller against its tree: this module
knows one file's syntax, nothing about the repository. `code_facts` computes it in the
same parse as the other facts (`CodeFacts.attrs`); verify's attributes-resolve reads it.
A name rebound by anything but an import in the scope that uses it is not followed: which
names a scope binds only by imports is read from the one binding walk
(`index.bindings.import_only` over the file's `scope_model`), not walked again here.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from migrate.index.bindings import (
    Bindings,
    Visitor,
    import_only,
    name_chain,
    named_call,
    node_key,
    stored_attributes,
)
from migrate.index.forward_refs import reference_strings
from migrate.index.imports import absolute
from migrate.index.literal import str_literal

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


def _stored(target: ast.AST) -> set[str]:
    """Names a comprehension target binds."""
    return {
        n.id
        for n in ast.walk(target)
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))
    }


def attr_chain(node: ast.AST) -> tuple[str, list[str]] | None:
    """(root name, attributes) of a pure `a.b.c` chain of names and attributes, else None."""
    chain = name_chain(node)
    return (chain[0].id, chain[1]) if chain is not None else None


class AttrWalker(Visitor):
    """The one walk of a file's attribute facts: the chains through import-bound names,
    and on the way every star import and `globals()`/`sys.modules` write (it reaches every
    statement and call, so no second walk of the tree is needed for those)."""

    def __init__(self, facts: AttrFacts, model: Bindings, scope: dict, module: str, is_pkg):
        self.facts, self.model = facts, model
        self.scope = scope
        self.module, self.is_package = module, is_pkg
        # `Holder.mod.f` / `self.mod.f`: class name (or a method's receiver) -> the names
        # the class body binds only by imports; filled per scope (`_classes`)
        self.classes: dict[str, dict[str, str]] = self._classes(0)
        self.receiver: tuple[str, dict[str, str]] | None = None
        self.stored: set[str] | None = None  # attribute names the file stores (lazily)
        self.tree: ast.Module | None = None

    def visit_ImportFrom(self, node: ast.ImportFrom):
        if any(a.name == "*" for a in node.names):
            star = absolute(node.module, node.level, self.module, self.is_package) or "?"
            self.facts.stars.append(star)

    def _writes(self, node):
        if not self.facts.dynamic and _dynamic_node(node):
            self.facts.dynamic = True
        self.generic_visit(node)

    visit_Assign = visit_AugAssign = _writes

    def _ref(self, line: int, name: str, attrs: list[str], text: str, called=False) -> None:
        if attrs and name in self.scope:
            ref = AttrRef(line, self.scope[name], tuple(attrs), text, called=called)
            self.facts.refs.append(ref)
        elif len(attrs) > 1:
            own = self._namespace(name)
            if own and attrs[0] in own and attrs[0] not in self._stored():
                ref = AttrRef(line, own[attrs[0]], tuple(attrs[1:]), text, called=called)
                self.facts.refs.append(ref)

    def _namespace(self, name: str) -> dict[str, str] | None:
        """What `name.x` reads from a class body: `name` is a class of this file bound by
        its class statement alone, or the receiver of the method being walked."""
        if self.receiver is not None and self.receiver[0] == name:
            return self.receiver[1]
        return self.classes.get(name)

    def _stored(self) -> set[str]:
        """An attribute the file stores anywhere may hide the class body's binding."""
        if self.stored is None:
            self.stored = stored_attributes(self.tree) if self.tree is not None else set()
        return self.stored

    def _classes(self, idx: int) -> dict[str, dict[str, str]]:
        """The classes scope `idx` binds by one class statement each (and no other
        binding), with what their bodies bind only by imports (when anything)."""
        out = {}
        for name, events in self.model.scopes[idx].events.items():
            if len(events) == 1 and events[0].class_scope is not None:
                own = import_only(self.model, events[0].class_scope, {})
                if own:
                    out[name] = own
        return out

    def _nested(self, node, body: list[ast.stmt], params: set[str], receiver=None) -> None:
        idx = self.model.scope_of[node_key(node)]
        inner = {k: v for k, v in self.scope.items() if k not in params}
        inner = import_only(self.model, idx, inner)
        scope = self.model.scopes[idx]
        if receiver is None and self.receiver and self.receiver[0] not in scope.events:
            receiver = self.receiver  # a closure in a method reads its receiver
        classes = {k: v for k, v in self.classes.items() if k not in scope.events}
        if scope.kind != "class":  # a class body's classes are not seen by its methods
            classes.update(self._classes(idx))
        saved = self.scope, self.classes, self.receiver, self.class_body
        self.scope, self.classes, self.receiver = inner, classes, receiver
        if scope.kind != "class":
            self.class_body = None  # a def in a method is not a method
        for stmt in body:
            self.visit(stmt)
        self.scope, self.classes, self.receiver, self.class_body = saved

    def outside(self, nodes: list) -> None:
        """A def's decorators and return annotation, a class's decorators: evaluated
        outside it, and walked before its body (a subclass may hold back what it reads)."""
        for n in nodes:
            self.visit(n)

    def visit_FunctionDef(self, node):
        self.outside(node.decorator_list)
        self.visit(node.args)
        self.outside([node.returns] if node.returns else [])
        if node.returns is not None:
            self.forward_references(node.returns)
        params = {a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}
        params |= {a.arg for a in (node.args.vararg, node.args.kwarg) if a}
        self._nested(node, node.body, params, self._receiver_of(node))

    visit_AsyncFunctionDef = visit_FunctionDef

    def _receiver_of(self, node) -> tuple[str, dict[str, str]] | None:
        """A method's first positional parameter, read as the class body's namespace
        when it is never rebound in the method (not for a staticmethod)."""
        own = self.class_body
        positional = [*node.args.posonlyargs, *node.args.args]
        if not own or not positional:
            return None
        if any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list):
            return None
        first = positional[0].arg
        events = self.model.scopes[self.model.scope_of[node_key(node)]].events.get(first, [])
        return (first, own) if all(e.param for e in events) else None

    class_body: dict[str, str] | None = None  # the class body being walked: its imports

    def visit_ClassDef(self, node):
        self.outside(node.decorator_list)
        for d in [*node.bases, *node.keywords]:
            self.visit(d)
        saved = self.class_body
        self.class_body = import_only(self.model, self.model.scope_of[node_key(node)], {})
        self._nested(node, node.body, set())
        self.class_body = saved

    def visit_Lambda(self, node):
        self.visit(node.args)
        params = {a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}
        params |= {a.arg for a in (node.args.vararg, node.args.kwarg) if a}
        saved = self.scope, self.classes, self.receiver
        self._hide(params)
        self.visit(node.body)
        self.scope, self.classes, self.receiver = saved

    def _comprehension(self, node):
        targets = set()
        for gen in node.generators:
            targets |= _stored(gen.target)
        saved = self.scope, self.classes, self.receiver
        self._hide(targets)
        self.generic_visit(node)
        self.scope, self.classes, self.receiver = saved

    def _hide(self, names: set[str]) -> None:
        """A lambda's parameters, a comprehension's targets: local names that hide these."""
        self.scope = {k: v for k, v in self.scope.items() if k not in names}
        self.classes = {k: v for k, v in self.classes.items() if k not in names}
        if self.receiver is not None and self.receiver[0] in names:
            self.receiver = None

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

    def visit_arg(self, node: ast.arg):
        if node.annotation is not None:
            self.visit(node.annotation)
            self.forward_references(node.annotation)

    def visit_AnnAssign(self, node: ast.AnnAssign):
        self.forward_references(node.annotation)
        self.generic_visit(node)

    def forward_references(self, annotation: ast.expr) -> None:
        """The chains of an annotation's strings (`x: "mod.Cls"`, nested ones too), read
        as the expressions they hold, in the scope the annotation is in, at the line of
        the outermost string; which strings are references is `forward_refs`' one rule
        (not a `Literal`'s values, an `Annotated`'s metadata, a call's arguments), with
        the special forms found by this scope's imports (`from typing import Literal as L`)."""
        special = self.scope
        todo = [(s, s) for s in reference_strings(annotation, special)]
        while todo:
            outer, string = todo.pop()
            try:
                expr = ast.parse(string.value.strip(), mode="eval").body
            except (SyntaxError, ValueError):
                continue  # not an expression: a type checker reports it
            for node in _chains(expr):
                name, attrs = attr_chain(node)
                self._ref(outer.lineno, name, attrs, ".".join([name, *attrs]))
            todo += [(outer, s) for s in reference_strings(expr, special)]

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
        if not self.facts.dynamic and _dynamic_node(node):
            self.facts.dynamic = True
        func = attr_chain(node.func)
        self._call(node, func)
        found = func if isinstance(node.func, ast.Attribute) else None
        if found is None:
            self.generic_visit(node)
            return
        name, attrs = found
        self._ref(node.func.lineno, name, attrs, ".".join([name, *attrs]), called=True)
        for child in [*node.args, *node.keywords]:
            self.visit(child)

    def _call(self, node: ast.Call, func: tuple[str, list[str]] | None) -> None:
        """`func` is `attr_chain(node.func)`."""
        if func is None:
            return
        fname = ".".join([func[0], *func[1]])
        args = node.args
        named = named_call(node)
        if named is not None:
            callee, obj, attr = named
            getter = fname == "getattr" and len(args) == 2  # no default: it must exist
            if getter or (func[1] and callee in _OBJECT_PATCHERS):
                self._object_ref(node, obj, attr)
        if (fname in _PATCHERS or fname.endswith(".setattr")) and args:
            value = str_literal(args[0])
            if value and "." in value and all(p.isidentifier() for p in value.split(".")):
                first, *rest = value.split(".")
                self.facts.refs.append(AttrRef(node.lineno, first, tuple(rest), value, True))

    def _object_ref(self, node: ast.Call, obj: ast.AST, attr: ast.AST) -> None:
        chain, name = attr_chain(obj), str_literal(attr)
        if chain and name and name.isidentifier():
            root, attrs = chain
            self._ref(node.lineno, root, [*attrs, name], f'{".".join([root, *attrs])}."{name}"')


def _chains(expr: ast.AST):
    """The outermost `a.b[.c]` chains of an expression."""
    if isinstance(expr, ast.Attribute) and attr_chain(expr) is not None:
        yield expr
        return
    for child in ast.iter_child_nodes(expr):
        yield from _chains(child)


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


def walk_attributes(tree: ast.Module, model: Bindings, walker_class, *args) -> AttrFacts:
    """The attribute facts of `tree`, whose binding walk is `model` (`scope_model`), from
    one run of `walker_class` (`AttrWalker`, or a subclass reading more on the same walk:
    `facts._FactsWalk`) over its statements."""
    facts = AttrFacts()
    scope = import_only(model, 0, {})
    facts.bindings = dict(scope)
    walker = walker_class(facts, model, scope, *args)
    walker.tree = tree
    for stmt in tree.body:
        walker.visit(stmt)
    return facts
