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

from migrate.rules.base import make_rule

_OPS_IMPORT = re.compile(r"\bsglang\.kernels\.ops\.([a-z_][a-z0-9_]*)")
_KIND = re.compile(r"(?:^|/)test/registered/kernels/(.*)$")


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
        if "test/registered/kernels/" not in path or not path.endswith(".py"):
            continue
        m = _KIND.search(path)
        parts = m.group(1).split("/") if m else []
        base = parts[-1] if parts else ""
        if base in ("__init__.py", "conftest.py"):
            continue
        if len(parts) < 3 or parts[0] not in ("ops", "benchmark"):
            dest = _destinations(ctx) if dest is None else dest
            group = _group_from_imports(ctx, path) or "<group>"
            kind = "benchmark" if parts[0] == "benchmark" or base.startswith("bench_") else "ops"
            yield rule.at(
                path,
                0,
                "kernel test outside ops/<group>/ and benchmark/<group>/",
                fix=f"move it to {dest[path]}"
                if path in dest
                else f"move it to test/registered/kernels/{kind}/{group}/",
            )
        elif parts[0] == "ops" and (base.startswith("bench_") or "benchmark" in base):
            yield rule.at(
                path,
                0,
                "benchmark filed with numerical tests",
                severity="warning",
                fix=f"move it to test/registered/kernels/benchmark/{parts[1]}/",
            )


RULE = make_rule(__doc__, check, "error")
