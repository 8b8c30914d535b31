"""KO201 heavy-group-import: importing a group is metadata-only.

## What it does
Reports, in `ops/__init__.py` and every `ops/<group>/__init__.py`, an import that runs at
import time (module level, including `try`/`if` blocks; not inside functions, not under
`TYPE_CHECKING`) of torch, triton, `sgl_kernel`, `sglang.kernels.jit`, another GPU
library, or a module of the tree that itself imports one of those at import time (a GPU
implementation), and module-level calls that compile a kernel (`load_jit`, `load_inline`).

## Why
`import sglang.kernels.ops` runs on CPU-only hosts, in the namespace tests and in every
process that merely lists kernels. The inventory is lazy: a `KernelSpec` names its
target as a string, so registering never needs the implementation.

## Example
```python
# ops/layernorm/__init__.py
from sglang.kernels.jit import load_jit  # bad: JIT build infrastructure at import
from .rmsnorm import rmsnorm              # bad when rmsnorm.py imports triton at top level
```

## Fix
Register a `KernelSpec` whose target string names the implementation, or import inside
the function that needs it.
"""

from __future__ import annotations

import ast

from migrate.index.imports import imports_of, under
from migrate.rules.base import make_rule

HEAVY = (
    "torch", "triton", "sgl_kernel", "sglang.kernels.jit", "sglang.jit_kernel", "flashinfer",
    "deep_gemm", "tvm_ffi", "cutlass", "aiter", "torch_npu", "cuda",
)  # fmt: skip
COMPILERS = ("load_jit", "load_inline", "cpp_extension.load", "jit_compile", "compile_kernel")


def _heavy_root(name: str) -> str | None:
    return next((h for h in HEAVY if under(name, h)), None)


class _Heaviness:
    """Which in-tree modules import something heavy at import time (memoized, cycle-safe)."""

    def __init__(self, tree) -> None:
        self.tree = tree
        self.memo: dict[str, str | None] = {}

    def of(self, module: str, stack: frozenset = frozenset()) -> str | None:
        if module in self.memo:
            return self.memo[module]
        if module in stack:
            return None
        path = self.tree.modules.get(module)
        mod = self.tree.ast(path) if path else None
        result = None
        if mod is not None:
            for ref in imports_of(mod, module, path.endswith("__init__.py")):
                if not ref.at_import_time:
                    continue
                for cand in ref.candidates():
                    root = _heavy_root(cand)
                    if root:
                        result = f"{module} imports {cand} ({path}:{ref.line})"
                        break
                    if cand in self.tree.modules and cand != module:
                        inner = self.of(cand, stack | {module})
                        if inner:
                            result = f"{module} -> {inner}"
                            break
                if result:
                    break
        self.memo[module] = result
        return result


def _compile_calls(mod: ast.Module):
    for stmt in mod.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call):
                name = ast.unparse(node.func)
                if any(name == c or name.endswith("." + c) for c in COMPILERS):
                    yield node, name


def check(ctx, rule):
    if not ctx.ops_dir:
        return
    heavy = _Heaviness(ctx.tree)
    groups = {
        f"{name}"
        for name in (ctx.tree.module_of(f"{d}/__init__.py") for d in ctx.group_dirs.values())
        if name
    }
    inits = [f"{ctx.ops_dir}/__init__.py"] + [f"{d}/__init__.py" for d in ctx.group_dirs.values()]
    for path in inits:
        mod = ctx.tree.ast(path)
        name = ctx.tree.module_of(path)
        if mod is None or name is None:
            continue
        for ref in imports_of(mod, name, True):
            if not ref.at_import_time:
                continue
            for cand in ref.candidates():
                if cand == name or cand in groups:
                    continue  # the group itself, or a group reported on its own
                root = _heavy_root(cand)
                chain = None if root else (heavy.of(cand) if cand in ctx.tree.modules else None)
                if root or chain:
                    what = f"imports {root}" if root else f"imports GPU implementation {cand}"
                    yield rule.at_ref(
                        path,
                        ref,
                        f"group import {what} at import time",
                        evidence=chain or f"import of {cand}",
                        fix="register a KernelSpec with a 'module:callable' target string, "
                        "or move the import into the function that needs it",
                    )
                    break
        for node, fname in _compile_calls(mod):
            yield rule.at(
                path,
                node.lineno,
                f"group compiles a kernel at import time ({fname})",
                col=node.col_offset + 1,
                evidence=ast.unparse(node)[:120],
                fix="build lazily on first call, from the implementation module",
            )


RULE = make_rule(__doc__, check, "error")
