"""KO403 rope-outside-attention: RoPE belongs to attention.

## What it does
Warns about a module outside `attention` (and `communication`) that defines or calls a
rotary position embedding (RoPE, mRoPE, cos/sin cache application). Heuristic: the
evidence lists the RoPE identifiers.

Vendored upstream trees (a directory with its own LICENSE/COPYING/AUTHORS) are skipped.

## Why
Decided rule: RoPE stays in attention: standalone RoPE, position ids, and QK-norm + RoPE
(a fused norm + RoPE is an attention op, not a layernorm op).

## Example
```python
# ops/layernorm/qknorm_rope.py
def fused_qk_norm_rope(q, k, cos_sin_cache, positions): ...
```

## Fix
Move the module to `ops/attention/`.
"""

from __future__ import annotations

from migrate.rules.base import make_rule

HINT = ("rope", "rotary", "cos_sin")  # text prefilter


def check(ctx, rule):
    for path, group, sig in ctx.operator_signals(HINT):
        if group in ("attention", "communication") or sig.strong("rope") < 2:
            continue
        yield rule.at(
            path,
            0,
            f"module in {group} applies RoPE",
            evidence=sig.evidence("rope"),
            fix="move it to ops/attention/",
        )


RULE = make_rule(__doc__, check, "warning")
