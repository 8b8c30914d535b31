"""KO205 target-not-static: a registration whose op id or target cannot be computed statically.

## What it does
Reports a `KernelSpec` or `register_fused_op` call in a group whose op id or target is
built from values the checker cannot evaluate (function parameters, runtime calls).

## Why
Targets that only exist at runtime cannot be checked before release, renamed by a plan
or found by search; every real target spelling (literals, f-strings over tables,
`__name__`-relative loops, concatenation, `_EXPORTS`) is static.

## Example
```python
register_kernel(KernelSpec(op=f"gemm.{name}", target=compute_target(name), ...))
```

## Fix
Build targets from literal tables so that they can be evaluated statically.
"""

from __future__ import annotations

from migrate.rules.base import make_rule


def check(ctx, rule):
    for _group, reg in ctx.registrations:
        missing = [w for w, v in (("op id", reg.op), ("target", reg.target)) if v is None]
        if missing:
            yield rule.at_ref(
                reg.path,
                reg,
                f"{' and '.join(missing)} not statically known",
                evidence=reg.expr[:160],
                fix="build it from literal strings or literal tables",
            )


RULE = make_rule(__doc__, check, "warning")
