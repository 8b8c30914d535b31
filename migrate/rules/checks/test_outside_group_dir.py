"""KO502 test-outside-group-dir: kernel tests live in `ops/<group>/` or `benchmark/<group>/`.

## What it does
Reports a Python file under `test/registered/kernels/` that is not inside
`ops/<group>/` or `benchmark/<group>/`, and (as a warning) a benchmark-named file
(`bench_*.py`, `*benchmark*.py`) filed under `ops/<group>/`.

## Why
Numerical tests, CI microbenchmarks, inventory tests and runtime tests each have one
home; files elsewhere escape the owners and the stage/runner conventions of their kind.

## Example
```text
test/registered/kernels/test_rmsnorm.py                # bad
test/registered/kernels/ops/layernorm/test_rmsnorm.py  # good
```

## Fix
Move the file into the directory of its group (inventory/selector tests go to
`test/registered/unit/kernels/`).
"""

from __future__ import annotations

import re

from migrate.layout.names import OPS_PKG
from migrate.layout.tests import KERNEL_TESTS, group_test_dir, is_benchmark_name, kernel_test_path
from migrate.rules.base import make_rule

_OPS_IMPORT = re.compile(rf"\b{re.escape(OPS_PKG)}\.([a-z_][a-z0-9_]*)")


def _destinations(ctx) -> dict[str, str]:
    """Where `migrate suggest` would file each misplaced test (when a legacy package exists)."""
    draft = ctx.legacy_draft
    if draft is None:
        return {}
    out = {d.src: d.dst for d in draft.decisions if d.kind == "path"}
    for sp in draft.splits:
        out[sp.file] = " and ".join(path for path, _, _ in sp.outputs) + " (split by group)"
    return out


def _group_from_imports(ctx, path: str) -> str | None:
    m = _OPS_IMPORT.findall(ctx.tree.text(path) or "")
    return max(set(m), key=m.count) if m else None


def check(ctx, rule):
    dest = None
    for path in ctx.tree.paths:
        if KERNEL_TESTS not in path or not path.endswith(".py"):
            continue
        t = kernel_test_path(path)
        if t is None or t.is_package_file:
            continue
        if not t.in_group_dir:
            dest = _destinations(ctx) if dest is None else dest
            group = _group_from_imports(ctx, path) or "<group>"
            bench = t.parts[0] == "benchmark" or t.base.startswith("bench_")
            yield rule.at(
                path,
                0,
                "kernel test outside ops/<group>/ and benchmark/<group>/",
                fix=f"move it to {dest[path]}"
                if path in dest
                else f"move it to {group_test_dir('benchmark' if bench else 'ops', group)}/",
            )
        elif t.kind == "ops" and is_benchmark_name(t.base):
            yield rule.at(
                path,
                0,
                "benchmark filed with numerical tests",
                severity="warning",
                fix=f"move it to {group_test_dir('benchmark', t.group)}/",
            )


RULE = make_rule(__doc__, check, "error")
