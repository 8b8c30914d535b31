"""KO501 registered-test-in-package: no CI-registered test lives under `python/sglang/`.

## What it does
Reports a file inside the `sglang` package that calls a CI registration
(`register_cuda_ci(...)`, `register_cpu_ci(...)`, ...) at module top level.

## Why
CI collects registered tests from `test/registered/`; one shipped inside the package
is either never run or runs from the wheel. Kernel numerical tests belong under
`test/registered/kernels/ops/<group>/`, benchmarks under `.../benchmark/<group>/`.

## Example
```text
python/sglang/jit_kernel/tests/test_norm.py   # calls register_cuda_ci(...)
```

## Fix
Move it to `test/registered/kernels/ops/<group>/` (keep the registration call, its
comments and the `__main__` block); shared helpers go to `sglang.test.kernels`.
"""

from __future__ import annotations

from migrate.layout.ci import ci_registrations
from migrate.layout.classify import classify_source
from migrate.rules.base import make_rule


def check(ctx, rule):
    pkg = ctx.tree.package_dir("sglang")
    if not pkg:
        return
    for path in ctx.tree.files_under(pkg):
        if not path.endswith(".py"):
            continue
        text = ctx.tree.text(path) or ""
        if "_ci(" not in text or "register_" not in text:
            continue
        mod = ctx.tree.ast(path)
        calls = ci_registrations(mod) if mod else []
        if not calls:
            continue
        guess = classify_source(text, ctx.tree.module_of(path) or "")
        where = "ops" if "bench" not in path.rsplit("/", 1)[-1] else "benchmark"
        group = guess.group if guess.group and guess.group != "jit" else "<group>"
        yield rule.at(
            path,
            calls[0].lineno,
            "CI-registered test inside the sglang package",
            evidence=f"{calls[0].func.id}(...) at top level"
            + (f"; computation: {guess.evidence}" if guess.evidence else ""),
            fix=f"move it to test/registered/kernels/{where}/{group}/",
        )


RULE = make_rule(__doc__, check, "error")
