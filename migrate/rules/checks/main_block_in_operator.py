"""KO503 main-block-in-operator: no standalone test or benchmark entry point in operators.

## What it does
Reports a top-level `if __name__ == "__main__":` block in a production module under
`sglang/kernels/` (operator groups, backends, plugins, JIT infrastructure) or the legacy
`sglang/jit_kernel/` (outside its test and benchmark directories). C++ source trees
(`csrc/`, `include/`) and vendored trees (`third_party/`, `vendor/`, or any directory
carrying its own LICENSE/COPYING/AUTHORS file) are skipped.

Heuristic (a warning): whether the block runs a test or benchmark is judged from what it
calls, listed as evidence; a `__main__.py` command-line module is not reported.

## Why
Entry points that run tests or benchmarks inside production modules are never collected
by CI, rot silently and pull test-only imports into shipped code.

## Example
```python
# ops/gemm/fp8.py
if __name__ == "__main__":
    benchmark_fp8_gemm()
```

## Fix
Move the block to `test/registered/kernels/benchmark/<group>/` (CI) or
`test/manual/kernels/` (manual) and delete it from the operator module.
"""

from __future__ import annotations

import ast
import re

from migrate.layout.ci import main_block
from migrate.rules.base import make_rule

_TEST_DIRS = ("tests", "test", "benchmark", "benchmarks", "bench")
# C++ source trees and vendored upstream code keep their own scripts.
_VENDORED = re.compile(r"/(?:csrc|include|third_party|vendor|_vendor|3rdparty)/")


def _production_modules(ctx):
    for path in ctx.python_under(ctx.kernels_dir):
        if not _VENDORED.search(path) and not ctx.is_vendored(path):
            yield path
    for path in ctx.python_under(ctx.legacy_dir):
        rest = path[len(ctx.legacy_dir) + 1 :]
        if rest.split("/", 1)[0] not in _TEST_DIRS and not rest.rsplit("/", 1)[-1].startswith(
            ("test_", "bench_")
        ):
            yield path


def check(ctx, rule):
    for path in _production_modules(ctx):
        text = ctx.tree.text(path) or ""
        if "__main__" not in text:
            continue
        mod = ctx.tree.ast(path)
        block = main_block(mod) if mod else None
        if block is None:
            continue
        calls = [ast.unparse(n.func) for n in ast.walk(block) if isinstance(n, ast.Call)]
        group = ctx.group_of(path)
        yield rule.at(
            path,
            block.lineno,
            "standalone entry point in a production module",
            evidence="runs " + ", ".join(dict.fromkeys(calls[:4])) if calls else "",
            fix="move it to test/registered/kernels/benchmark/"
            f"{group or '<group>'}/ or test/manual/kernels/",
        )


RULE = make_rule(__doc__, check, "warning")
