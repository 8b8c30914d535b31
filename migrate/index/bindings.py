"""Which local names are bound to which modules, per scope, and the uses through them.

A reference is what a name is bound to, not how it is spelled: `from pkg import mod`,
`from . import mod`, `import pkg.mod as m` and `import pkg.mod` (binds `pkg`) all make
`...func` below reach `pkg.mod.func`. Python's scoping is followed closely enough for
rewriting: function (and lambda, comprehension) scopes see a name as local when they bind
it anywhere; class bodies see their own bindings, then skip to the module; a `global`
declaration makes a function's own bindings shadow the module's name there (other
scopes cannot know whether the function ran, so they keep the import); at module level,
and inside one scope, the textually latest binding before a use wins; code running later (a function
body reading a module global) sees the module's last binding. Bindings in an `except`
handler of a `try` that imports the name (`except ImportError: mod = None`) are fallbacks
and do not hide the import.

This is THE binding walk: `scope_model(tree, text, module, is_package)` runs once per
file and is cached with the file's code facts (`CodeFacts.scope_model`, see
`index/facts.py`). The facts' `bindings` (what the module binds at import time) and
`scopes` (what each function binds by import or def) are views of it
(`module_bindings`, `def_scopes`), and so is what the rewriter follows:
`find_uses(model, tree, watched)` resolves the uses of watched modules through it.
Pure `ast`, no libcst.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from migrate.index.calls import IMPORT_CALLS, callee_name
from migrate.index.forward_refs import annotation_parts, forward_references
from migrate.index.imports import package_of, resolve_relative
from migrate.rewrite.spans import ast_offset, line_starts

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
# Calls whose (object, "name") arguments name an attribute of `object`.
_NAMED_BUILTINS = {"getattr", "hasattr", "setattr", "delattr"}
_NAMED_METHODS = {"object", "setattr", "delattr"}  # mock.patch.object, monkeypatch.setattr
# Those that replace or delete the name in the object's namespace (a patch), not read it.
_NAMED_WRITERS = {"setattr", "delattr", "object"}
# The keywords the methods take the object and the name by: `patch.object(target=,
# attribute=)`, `monkeypatch.setattr(target=, name=, value=)` / `delattr(target=, name=)`.
_NAMED_KEYWORDS = {
    "object": ("target", "attribute"),
    "setattr": ("target", "name"),
    "delattr": ("target", "name"),
}


def named_call(node: ast.Call) -> tuple[str, ast.AST, ast.AST] | None:
    """(callee name, object, name) of a call naming an attribute of an object:
    `getattr(o, "n")` / `hasattr` / `setattr` / `delattr`, and the methods
    `patch.object(o, "n")`, `monkeypatch.setattr(o, "n", v)` / `delattr`, their object
    and name passed by position or by keyword; None for any other call. The one reading
    of such calls (the bindings walk, index/attrs for verify)."""
    func = node.func
    if isinstance(func, ast.Name) and func.id in _NAMED_BUILTINS:
        return (func.id, *node.args[:2]) if len(node.args) >= 2 else None
    if not (isinstance(func, ast.Attribute) and func.attr in _NAMED_METHODS):
        return None
    args = list(node.args[:2])
    given = {k.arg: k.value for k in node.keywords if k.arg}
    for key in _NAMED_KEYWORDS[func.attr][len(args) :]:
        if key not in given:
            return None
        args.append(given[key])
    return (func.attr, *args)


@dataclass(frozen=True)
class Binding:
    """One name bound in a scope as the code facts report it, and for an import what it
    is bound to."""

    name: str
    kind: str  # def | class | assign | import | from
    line: int
    module: str | None = None  # import: the module bound; from: the module imported from
    imported: str | None = None  # from: the name imported (`from module import imported`)

    @property
    def target(self) -> str | None:
        """The dotted name the binding refers to (imports only): `pkg`, `pkg.mod`, `m.x`."""
        if self.kind == "import":
            return self.module
        if self.kind == "from" and self.module:
            return f"{self.module}.{self.imported}"
        return None


@dataclass(frozen=True)
class ModuleBinding:
    """An import that binds `local` in a scope to `value` (an absolute dotted name)."""

    local: str
    value: str  # `pkg.mod` for `from pkg import mod`; `pkg` for `import pkg.mod`
    form: str  # "from" | "relative" | "import_as" | "import_root" | "star" | "runtime"
    level: int  # leading dots of a relative import
    stmt: tuple[int, int]  # character span of the import statement
    indent: str
    scope: int  # index into Bindings.scopes


@dataclass(frozen=True)
class ModuleUse:
    """A use of `module.attr` through a binding: `span` is the text that denotes the
    module (`mod`, `pkg.mod`, `m`), or the bare name for a star-imported symbol."""

    kind: str  # "attr" | "named" (getattr/patch.object/vars(...)[...]) | "star"
    module: str
    attr: str
    span: tuple[int, int]
    binding: ModuleBinding
    scope: int
    key: int = -1  # offset of the literal name of a "named" use
    # The use replaces or deletes `attr` in the module's namespace (`mod.attr = x`,
    # `del mod.attr`, `setattr(mod, "attr", x)`, `patch.object(mod, "attr")`,
    # `monkeypatch.setattr/delattr(mod, "attr")`): what reads it from there sees it.
    patch: bool = False


@dataclass
class _Event:
    pos: int  # character offset where the binding happens
    binding: ModuleBinding | None  # None: bound to something that is not an import
    fallback: bool = False
    fact: Binding | None = None  # the binding as the code facts count it (None: they do not)
    contained: bool = False  # inside an `except` handler or a `match` case of its scope
    param: bool = False  # a parameter of the function the scope is
    # an assignment of a module imported at run time (`importlib.import_module(...)`,
    # `__import__(...)`, `sys.modules[...]`): what it binds the file does not show
    runtime_import: bool = False
    declared: bool = False  # `name: T` without a value: binds nothing in a module or class
    # the module a run-time import names by a literal (`importlib.import_module("a.b")`):
    # verify's attribute chains follow it as they follow `import a.b as name` (f12 F2)
    runtime_module: str | None = None
    class_scope: int | None = None  # a class statement: the scope its body opens


@dataclass
class Scope:
    kind: str  # "module" | "function" | "class"
    parent: int | None
    start: int
    qualname: str | None = None  # "" for the module, `f`, `C.m`, `f.inner`; None: lambda etc.
    is_def: bool = False  # opened by a def (not a class, lambda or comprehension)
    comprehension: bool = False
    events: dict[str, list[_Event]] = field(default_factory=dict)
    globals: set[str] = field(default_factory=set)
    stars: list[ModuleBinding] = field(default_factory=list)
    # [start, end) of each part of the scope's own code that may not run, or may run
    # again, where the code before it ran (an `if` branch, a loop, a `try` body, a
    # handler, a `with` body, a `match` case, a conditional operand): is_loop for a loop
    blocks: list[tuple[int, int, bool]] = field(default_factory=list)


@dataclass
class Bindings:
    scopes: list[Scope] = field(default_factory=list)
    uses: list[ModuleUse] = field(default_factory=list)
    names: set[str] = field(default_factory=set)  # every name bound or read anywhere

    scope_of: dict[tuple, int] = field(default_factory=dict)  # node key -> scope it opens

    def bound_in_scope(self, scope: int, name: str) -> list[ModuleBinding | None]:
        return [e.binding for e in self.scopes[scope].events.get(name, [])]


_SCOPE_NODES = (ast.Module, ast.ClassDef, *_FUNCS, *_COMPS)


def node_key(node: ast.AST) -> tuple:
    """Where a scope-opening node is, so a scope model outlives the AST it was built from
    (any parse of the same text finds its scopes)."""
    return (
        type(node).__name__,
        getattr(node, "lineno", 0),
        getattr(node, "col_offset", 0),
        getattr(node, "end_lineno", 0),
        getattr(node, "end_col_offset", 0),
    )


_INERT = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.Constant)


_BUILTIN_TYPES = frozenset(("identifier", "string", "int", "constant"))


def node_fields(cls: type, skip: tuple[type, ...]) -> tuple[tuple[str, bool], ...] | None:
    """(field, is a list) of the fields of node class `cls` that can hold a node a walk
    skipping `skip` visits, in `_fields` order, read from the class's ASDL signature
    (`ast.Name.__doc__` is `Name(identifier id, expr_context ctx)`): a field of a builtin
    type (identifier, string, int, constant) never holds a node, one typed `expr_context`
    only a skipped one. None when the signature does not name every field (walk them all)."""
    doc = (cls.__doc__ or "").strip()
    if doc == cls.__name__ and not cls._fields:
        return ()
    if not (doc.startswith(cls.__name__ + "(") and doc.endswith(")")):
        return None
    parts = [p.split() for p in doc[len(cls.__name__) + 1 : -1].split(",")]
    if any(len(p) != 2 for p in parts) or [n for _, n in parts] != list(cls._fields):
        return None
    out = []
    for typ, name in parts:
        base = typ.rstrip("*?")
        if base in _BUILTIN_TYPES:
            continue
        node_type = getattr(ast, base, None)
        if not (isinstance(node_type, type) and issubclass(node_type, ast.AST)):
            return None
        if not issubclass(node_type, skip):
            out.append((name, typ.endswith("*")))
    return tuple(out)


class Visitor(ast.NodeVisitor):
    """`ast.NodeVisitor` with its dispatch cached per node class and leaves that hold no
    names (contexts, operators, constants: `skip`) skipped: the walk runs on every file's
    facts. A subclass that reads constants sets its own `skip`. `generic_visit` reads only
    the fields that can hold a node (`node_fields`, cached per node class), and calls a
    child's visit method itself (one call a node instead of two) unless the subclass has
    its own `visit`; the order of the visits is the same either way."""

    skip: tuple[type, ...] = _INERT

    def visit(self, node: ast.AST):
        method = (_DISPATCH.get(type(self)) or _tables(type(self)))[0].get(node.__class__)
        if method is None:
            method = _method(type(self), node.__class__)
        return method(self, node)

    def generic_visit(self, node: ast.AST) -> None:
        cls = type(self)
        _methods, children, fields_of, inline = _DISPATCH.get(cls) or _tables(cls)
        fields = fields_of.get(node.__class__, False)
        if fields is False:
            fields = fields_of[node.__class__] = node_fields(node.__class__, self.skip)
        if fields is None:
            return self._visit_all_fields(node)
        for name, many in fields:
            value = getattr(node, name, None)
            if value is None:
                continue
            for item in value if many else (value,):
                if item is None:
                    continue
                method = children.get(item.__class__)
                if method is None:
                    method = _child_method(cls, item.__class__)
                if method is _SKIPPED:
                    continue
                if inline:
                    method(self, item)
                else:
                    self.visit(item)

    def _visit_all_fields(self, node: ast.AST) -> None:
        skip = self.skip
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST) and not isinstance(item, skip):
                        self.visit(item)
            elif isinstance(value, ast.AST) and not isinstance(value, skip):
                self.visit(value)


_DEPRECATED_CONSTANT_VISITS = (
    "visit_Num",
    "visit_Str",
    "visit_Bytes",
    "visit_NameConstant",
    "visit_Ellipsis",
)


_DISPATCH: dict[type, tuple[dict, dict, dict, bool]] = {}  # walker class -> `_tables`


def _SKIPPED(_self, _node) -> None:
    """A child `generic_visit` does not visit (its class is one of `skip`)."""


def _tables(cls: type) -> tuple[dict, dict, dict, bool]:
    """`cls`'s dispatch caches: node class -> visit method, node class -> what
    `generic_visit` does with such a child, node class -> `node_fields`, and whether the
    walker keeps `Visitor.visit` (so `generic_visit` may call the method directly)."""
    tables = _DISPATCH.get(cls)
    if tables is None:
        tables = _DISPATCH[cls] = ({}, {}, {}, cls.visit is Visitor.visit)
    return tables


def _method(cls: type, node_class: type):
    method = getattr(cls, "visit_" + node_class.__name__, None) or cls.generic_visit
    if method is ast.NodeVisitor.visit_Constant and not any(
        hasattr(cls, m) for m in _DEPRECATED_CONSTANT_VISITS
    ):
        method = cls.generic_visit  # what NodeVisitor.visit_Constant ends in without them
    _tables(cls)[0][node_class] = method
    return method


def _child_method(cls: type, node_class: type):
    methods = _tables(cls)[0]
    method = (
        _SKIPPED
        if issubclass(node_class, cls.skip)
        else methods.get(node_class) or _method(cls, node_class)
    )
    _tables(cls)[1][node_class] = method
    return method


class _Builder(Visitor):
    """Pass 1: scopes and binding events."""

    def __init__(self, text: str, package: str | None):
        self.text = text
        self.starts = line_starts(text)
        self.package = package
        self.out = Bindings()
        self.stack: list[int] = []
        self.handler_depth: list[set[str]] = []
        self.assigning: int | None = None  # line of the assignment whose targets are visited
        self.match_depth = 0  # > 0 inside a `match` (module-level facts do not look there)
        self.contained: dict[int, int] = {}  # scope -> depth of handlers/cases open in it
        self.runtime_import = False  # the targets being visited get a run-time import
        self.runtime_module: str | None = None  # ... of this module, named by a literal
        self.declared = False  # the target being visited is only annotated (`x: T`)

    def off(self, node: ast.AST) -> int:
        return self._offset(node.lineno, node.col_offset)

    def end(self, node: ast.AST) -> int:
        return self._offset(node.end_lineno, node.end_col_offset)

    def _offset(self, lineno: int, col: int) -> int:
        """`ast_offset`, without re-encoding lines that are ASCII (bytes are characters)."""
        ascii_lines = self.__dict__.setdefault("_ascii", {})
        plain = ascii_lines.get(lineno)
        if plain is None:
            start = self.starts[lineno - 1]
            end = self.starts[lineno] if lineno < len(self.starts) else len(self.text)
            plain = ascii_lines[lineno] = self.text[start:end].isascii()
        if plain:
            return self.starts[lineno - 1] + col
        return ast_offset(self.text, self.starts, lineno, col)

    def indent(self, node: ast.stmt) -> str:
        line = self.text[self.starts[node.lineno - 1] :]
        return line[: len(line) - len(line.lstrip(" \t"))]

    def open(self, kind: str, node: ast.AST) -> None:
        parent = self.stack[-1] if self.stack else None
        qualname = "" if parent is None else None
        named = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        if parent is not None and named and self.out.scopes[parent].qualname is not None:
            outer = self.out.scopes[parent].qualname
            qualname = f"{outer}.{node.name}" if outer else node.name
        start = self.off(node) if parent is not None else 0
        is_def = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        comp = isinstance(node, _COMPS)
        self.out.scopes.append(Scope(kind, parent, start, qualname, is_def, comp))
        idx = len(self.out.scopes) - 1
        self.out.scope_of[node_key(node)] = idx
        self.stack.append(idx)

    def bind(
        self,
        name: str,
        pos: int,
        binding: ModuleBinding | None = None,
        fact: Binding | None = None,
        param: bool = False,
    ) -> None:
        self.out.names.add(name)
        scope = self.out.scopes[self.stack[-1]]
        fallback = any(name in s for s in self.handler_depth)
        if fact is not None and self.match_depth and scope.kind == "module":
            fact = None  # module-level facts do not descend into `match` cases
        contained = self.contained.get(self.stack[-1], 0) > 0
        event = _Event(
            pos, binding, fallback, fact, contained, param, self.runtime_import, self.declared
        )
        event.runtime_module = self.runtime_module
        scope.events.setdefault(name, []).append(event)

    def _contained(self, node: ast.AST) -> None:
        """An `except` handler or a `match` case: its events are marked `contained`."""
        idx = self.stack[-1]
        first = node if isinstance(node, ast.ExceptHandler) else node.pattern
        self._block(first, node.body[-1])
        self.contained[idx] = self.contained.get(idx, 0) + 1
        if isinstance(node, ast.ExceptHandler):
            self._handler(node)
        else:
            self.generic_visit(node)
        self.contained[idx] -= 1

    def _assigned(self, node, targets: list[ast.AST], rest: list[ast.AST]) -> None:
        """An assignment: its target names are facts (`assign`), visited in field order."""
        saved, self.assigning = self.assigning, node.lineno
        self.runtime_import = _runtime_import(getattr(node, "value", None))
        plain = all(isinstance(t, ast.Name) for t in targets)
        self.runtime_module = _literal_import(getattr(node, "value", None)) if plain else None
        self.declared = isinstance(node, ast.AnnAssign) and node.value is None
        for t in targets:
            self.visit(t)
        self.assigning, self.runtime_import, self.declared = saved, False, False
        self.runtime_module = None
        for r in rest:
            if r is not None:
                self.visit(r)

    # -- scopes ----------------------------------------------------------------
    def visit_Module(self, node: ast.Module) -> None:
        self.open("module", node)
        self.generic_visit(node)

    def _function(self, node) -> None:
        for d in getattr(node, "decorator_list", []):
            self.visit(d)
        args = node.args
        for default in [*args.defaults, *[d for d in args.kw_defaults if d is not None]]:
            self.visit(default)
        if not isinstance(node, ast.Lambda):
            for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
                if a is not None and a.annotation is not None:
                    self.visit(a.annotation)
            if node.returns is not None:
                self.visit(node.returns)
            self.bind(node.name, self.off(node), fact=Binding(node.name, "def", node.lineno))
        self.open("function", node)
        for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if a is not None:
                self.bind(a.arg, self.off(a), param=True)
        for stmt in node.body if isinstance(node.body, list) else [node.body]:
            self.visit(stmt)
        self.stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for d in [*node.decorator_list, *node.bases, *[k.value for k in node.keywords]]:
            self.visit(d)
        self.bind(node.name, self.off(node), fact=Binding(node.name, "class", node.lineno))
        event = self.out.scopes[self.stack[-1]].events[node.name][-1]
        self.open("class", node)
        event.class_scope = self.stack[-1]
        for stmt in node.body:
            self.visit(stmt)
        self.stack.pop()

    def _comprehension(self, node) -> None:
        self.visit(node.generators[0].iter)
        self.open("function", node)
        for i, gen in enumerate(node.generators):
            if i:
                self.visit(gen.iter)
            self.visit(gen.target)
            for cond in gen.ifs:
                self.visit(cond)
        for part in ("elt", "key", "value"):
            if getattr(node, part, None) is not None:
                self.visit(getattr(node, part))
        self.stack.pop()

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    # -- bindings --------------------------------------------------------------
    def visit_Global(self, node: ast.Global) -> None:
        self.out.scopes[self.stack[-1]].globals.update(node.names)

    visit_Nonlocal = visit_Global  # not the module's name either way; treated alike

    def visit_Name(self, node: ast.Name) -> None:
        self.out.names.add(node.id)
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            line = self.assigning
            fact = Binding(node.id, "assign", line) if line is not None else None
            self.bind(node.id, self.off(node), fact=fact)

    def visit_Assign(self, node: ast.Assign) -> None:
        self._assigned(node, node.targets, [node.value])

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._assigned(node, [node.target], [node.value])

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._assigned(node, [node.target], [node.annotation, node.value])

    def visit_For(self, node) -> None:
        # the target is bound only when the loop runs once: it is part of the loop's block
        self._block(node.target, node.body[-1], True)
        self._blocks(node.orelse)
        self._assigned(node, [node.target], [node.iter, *node.body, *node.orelse])

    visit_AsyncFor = visit_For

    def _block(self, first: ast.AST, last: ast.AST, loop: bool = False) -> None:
        """[first, last] is a block of the scope being walked (`Scope.blocks`)."""
        span = (self.off(first), self.end(last), loop)
        self.out.scopes[self.stack[-1]].blocks.append(span)

    def _blocks(self, body: list, loop: bool = False) -> None:
        if body:
            self._block(body[0], body[-1], loop)

    def visit_While(self, node: ast.While) -> None:
        self._blocks(node.body, True)
        self._blocks(node.orelse)
        self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:
        self._blocks(node.body)
        self._blocks(node.orelse)
        self.generic_visit(node)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self._block(node.body, node.body)
        self._block(node.orelse, node.orelse)
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        self._block(node.values[1], node.values[-1])
        self.generic_visit(node)

    def visit_With(self, node) -> None:
        self._blocks(node.body)  # its targets are bound before the body runs
        self.generic_visit(node)

    visit_AsyncWith = visit_With

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.runtime_import = _runtime_import(node.value)
        self.visit(node.target)
        self.runtime_import = False
        self.visit(node.value)

    def visit_Match(self, node) -> None:
        self.match_depth += 1
        self.generic_visit(node)
        self.match_depth -= 1

    def visit_arg(self, node: ast.arg) -> None:
        self.bind(node.arg, self.off(node))

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        self._contained(node)

    visit_match_case = _contained

    def _handler(self, node: ast.ExceptHandler) -> None:
        if node.type is not None:
            self.visit(node.type)
        if node.name:
            self.bind(node.name, self.off(node))
        for stmt in node.body:
            self.visit(stmt)

    def visit_Try(self, node) -> None:
        self._blocks(node.body)  # the handlers are blocks of their own (`_contained`)
        self._blocks(node.orelse)  # `finally` runs whenever the code after it does
        imported: set[str] = set()
        for stmt in node.body:
            for sub in ast.walk(stmt):
                if isinstance(sub, (ast.Import, ast.ImportFrom)):
                    imported.update(
                        (a.asname or a.name.split(".")[0]) for a in sub.names if a.name != "*"
                    )
            self.visit(stmt)
        self.handler_depth.append(imported)
        for h in node.handlers:
            self.visit(h)
        self.handler_depth.pop()
        for stmt in [*node.orelse, *node.finalbody]:
            self.visit(stmt)

    visit_TryStar = visit_Try

    def visit_MatchAs(self, node) -> None:
        self.generic_visit(node)
        if node.name:
            self.bind(node.name, self.off(node))

    def visit_MatchStar(self, node) -> None:
        if node.name:
            self.bind(node.name, self.off(node))

    def visit_MatchMapping(self, node) -> None:
        self.generic_visit(node)
        if node.rest:
            self.bind(node.rest, self.off(node))

    def _stmt_binding(self, node, local, value, form, level=0) -> ModuleBinding:
        return ModuleBinding(
            local,
            value,
            form,
            level,
            (self.off(node), self.end(node)),
            self.indent(node),
            self.stack[-1],
        )

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            if a.asname:
                b = self._stmt_binding(node, a.asname, a.name, "import_as")
                fact = Binding(a.asname, "import", node.lineno, a.name)
                self.bind(a.asname, self.off(node), b, fact)
            else:
                root = a.name.split(".")[0]
                b = self._stmt_binding(node, root, root, "import_root")
                self.bind(root, self.off(node), b, Binding(root, "import", node.lineno, root))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = resolve_relative(self.package, node.level, node.module)
        form = "relative" if node.level else "from"
        for a in node.names:
            if a.name == "*":
                if base:
                    star = self._stmt_binding(node, "*", base, "star", node.level)
                    self.out.scopes[self.stack[-1]].stars.append(star)
                continue
            local = a.asname or a.name
            value = f"{base}.{a.name}" if base else None
            b = self._stmt_binding(node, local, value, form, node.level) if value else None
            self.bind(local, self.off(node), b, Binding(local, "from", node.lineno, base, a.name))


_IMPORTERS = IMPORT_CALLS | {"reload"}


def _runtime_import(value: ast.AST | None) -> bool:
    """`value` is a module imported at run time: `importlib.import_module(name)`,
    `__import__(name)`, `importlib.reload(m)`, `sys.modules[name]`."""
    if isinstance(value, ast.Call):
        return callee_name(value) in _IMPORTERS
    if isinstance(value, ast.Subscript):
        v = value.value
        return (v.id if isinstance(v, ast.Name) else getattr(v, "attr", None)) == "modules"
    return False


def _literal_import(value: ast.AST | None) -> str | None:
    """The absolute module `importlib.import_module("a.b")` (or `import_module("a.b")`)
    names by a literal, with no `package` argument; None for anything else."""
    if not (isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords):
        return None
    f, arg = value.func, value.args[0]
    named = callee_name(value) == "import_module" and (
        isinstance(f, ast.Name) or (isinstance(f.value, ast.Name) and f.value.id == "importlib")
    )
    if named and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        name = arg.value
        if name and all(part.isidentifier() for part in name.split(".")):
            return name
    return None


class _Uses(Visitor):
    """Pass 2: uses of watched modules, resolved through the scopes of pass 1."""

    def __init__(
        self,
        b: _Offsets,
        watched: frozenset[str],
        symbols: dict[str, set[str]],
        aliases: dict[str, str] | None = None,
        runtime: bool = False,
    ):
        self.b = b
        self.watched = watched
        # also read a name bound by `importlib.import_module("<literal>")` (and only so) as
        # a binding of that module, of form "runtime" (f12 F2): its caller refuses it
        self.runtime = runtime
        self.aliases = aliases or {}  # `other.name` -> the module `other` binds as `name`
        self.symbols = symbols  # module -> names that a star import of it may provide
        self.stack: list[int] = []
        self.consumed: set[int] = set()
        self.uses: list[ModuleUse] = []
        # a method's scope -> (its first parameter, the class's scope): `self.mod.f` reads
        # the class body's `mod` (d12 D1)
        self.receivers: dict[int, tuple[str, int]] = {}
        # attribute names the file stores or deletes anywhere (`self.mod = x`, `setattr(o,
        # "mod", x)`): an instance attribute that may hide the class's; None: unknown
        self.stored_attrs: set[str] | None = None

    def visit(self, node):  # scope bookkeeping for every node kind that opens one
        idx = self.b.out.scope_of.get(node_key(node)) if isinstance(node, _SCOPE_NODES) else None
        if idx is None:
            return super().visit(node)
        if isinstance(node, _FUNCS + _COMPS + (ast.ClassDef,)):
            self._scoped(node, idx)
            return None
        self.stack.append(idx)
        super().visit(node)
        self.stack.pop()
        return None

    def _scoped(self, node, idx: int) -> None:
        """Parts of a def/class evaluated outside it first, then its body inside."""
        outer: list[ast.AST] = []
        inner: list[ast.AST] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            outer += getattr(node, "decorator_list", [])
            self._receiver(node, idx)
            outer += [*args.defaults, *[d for d in args.kw_defaults if d is not None]]
            if not isinstance(node, ast.Lambda):
                all_args = [*args.posonlyargs, *args.args, *args.kwonlyargs]
                all_args += [args.vararg, args.kwarg]
                outer += [a.annotation for a in all_args if a is not None and a.annotation]
                outer += [node.returns] if node.returns is not None else []
            inner = node.body if isinstance(node.body, list) else [node.body]
        elif isinstance(node, ast.ClassDef):
            outer = [*node.decorator_list, *node.bases, *[k.value for k in node.keywords]]
            inner = node.body
        else:  # comprehension: the first iterable is evaluated outside
            outer = [node.generators[0].iter]
            inner = [g.target for g in node.generators]
            inner += [g.iter for g in node.generators[1:]]
            inner += [c for g in node.generators for c in g.ifs]
            inner += [getattr(node, p) for p in ("elt", "key", "value") if getattr(node, p, None)]
        for n in outer:
            self.visit(n)
        self.stack.append(idx)
        for n in inner:
            self.visit(n)
        self.stack.pop()

    def _receiver(self, node: ast.AST, idx: int) -> None:
        """A def directly in a class body, not a staticmethod, with a first positional
        parameter: that parameter is the instance (or the class) inside it."""
        parent = self.stack[-1] if self.stack else None
        if isinstance(node, ast.Lambda) or parent is None:
            return
        if self.b.out.scopes[parent].kind != "class":
            return
        positional = [*node.args.posonlyargs, *node.args.args]
        static = any(
            isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list
        )
        if positional and not static:
            self.receivers[idx] = (positional[0].arg, parent)

    def _through_receiver(self, node: ast.AST) -> tuple[str, ModuleBinding, list[str], int] | None:
        """`self.mod.f` in a method of a class whose body binds `mod` by import (and only
        so): (dotted name, that binding, attributes after `mod`, offset of `mod`)."""
        chain = name_chain(node)
        if chain is None or len(chain[1]) < 2 or not self.stack:
            return None
        head, attrs = chain
        method = self._method_binding(head.id)
        if method is None:
            return self._through_class(node, head, attrs)
        receiver = self.receivers[method]
        scope = self.b.out.scopes[method]
        if head.id in scope.globals or not all(e.param for e in scope.events.get(head.id, [])):
            return None  # the parameter is rebound in the method
        return self._class_attr(node, receiver[1], attrs)

    def _method_binding(self, name: str) -> int | None:
        """The method whose receiver parameter `name` is here: the scope being walked, or
        one it is nested in (a closure) when no scope between binds `name`."""
        scopes = self.b.out.scopes
        idx: int | None = self.stack[-1]
        while idx is not None:
            receiver = self.receivers.get(idx)
            if receiver is not None and receiver[0] == name:
                return idx
            if scopes[idx].kind != "function" or name in scopes[idx].events:
                return None
            idx = scopes[idx].parent
        return None

    def _through_class(self, node: ast.AST, head: ast.Name, attrs: list[str]):
        """`Holder.mod.f` where `Holder` is bound only by one class statement whose body
        binds `mod` by import: read as `self.mod.f` is (f12, a false PASS before)."""
        idx, hit = self.lookup(head.id, self.b.off(head))
        if idx is None or hit is not None:
            return None
        events = self.b.out.scopes[idx].events.get(head.id, [])
        if len(events) != 1 or events[0].class_scope is None:
            return None
        return self._class_attr(node, events[0].class_scope, attrs)

    def _class_attr(self, node: ast.AST, class_idx: int, attrs: list[str]):
        """The import binding of `attrs[0]` in the class body `class_idx` (its only
        binding there, and no instance or class attribute of that name is ever stored)."""
        if self.stored_attrs is None or attrs[0] in self.stored_attrs:
            return None  # an attribute of that name stored elsewhere may hide the class's
        events = self.b.out.scopes[class_idx].events.get(attrs[0], [])
        if not events or any(e.binding is None for e in events):
            return None
        binding = _pick(events, None)
        if not isinstance(binding, ModuleBinding) or binding.value is None:
            return None
        inner = node
        while isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Attribute):
            inner = inner.value
        return binding.value, binding, attrs[1:], self.b.end(inner) - len(attrs[0])

    # -- resolution --------------------------------------------------------------
    def resolve(self, name: str, pos: int) -> ModuleBinding | None | bool:
        """The import binding `name` refers to at `pos`; None when bound otherwise;
        False when nothing in the file binds it (a builtin or a star-imported name)."""
        return self.lookup(name, pos)[1]

    def lookup(self, name: str, pos: int) -> tuple[int | None, ModuleBinding | None | bool]:
        """(scope that binds `name` at `pos`, what `resolve` says of it); the scope is None
        when nothing in the file binds it."""
        scopes = self.b.out.scopes
        idx: int | None = self.stack[-1]
        first = True
        while idx is not None:
            scope = scopes[idx]
            if scope.kind == "class" and not first:
                idx = scope.parent  # nested scopes do not see class bodies
                continue
            if name in scope.globals and scope.kind != "module":
                own = _pick(scope.events.get(name, []), pos)  # `global x; x = ...` here
                if own is not False:
                    return idx, own
                hit = _pick(scopes[0].events.get(name, []), None)
                return (None if hit is False else 0), hit
            events = scope.events.get(name)
            if events:
                if scope.kind == "module":
                    if not first:
                        return idx, _pick(events, None)  # read later, at call time
                    return idx, _pick(events, pos) or None
                if scope.kind == "function":
                    hit = _pick(events, pos) if first else False
                    return idx, (_pick(events, None) if hit is False else hit)
                hit = _pick(events, pos)  # a class body reading its own name
                if hit is not False:
                    return idx, hit
            first = False
            idx = scope.parent
        return self._global_import(name)

    def _global_import(self, name: str) -> tuple[int | None, ModuleBinding | None | bool]:
        """A name no scope that sees it binds, which a function binds by `global name`
        and an import (a lazy import, d12 D3): code running later reads that import.
        (scope, binding) when every such binding is one import; otherwise (None, False),
        nothing binds it here, as for a global only a function assigns."""
        hits = [
            (i, ev)
            for i, scope in enumerate(self.b.out.scopes)
            if scope.kind != "module" and name in scope.globals
            for ev in scope.events.get(name, [])
        ]
        values = {(ev.binding.value, ev.binding.form) if ev.binding else None for _, ev in hits}
        if len(values) == 1 and None not in values:
            return hits[0][0], hits[0][1].binding
        return None, False

    def module_of(self, node: ast.AST) -> tuple[str, ModuleBinding, list[str]] | None:
        """(absolute dotted name, binding, remaining attributes) of a Name/Attribute chain
        whose head is an import binding."""
        chain = name_chain(node)
        if chain is None:
            return None
        head, parts = chain
        idx, binding = self.lookup(head.id, self.b.off(head))
        if binding is None and idx is not None and self.runtime:
            binding = self._runtime_binding(head.id, idx)
        if not isinstance(binding, ModuleBinding) or binding.value is None:
            return None
        return binding.value, binding, parts

    def _runtime_binding(self, name: str, idx: int) -> ModuleBinding | None:
        """`name` bound in scope `idx` only by `importlib.import_module("<literal>")` of one
        module, outside any except handler or match case: that module, as a binding of
        form "runtime" whose statement is the assignment (an empty span at its start)."""
        events = self.b.out.scopes[idx].events.get(name, [])
        modules = {e.runtime_module for e in events}
        if len(modules) != 1 or None in modules or any(e.contained or e.param for e in events):
            return None
        pos = events[0].pos
        return ModuleBinding(name, events[0].runtime_module, "runtime", 0, (pos, pos), "", idx)

    def _through_aliases(self, dotted: str, parts: list[str]) -> tuple[str, list[str], int]:
        """(module, attributes after it, attributes read through) once each leading
        attribute that another module binds to a watched module is read as that module."""
        shift, i = 0, 0
        while i < len(parts) - 1:
            name = ".".join([dotted, *parts[: i + 1]])
            if name in self.aliases:  # `pkg.user.mod.f`: user's `mod` is pkg.mod
                dotted, parts, shift, i = self.aliases[name], parts[i + 1 :], shift + i + 1, 0
            else:
                i += 1
        return dotted, parts, shift

    def _chain_prefix_end(self, node: ast.Attribute, keep: int) -> int:
        """End offset of the chain after its first `keep` attributes."""
        chain = []
        n = node
        while isinstance(n, ast.Attribute):
            chain.append(n)
            n = n.value
        chain.reverse()  # chain[i] ends after attribute i
        return self.b.end(chain[keep - 1]) if keep else self.b.end(n)

    def _watched_split(self, dotted: str, parts: list[str]) -> tuple[str, int] | None:
        """Longest watched module among dotted + parts[:i] that has an attribute after it."""
        for i in range(len(parts) - 1, -1, -1):
            name = ".".join([dotted, *parts[:i]])
            if name in self.watched:
                return name, i
        return None

    def _record(self, kind, module, attr, span, binding, key=-1, patch=False) -> None:
        use = ModuleUse(kind, module, attr, span, binding, self.stack[-1], key, patch)
        self.uses.append(use)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if id(node) in self.consumed:
            return
        found, start, skip = self.module_of(node), None, 0
        if found is None:
            through = self._through_receiver(node)
            if through is not None:
                found, start, skip = through[:3], through[3], 1
        if found is not None:
            dotted, binding, parts = found
            dotted, parts, shift = self._through_aliases(dotted, parts)
            split = self._watched_split(dotted, parts)
            if split is not None:
                module, i = split
                head = node
                while isinstance(head, ast.Attribute):
                    head = head.value
                start = self.b.off(head) if start is None else start
                span = (start, self._chain_prefix_end(node, i + shift + skip))
                writes = i == len(parts) - 1 and isinstance(node.ctx, (ast.Store, ast.Del))
                self._record("attr", module, parts[i], span, binding, patch=writes)
                return
        self.generic_visit(node)

    def _named(self, target: ast.AST, attr: ast.AST, patch: bool = False) -> bool:
        if not (isinstance(attr, ast.Constant) and isinstance(attr.value, str)):
            return False
        found = self.module_of(target)
        if found is None:
            return False
        dotted, binding, parts = found
        dotted, parts, _ = self._through_aliases(dotted, [*parts, ""])
        module = ".".join([dotted, *parts[:-1]])
        if module not in self.watched:
            return False
        span = (self.b.off(target), self.b.end(target))
        self._record("named", module, attr.value, span, binding, self.b.off(attr), patch)
        if isinstance(target, ast.Attribute):
            self.consumed.add(id(target))
        return True

    def visit_Call(self, node: ast.Call) -> None:
        named = named_call(node)
        if named is not None:
            name, target, attr = named
            self._named(target, attr, name in _NAMED_WRITERS)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        """`vars(m)["s"]` and `m.__dict__["s"]`: one namespace, one rule (trial23 T35);
        a store or `del` through it is a patch, like `setattr(m, "s", v)`."""
        v = node.value
        writes = isinstance(node.ctx, (ast.Store, ast.Del))
        if (
            isinstance(v, ast.Call)
            and isinstance(v.func, ast.Name)
            and v.func.id == "vars"
            and len(v.args) == 1
        ):
            self._named(v.args[0], node.slice, writes)
        elif (
            isinstance(v, ast.Attribute)
            and v.attr == "__dict__"
            and self._named(v.value, node.slice, writes)
        ):
            self.consumed.add(id(v))
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Load):
            return
        if self.resolve(node.id, self.b.off(node)) is not False:
            return
        for star in self.b.out.scopes[0].stars:
            if star.value in self.watched and node.id in self.symbols.get(star.value, ()):
                span = (self.b.off(node), self.b.end(node))
                self._record("star", star.value, node.id, span, star)
                return


@dataclass(frozen=True)
class NameRead:
    """A read of a bare name and the scope it resolves to."""

    name: str
    line: int
    pos: int  # offset of the name (of the string, for a name in a string annotation)
    home: int | None  # index of the scope that binds it; None: nothing in the file does


class _Reads(_Uses):
    """Every read of a bare name, resolved through the scopes of pass 1; annotations
    written as strings (`x: "Num"`, `list["Num"]`) are read as the expressions they
    hold (not a `Literal[...]`'s strings, nor an `Annotated[...]`'s metadata)."""

    skip = tuple(t for t in _INERT if t is not ast.Constant)

    def __init__(self, b: _Offsets):
        super().__init__(b, frozenset(), {})
        self.reads: list[NameRead] = []
        self.annotations: set[int] = set()
        self.in_annotation = 0
        self.at: tuple[int, int] | None = None  # (line, offset) of the string being read

    def visit(self, node):
        if id(node) not in self.annotations:
            return super().visit(node)
        self.in_annotation += 1
        super().visit(node)
        self.in_annotation -= 1
        return None

    def _scoped(self, node, idx: int) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
            self.annotations.update(id(a.annotation) for a in every if a and a.annotation)
            if node.returns is not None:
                self.annotations.add(id(node.returns))
        super()._scoped(node, idx)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self.annotations.add(id(node.annotation))
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        """A call inside an annotation (`A[str, Arg(help="...")]`) passes values, not
        types: its arguments' strings are not read as annotations (`annotation_parts`)."""
        self._parts(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if not self.in_annotation:
            return self.generic_visit(node)
        self._parts(node)
        return None

    def _parts(self, node: ast.expr) -> None:
        """The types of an annotation node read as annotations, its values (a `Literal`'s,
        an `Annotated`'s metadata, a call's arguments) as code: their names are read, their
        strings are not forward references. The rule is `forward_refs.annotation_parts`."""
        types, values = annotation_parts(node, self._bound(node))
        for part in types:
            self.visit(part)
        depth, self.in_annotation = self.in_annotation, 0
        for part in values:
            self.visit(part)
        self.in_annotation = depth

    def _bound(self, node: ast.expr):
        """`bound` for `forward_refs.special_form`, through the scopes at `node` (or at
        the string annotation being read)."""
        at = (self.at or (0, self.b.off(node)))[1]

        def bound(name: str):
            found = self.lookup(name, at)[1]
            if isinstance(found, ModuleBinding) and found.value:
                return found.value
            return False if found is False else None

        return bound

    def visit_Constant(self, node: ast.Constant) -> None:
        if not (self.in_annotation and isinstance(node.value, str)):
            return
        try:
            expr = ast.parse(node.value.strip(), mode="eval")
        except (SyntaxError, ValueError):
            return  # not an expression: a type checker reports it, not a binding
        outer = self.at
        self.at = outer or (node.lineno, self.b.off(node))  # its names are read where it is
        self.visit(expr.body)
        self.at = outer

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            line, pos = self.at or (node.lineno, self.b.off(node))
            home, _ = self.lookup(node.id, pos)
            self.reads.append(NameRead(node.id, line, pos, home))


def name_reads(model: Bindings, tree: ast.Module, text: str) -> list[NameRead]:
    """Every read of a bare name in the file `model` describes (string annotations
    included) and the scope that binds it: what a moved definition needs from its
    module, and what nothing binds (verify's `deferred-names`)."""
    reads = _Reads(_Offsets(text, model))
    reads.visit(tree)
    return reads.reads


# Every binding that may be in effect at a read (None: one that is not an import).
Reach = tuple[ModuleBinding | None, ...]


class _Reaching(_Uses):
    """What the bare names read at given offsets may be bound to (`reaching_bindings`)."""

    def __init__(self, b: _Offsets, positions: set[int]):
        super().__init__(b, frozenset(), {})
        self.positions = positions
        self.found: dict[int, Reach | None] = {}

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.generic_visit(node)

    visit_Call = visit_Subscript = visit_Attribute

    def visit_Name(self, node: ast.Name) -> None:
        pos = self.b.off(node)
        if pos in self.positions and isinstance(node.ctx, ast.Load):
            self.found[pos] = self.reaching(node.id, pos)

    def reaching(self, name: str, pos: int) -> Reach | None:
        """Every binding of `name` that a read at `pos` may see, by `lookup`'s scope rules
        but without its choice of one (the textually latest): None when the read may
        reach a binding the file does not show (nothing in it binds the name, no binding
        of it certainly ran before the read in a module or class body, one binds it to a
        module imported at run time, or the module's name may come from a star import)."""
        scopes = self.b.out.scopes
        idx: int | None = self.stack[-1]
        first = True
        while idx is not None:
            scope = scopes[idx]
            if scope.kind == "class" and not first:
                idx = scope.parent  # nested scopes do not see class bodies
                continue
            events = scope.events.get(name, [])
            if any(e.runtime_import for e in events):
                return None  # a module imported at run time: the file does not show which
            if name in scope.globals and scope.kind != "module":
                own = _dominating(scope, events, pos) if first else None
                return None if own is None else self._with_global_rebinding(name, own)
            if scope.kind == "module" and scope.stars:
                return None  # a star import may bind it: the file does not show what
            if scope.kind != "function":  # `x: T` alone binds nothing there
                events = [e for e in events if not e.declared]
            if events:
                if scope.kind == "function":  # local in the whole function: only its own
                    return tuple(e.binding for e in events)
                if not first:  # a module global read later, at call time: any of them
                    return self._with_global_rebinding(name, tuple(e.binding for e in events))
                own = _dominating(scope, events, pos)
                if own is None:  # the module's (class: the enclosing) binding may be read
                    return None
                return own if scope.kind == "class" else self._with_global_rebinding(name, own)
            first = False
            idx = scope.parent
        return None

    def _with_global_rebinding(self, name: str, found: Reach) -> Reach | None:
        """`found`, and the imports by which functions declaring `name` global rebind the
        module's name (None when one imports it at run time)."""
        scopes = [s for s in self.b.out.scopes if name in s.globals]
        events = [e for scope in scopes for e in scope.events.get(name, [])]
        if any(e.runtime_import for e in events) or self.b.out.scopes[0].stars:
            return None
        return found + tuple(e.binding for e in events if e.binding is not None)


def _dominating(scope: Scope, events: list[_Event], pos: int) -> Reach | None:
    """The bindings a read at `pos` in `scope`'s own code may see: the latest binding
    before it that ran on every way to it (each block holding the binding holds the
    read), those after that one in blocks that may have run, and, in a loop holding the
    read but not that binding, every binding in the loop (a later pass sees them). None
    when no binding before it certainly ran."""
    before = [e for e in events if e.pos < pos]
    for k in range(len(before) - 1, -1, -1):
        at = before[k].pos
        if all(a <= pos < b for a, b, _ in scope.blocks if a <= at < b):
            seen = before[k:]
            for a, b, loop in scope.blocks:
                if loop and a <= pos < b and not a <= at < b:
                    seen += [e for e in events if a <= e.pos < b and e.pos >= pos]
            return tuple(e.binding for e in seen)
    return None


def reaching_bindings(
    model: Bindings, tree: ast.Module, text: str, positions: set[int]
) -> dict[int, Reach | None]:
    """offset -> every binding that may be in effect where code reads a bare name there
    (a ModuleBinding for an import, None for any other binding: a parameter, an
    assignment, a def, a for/with/except target, a walrus), or None when the read may
    see a binding the file does not show. Offsets of `positions` that no name read in
    code starts (a string, a comment, an import statement) are left out. The reading
    of verify's old-names (`oldnames.OldNames.references`): a chain is a reference to a
    moved module only when its head may be bound to an import of it there."""
    reach = _Reaching(_Offsets(text, model), positions)
    reach.visit(tree)
    return reach.found


def _pick(events: list[_Event], pos: int | None) -> ModuleBinding | None | bool:
    """The binding in effect: the latest non-fallback event before `pos` (or of all when
    `pos` is None); False when there is none."""
    real = [e for e in events if not e.fallback] or events
    if pos is not None:
        real = [e for e in real if e.pos < pos]
    if not real:
        return False
    return real[-1].binding


class _Offsets:
    """Offsets into one text, for reading a scope model back against a parse of it."""

    def __init__(self, text: str, model: Bindings):
        self.text, self.out = text, model
        self.starts = line_starts(text)

    off, end, _offset = _Builder.off, _Builder.end, _Builder._offset


def scope_model(tree: ast.Module, text: str, module: str | None, is_package: bool) -> Bindings:
    """THE binding walk of one file: its scopes and every binding event in them (module
    `module`, "" or None outside the import roots, resolves its relative imports)."""
    builder = _Builder(text, package_of(module, is_package))
    builder.visit(tree)
    return builder.out


def find_uses(
    model: Bindings,
    tree: ast.Module,
    text: str,
    watched: frozenset[str],
    symbols: dict[str, set[str]] | None = None,
    aliases: dict[str, str] | None = None,
    runtime: bool = False,
) -> list[ModuleUse]:
    """The uses of `watched` modules in the file `model` describes, resolved through its
    scopes, forward references included (`x: "mod.Cls"`, read where the string is, in
    the module's scope, as `typing.get_type_hints` does: `forward_refs.py`). `symbols`:
    for each watched module, the names a star import of it may provide that the caller
    cares about. `aliases`: `other.name` -> the watched module that another module's
    top-level import binds as `name` (`user.mod.f` where pkg.user did `from pkg import
    mod` is a use of `pkg.mod.f`, trial25 T52). `runtime`: also uses through a name
    bound by `importlib.import_module("<literal>")`, with a binding of form "runtime"."""
    uses = _Uses(_Offsets(text, model), watched, symbols or {}, aliases or {}, runtime)
    uses.stored_attrs = stored_attributes(tree)
    uses.visit(tree)
    uses.stack.append(0)
    for _, expr in forward_references(tree, text):
        uses.visit(expr)
    uses.stack.pop()
    return uses.uses


def stored_attributes(tree: ast.Module) -> set[str]:
    """Attribute names the file stores or deletes (`o.name = x`, `del o.name`,
    `setattr(o, "name", x)`, `delattr`)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.add(node.attr)
        elif isinstance(node, ast.Call):
            named = named_call(node)
            if named and named[0] in ("setattr", "delattr") and isinstance(named[2], ast.Constant):
                out.add(str(named[2].value))
    return out


def _last_facts(events: list[_Event], kinds: frozenset[str]) -> Binding | None:
    facts = [e.fact for e in events if e.fact is not None and e.fact.kind in kinds]
    return facts[-1] if facts else None


_MODULE_KINDS = frozenset(("def", "class", "assign", "import", "from"))
_DEF_KINDS = frozenset(("def", "class", "import", "from"))


def module_bindings(model: Bindings) -> dict[str, Binding]:
    """name -> Binding for every name the module binds at import time (the last wins)."""
    out = {}
    for name, events in model.scopes[0].events.items():
        hit = _last_facts(events, _MODULE_KINDS)
        if hit is not None:
            out[name] = hit
    return out


def import_only(model: Bindings, idx: int, outer: dict[str, str]) -> dict[str, str]:
    """name -> dotted for the names scope `idx` sees bound only by imports, flow-insensitive:
    `outer` (the enclosing view, parameters already removed) minus every name the scope
    binds otherwise, plus names its own imports bind to one dotted name. Imports in an
    `except` handler or a `match` case are neither (they may not run); names stored in
    the scope's comprehensions count as bound otherwise. Verify's attribute chains
    (`index/attrs.py`) follow these: a reference it cannot be sure of is not followed."""
    imported: dict[str, set[str]] = {}
    other: set[str] = set()
    for sidx in _with_comprehensions(model, idx):
        for name, events in model.scopes[sidx].events.items():
            for e in events:
                if e.param:
                    continue
                if e.fact is not None and e.fact.kind in ("import", "from"):
                    if e.binding is not None and not e.contained and sidx == idx:
                        imported.setdefault(name, set()).add(e.binding.value)
                elif e.runtime_module and not e.contained and sidx == idx:
                    imported.setdefault(name, set()).add(e.runtime_module)
                else:
                    other.add(name)
    view = {k: v for k, v in outer.items() if k not in other and k not in imported}
    for name, dotted in imported.items():
        if name not in other and len(dotted) == 1:
            view[name] = next(iter(dotted))
    return view


def _with_comprehensions(model: Bindings, idx: int) -> list[int]:
    """Scope `idx` and the comprehension scopes nested in it through comprehensions only."""
    out = [idx]
    for j in range(idx + 1, len(model.scopes)):
        s = model.scopes[j]
        if s.comprehension and s.parent in out:
            out.append(j)
    return out


def def_scopes(model: Bindings) -> dict[str, dict[str, Binding]]:
    """qualname -> {name: Binding} of what each function binds by import or def."""
    out: dict[str, dict[str, Binding]] = {}
    for scope in model.scopes:
        if not scope.is_def or scope.qualname is None:
            continue
        local = {}
        for name, events in scope.events.items():
            hit = _last_facts(events, _DEF_KINDS)
            if hit is not None:
                local[name] = hit
        if local:
            out[scope.qualname] = local
    return out


def name_chain(node: ast.AST) -> tuple[ast.Name, list[str]] | None:
    """(head name node, attributes) of a pure `a.b.c` chain of names and attributes."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return (node, parts[::-1]) if isinstance(node, ast.Name) else None
