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
    top_names: set[str] = field(default_factory=set)  # every name bound at module level
    fused_methods: list[str] = field(default_factory=list)  # "Class.forward_<backend>"
    custom_ops: dict[str, str] = field(default_factory=dict)  # "ns::name" -> defining function
    members: dict[str, ast.AST] = field(default_factory=dict, repr=False)  # "Class.attr" -> node
    instances: dict[str, str] = field(default_factory=dict)  # `NAME = Class(...)` -> Class
    reach: dict[str, set[str]] = field(default_factory=dict, repr=False)  # fn -> module fns used


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
    facts.reach = {fn.name: _names_in(fn) & names for fn in funcs}
    for fn in funcs:
        if fn.name not in kernels:
            used = kernels_reached(facts, fn)
            if used:
                facts.kernels_of[fn.name] = used
    facts.top_names = _top_level_names(tree)
    for node in tree.body:  # module-level instances of the module's classes
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            cls = _decorator_name(node.value.func)
            facts.instances.update({t.id: cls for t in node.targets if isinstance(t, ast.Name)})
    _read_classes(tree, facts)
    _read_custom_ops(tree, facts)
    return facts


def _names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def kernels_reached(facts: ModuleFacts, node: ast.AST) -> list[str]:
    """Kernels `node` uses, directly or through the module's helpers (and device helpers)."""
    todo, seen = list(_names_in(node) & set(facts.reach)), set()
    for sub in ast.walk(node):  # `torch.ops.ns.name(...)` of an op registered here
        if isinstance(sub, ast.Attribute):
            path = _decorator_name(sub)
            todo += [f for q, f in facts.custom_ops.items() if f and torch_ops_path(q) == path]
    while todo:
        cur = todo.pop()
        if cur not in seen:
            seen.add(cur)
            todo.extend(facts.reach.get(cur, ()))
    return sorted(seen & set(facts.kernels))


def _top_level_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return names


def _base_names(cls: ast.ClassDef) -> set[str]:
    return {_decorator_name(b).rpartition(".")[2] for b in cls.bases}


def _read_classes(tree: ast.Module, facts: ModuleFacts) -> None:
    """Class members (for dotted targets) and the `forward_<backend>` methods of fused ops:
    subclasses of a `BaseFusedOp`, directly or through a class of the same module."""
    fused: set[str] = set()
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                facts.members[f"{node.name}.{item.name}"] = item
            elif isinstance(item, ast.Assign):
                for t in item.targets:
                    if isinstance(t, ast.Name):
                        facts.members[f"{node.name}.{t.id}"] = item.value
        if _base_names(node) & ({"BaseFusedOp"} | fused):
            fused.add(node.name)
            facts.fused_methods += [
                f"{node.name}.{item.name}"
                for item in node.body
                if isinstance(item, ast.FunctionDef) and item.name.startswith("forward_")
            ]


def _string_arg(call: ast.Call) -> str | None:
    if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
        return call.args[0].value
    return None


def _read_custom_ops(tree: ast.Module, facts: ModuleFacts) -> None:
    """Operators registered with `torch.library` here, reachable as `torch.ops.<ns>.<name>`:
    `@custom_op("ns::name")`, `define("ns::name(...)")`, `Library("ns", ..).define("name(..)")`.
    """
    libs: dict[str, str] = {}  # variable bound to torch.library.Library(ns, ...) -> ns
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and _decorator_name(node.value.func).endswith("Library")
            and _string_arg(node.value)
        ):
            libs.update(
                {t.id: _string_arg(node.value) for t in node.targets if isinstance(t, ast.Name)}
            )
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for dec in node.decorator_list:
                name = _string_arg(dec) if isinstance(dec, ast.Call) else None
                if name and "::" in name and _decorator_name(dec).endswith("custom_op"):
                    facts.custom_ops[name] = node.name
        elif isinstance(node, ast.Call) and _decorator_name(node.func).endswith("define"):
            schema = _string_arg(node)
            if not schema:
                continue
            qual = schema.split("(", 1)[0].strip()
            owner = node.func.value if isinstance(node.func, ast.Attribute) else None
            if "::" not in qual and isinstance(owner, ast.Name) and owner.id in libs:
                qual = f"{libs[owner.id]}::{qual}"
            if "::" in qual:
                facts.custom_ops.setdefault(qual, "")


def torch_ops_path(qualname: str) -> str:
    """`ns::name` as the attribute path the recorder wraps: `torch.ops.ns.name`."""
    ns, _, name = qualname.partition("::")
    return f"torch.ops.{ns}.{name}"
