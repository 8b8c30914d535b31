"""KO101 implementation-under-ops: `ops/` holds only group packages.

## What it does
Reports any file directly under `sglang/kernels/ops/` other than `__init__.py` (and
`README.md`): an implementation module or data file placed beside the groups.

## Why
`ops/` is the index of logical groups. An implementation or a model bundle directly
under it has no owner group, escapes the group's registration and tests, and makes the
README layout check in `test_kernels_namespace.py` drift.

## Example
```text
python/sglang/kernels/ops/rmsnorm.py          # bad: implementation beside the groups
python/sglang/kernels/ops/layernorm/rmsnorm.py  # good
```

## Fix
Move the file into the logical group that owns its computation (`migrate suggest` names
one) and register its public entry points in that group's `__init__.py`.
"""

from __future__ import annotations

from migrate.rules.base import make_rule

_ALLOWED = {"__init__.py", "README.md", "py.typed"}


def check(ctx, rule):
    if not ctx.ops_dir:
        return
    prefix = ctx.ops_dir + "/"
    for path in ctx.under(ctx.ops_dir):
        name = path[len(prefix) :]
        if "/" in name or name in _ALLOWED or name.endswith((".pyc", ".pyo")):
            continue
        yield rule.at(
            path,
            0,
            f"{name} lies directly under ops/; only group packages belong there",
            evidence=f"{ctx.ops_dir}/ holds groups {', '.join(sorted(ctx.groups)) or '(none)'}",
            fix="move it into the logical group that owns its computation",
        )


RULE = make_rule(__doc__, check, "error")
