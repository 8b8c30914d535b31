"""KO601 legacy-layout: operator modules under `sglang.jit_kernel` belong in a logical group.

## What it does
Reports every module and directory of the legacy `sglang.jit_kernel` package with the
place the organization rules give it: the group chosen from its computation (with the
classifier's confidence and evidence), `sglang.kernels.jit` for shared build
infrastructure and C++ sources, the group's test directory for tests.

## Why
RFC #29630 established `sglang.kernels.ops.<group>`; #32148 and #40922 moved the legacy
package into logical groups and dropped the `_jit_` filename prefix. Code left in the
legacy package has no owner group, no inventory entry and a second import path.

## Example
```text
python/sglang/jit_kernel/norm.py   # -> sglang.kernels.ops.layernorm.norm
```

## Fix
Draft the whole migration with `migrate suggest --from sglang.jit_kernel > plan.yaml`,
review the `# REVIEW` lines, then `migrate check --plan plan.yaml` and `migrate apply`.
"""

from __future__ import annotations

from migrate.rules.base import make_rule


def check(ctx, rule):
    draft = ctx.legacy_draft
    if draft is None:
        return
    prefix = ctx.legacy_dir + "/"
    for d in draft.decisions:
        path = ctx.tree.modules.get(d.src) if d.kind in ("module", "package") else d.src
        if not path or not path.startswith(prefix):
            continue
        where = d.group if d.group and d.group != "jit" else "shared infrastructure"
        review = " (REVIEW)" if d.review else ""
        yield rule.at(
            path,
            0,
            f"legacy {d.what} {d.src} belongs in {d.dst}{review}",
            evidence=f"{where}, confidence {d.confidence:.2f}: {d.reason}"
            + (f"; {d.evidence}" if d.evidence else "")
            + (f"; note: {d.note}" if d.note else ""),
            fix="migrate suggest --from sglang.jit_kernel drafts the move",
        )


RULE = make_rule(__doc__, check, "error")
