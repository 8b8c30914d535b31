"""Every import statement of a module, absolute, with where it runs (module level or not).

Group imports must be metadata-only and kernels must not import srt runtime modules:
both questions need the imported module's absolute name and whether the import runs at
import time (module level, class bodies, `try`/`if`) or only when a function is called.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class ImportRef:
    module: str  # absolute dotted module named by the statement
    names: tuple[str, ...]  # `from module import names`; () for `import module`
    line: int
    col: int
    local: bool  # inside a function: runs only when called
    type_checking: bool  # under `if TYPE_CHECKING:`: never runs

    @property
    def at_import_time(self) -> bool:
        return not self.local and not self.type_checking

    toplevel = at_import_time  # verify's name for it

    def candidates(self) -> Iterator[str]:
        """The module and, for `from m import x`, the possible submodule `m.x`."""
        yield self.module
        for n in self.names:
            if n != "*":
                yield f"{self.module}.{n}" if self.module else n


def is_type_checking(test: ast.expr) -> bool:
    """Whether an `if` test is `TYPE_CHECKING` (`typing.TYPE_CHECKING`, `t.TYPE_CHECKING`)."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def is_main_test(test: ast.expr) -> bool:
    """Whether an `if` test is `__name__ == "__main__"`: a script's block, not run when
    the module is imported."""
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and len(test.comparators) == 1
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )


def resolve_relative(package: str | None, level: int, module: str | None) -> str | None:
    """THE relative-import resolver: the absolute name of `from <level dots><module> import`
    written in package `package` (the file's own package: itself for an `__init__.py`).

    None when unresolvable, as Python says: a file outside the import roots (`package` is
    None), a top-level module (`""`: no parent package), or dots that climb above the top
    package (`from ...x import y` two levels down). Every stage (rewrite, rules, verify,
    parity, the index's code facts) resolves through here.
    """
    if level == 0:
        return module or None
    if package is None:
        return None
    parts = package.split(".") if package else []
    if level > len(parts):
        return None
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, module] if module else base)


def package_of(current: str | None, is_package: bool) -> str | None:
    """The package a module's relative imports start from (None outside the roots)."""
    if not current:
        return None
    return current if is_package else current.rpartition(".")[0]


def absolute(module: str | None, level: int, current: str | None, is_package: bool) -> str:
    """Absolute name of `from <level dots><module> import ...` inside module `current`
    (`""` for a file outside the import roots); `""` when unresolvable."""
    if level == 0:
        return module or ""
    return resolve_relative(package_of(current, is_package), level, module) or ""


def bound_submodule(package: str | None, imported: str | None) -> str | None:
    """The name that importing module `imported` binds in package `package`'s own
    namespace (its `__init__`'s globals): Python sets the submodule as an attribute of
    its package, so `pkg.sub` and `pkg.sub.x` bind `sub` in `pkg`. None otherwise. The
    rewriter (`rewrite/implicit_submodules.py`) and verify's import-time names
    (`index/unbound.py`) read this one rule."""
    if package and imported and imported.startswith(package + "."):
        return imported[len(package) + 1 :].split(".")[0]
    return None


_BODIES = ("body", "orelse", "finalbody", "handlers")


def import_statements(tree: ast.Module) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool, bool]]:
    """(statement, local, type_checking) of every import statement, in order; walks
    statement bodies only (imports are statements)."""

    def visit(stmts, local: bool, tc: bool):
        for node in stmts:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                yield node, local, tc
            elif isinstance(node, ast.If) and is_type_checking(node.test):
                yield from visit(node.body, local, True)
                yield from visit(node.orelse, local, tc)
            else:
                inner = local or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                for field in _BODIES:
                    block = getattr(node, field, None)
                    if isinstance(block, list):
                        yield from visit(block, inner, tc)
                for case in getattr(node, "cases", ()):  # match statements
                    yield from visit(case.body, inner, tc)

    yield from visit(tree.body, False, False)


def imports_of(tree: ast.Module, current: str, is_package: bool) -> list[ImportRef]:
    """Every import statement, absolute, with where it runs."""
    out: list[ImportRef] = []
    for node, local, tc in import_statements(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out.append(ImportRef(a.name, (), node.lineno, node.col_offset + 1, local, tc))
            continue
        mod = absolute(node.module, node.level, current, is_package)
        if not mod:
            continue  # an unresolvable relative import names no module
        names = tuple(a.name for a in node.names)
        out.append(ImportRef(mod, names, node.lineno, node.col_offset + 1, local, tc))
    return out


def bound_modules(
    tree: ast.Module, current: str | None, is_package: bool, wanted, plain: bool = True
) -> dict[str, str]:
    """Local name -> the name in `wanted` that an import anywhere in the file binds it to
    (any scope; the last import wins): `from m import x as y` binds `y` to `m.x`,
    `import a.b as c` binds `c` to `a.b`, and `import a.b` binds `a` to `a` (unless
    `plain` is False: such a chain spells the dotted name itself)."""
    out: dict[str, str] = {}
    for node, _, _ in import_statements(tree):
        if isinstance(node, ast.ImportFrom):
            base = absolute(node.module, node.level, current, is_package)
            for a in node.names if base else ():
                if f"{base}.{a.name}" in wanted:
                    out[a.asname or a.name] = f"{base}.{a.name}"
            continue
        for a in node.names:
            target = a.name if a.asname else a.name.split(".")[0]
            if target in wanted and (a.asname or plain):
                out[a.asname or target] = target
    return out


def under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")
