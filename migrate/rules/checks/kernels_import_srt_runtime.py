"""KO301 kernels-import-srt-runtime: `sglang/kernels/` does not import srt runtime modules.

## What it does
Reports an import (at module level or inside a function; `TYPE_CHECKING` imports are
exempt) of a `sglang.srt` runtime module from `sglang/kernels/` outside
`plugin_kernels/` (which KO302 covers). Runtime utilities are allowed: using a runtime
utility is not a violation (`sglang.srt.utils`, `sglang.srt.environ`, and any module named
`utils`, `*_utils`, `common`, `environ`, `constants`). Owners of runtime state
(`managers`, `model_executor`, `mem_cache`, `distributed`, `models`, `server_args`,
`speculative`, `lora`, `layers.dp_attention`, ...) are errors; other srt modules are
warnings, since where runtime ends is a judgement.

## Why
Kernels must not reach into model objects, process groups, schedulers or buffer owners;
pass flags in instead. Importing runtime modules ties kernels to server state, creates
import cycles and makes kernels untestable in isolation.

## Example
```python
from sglang.srt.layers.quantization.fp8 import Fp8Config   # bad: inspects model config
from sglang.srt.utils import is_cuda                         # fine: runtime utility
```

## Fix
Pass the needed values in as arguments; keep process groups, communicator state and
model dispatch in `srt` (adapters under `srt/layers/communication/`).
"""

from __future__ import annotations

import re

from migrate.index.imports import imports_of, under
from migrate.layout.names import PLUGIN_DIR
from migrate.rules.base import make_rule

SRT = "sglang.srt"
UTILITIES = ("sglang.srt.utils", "sglang.srt.environ", "sglang.srt.utils_common")
# A module named like a utility is a runtime utility, wherever it lives.
_UTILITY_PART = re.compile(r"^(?:utils?|\w+_utils?|utils?_\w+|common|environ|envs|constants?)$")
# Runtime state owners: importing these is a violation for certain (error); any other
# non-utility srt module is reported as a warning.
RUNTIME = tuple(
    f"sglang.srt.{m}"
    for m in (
        "managers", "model_executor", "mem_cache", "distributed", "models", "model_loader",
        "entrypoints", "disaggregation", "speculative", "server_args", "runtime_context",
        "layers.dp_attention", "lora",
    )
)  # fmt: skip


def is_utility(module: str) -> bool:
    return any(under(module, u) for u in UTILITIES) or any(
        _UTILITY_PART.match(part) for part in module.split(".")[2:]
    )


_SRT_LINE = re.compile(r"^.*\bsrt\b.*$", re.M)
_UTILITY_LINE = re.compile(
    r"^\s*from\s+sglang\.srt\.(?:utils|environ|utils_common)(?:\.\w+)*\s+import\b"
)


def _only_utilities(text: str) -> bool:
    """Text prefilter: every line naming `srt` imports a runtime utility (no parse needed)."""
    return all(_UTILITY_LINE.match(m.group(0)) for m in _SRT_LINE.finditer(text))


def imported_srt_modules(ctx, ref) -> list[str]:
    """The srt modules an import statement loads (`from sglang.srt import utils` loads
    `sglang.srt.utils` when that is a module of the tree, else `sglang.srt`)."""
    if not ref.names:
        return [ref.module] if under(ref.module, SRT) else []
    if ref.module == "sglang":
        return [SRT] if "srt" in ref.names else []
    out = []
    for n in ref.names:
        sub = f"{ref.module}.{n}"
        out.append(sub if ctx.tree.is_module(sub) else ref.module)
    return [m for m in dict.fromkeys(out) if under(m, SRT)]


def srt_imports(ctx, path: str, utilities_ok: bool):
    """(ImportRef, srt modules) for each import of srt in `path` (TYPE_CHECKING excluded)."""
    text = ctx.tree.text(path) or ""
    if "srt" not in text or (utilities_ok and _only_utilities(text)):
        return
    mod, name = ctx.tree.ast(path), ctx.tree.module_of(path)
    if mod is None or name is None:
        return
    for ref in imports_of(mod, name, path.endswith("__init__.py")):
        mods = [] if ref.type_checking else imported_srt_modules(ctx, ref)
        if mods:
            yield ref, mods


def _spelled(ref) -> str:
    return (
        f"from {ref.module} import {', '.join(ref.names)}" if ref.names else f"import {ref.module}"
    )


def check(ctx, rule):
    plugin = f"{ctx.kernels_dir}/{PLUGIN_DIR}/"
    for path in ctx.python_under(ctx.kernels_dir):
        if path.startswith(plugin):
            continue
        for ref, mods in srt_imports(ctx, path, utilities_ok=True):
            mods = [m for m in mods if not is_utility(m)]
            if not mods:
                continue
            certain = any(under(m, r) for m in mods for r in RUNTIME)
            where = "inside a function" if ref.local else "at module level"
            yield rule.at_ref(
                path,
                ref,
                f"kernels import srt runtime module {', '.join(mods)} ({where})",
                evidence=_spelled(ref),
                fix="pass the needed values in as arguments instead of importing srt",
                severity="error" if certain else "warning",
            )


RULE = make_rule(__doc__, check, "error")
