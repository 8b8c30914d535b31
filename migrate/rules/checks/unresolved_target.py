"""KO204 unresolved-target: every KernelSpec target resolves statically.

## What it does
Checks each target against the tree: the module exists, the first attribute is bound at
the module's top level (def, class, assignment or import), and `Class.forward_x` (or
`INSTANCE.forward_x` of a `BaseFusedOp` instance) names a member of that class. A module
with a module-level `__getattr__` is dynamic: only its `_EXPORTS` table is followed.
Targets in other distributions (`sgl_kernel:...`, `flashinfer:...`) are not checked.

## Why
Nothing is imported at registration, so a stale target fails only on first call: one
pointing at a module a parallel PR had deleted shipped in a release.

## Example
```python
KernelSpec(op="moe.topk", backend=KernelBackend.TRITON,
           target="sglang.kernels.ops.moe.topk:topk_softmax")  # topk.py defines `topk`
```

## Fix
Point the target at the callable's current module and name (after a move, a plan's
rewrite updates registry targets with the imports).
"""

from __future__ import annotations

from migrate.rules.base import make_rule
from migrate.rules.checks.malformed_target import TARGET


def check(ctx, rule):
    for _group, reg in ctx.registrations:
        if reg.target is None or not TARGET.match(reg.target):
            continue
        problem = ctx.resolver.problem(reg.target)
        if problem:
            yield rule.at_ref(
                reg.path,
                reg,
                f"target {reg.target} does not resolve: {problem}",
                evidence=reg.expr,
                fix="point the target at the callable's current module and name",
            )


RULE = make_rule(__doc__, check, "error")
