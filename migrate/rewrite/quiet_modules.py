"""When sorting imports of the repository's own code cannot change what runs in what order.

The layout pass keeps an import of the repository's own code where the edits put it,
because the order a package initialises its modules in is behaviour (a module that reads
a registry its sibling fills a line earlier). Sorting is safe when the order of every
initialisation another module could observe stays the same (trial23 T21). Read from the
tree after the plan's other edits (`materialize`), two notions:

- a QUIET module's own statements only bind its names: imports (followed: what they
  initialise is in the model), docstrings, `def`/`class` and plain-name assignments whose
  decorators, bases, defaults, annotations and values call only builtins and names imported
  from outside the repository (`TypeVar("T")`, `logging.getLogger(__name__)`,
  `@dataclass`), import-only `try:`/`if:`. A statement call (`warnings.filterwarnings()`),
  a store into anything but a name (`os.environ["X"] = ...`), a call of the repository's
  own code (`@register`, `X = build()`) or a class whose base is imported from it (its
  `__init_subclass__` may register) make a module LOUD.
- the INIT ORDER of a run of import statements is the forest of the loud modules they
  initialise, in order, each with the loud modules its own imports initialise under it
  (quiet ones are transparent: their imports take their place). A loud module whose
  imports all run before its first loud statement initialises them as if they came right
  before it: they are its preceding siblings, not its children (what it ran before them
  only bound names). Two orders of a block
  whose init orders are equal run every loud module at the same point relative to every
  other: no module can tell them apart.

The packages that hold the importing module count as initialised already (they are, or
are being, when its imports run). Left (not modelled): a module that reads a sibling
through its package's attribute without importing it (`pkg.z` bound by an earlier
import) sees when the sibling ran; the implicit-submodule form (implicit_submodules.py)
reports such reads where the plan moves the sibling. A walk that meets more than
`_LIMIT` modules gives up: the order is then kept as the edits put it.
"""

from __future__ import annotations

import ast
import builtins
from functools import cached_property, lru_cache

from migrate.index.facts import code_facts
from migrate.index.imports import is_main_test, is_type_checking, package_of, resolve_relative
from migrate.index.star_exports import StarExports

_BUILTINS = frozenset(dir(builtins))
_LIMIT = 300


class _TooDeep(Exception):
    pass


class InitOrder:
    """The init-order model over `tree` (a materialized tree: `.modules`, `.text`)."""

    def __init__(self, tree):
        self._tree = tree
        self._info = lru_cache(maxsize=None)(self._read)

    @cached_property
    def _modules(self) -> dict[str, str]:
        return self._tree.modules  # read on the first question: most files ask none

    @cached_property
    def _own(self) -> set[str]:
        return {m.split(".")[0] for m in self._modules}

    # -- one module -----------------------------------------------------------------------
    def _read(self, module: str) -> tuple[bool, tuple[tuple[str, ...], ...], bool] | None:
        """(quiet, the own modules each import statement run at import initialises,
        whether they all run before its first loud statement); None when its text cannot
        be read."""
        path = self._modules.get(module)
        text = self._tree.text(path) if path else None
        if text is None:
            return None
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            return None
        package = package_of(module, path.endswith("__init__.py"))
        imports: list[tuple[str, ...]] = []
        foreign: set[str] = set()  # names imported from outside the repository
        for node in _run_at_import(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                targets = self.targets(node, package)
                imports.append(targets)
                if not targets and not (isinstance(node, ast.ImportFrom) and node.level):
                    own = _module_name(node).split(".")[0] in self._own
                    if not own:
                        foreign.update(_bound_names(node))
        ok = foreign | _BUILTINS
        local: set[str] = set()  # classes and functions defined above, in order
        loud = [s.lineno for s in tree.body if not _binds_only(s, ok, local)]
        runs = [n.lineno for n in _run_at_import(tree)]
        first = not loud or all(line < loud[0] for line in runs)
        return not loud, tuple(imports), first

    def targets(self, node: ast.Import | ast.ImportFrom, package: str | None) -> tuple[str, ...]:
        """The repository's modules `node` (in a module of `package`) may initialise, in
        the order it does: each package on the way, the module, a from-imported submodule."""
        if isinstance(node, ast.ImportFrom):
            base = resolve_relative(package, node.level, node.module)
            if not base:
                return ()
            names = [base, *(f"{base}.{a.name}" for a in node.names if a.name != "*")]
        else:
            names = [a.name for a in node.names]
        out: list[str] = []
        for name in names:
            parts = name.split(".")
            for i in range(1, len(parts) + 1):
                m = ".".join(parts[:i])
                if m in self._modules and m not in out:
                    out.append(m)
        return tuple(out)

    # -- a run of statements ----------------------------------------------------------------
    def forest(self, nodes, current: str | None, is_package: bool):
        """The init order of import statements `nodes` run in module `current`."""
        package = package_of(current, is_package)
        loaded = set()
        if current:
            parts = current.split(".")
            loaded = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
        out: list = []
        for node in nodes:
            for m in self.targets(node, package):
                out += self._visit(m, loaded)
        return tuple(out)

    def _visit(self, module: str, loaded: set[str]) -> list:
        if module in loaded:
            return []
        loaded.add(module)
        if len(loaded) > _LIMIT:
            raise _TooDeep
        info = self._info(module)
        if info is None:
            return [(module, ())]  # unreadable: loud, opaque
        quiet, imports, first = info
        children = [x for targets in imports for m in targets for x in self._visit(m, loaded)]
        if quiet:
            return children
        return [*children, (module, ())] if first else [(module, tuple(children))]

    def of_file(self, path: str) -> FileOrder:
        return FileOrder(self, path)

    @cached_property
    def stars(self) -> StarExports:
        """What `from m import *` binds in this tree (the one star model)."""

        def facts_of(module: str):
            path = self._modules.get(module)
            text = self._tree.text(path) if path else None
            return code_facts(text, module, path.endswith("__init__.py")) if text else None

        return StarExports(facts_of)


class FileOrder:
    """The init-order questions the layout pass asks about the imports of the file now
    at `path` (its module is looked up on the first question)."""

    def __init__(self, model: InitOrder, path: str):
        self._model, self._path = model, path
        self._package = path.endswith("__init__.py")

    @cached_property
    def _current(self) -> str | None:
        return self._model._tree.module_of(self._path)

    def star_names(self, node: ast.ImportFrom) -> set[str] | None:
        """The names the star import `node` binds here; None when they cannot all be
        known (a module outside the tree, a `__getattr__`, `globals()` writes...)."""
        base = resolve_relative(package_of(self._current, self._package), node.level, node.module)
        stars = self._model.stars
        if not base or base not in self._model._modules or not stars.known(base):
            return None
        return set(stars(base))

    def quiet(self, node: ast.stmt) -> bool:
        """Whether the statement initialises no loud module: it may go anywhere."""
        return self.same([node], [])

    def same(self, a: list[ast.stmt], b: list[ast.stmt]) -> bool:
        """Whether the two runs of import statements have one init order."""
        try:
            forest = self._model.forest
            return forest(a, self._current, self._package) == forest(
                b, self._current, self._package
            )
        except (_TooDeep, RecursionError):
            return False


def _module_name(node: ast.Import | ast.ImportFrom) -> str:
    return node.module or "" if isinstance(node, ast.ImportFrom) else node.names[0].name


def _bound_names(node: ast.Import | ast.ImportFrom) -> set[str]:
    if isinstance(node, ast.ImportFrom):
        return {a.asname or a.name for a in node.names}
    return {a.asname or a.name.split(".")[0] for a in node.names}


def _run_at_import(tree: ast.Module):
    """The import statements a module runs when imported, in order: top level and inside
    `try:`/`if:` (not under TYPE_CHECKING, not in functions or classes)."""
    todo = list(reversed(tree.body))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and not _never_runs(node.test):
            todo += reversed(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            bodies = node.body + [s for h in node.handlers for s in h.body]
            todo += reversed(bodies + node.orelse + node.finalbody)


def _calls_only(expr: ast.AST | None, ok) -> bool:
    """Every call in `expr` calls a name in `ok` (a lambda runs nothing until called, but
    its body is read too: strict)."""
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
    """A decorator is called: its head too must be in `ok`."""
    for dec in decorators:
        head = dec.func if isinstance(dec, ast.Call) else dec
        while isinstance(head, (ast.Attribute, ast.Call, ast.Subscript)):
            head = head.func if isinstance(head, ast.Call) else head.value
        if not (isinstance(head, ast.Name) and head.id in ok and _calls_only(dec, ok)):
            return False
    return True


def _base_ok(base: ast.expr, ok, local: set[str]) -> bool:
    """A base class: builtin, imported from outside the repository, or defined here."""
    head = base
    while isinstance(head, (ast.Attribute, ast.Subscript)):
        head = head.value
    return isinstance(head, ast.Name) and (head.id in ok or head.id in local)


def _binds_only(stmt: ast.stmt, ok, local: set[str] | None = None) -> bool:
    """Whether the top-level (or class-body) statement only binds names of its own."""
    local = set() if local is None else local
    if isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Pass)):
        return True
    if isinstance(stmt, ast.Expr):
        return isinstance(stmt.value, ast.Constant)  # a docstring, `...`
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = stmt.args
        parts = [*a.defaults, *(d for d in a.kw_defaults if d)]
        every = [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
        parts += [x.annotation for x in every if x is not None] + [stmt.returns]
        local.add(stmt.name)
        return _decorators_ok(stmt.decorator_list, ok) and all(_calls_only(p, ok) for p in parts)
    if isinstance(stmt, ast.ClassDef):
        bases = all(_base_ok(b, ok, local) and _calls_only(b, ok) for b in stmt.bases)
        keywords = all(_calls_only(k.value, ok) for k in stmt.keywords)
        body = all(_binds_only(s, ok, set()) for s in stmt.body)
        local.add(stmt.name)
        return _decorators_ok(stmt.decorator_list, ok) and bases and keywords and body
    if isinstance(stmt, ast.Assign):
        return all(isinstance(t, ast.Name) for t in stmt.targets) and _calls_only(stmt.value, ok)
    if isinstance(stmt, ast.AnnAssign):
        plain = isinstance(stmt.target, ast.Name)
        return plain and _calls_only(stmt.value, ok) and _calls_only(stmt.annotation, ok)
    if isinstance(stmt, ast.If) and _never_runs(stmt.test):
        return True  # never runs at import
    if isinstance(stmt, (ast.If, ast.Try)):
        if isinstance(stmt, ast.If) and not _calls_only(stmt.test, ok):
            return False
        bodies = [stmt.body, stmt.orelse, getattr(stmt, "finalbody", [])]
        bodies += [h.body for h in getattr(stmt, "handlers", [])]
        return all(_binds_only(s, ok, local) for b in bodies for s in b)
    return False


def _never_runs(test: ast.expr) -> bool:
    """An `if` whose block never runs on import: `TYPE_CHECKING` or `__main__`."""
    return is_type_checking(test) or is_main_test(test)
