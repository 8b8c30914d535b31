"""KO202 op-id-outside-group: a KernelSpec op id is `<group>.<name>` of its registering group.

## What it does
Evaluates every `KernelSpec(...)` and `register_fused_op(...)` of `ops/<group>/`
statically (literals, f-strings over tables, loops, concatenation, `_EXPORTS`) and
reports an op id that is not `<group>.<name>` with `<group>` the registering group.

## Why
The op id is the inventory key that selectors, tests and plugins use. An id prefixed
with another group (or none) lies about ownership and breaks `list_kernels` by group.

## Example
```python
# ops/gemm/__init__.py
register_kernel(KernelSpec(op="quant.fp8_gemm", ...))   # bad
register_kernel(KernelSpec(op="gemm.fp8_gemm", ...))    # good
```

## Fix
Rename the op id to `<group>.<name>` (a plan's `op_ids:` renames every reference), or
register it in the group that owns the computation.
"""

from __future__ import annotations

import re

from migrate.rules.base import make_rule

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def check(ctx, rule):
    for group, reg in ctx.registrations:
        if reg.op is None:
            continue
        head, _, name = reg.op.partition(".")
        if head == group and name and _NAME.match(name):
            continue
        fix = f"use op id {group}.{name or head}" if _NAME.match(name or head) else ""
        yield rule.at_ref(
            reg.path,
            reg,
            f"op id {reg.op!r} is not '{group}.<name>'",
            evidence=f"registered by group {group}",
            fix=fix,
        )


RULE = make_rule(__doc__, check, "error")
