"""KO203 malformed-target: every KernelSpec target is `module:callable`.

## What it does
Reports a statically evaluated target that is not a dotted module, a colon, and a dotted
attribute path (`pkg.mod:func` or `pkg.mod:Class.forward_triton`).

## Why
`resolve_target` splits on the colon, imports the module and walks the attributes. A
dotted-only or path-like target fails only on the first call of the kernel.

## Example
```python
KernelSpec(op="gemm.fp8", backend=KernelBackend.TRITON, target="sglang.kernels.ops.gemm.fp8")
```

## Fix
Write the target as `module:callable`: `"sglang.kernels.ops.gemm.fp8:fp8_gemm"`.
"""

from __future__ import annotations

import re

from migrate.rules.base import make_rule

TARGET = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


def check(ctx, rule):
    for _group, reg in ctx.registrations:
        if reg.target is None or TARGET.match(reg.target):
            continue
        fix = ""
        if ":" not in reg.target and "." in reg.target:
            mod, _, attr = reg.target.rpartition(".")
            fix = f"did you mean {mod}:{attr}?"
        yield rule.at_ref(
            reg.path,
            reg,
            f"target {reg.target!r} is not 'module:callable'",
            evidence=reg.expr,
            fix=fix,
        )


RULE = make_rule(__doc__, check, "error")
