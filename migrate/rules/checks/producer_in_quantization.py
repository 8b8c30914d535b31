"""KO402 producer-in-quantization: `quantization` holds only pure format conversion.

## What it does
Warns about a module in `quantization` that defines or calls a producer computation
(normalization, activation, GEMM, MoE dispatch/permute) besides quantizing its output.
Heuristic: the evidence lists the producer identifiers; identifiers naming a format
conversion (`awq_marlin_moe_repack`) are not producer evidence.

Vendored upstream trees (a directory with its own LICENSE/COPYING/AUTHORS) are skipped.

## Why
Decided rule: producer + output quantization stays with the producer (norm + quant in
layernorm, activation + quant in activation, GEMM with a quant epilogue in gemm, MoE
dispatch/permute + quant in moe). `quantization` keeps quant, dequant, scale-layout
conversion and repack.

## Example
```python
# ops/quantization/rmsnorm_fp8.py
def fused_rmsnorm_quant_fp8(x, weight, scale): ...
```

## Fix
Move the module to the producer's group (`ops/layernorm/` here).
"""

from __future__ import annotations

from migrate.layout.classify import CONVERSION, PRODUCERS
from migrate.rules.base import make_rule


def check(ctx, rule):
    for path, group, sig in ctx.operator_signals(groups=("quantization",)):
        if group != "quantization":
            continue
        producer = max(PRODUCERS, key=lambda g: (sig.strong(g, CONVERSION), g))
        if sig.strong(producer, CONVERSION) < 3:
            continue
        yield rule.at(
            path,
            0,
            f"quantization module fuses a {producer} producer",
            evidence=sig.evidence(producer),
            fix=f"move it to ops/{producer}/ (producer + output quantization stays "
            "with the producer)",
        )


RULE = make_rule(__doc__, check, "warning")
