"""KO104 backend-dir-as-group: `kda_kernels/` and `cake_kernels/` are backends, not groups.

## What it does
Reports `kda_kernels` or `cake_kernels` listed in `_GROUPS` or placed under `ops/`, and
a `KernelSpec` registered from inside those directories instead of from a logical group.

## Why
Agent-generated implementations are a provenance (KernelBackend.KDA, Cake adapters), not a
computation. Their public ops are found through the logical group that owns the
computation, with a target pointing into the backend directory.

## Example
```python
_GROUPS = ("activation", "kda_kernels")  # bad
```

## Fix
Remove the name from `_GROUPS`, keep the directory at `sglang/kernels/kda_kernels/`, and
register each public op in its logical group: `KernelSpec(op="moe.topk",
backend=KernelBackend.KDA, target="sglang.kernels.kda_kernels.topk:topk")`.
"""

from __future__ import annotations

from migrate.layout.names import BACKEND_DIRS
from migrate.rules.base import make_rule


def check(ctx, rule):
    declared = ctx.declared_groups
    for name in BACKEND_DIRS:
        if declared and name in declared.names:
            yield rule.at(
                declared.path,
                declared.lines.get(name, declared.line),
                f"{name} is a backend directory, not a group",
                fix=f"remove {name!r} from _GROUPS; register its ops in logical groups",
            )
        if name in ctx.group_dirs:
            yield rule.at(
                ctx.group_dirs[name] + "/",
                0,
                f"{name}/ lies under ops/; backends live at sglang/kernels/{name}/",
                fix=f"move it back to sglang/kernels/{name}/ unchanged",
            )
        if not ctx.kernels_dir:
            continue
        for path in ctx.python_under(f"{ctx.kernels_dir}/{name}"):
            text = ctx.tree.text(path) or ""
            if "KernelSpec(" not in text and "register_kernel(" not in text:
                continue
            for i, line in enumerate(text.splitlines(), 1):
                if "KernelSpec(" in line and not line.lstrip().startswith("#"):
                    yield rule.at(
                        path,
                        i,
                        f"KernelSpec registered inside backend dir {name}/",
                        evidence=line.strip(),
                        fix="register it in the owning group's __init__.py",
                    )


RULE = make_rule(__doc__, check, "error")
