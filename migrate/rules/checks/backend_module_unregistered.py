"""KO208 backend-module-unregistered: public ops of backend directories are registered.

## What it does
Warns about a module in `kernels/kda_kernels/` or `kernels/cake_kernels/` that defines
public callables while no `KernelSpec` of a logical group targets that module.

## Why
Backend directories hold implementations, not entry points: callers reach them through
the logical group's inventory (`KernelBackend.KDA` specs whose target points into the
backend). An unregistered public op is dead code or a hidden second API.

## Example
```python
# kernels/kda_kernels/silu_mul.py defines silu_and_mul; no group targets it
```

## Fix
Register it in its logical group: `KernelSpec(op="activation.silu_and_mul",
backend=KernelBackend.KDA, target="sglang.kernels.kda_kernels.silu_mul:silu_and_mul")`.
"""

from __future__ import annotations

import ast

from migrate.layout.names import BACKEND_DIRS
from migrate.rules.base import make_rule

_HELPERS = ("utils", "common", "helpers", "_", "conftest", "test_")


def check(ctx, rule):
    if not ctx.kernels_dir:
        return
    targeted = {reg.target.split(":", 1)[0] for _, reg in ctx.registrations if reg.target}
    for name in BACKEND_DIRS:
        for path in ctx.python_under(f"{ctx.kernels_dir}/{name}"):
            base = path.rsplit("/", 1)[-1]
            module = ctx.tree.module_of(path)
            if base == "__init__.py" or base.startswith(_HELPERS) or module is None:
                continue
            if any(t == module or t.startswith(module + ".") for t in targeted):
                continue
            mod = ctx.tree.ast(path)
            public = [
                n
                for n in (mod.body if mod else [])
                if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and not n.name.startswith("_")
            ]
            if public:
                yield rule.at(
                    path,
                    public[0].lineno,
                    f"{module} defines public {', '.join(n.name for n in public[:4])} "
                    "but no group registers a KernelSpec pointing into it",
                    fix="register its public ops in their logical group with "
                    f"target='{module}:<callable>'",
                )


RULE = make_rule(__doc__, check, "warning")
