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
from libcst.metadata import MetadataWrapper, ParentNodeProvider, ScopeProvider

from migrate.tests_split.registrations import REGISTER

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
    unit: str | None = None  # the test class/function it defines


@dataclass
class FileGraph:
    module: cst.Module
    stmts: list[StmtInfo]
    definers: dict[str, list[int]]  # name -> statements that bind it

    def closure(self, start: set[int]) -> tuple[set[int], set[str]]:
        """Statements needed by `start`, and the names they need."""
        need, names = set(), set()
        todo = list(start)
        while todo:
            i = todo.pop()
            if i in need:
                continue
            need.add(i)
            for name in self.stmts[i].uses:
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


class _FixtureRequests(cst.CSTVisitor):
    """Parameter names of tests and fixtures, and `usefixtures(...)` strings."""

    def __init__(self):
        self.names: set[str] = set()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if (
            node.name.value.startswith("test")
            or _fixture_info(node)
            or node.name.value
            in ("setup_method", "teardown_method", "setup_class", "teardown_class")
        ):
            params = node.params
            for p in (*params.posonly_params, *params.params, *params.kwonly_params):
                self.names.add(p.name.value)

    def visit_Call(self, node: cst.Call) -> None:
        if _dotted(node.func).endswith("mark.usefixtures"):
            for arg in node.args:
                if isinstance(arg.value, cst.SimpleString):
                    self.names.add(arg.value.evaluated_value)


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


def is_registration_line(stmt: cst.BaseStatement) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and all(
        isinstance(s, cst.Expr)
        and isinstance(s.value, cst.Call)
        and isinstance(s.value.func, cst.Name)
        and REGISTER.match(s.value.func.value)
        for s in stmt.body
    )


def _is_module_skip(stmt: cst.BaseStatement) -> bool:
    """`pytest.skip(..., allow_module_level=True)`, `importorskip`, or `pytestmark = ...`."""
    found = False

    class V(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            name = _dotted(node.func)
            if name.endswith("importorskip"):
                found = True
            if name in ("pytest.skip", "skip") and any(
                a.keyword and a.keyword.value == "allow_module_level" for a in node.args
            ):
                found = True

        def visit_FunctionDef(self, node) -> bool:
            return False

        def visit_ClassDef(self, node) -> bool:
            return False

        def visit_Name(self, node: cst.Name) -> None:
            nonlocal found
            if node.value == "pytestmark":
                found = True

    stmt.visit(V())
    return found


def build_graph(module: cst.Module, units: set[str]) -> FileGraph:
    wrapper = MetadataWrapper(module)
    mod = wrapper.module
    scopes = wrapper.resolve(ScopeProvider)
    parents = wrapper.resolve(ParentNodeProvider)
    top_of: dict[int, int] = {}

    def top(node: cst.CSTNode) -> int:
        chain = []
        while node is not mod and id(node) not in top_of:
            chain.append(node)
            node = parents[node]
        idx = top_of[id(node)] if node is not mod else -1
        for n in chain:
            top_of[id(n)] = idx
        return idx

    stmts = [StmtInfo(i, s) for i, s in enumerate(mod.body)]
    for i, s in enumerate(mod.body):
        top_of[id(s)] = i
    glob = scopes[mod]
    for a in glob.assignments:
        di = top(a.node)
        if di >= 0:
            stmts[di].defines.add(a.name)
        for ref in a.references:
            ui = top(ref.node)
            if ui >= 0:
                stmts[ui].uses.add(a.name)

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
    for info in stmts:
        req = _FixtureRequests()
        info.node.visit(req)
        info.uses |= {n for n in req.names if n in fixtures and fixtures[n] != info.index}

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
        if fixed or (_is_module_skip(node) and not info.unit):
            info.always = True
        elif not info.defines and not info.unit:
            own = info.uses & local_names
            if own:
                info.attach = own  # `CONFIGS.append(...)` goes where CONFIGS goes
            else:
                info.always = True  # plain setup: `torch.manual_seed(0)`, `sys.path...`
    definers: dict[str, list[int]] = {}
    for info in stmts:
        for name in info.defines:
            definers.setdefault(name, []).append(info.index)
    return FileGraph(mod, stmts, definers)
