"""Which top-level statements of a test file need which others (libcst scope analysis).

A split copies a statement only when a selected test needs it, directly or
transitively: names resolved through libcst's scopes (so locals and parameters that
shadow globals do not count), plus pytest fixtures requested by parameter name or
`usefixtures`, which no name lookup can see.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst
import libcst.matchers as m
from libcst.metadata import MetadataWrapper, ScopeProvider

from migrate.index.facts import REGISTER

FUTURE = m.SimpleStatementLine(body=[m.ImportFrom(module=m.Name("__future__"))])


@dataclass
class StmtInfo:
    index: int
    node: cst.BaseStatement
    defines: set[str] = field(default_factory=set)
    uses: set[str] = field(default_factory=set)
    always: bool = False  # copied into every output (header, setup, CI metadata, trailer)
    attach: set[str] = field(default_factory=set)  # setup that follows these names
    is_import: bool = False
    is_registration: bool = False
    is_main: bool = False
    calls_units: set[str] = field(default_factory=set)  # tests a `__main__` block calls
    line_uses: list[set[str]] = field(default_factory=list)  # per line of a `__main__` body
    unit: str | None = None  # the test class/function it defines


@dataclass
class FileGraph:
    module: cst.Module
    stmts: list[StmtInfo]
    definers: dict[str, list[int]]  # name -> statements that bind it

    def closure(
        self, start: set[int], uses: dict[int, set[str]] | None = None
    ) -> tuple[set[int], set[str]]:
        """Statements needed by `start`, and the names they need (`uses` overrides what
        some statements use: a trimmed `__main__` block)."""
        need, names = set(), set()
        todo = list(start)
        uses = uses or {}
        while todo:
            i = todo.pop()
            if i in need:
                continue
            need.add(i)
            for name in uses.get(i, self.stmts[i].uses):
                names.add(name)
                todo.extend(self.definers.get(name, ()))
            if not todo:  # setup statements attached to names now needed
                todo.extend(s.index for s in self.stmts if s.index not in need and s.attach & names)
        return need, names


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    if isinstance(node, cst.Call):
        return _dotted(node.func)
    return ""


def _fixture_info(fn: cst.FunctionDef) -> tuple[str, bool] | None:
    """(fixture name, autouse) for a `@pytest.fixture` function."""
    for dec in fn.decorators:
        if _dotted(dec.decorator) in ("pytest.fixture", "fixture"):
            name, autouse = fn.name.value, False
            if isinstance(dec.decorator, cst.Call):
                for arg in dec.decorator.args:
                    kw = arg.keyword.value if arg.keyword else None
                    if kw == "name" and isinstance(arg.value, cst.SimpleString):
                        name = arg.value.evaluated_value
                    if kw == "autouse" and m.matches(arg.value, m.Name("True")):
                        autouse = True
            return name, autouse
    return None


_SETUP_METHODS = ("setup_method", "teardown_method", "setup_class", "teardown_class")


class _StmtFacts(cst.CSTVisitor):
    """One pass over a top-level statement: the nodes inside it, the fixtures it requests
    (parameter names of tests and fixtures, `usefixtures(...)` strings), and whether it
    is a module-level skip (`pytest.skip(..., allow_module_level=True)`, `importorskip`,
    `pytestmark`) outside any def or class body."""

    def __init__(self):
        self.ids: set[int] = set()
        self.requests: set[str] = set()
        self.module_skip = False
        self._depth = 0

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.ids.add(id(node))
        if isinstance(node, cst.FunctionDef):
            name = node.name.value
            if name.startswith("test") or name in _SETUP_METHODS or _fixture_info(node):
                params = node.params
                for p in (*params.posonly_params, *params.params, *params.kwonly_params):
                    self.requests.add(p.name.value)
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            self._depth += 1
        elif isinstance(node, cst.Call):
            name = _dotted(node.func)
            if name.endswith("mark.usefixtures"):
                self.requests.update(
                    a.value.evaluated_value
                    for a in node.args
                    if isinstance(a.value, cst.SimpleString)
                )
            elif not self._depth and (
                name.endswith("importorskip")
                or (
                    name in ("pytest.skip", "skip")
                    and any(
                        a.keyword and a.keyword.value == "allow_module_level" for a in node.args
                    )
                )
            ):
                self.module_skip = True
        elif isinstance(node, cst.Name) and node.value == "pytestmark" and not self._depth:
            self.module_skip = True
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        if isinstance(original_node, (cst.FunctionDef, cst.ClassDef)):
            self._depth -= 1


def _is_docstring(stmt: cst.BaseStatement) -> bool:
    return m.matches(stmt, m.SimpleStatementLine(body=[m.Expr(m.SimpleString())])) or m.matches(
        stmt, m.SimpleStatementLine(body=[m.Expr(m.ConcatenatedString())])
    )


def is_main_guard(stmt: cst.BaseStatement) -> bool:
    return isinstance(stmt, cst.If) and m.matches(
        stmt.test,
        m.Comparison(
            left=m.Name("__name__"), comparisons=[m.ComparisonTarget(m.Equal(), m.SimpleString())]
        ),
    )


def is_registration_call(small: cst.BaseSmallStatement) -> bool:
    """`register_<backend>_ci(...)` as a statement: what CI counts at module level."""
    return (
        isinstance(small, cst.Expr)
        and isinstance(small.value, cst.Call)
        and isinstance(small.value.func, cst.Name)
        and REGISTER.match(small.value.func.value) is not None
    )


def is_registration_line(stmt: cst.BaseStatement) -> bool:
    """A line holding at least one registration (kept in every output)."""
    return isinstance(stmt, cst.SimpleStatementLine) and any(
        is_registration_call(s) for s in stmt.body
    )


def _root(node: cst.BaseExpression) -> str | None:
    while isinstance(node, (cst.Attribute, cst.Subscript, cst.Call)):
        node = node.func if isinstance(node, cst.Call) else node.value
    return node.value if isinstance(node, cst.Name) else None


def _receivers(stmt: cst.BaseStatement) -> set[str]:
    """Names a simple statement mutates in place: `X.append(..)`, `X[k] = v`, `X.a += 1`."""
    out: set[str] = set()
    if not isinstance(stmt, cst.SimpleStatementLine):
        return out
    for small in stmt.body:
        targets: list[cst.BaseExpression] = []
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            if isinstance(small.value.func, cst.Attribute):
                targets.append(small.value.func.value)
        elif isinstance(small, cst.Assign):
            targets.extend(t.target for t in small.targets)
        elif isinstance(small, (cst.AugAssign, cst.AnnAssign, cst.Del)):
            targets.append(small.target)
        for t in targets:
            if isinstance(t, (cst.Attribute, cst.Subscript, cst.Name)) and (r := _root(t)):
                out.add(r)
    return out


def _bind_names(glob, stmts: list[StmtInfo], top_of: dict, main_line_of: dict) -> None:
    """What each top-level statement defines and uses, from the module's global scope
    (and, per line, what each line of a `__main__` block uses)."""
    for a in glob.assignments:
        di = top_of.get(id(a.node), -1)
        if di >= 0:
            stmts[di].defines.add(a.name)
        for ref in a.references:
            ui = top_of.get(id(ref.node), -1)
            if ui >= 0:
                stmts[ui].uses.add(a.name)
            if id(ref.node) in main_line_of:
                mi, k = main_line_of[id(ref.node)]
                stmts[mi].line_uses[k].add(a.name)


def _bind_fixtures(stmts: list[StmtInfo], facts: list) -> None:
    """Imports are marked; a pytest fixture defines its name, and a test that requests it
    by parameter uses it (pytest binds it by name, not by scope)."""
    fixtures: dict[str, int] = {}
    for info in stmts:
        node = info.node
        info.is_import = isinstance(node, cst.SimpleStatementLine) and all(
            isinstance(s, (cst.Import, cst.ImportFrom)) for s in node.body
        )
        if isinstance(node, cst.FunctionDef) and (fx := _fixture_info(node)):
            fixtures[fx[0]] = info.index
            info.defines.add(fx[0])
            info.always |= fx[1]
    for info, f in zip(stmts, facts, strict=True):
        info.uses |= {n for n in f.requests if n in fixtures and fixtures[n] != info.index}


def build_graph(module: cst.Module, units: set[str]) -> FileGraph:
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)  # nodes stay `module`'s own
    mod = wrapper.module
    scopes = wrapper.resolve(ScopeProvider)
    stmts = [StmtInfo(i, s) for i, s in enumerate(mod.body)]
    facts = []
    top_of: dict[int, int] = {}
    for i, s in enumerate(mod.body):
        f = _StmtFacts()
        s.visit(f)
        facts.append(f)
        top_of.update(dict.fromkeys(f.ids, i))
    main_line_of: dict[int, tuple[int, int]] = {}  # node id -> (main stmt, body line)
    for i, s in enumerate(mod.body):
        if is_main_guard(s) and isinstance(s.body, cst.IndentedBlock):
            stmts[i].line_uses = [set() for _ in s.body.body]
            for k, line in enumerate(s.body.body):
                f = _StmtFacts()
                line.visit(f)
                main_line_of.update(dict.fromkeys(f.ids, (i, k)))
    _bind_names(scopes[mod], stmts, top_of, main_line_of)
    _bind_fixtures(stmts, facts)

    local_names = {n for s in stmts if not s.is_import for n in s.defines}
    for info in stmts:
        node = info.node
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)) and node.name.value in units:
            info.unit = node.name.value
        info.is_registration = is_registration_line(node)
        info.is_main = is_main_guard(node)
        if info.is_main:  # never pull tests into an output through its entry point
            info.calls_units = info.uses & units
            info.uses -= units
        docstring = info.index == 0 and _is_docstring(node)
        fixed = docstring or info.is_registration or info.is_main or m.matches(node, FUTURE)
        if fixed or (facts[info.index].module_skip and not info.unit):
            info.always = True
        elif not info.defines and not info.unit:
            own = _receivers(node) & local_names
            if own:
                info.attach = own  # `CONFIGS.append(...)` goes where CONFIGS goes
            else:
                info.always = True  # setup: `torch.manual_seed(0)`, `_register_ops()`
    definers: dict[str, list[int]] = {}
    for info in stmts:
        for name in info.defines:
            definers.setdefault(name, []).append(info.index)
    return FileGraph(mod, stmts, definers)
