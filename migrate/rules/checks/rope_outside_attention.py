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
from migrate.rules.placement import outside_home

HINT = ("rope", "rotary", "cos_sin")  # text prefilter


def check(ctx, rule):
    homes = ("attention", "communication")
    yield from outside_home(
        ctx, rule, HINT, "rope", homes, "applies RoPE", "move it to ops/attention/"
    )


RULE = make_rule(__doc__, check, "warning")
