"""Code facts: what one Python file says about names, read once and cached per file.

`code_facts(text, module, is_package)` parses a file with `ast` and returns `CodeFacts`
(None when it does not parse). Trees cache them per path: `RepoIndex.facts(path)` for a
checkout, `materialize.Tree.facts(path)` for the tree a ChangeSet would leave (both
implement the one tree protocol, `index.tree.CodeTree`). Every stage that asks "what
does this module bind / import / register" reads these facts instead of walking the AST.

The API (stable; verify's attribute resolution and the binding-based rewriter build on it):

- `imports`: every import statement as `ImportRef` (absolute module, imported names
  without `*`, line, col, `local` = inside a def, `type_checking`; `toplevel` = runs at
  import time). Relative imports are resolved by THE resolver
  (`index.imports.resolve_relative`); the ones it cannot resolve (outside the roots, a
  top-level module, dots above the top package) are in `unresolved_relative` instead.
- `scope_model`: THE binding walk of the file (`index.bindings.scope_model`): scopes and
  every binding event; `bindings`, `scopes` and `attrs` below are views of it, and the
  rewriter resolves its uses through it (`index.bindings.find_uses`).
- `bindings`: name -> `Binding` for every name the module binds at import time
  (module level, descending into if/try/with/for/while bodies; the textually last binding
  wins): its kind (`def`, `class`,
  `assign`, `import`, `from`), line, and for imports what it is bound to (`Binding.target`):
  `import pkg.mod` binds `pkg` to module `pkg`; `import pkg.mod as m` binds `m` to
  `pkg.mod`; `from pkg import mod` and `from . import mod` bind `mod` to `pkg.mod` (a
  submodule or an attribute of `pkg`: the tree decides); aliases bind the alias.
  `scopes`: the same, per function (qualified name `f`, `C.m`, `f.inner`), for the names
  a function binds by import or def (the bindings a reference inside it may see first).
- `all_names`: `__all__` when it is a literal list/tuple (with `+=` / `.extend`), else None.
- dynamic modules: `getattr_hook` (module-level `__getattr__`), `star_imports` (absolute
  modules of `from m import *`), `writes_globals` (`globals()[...] = ...`,
  `globals().update(...)`); `dynamic` is True for the first two (as verify has always
  treated them); `writes_globals` is reported separately for callers that want it.
- `definitions`: top-level def/class name -> line; `classes`: class -> member names;
  `class_bases`: class -> base expressions as source text; `instances`: top-level
  `X = Callee(...)` -> callee name (`INSTANCE.forward` resolution).
- `main_line`: line of a top-level `if __name__ == "__main__":`, else None.
- `ci_registrations`: (line, backend) of each top-level `register_<backend>_ci(...)` call.
- `targets`: (line, "module:attr") registry-target literals; `fused`: (line, attr) of
  `register_fused_op(instance, __name__, "ATTR")` calls.
- `unbound`: (line, name) of every name read while the module is imported that nothing
  binds (`index.unbound.unbound_at_import`: a `NameError` on import).
- `lookups`: (line, path relative to the module's directory) of every literal path the
  module builds from its own location (`index.data_lookups`: `dirname(__file__)`,
  `Path(__file__).with_name(...)`, `files(__package__)`, `get_data(__package__, ...)`).
- `import_effect`: the first statement the module runs on import that does more than
  define names (`import_effect`: a call run for its effect, `init()`; a store into an
  attribute or item, `registry["x"] = f`; a decorator of a module-level def or class or
  of a method, `@register("op")`, other than the standard library's that only wrap or
  define, `PURE_DECORATORS`, resolved through the module's bindings), as one line of
  source; None for a module whose import only defines (defs, classes, constants,
  imports). THE predicate for
  "importing this module does something": verify's import-reach judges a module that
  stopped being imported by it, and the rewriter keeps such a module imported where a
  respelled binding was its file's last import of it (`rewrite/effect_imports.py`).
"""

from __future__ import annotations

import ast
import gc
import re
from dataclasses import dataclass, field

from migrate.index.attrs import AttrFacts, AttrWalker, walk_attributes
from migrate.index.bindings import Binding, Bindings, def_scopes, module_bindings
from migrate.index.bindings import scope_model as walk_scopes
from migrate.index.calls import callee_name
from migrate.index.data_lookups import MARKER, data_lookups
from migrate.index.imports import ImportRef, absolute, is_main_test, is_type_checking
from migrate.index.unbound import unbound_at_import, unbound_later

TARGET = re.compile(r"^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$")
REGISTER = re.compile(r"^register_([a-z0-9]+)_ci$")
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass
class CodeFacts:
    module: str  # dotted name; "" outside the import roots
    is_package: bool
    imports: list[ImportRef] = field(default_factory=list)
    unresolved_relative: list[tuple[int, str]] = field(default_factory=list)  # (line, `..x`)
    bindings: dict[str, Binding] = field(default_factory=dict)
    scopes: dict[str, dict[str, Binding]] = field(default_factory=dict)
    all_names: tuple[str, ...] | None = None
    getattr_hook: bool = False
    star_imports: list[str] = field(default_factory=list)
    writes_globals: bool = False
    definitions: dict[str, int] = field(default_factory=dict)
    classes: dict[str, set[str]] = field(default_factory=dict)
    class_bases: dict[str, list[str]] = field(default_factory=dict)
    instances: dict[str, str] = field(default_factory=dict)
    main_line: int | None = None
    ci_registrations: list[tuple[int, str]] = field(default_factory=list)
    targets: list[tuple[int, str]] = field(default_factory=list)
    fused: list[tuple[int, str]] = field(default_factory=list)
    star_unresolved: bool = False  # a `from <unresolvable> import *`
    attrs: AttrFacts | None = None  # attribute chains into other modules (index/attrs.py)
    unbound: list[tuple[int, str]] = field(default_factory=list)  # index/unbound.py
    lookups: list[tuple[int, str]] = field(default_factory=list)  # index/data_lookups.py
    import_effect: str | None = None  # `import_effect(tree)`: what importing it does
    text: str | None = field(default=None, repr=False, compare=False)  # the source parsed
    _model: Bindings | None = field(default=None, repr=False, compare=False)

    @property
    def scope_model(self) -> Bindings | None:
        """THE binding walk of the file (index/bindings.py), the one the views above were
        read from; walked again from `text` the first time it is read after a pickle."""
        return self.scope_model_from(None)

    def scope_model_from(self, tree: ast.Module | None) -> Bindings | None:
        """`scope_model`, walked (when it is not known yet) over `tree`, a parse of `text`
        the caller already has, so the file is not parsed a second time (None: parse it)."""
        if self._model is None and self.text is not None:
            tree = tree if tree is not None else ast.parse(self.text)
            self._model = walk_scopes(tree, self.text, self.module, self.is_package)
        return self._model

    def __getstate__(self) -> dict:
        """Facts cross a process pool (`prefetch_facts`) without their binding walk: its
        many small objects are most of the bytes and of the unpickling time, and no
        reader of pooled facts needs it; `scope_model` rebuilds it on demand."""
        return {**self.__dict__, "_model": None}

    @property
    def names(self) -> set[str]:
        """Every name bound at import time."""
        return set(self.bindings)

    @property
    def imported(self) -> set[str]:
        """Absolute dotted names the module imports anywhere (`from a.b import c` gives
        `a.b` and `a.b.c`: the module and the possible submodule)."""
        return {name for ref in self.imports for name in ref.candidates()}

    @property
    def dynamic(self) -> bool:
        """Names beyond `bindings` may exist: a module `__getattr__` or a star import."""
        return self.getattr_hook or bool(self.star_imports) or self.star_unresolved

    def binding(self, name: str, scope: str | None = None) -> Binding | None:
        """What `name` is bound to in function `scope` (falling back to module level)."""
        if scope is not None:
            hit = self.scopes.get(scope, {}).get(name)
            if hit is not None:
                return hit
        return self.bindings.get(name)


def _targets(t: ast.AST):
    if isinstance(t, ast.Name):
        yield t.id
    elif isinstance(t, (ast.Tuple, ast.List, ast.Starred)):
        for e in getattr(t, "elts", [getattr(t, "value", None)]):
            if e is not None:
                yield from _targets(e)


def registration_call(stmt: ast.stmt) -> tuple[str, ast.Call] | None:
    """(backend, call) when `stmt` is a top-level `register_<backend>_ci(...)` call."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return None
    func = stmt.value.func
    if not isinstance(func, ast.Name):
        return None
    m = REGISTER.match(func.id)
    return (m.group(1), stmt.value) if m else None


def _class_attrs(cls: ast.ClassDef) -> set[str]:
    out: set[str] = set()
    for stmt in cls.body:
        if isinstance(stmt, _DEFS):
            out.add(stmt.name)
        elif isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                out.update(_targets(t))
        elif isinstance(stmt, ast.AnnAssign):
            out.update(_targets(stmt.target))
    return out


def _literal_strings(node: ast.AST) -> list[str] | None:
    if isinstance(node, (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
    ):
        return [e.value for e in node.elts]
    return None


class _Reader:
    """One pass over a module: bindings per scope, then imports and literals everywhere."""

    def __init__(self, facts: CodeFacts) -> None:
        self.f = facts
        self._all: list[str] | None = None
        self._all_known = True

    def _abs(self, node: ast.ImportFrom) -> str:
        return absolute(node.module, node.level, self.f.module, self.f.is_package)

    def top(self, body: list[ast.stmt]) -> None:
        """Module-level facts, descending into if/try/with/for/while blocks (the names
        bound are the binding walk's, `index.bindings.module_bindings`)."""
        f = self.f
        for stmt in body:
            if isinstance(stmt, _DEFS):
                self._definition(stmt)
            elif isinstance(stmt, ast.Assign):
                self._assignment(stmt)
            elif isinstance(stmt, ast.AugAssign):
                if _targets_all(stmt.target):
                    self._extend_all(_literal_strings(stmt.value))
            elif isinstance(stmt, ast.ImportFrom):
                if any(a.name == "*" for a in stmt.names):
                    src = self._abs(stmt)
                    if src:
                        f.star_imports.append(src)
                    else:
                        f.star_unresolved = True
            elif isinstance(stmt, ast.If) and is_main_test(stmt.test) and f.main_line is None:
                f.main_line = stmt.lineno
            elif isinstance(stmt, ast.Expr):
                hit = registration_call(stmt)
                if hit:
                    f.ci_registrations.append((stmt.lineno, hit[0]))
                self._all_call(stmt.value)
            if not isinstance(stmt, _DEFS):
                for block in ("body", "orelse", "finalbody"):
                    self.top(getattr(stmt, block, []) or [])
                for h in getattr(stmt, "handlers", []) or []:
                    self.top(h.body)

    def _definition(self, stmt: ast.stmt) -> None:
        """A top-level def or class: its binding, and the facts a class carries."""
        f = self.f
        f.definitions.setdefault(stmt.name, stmt.lineno)
        if stmt.name == "__getattr__":
            f.getattr_hook = True
        if isinstance(stmt, ast.ClassDef):
            f.classes[stmt.name] = _class_attrs(stmt)
            f.class_bases[stmt.name] = [ast.unparse(b) for b in stmt.bases]

    def _assignment(self, stmt: ast.Assign) -> None:
        """`a = b = value`: bindings, instances of a class, and a literal `__all__`."""
        f = self.f
        for t in stmt.targets:
            for n in _targets(t):
                f.instances.pop(n, None)  # the last binding decides
                if isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name):
                    f.instances[n] = stmt.value.func.id
                if n == "__all__":
                    self._all = _literal_strings(stmt.value)
                    self._all_known = self._all is not None

    def _extend_all(self, extra: list[str] | None) -> None:
        if extra is None or self._all is None:
            self._all_known = False
        else:
            self._all.extend(extra)

    def _all_call(self, call: ast.AST) -> None:
        """`__all__.extend([...])` / `__all__.append("x")`."""
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
            return
        owner = call.func.value
        if not (isinstance(owner, ast.Name) and owner.id == "__all__" and call.args):
            return
        if call.func.attr == "extend":
            self._extend_all(_literal_strings(call.args[0]))
        elif call.func.attr == "append":
            arg = call.args[0]
            ok = isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            self._extend_all([arg.value] if ok else None)

    def finish(self) -> None:
        self.f.all_names = tuple(self._all) if self._all is not None and self._all_known else None


def _targets_all(t: ast.AST) -> bool:
    return isinstance(t, ast.Name) and t.id == "__all__"


class _FactsWalk(AttrWalker):
    """attrs' walk (`AttrWalker`), reading on the same nodes what the facts need from
    everywhere: imports (with where they run), registry targets, fused-op registrations
    and `globals()` writes. One walk instead of two; constants are visited (targets are
    string literals).

    Targets and fused registrations are listed in the order a plain walk (`_fields`
    order) meets them. That walk reaches a def's decorators and return annotation, and a
    class's decorators, after its body; attrs' walk reaches them before (they run outside
    it), so what those parts hold is held back and listed after the body."""

    skip = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)

    def __init__(self, attrs: AttrFacts, model: Bindings, scope: dict, facts: CodeFacts):
        super().__init__(attrs, model, scope, facts.module, facts.is_package)
        self.f = facts
        self.depth = 0  # > 0 inside a def
        self.tc = 0  # > 0 under `if TYPE_CHECKING`
        self.frames: list[list] = []  # what each def/class being walked holds back
        self.held: list | None = None  # where targets go while an `outside` part is walked

    def _def(self, node, walk) -> None:
        self.frames.append([])
        walk(self, node)
        for kind, item in self.frames.pop():
            if kind == "target":
                self._target(*item)
            else:
                self._fused(item)

    def visit_FunctionDef(self, node):
        self.depth += 1
        self._def(node, AttrWalker.visit_FunctionDef)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self._def(node, AttrWalker.visit_ClassDef)

    def outside(self, nodes: list) -> None:
        saved, self.held = self.held, self.frames[-1]
        super().outside(nodes)
        self.held = saved

    def visit_Lambda(self, node):
        self.depth += 1
        super().visit_Lambda(node)
        self.depth -= 1

    def visit_If(self, node: ast.If):
        if is_type_checking(node.test):
            self.visit(node.test)
            self.tc += 1
            for s in node.body:
                self.visit(s)
            self.tc -= 1
            for s in node.orelse:
                self.visit(s)
        else:
            self.generic_visit(node)

    def _import(self, node, module: str, names: tuple[str, ...]) -> ImportRef:
        return ImportRef(
            module, names, node.lineno, node.col_offset + 1, self.depth > 0, self.tc > 0
        )

    def visit_Import(self, node: ast.Import):
        for a in node.names:
            self.f.imports.append(self._import(node, a.name, ()))

    def visit_ImportFrom(self, node: ast.ImportFrom):
        super().visit_ImportFrom(node)
        mod = absolute(node.module, node.level, self.f.module, self.f.is_package)
        if not mod:
            spelled = "." * node.level + (node.module or "")
            self.f.unresolved_relative.append((node.lineno, spelled))
            return
        names = tuple(a.name for a in node.names if a.name != "*")
        self.f.imports.append(self._import(node, mod, names))

    def visit_Constant(self, node: ast.Constant):
        # A dotted module before the colon: `"sglang:metric_name"` is a metric, not a target.
        value = node.value
        if isinstance(value, str) and TARGET.match(value) and "." in value.split(":")[0]:
            self._target(node.lineno, value)

    def _target(self, line: int, value: str) -> None:
        if self.held is not None:
            self.held.append(("target", (line, value)))
        elif (line, value) not in self.f.targets:
            self.f.targets.append((line, value))

    def _fused(self, item: tuple[int, str]) -> None:
        if self.held is not None:
            self.held.append(("fused", item))
        else:
            self.f.fused.append(item)

    def visit_Subscript(self, node: ast.Subscript):
        if is_globals_call(node.value) and isinstance(node.ctx, ast.Store):
            self.f.writes_globals = True
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call):
        f = node.func
        writes = ("update", "setdefault", "__setitem__")
        if isinstance(f, ast.Attribute) and f.attr in writes and is_globals_call(f.value):
            self.f.writes_globals = True
        name = callee_name(node) or ""
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
                self._fused((node.lineno, attr.value))
        super().visit_Call(node)


def is_globals_call(node: ast.AST) -> bool:
    """`globals()`: the calling module's namespace (it takes no arguments at all)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "globals"
        and not node.args
        and not node.keywords
    )


# Decorators that only wrap or define what they decorate (no registry, no side effect),
# by what they are bound to: a local `def dataclass` or `import attr as functools` is not.
PURE_DECORATORS = frozenset(
    {
        "builtins.property",
        "builtins.staticmethod",
        "builtins.classmethod",
        "functools.wraps",
        "functools.lru_cache",
        "functools.cache",
        "functools.cached_property",
        "functools.total_ordering",
        "functools.singledispatch",
        "functools.singledispatchmethod",
        "dataclasses.dataclass",
        "typing.overload",
        "typing.final",
        "typing.runtime_checkable",
        "typing_extensions.overload",
        "typing_extensions.final",
        "typing_extensions.runtime_checkable",
        "abc.abstractmethod",
        "contextlib.contextmanager",
        "contextlib.asynccontextmanager",
        "enum.unique",
    }
)
_PROPERTY_PARTS = frozenset({"setter", "getter", "deleter"})


def _bound_to(node: ast.expr, bindings: dict[str, Binding]) -> str | None:
    """The dotted name a decorator expression refers to through the module's bindings
    (`functools.cache` for `memo` after `from functools import cache as memo`, `builtins.x`
    for a name the module does not bind); None for a name the module itself defines or
    assigns, or an expression that is no dotted name."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.insert(0, node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    binding = bindings.get(node.id)
    if binding is None:
        head = f"builtins.{node.id}"
    elif binding.target is None:
        return None
    else:
        head = binding.target
    return ".".join([head, *parts])


def _pure_decorator(dec: ast.expr, bindings: dict[str, Binding], own_defs: set[str]) -> bool:
    """Whether decorator `dec` only wraps or defines (`PURE_DECORATORS`, bare or called;
    `@v.setter` of a def `v` of the same class body)."""
    func = dec.func if isinstance(dec, ast.Call) else dec
    if (
        isinstance(func, ast.Attribute)
        and func.attr in _PROPERTY_PARTS
        and isinstance(func.value, ast.Name)
        and func.value.id in own_defs
    ):
        return True
    return _bound_to(func, bindings) in PURE_DECORATORS


def import_effect(tree: ast.Module, bindings: dict[str, Binding]) -> str | None:
    """The first statement `tree`'s module runs on import that does more than bind its
    own names, as its first source line: a call run for its effect (`init()`, `await x`),
    an assignment to an attribute or item (`os.environ["X"] = "1"`, `registry["x"] = f`),
    a decorator of a def or class (`@register("op")`, `@registry.add`: as `@` and its
    source) other than one that only wraps or defines (`PURE_DECORATORS`, resolved through
    `bindings`, the module's import-time bindings; object builders such as `triton.jit`
    count: keeping an import costs nothing, losing a registration loses behaviour); None
    for a module whose import only defines names (defs, classes, assignments to names,
    imports, docstrings). Read at top level and inside if/try/with bodies (a `try`'s
    `finally` too) and class bodies (they run as the class is created; a method's
    decorator too); not in a function body, an `if TYPE_CHECKING:` or
    `if __name__ == "__main__":` block, which never runs on import, nor in an `except`
    handler."""
    return _body_effect(tree.body, bindings)


def _body_effect(statements: list[ast.stmt], bindings: dict[str, Binding]) -> str | None:
    body = list(statements)
    own_defs: set[str] = set()  # defs of this body so far (`@v.setter`)
    while body:
        stmt = body.pop(0)
        if isinstance(stmt, ast.If) and (is_type_checking(stmt.test) or is_main_test(stmt.test)):
            continue
        if isinstance(stmt, (ast.If, ast.Try, ast.With)):
            body[:0] = [*stmt.body, *getattr(stmt, "orelse", []), *getattr(stmt, "finalbody", [])]
        elif isinstance(stmt, _DEFS):
            for dec in stmt.decorator_list:
                if not _pure_decorator(dec, bindings, own_defs):
                    return "@" + ast.unparse(dec).splitlines()[0]
            if isinstance(stmt, ast.ClassDef):
                inner = _body_effect(stmt.body, bindings)
                if inner:
                    return inner
            else:
                own_defs.add(stmt.name)
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, (ast.Call, ast.Await)):
            return ast.unparse(stmt).splitlines()[0]
        elif isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if any(isinstance(t, (ast.Attribute, ast.Subscript)) for t in targets):
                return ast.unparse(stmt).splitlines()[0]
    return None


def code_facts(text: str, module: str | None, is_package: bool) -> CodeFacts | None:
    """Facts of a module's source (`module` "" or None outside the roots); None when it
    does not parse."""
    parsed = _parsed_facts(text, module, is_package)
    return parsed[1] if parsed is not None else None


def _parsed_facts(
    text: str, module: str | None, is_package: bool
) -> tuple[ast.Module, CodeFacts] | None:
    """(the parse, its facts) of `code_facts`; None when the text does not parse."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    facts = CodeFacts(module or "", is_package, text=text)
    model = facts._model = walk_scopes(tree, text, module, is_package)
    facts.bindings = module_bindings(model)
    facts.scopes = def_scopes(model)
    reader = _Reader(facts)
    reader.top(tree.body)
    reader.finish()
    facts.attrs = walk_attributes(tree, model, _FactsWalk, facts)
    facts.unbound = unbound_at_import(tree, module, is_package)
    facts.import_effect = import_effect(tree, facts.bindings)
    if MARKER.search(text):
        facts.lookups = data_lookups(tree)
    return tree, facts


def _names_unknowable(facts: CodeFacts) -> bool:
    return bool(facts.star_imports or facts.star_unresolved or facts.writes_globals)


def deferred_unbound(
    syntax: ast.Module, text: str, facts: CodeFacts, model: Bindings
) -> list[tuple[int, str]]:
    """(line, name) of the file's reads, in code that runs later (function bodies, lazy
    and string annotations), of names nothing binds, less those read at import time
    (`facts.unbound`); none when its names cannot be known (a star import, `globals()`
    writes). `syntax` is a parse of `text`, `facts` and `model` its facts and binding walk."""
    if _names_unknowable(facts):
        return []
    at_import = set(facts.unbound)
    return [hit for hit in unbound_later(model, syntax, text) if hit not in at_import]


POOL_MIN_FILES = 48  # below this, parsing in a pool costs more than it saves


def _facts_job(job: tuple[str, str | None, bool, bool]):
    """(facts, their `deferred_unbound` when asked for, else None) of one file, on the
    one parse and binding walk."""
    text, module, is_package, deferred = job
    parsed = _parsed_facts(text, module, is_package)
    if parsed is None:
        return None, [] if deferred else None
    syntax, facts = parsed
    later = deferred_unbound(syntax, text, facts, facts._model) if deferred else None
    facts.text = None  # the parent has the text: it is not sent back
    return facts, later


def _facts_worker() -> None:
    """A facts worker runs without the cyclic garbage collector: `code_facts` makes no
    reference cycles (after all 2572 files of SGLang 0.5.15, `gc.collect()` finds none),
    so its passes over the growing heap only cost time (~20% of the parse); refcounting
    still frees everything, and the worker ends with the pool."""
    from migrate.pool import ignore_stop_signals

    ignore_stop_signals()
    gc.disable()


def prefetch_facts(tree, paths, workers: int | None = None, deferred=frozenset()) -> None:
    """Fill `tree`'s facts cache for `paths` (those not cached yet) in a process pool,
    and for those of them in `deferred` its `deferred_unbound` cache too (on the parse
    and binding walk the facts were read from, instead of parsing again here).

    `code_facts` is a pure function of a file's text, module name and package-ness, so a
    worker computes exactly what `tree.facts(path)` would, one by one, here: this only
    moves the parse of a whole tree (verify's HEAD and BASE) onto every core. Few files,
    or one core: nothing is done here and `facts` parses on demand as before.
    """
    cache = tree.__dict__.setdefault("_code_facts", {})
    todo = [p for p in dict.fromkeys(paths) if p.endswith(".py") and p not in cache]
    from migrate.pool import pool_map, usable_cores

    workers = workers if workers is not None else usable_cores()
    if len(todo) < POOL_MIN_FILES or workers <= 1:
        return

    jobs, where = [], []
    for path in todo:
        text = tree.text(path)
        if text is None:
            cache[path] = None
        else:
            is_package = path.endswith("__init__.py")
            jobs.append((text, tree.module_of(path), is_package, path in deferred))
            where.append(path)
    collecting = gc.isenabled()
    gc.disable()  # the results are unpickled here: millions of objects, no cycles
    try:
        found = pool_map(_facts_job, jobs, workers, _facts_worker, (), chunksize=16)
    finally:
        if collecting:
            gc.enable()
    later = tree.__dict__.setdefault("_deferred_unbound", {})
    for path, text, (facts, reads) in zip(where, (j[0] for j in jobs), found, strict=True):
        if facts is not None:
            facts.text = text  # this tree's own copy (the worker's was not sent back)
        cache[path] = facts  # item by item: a cache may be a dict subclass that records
        if reads is not None:
            later[path] = reads


class FactsCache:
    """Per-path ASTs and facts of a tree, parsed on first use: `ast(path)`, `facts(path)`.

    A tree implementing the protocol gives `text(path)` and `module_of(path)`; this mixin
    adds the caches. Non-Python and unparsable files have no facts (None).
    """

    def ast(self, path: str) -> ast.Module | None:
        """Parsed module, or None when unreadable or not valid Python."""
        cache = self.__dict__.setdefault("_asts", {})
        if path not in cache:
            text = self.text(path)
            try:
                cache[path] = ast.parse(text) if text is not None else None
            except (SyntaxError, ValueError):
                cache[path] = None
        return cache[path]

    def deferred_unbound(self, path: str) -> list[tuple[int, str]]:
        """`deferred_unbound` of a file (none for one that does not parse), from the
        pool when `prefetch_facts` was asked for it, else read here on the cached AST."""
        cache = self.__dict__.setdefault("_deferred_unbound", {})
        if path not in cache:
            facts, syntax = self.facts(path), self.ast(path)
            if facts is None or syntax is None or _names_unknowable(facts):
                cache[path] = []  # what `deferred_unbound` says, without the binding walk
            else:
                text = self.text(path) or ""
                model = walk_scopes(syntax, text, facts.module, facts.is_package)
                cache[path] = deferred_unbound(syntax, text, facts, model)
        return cache[path]

    def facts(self, path: str) -> CodeFacts | None:
        cache = self.__dict__.setdefault("_code_facts", {})
        if path not in cache:
            text = self.text(path) if path.endswith(".py") else None
            cache[path] = (
                code_facts(text, self.module_of(path), path.endswith("__init__.py"))
                if text is not None
                else None
            )
        return cache[path]
