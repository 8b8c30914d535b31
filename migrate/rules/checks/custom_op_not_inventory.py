"""KO207 custom-op-not-inventory: a torch custom op is not a kernel inventory entry.

## What it does
Warns about a module in `ops/<group>/` that registers a torch custom op on a public
function (`@torch.library.custom_op`, `@register_custom_op`, `direct_register_custom_op`)
while no registered entry point reaches that module: no `KernelSpec` targets it and no
registering file or target module imports it (a `BaseFusedOp.forward_jit` importing its
implementation counts). Custom ops on private functions are implementation details.

Vendored upstream trees (a directory with its own LICENSE/COPYING/AUTHORS) are skipped.

## Why
`torch.library` registration makes an op visible to torch.compile; it does not put it in
SGLang's kernel inventory, so selectors, `list_kernels` and the namespace tests never see
it.

## Example
```python
# ops/activation/gelu.py
direct_register_custom_op("gelu_tanh", gelu_tanh_impl, mutates_args=[])
# ...and no KernelSpec(target="sglang.kernels.ops.activation.gelu:...") anywhere
```

## Fix
Add a `KernelSpec(op="<group>.<name>", target="<module>:<callable>")` in the group's
`__init__.py` (keep the custom op registration if torch.compile needs it).
"""

from __future__ import annotations

import ast
import re

from migrate.index.imports import imports_of
from migrate.rules.base import make_rule

_CUSTOM = re.compile(
    r"\b(direct_register_custom_op|torch\.library\.(?:custom_op|define|register_fake|impl)|"
    r"register_custom_op)\s*\("
)
_REGISTRARS = ("custom_op", "register_custom_op", "direct_register_custom_op")


def _name(node: ast.AST) -> str:
    return ast.unparse(node.func if isinstance(node, ast.Call) else node).rsplit(".", 1)[-1]


def public_custom_ops(mod: ast.Module) -> list[tuple[str, int]]:
    """(function, line) of each torch custom op whose implementation is public.

    A private implementation (`_run_activation_inplace`) serves a registered entry point;
    predicates and private helpers are not kernel APIs.
    """
    out = []
    for node in ast.walk(mod):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            registered = any(_name(d) in _REGISTRARS for d in node.decorator_list)
            if registered and not node.name.startswith("_"):
                out.append((node.name, node.lineno))
        elif isinstance(node, ast.Call) and _name(node) == "direct_register_custom_op":
            fn = next((k.value for k in node.keywords if k.arg == "op_func"), None)
            fn = fn if fn is not None else (node.args[1] if len(node.args) > 1 else None)
            name = ast.unparse(fn) if fn is not None else ""
            if name and not name.split(".")[-1].startswith("_"):
                out.append((name, node.lineno))
    return out


def covered_modules(ctx) -> set[str]:
    """Modules behind registered entry points: every target's module, and what the
    registering files and target modules import (a BaseFusedOp's `forward_jit` imports
    its implementation inside the method)."""
    covered = {reg.target.split(":", 1)[0] for _, reg in ctx.registrations if reg.target}
    sources = {reg.path for _, reg in ctx.registrations}
    sources |= {ctx.tree.modules[m] for m in covered if m in ctx.tree.modules}
    for path in sources:
        mod, name = ctx.tree.ast(path), ctx.tree.module_of(path)
        if mod is None or name is None:
            continue
        for ref in imports_of(mod, name, path.endswith("__init__.py")):
            covered.update(ref.candidates())
    return covered


def check(ctx, rule):
    covered = None
    for path in ctx.python_under(ctx.ops_dir):
        group = ctx.group_of(path)
        text = ctx.tree.text(path) or ""
        if group is None or ctx.is_vendored(path) or not _CUSTOM.search(text):
            continue
        module, mod = ctx.tree.module_of(path), ctx.tree.ast(path)
        if module is None or mod is None:
            continue
        if covered is None:
            covered = covered_modules(ctx)
        public = public_custom_ops(mod)
        if module in covered or not public:
            continue
        name, line = public[0]
        yield rule.at(
            path,
            line,
            f"{module} registers torch custom op {name} but no KernelSpec reaches it",
            evidence=", ".join(n for n, _ in public[:4]),
            fix=f"register KernelSpec(op='{group}.<name>', target='{module}:{name}') "
            f"in ops/{group}/__init__.py",
        )


RULE = make_rule(__doc__, check, "warning")
