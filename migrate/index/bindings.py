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

Pure `ast`, no libcst: cheap enough to run on every file that may bind a watched module.
This is meant to become part of the index's code-facts layer (bindings per scope).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from migrate.rewrite import relative
from migrate.rewrite.spans import ast_offset, line_starts

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
# Calls whose (object, "name") arguments name an attribute of `object`.
_NAMED_BUILTINS = {"getattr", "hasattr", "setattr", "delattr"}
_NAMED_METHODS = {"object", "setattr", "delattr"}  # mock.patch.object, monkeypatch.setattr


@dataclass(frozen=True)
class ModuleBinding:
    """An import that binds `local` in a scope to `value` (an absolute dotted name)."""

    local: str
    value: str  # `pkg.mod` for `from pkg import mod`; `pkg` for `import pkg.mod`
    form: str  # "from" | "relative" | "import_as" | "import_root" | "star"
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


@dataclass
class _Event:
    pos: int  # character offset where the binding happens
    binding: ModuleBinding | None  # None: bound to something that is not an import
    fallback: bool = False


@dataclass
class Scope:
    kind: str  # "module" | "function" | "class"
    parent: int | None
    start: int
    events: dict[str, list[_Event]] = field(default_factory=dict)
    globals: set[str] = field(default_factory=set)
    stars: list[ModuleBinding] = field(default_factory=list)


@dataclass
class Bindings:
    scopes: list[Scope] = field(default_factory=list)
    uses: list[ModuleUse] = field(default_factory=list)
    names: set[str] = field(default_factory=set)  # every name bound or read anywhere

    def bound_in_scope(self, scope: int, name: str) -> list[ModuleBinding | None]:
        return [e.binding for e in self.scopes[scope].events.get(name, [])]


class _Builder(ast.NodeVisitor):
    """Pass 1: scopes and binding events."""

    def __init__(self, text: str, package: str | None):
        self.text = text
        self.starts = line_starts(text)
        self.package = package
        self.out = Bindings()
        self.stack: list[int] = []
        self.scope_of: dict[int, int] = {}  # id(node) -> scope opened by it
        self.try_imports: list[set[str]] = []  # names imported by enclosing try bodies
        self.handler_depth: list[set[str]] = []

    def off(self, node: ast.AST) -> int:
        return ast_offset(self.text, self.starts, node.lineno, node.col_offset)

    def end(self, node: ast.AST) -> int:
        return ast_offset(self.text, self.starts, node.end_lineno, node.end_col_offset)

    def indent(self, node: ast.stmt) -> str:
        line = self.text[self.starts[node.lineno - 1] :]
        return line[: len(line) - len(line.lstrip(" \t"))]

    def open(self, kind: str, node: ast.AST) -> None:
        parent = self.stack[-1] if self.stack else None
        self.out.scopes.append(Scope(kind, parent, self.off(node) if parent is not None else 0))
        idx = len(self.out.scopes) - 1
        self.scope_of[id(node)] = idx
        self.stack.append(idx)

    def bind(self, name: str, pos: int, binding: ModuleBinding | None = None) -> None:
        self.out.names.add(name)
        scope = self.out.scopes[self.stack[-1]]
        fallback = any(name in s for s in self.handler_depth)
        scope.events.setdefault(name, []).append(_Event(pos, binding, fallback))

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
            self.bind(node.name, self.off(node))
        self.open("function", node)
        for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if a is not None:
                self.bind(a.arg, self.off(a))
        for stmt in node.body if isinstance(node.body, list) else [node.body]:
            self.visit(stmt)
        self.stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for d in [*node.decorator_list, *node.bases, *[k.value for k in node.keywords]]:
            self.visit(d)
        self.bind(node.name, self.off(node))
        self.open("class", node)
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
            self.bind(node.id, self.off(node))

    def visit_arg(self, node: ast.arg) -> None:
        self.bind(node.arg, self.off(node))

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.type is not None:
            self.visit(node.type)
        if node.name:
            self.bind(node.name, self.off(node))
        for stmt in node.body:
            self.visit(stmt)

    def visit_Try(self, node) -> None:
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
                self.bind(a.asname, self.off(node), b)
            else:
                root = a.name.split(".")[0]
                self.bind(root, self.off(node), self._stmt_binding(node, root, root, "import_root"))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = (
            relative.resolve(self.package, node.level, node.module) if node.level else node.module
        )
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
            self.bind(local, self.off(node), b)


class _Uses(ast.NodeVisitor):
    """Pass 2: uses of watched modules, resolved through the scopes of pass 1."""

    def __init__(self, b: _Builder, watched: frozenset[str], symbols: dict[str, set[str]]):
        self.b = b
        self.watched = watched
        self.symbols = symbols  # module -> names that a star import of it may provide
        self.stack: list[int] = []
        self.consumed: set[int] = set()

    def visit(self, node):  # scope bookkeeping for every node kind that opens one
        idx = self.b.scope_of.get(id(node))
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

    # -- resolution --------------------------------------------------------------
    def resolve(self, name: str, pos: int) -> ModuleBinding | None | bool:
        """The import binding `name` refers to at `pos`; None when bound otherwise;
        False when nothing in the file binds it (a builtin or a star-imported name)."""
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
                return own if own is not False else _pick(scopes[0].events.get(name, []), None)
            events = scope.events.get(name)
            if events:
                if scope.kind == "module":
                    if not first:
                        return _pick(events, None)  # read later, at call time
                    return _pick(events, pos) or None
                if scope.kind == "function":
                    hit = _pick(events, pos) if first else False
                    return _pick(events, None) if hit is False else hit
                hit = _pick(events, pos)  # a class body reading its own name
                if hit is not False:
                    return hit
            first = False
            idx = scope.parent
        return False

    def module_of(self, node: ast.AST) -> tuple[str, ModuleBinding, list[str]] | None:
        """(absolute dotted name, binding, remaining attributes) of a Name/Attribute chain
        whose head is an import binding."""
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        binding = self.resolve(node.id, self.b.off(node))
        if not isinstance(binding, ModuleBinding) or binding.value is None:
            return None
        return binding.value, binding, list(reversed(parts))

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

    def _record(self, kind, module, attr, span, binding, key=-1) -> None:
        use = ModuleUse(kind, module, attr, span, binding, self.stack[-1], key)
        self.b.out.uses.append(use)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if id(node) in self.consumed:
            return
        found = self.module_of(node)
        if found is not None:
            dotted, binding, parts = found
            split = self._watched_split(dotted, parts)
            if split is not None:
                module, i = split
                head = node
                while isinstance(head, ast.Attribute):
                    head = head.value
                span = (self.b.off(head), self._chain_prefix_end(node, i))
                self._record("attr", module, parts[i], span, binding)
                return
        self.generic_visit(node)

    def _named(self, target: ast.AST, attr: ast.AST) -> bool:
        if not (isinstance(attr, ast.Constant) and isinstance(attr.value, str)):
            return False
        found = self.module_of(target)
        if found is None:
            return False
        dotted, binding, parts = found
        module = ".".join([dotted, *parts])
        if module not in self.watched:
            return False
        span = (self.b.off(target), self.b.end(target))
        self._record("named", module, attr.value, span, binding, self.b.off(attr))
        if isinstance(target, ast.Attribute):
            self.consumed.add(id(target))
        return True

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = (
            func.id
            if isinstance(func, ast.Name)
            else func.attr
            if isinstance(func, ast.Attribute)
            else None
        )
        is_named = (isinstance(func, ast.Name) and name in _NAMED_BUILTINS) or (
            isinstance(func, ast.Attribute) and name in _NAMED_METHODS
        )
        if is_named and len(node.args) >= 2:
            self._named(node.args[0], node.args[1])
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        v = node.value
        if (
            isinstance(v, ast.Call)
            and isinstance(v.func, ast.Name)
            and v.func.id == "vars"
            and len(v.args) == 1
        ):
            self._named(v.args[0], node.slice)
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


def _pick(events: list[_Event], pos: int | None) -> ModuleBinding | None | bool:
    """The binding in effect: the latest non-fallback event before `pos` (or of all when
    `pos` is None); False when there is none."""
    real = [e for e in events if not e.fallback] or events
    if pos is not None:
        real = [e for e in real if e.pos < pos]
    if not real:
        return False
    return real[-1].binding


def analyse(
    text: str,
    package: str | None,
    watched: frozenset[str],
    symbols: dict[str, set[str]] | None = None,
    tree: ast.Module | None = None,
) -> Bindings:
    """Scopes, bindings and the uses of `watched` modules in one file (raises
    SyntaxError). `symbols`: for each watched module, the names a star import of it may
    provide that the caller cares about."""
    tree = tree if tree is not None else ast.parse(text)
    builder = _Builder(text, package)
    builder.visit(tree)
    uses = _Uses(builder, watched, symbols or {})
    uses.visit(tree)
    return builder.out
