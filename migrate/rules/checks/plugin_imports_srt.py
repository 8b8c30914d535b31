"""KO302 plugin-imports-srt: `plugin_kernels/` imports nothing from `sglang.srt`.

## What it does
Reports any import of `sglang.srt` (utilities included, at any depth, except under
`TYPE_CHECKING`) from `sglang/kernels/plugin_kernels/`.

## Why
External kernel plugins are split at the kernel/runtime boundary: the contract side
(spec, registration, capability declarations, thin wrappers) must load without the
runtime; SGLang's integration lives in `srt/kernel_plugins/<hardware>/binding.py`.

## Example
```python
# kernels/plugin_kernels/nvidia/deepseek_v3/spec.py
from sglang.srt.server_args import ServerArgs   # bad
```

## Fix
Move the runtime-facing code to `srt/kernel_plugins/<hardware>/binding.py` and pass
flags into the contract.
"""

from __future__ import annotations

from migrate.layout.names import PLUGIN_DIR
from migrate.rules.base import make_rule
from migrate.rules.checks.kernels_import_srt_runtime import _spelled, srt_imports


def check(ctx, rule):
    if not ctx.kernels_dir:
        return
    for path in ctx.python_under(f"{ctx.kernels_dir}/{PLUGIN_DIR}"):
        for ref, mods in srt_imports(ctx, path, utilities_ok=False):
            hit = ", ".join(mods)
            yield rule.at_ref(
                path,
                ref,
                f"plugin contract imports {hit}",
                evidence=_spelled(ref),
                fix="move runtime integration to srt/kernel_plugins/<hardware>/"
                "binding.py and pass flags in",
            )


RULE = make_rule(__doc__, check, "error")
