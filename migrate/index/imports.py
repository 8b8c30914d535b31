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

    def candidates(self) -> Iterator[str]:
        """The module and, for `from m import x`, the possible submodule `m.x`."""
        yield self.module
        for n in self.names:
            if n != "*":
                yield f"{self.module}.{n}" if self.module else n


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def absolute(module: str | None, level: int, current: str, is_package: bool) -> str:
    """Absolute name of `from <level dots><module> import ...` inside module `current`."""
    if level == 0:
        return module or ""
    package = current if is_package else current.rpartition(".")[0]
    parts = package.split(".") if package else []
    if level - 1 > len(parts):
        return module or ""
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, module] if module else base)


_BODIES = ("body", "orelse", "finalbody", "handlers")


def imports_of(tree: ast.Module, current: str, is_package: bool) -> list[ImportRef]:
    """Every import statement; walks statement bodies only (imports are statements)."""
    out: list[ImportRef] = []

    def visit(stmts, local: bool, tc: bool) -> None:
        for node in stmts:
            if isinstance(node, ast.Import):
                for a in node.names:
                    out.append(ImportRef(a.name, (), node.lineno, node.col_offset + 1, local, tc))
            elif isinstance(node, ast.ImportFrom):
                mod = absolute(node.module, node.level, current, is_package)
                names = tuple(a.name for a in node.names)
                out.append(ImportRef(mod, names, node.lineno, node.col_offset + 1, local, tc))
            elif isinstance(node, ast.If) and _is_type_checking(node.test):
                visit(node.body, local, True)
                visit(node.orelse, local, tc)
            else:
                inner = local or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                for field in _BODIES:
                    block = getattr(node, field, None)
                    if isinstance(block, list):
                        visit(block, inner, tc)
                for case in getattr(node, "cases", ()):  # match statements
                    visit(case.body, inner, tc)

    visit(tree.body, False, False)
    return out


def under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")
