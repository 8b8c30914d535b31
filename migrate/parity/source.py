"""Static reading of module sources: Triton kernels, public wrappers, imported modules."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from migrate.index.imports import absolute

_KERNEL_DECORATORS = {"jit", "autotune", "heuristics"}


@dataclass
class ModuleFacts:
    kernels: list[str] = field(default_factory=list)
    wrappers: list[str] = field(default_factory=list)
    private_functions: list[str] = field(default_factory=list)
    kernels_of: dict[str, list[str]] = field(default_factory=dict)
    imports: set[str] = field(default_factory=set)  # absolute dotted names imported


def _decorator_name(dec: ast.expr) -> str:
    if isinstance(dec, ast.Call):
        dec = dec.func
    parts = []
    while isinstance(dec, ast.Attribute):
        parts.append(dec.attr)
        dec = dec.value
    if isinstance(dec, ast.Name):
        parts.append(dec.id)
    return ".".join(reversed(parts))


def _is_kernel(fn: ast.FunctionDef, triton_names: set[str]) -> bool:
    for dec in fn.decorator_list:
        name = _decorator_name(dec)
        head, _, tail = name.rpartition(".")
        if head and head.split(".")[0] in triton_names and tail in _KERNEL_DECORATORS:
            return True
        if not head and name in triton_names:  # `from triton import jit`
            return True
    return False


def imported_names(tree: ast.AST, module: str = "", is_package: bool = False) -> set[str]:
    """Every module-ish dotted name an import statement anywhere in `tree` mentions.

    For `from P import a` both `P` and `P.a` are listed, since `a` may be a submodule.
    """
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = absolute(node.module, node.level, module, is_package)
                if not base:
                    continue  # outside the roots, or above the top package
            names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names if a.name != "*")
    return names


def read_module(text: str, module: str = "", is_package: bool = False) -> ModuleFacts | None:
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    triton_names = {"triton"}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("triton"):
            triton_names.update(a.asname or a.name for a in node.names if a.name == "jit")
        if isinstance(node, ast.Import):
            triton_names.update(
                a.asname for a in node.names if a.name.startswith("triton") and a.asname
            )
    facts = ModuleFacts(imports=imported_names(tree, module, is_package))
    funcs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for fn in funcs:
        if _is_kernel(fn, triton_names):
            facts.kernels.append(fn.name)
        elif fn.name.startswith("_"):
            facts.private_functions.append(fn.name)
        else:
            facts.wrappers.append(fn.name)
    kernels = set(facts.kernels)
    names = {fn.name for fn in funcs}
    refs = {
        fn.name: {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)} & names for fn in funcs
    }
    for fn in funcs:
        if fn.name in kernels:
            continue
        seen, todo = set(), [fn.name]
        while todo:  # kernels reached through private helpers count too
            cur = todo.pop()
            for ref in refs.get(cur, ()):
                if ref not in seen:  # into kernels too: @triton.jit device helpers
                    todo.append(ref)
                seen.add(ref)
        if seen & kernels:
            facts.kernels_of[fn.name] = sorted(seen & kernels)
    return facts
