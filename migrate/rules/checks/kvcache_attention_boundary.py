"""KO404 kvcache-attention-boundary: KV-cache contents in kvcache, index tables in attention.

## What it does
Warns about a module in `kvcache` that only builds index/shape/schedule tables (page
tables, `cu_seqlens`, `kv_indices`, split metadata) without touching cache contents,
and about a module in `attention` that only reads/writes KV-cache contents with no
attention compute, RoPE or index tables. Heuristic: the evidence lists the identifiers.

Vendored upstream trees (a directory with its own LICENSE/COPYING/AUTHORS) are skipped.

## Why
Decided rule: kvcache owns ops that read/write KV-cache contents; attention owns the
index/shape/schedule tables and index selection. A fused compute + store stays with its
compute group, so only modules with nothing but the other side's signals are reported.

## Example
```python
# ops/kvcache/page_table.py
def create_flashinfer_kv_indices(req_to_token, kv_indptr, kv_indices): ...
```

## Fix
Move the module to the other group: `ops/attention/` for tables, `ops/kvcache/` for
cache content copies/stores.
"""

from __future__ import annotations

from migrate.rules.base import make_rule

HINT = ("cache", "buffer", "indices", "indptr", "page_table", "cu_seqlens")  # prefilter


def check(ctx, rule):
    for path, group, sig in ctx.operator_signals(HINT, groups=("kvcache", "attention")):
        kv, idx = sig.strong("kvcache"), sig.strong("attention_index")
        compute = sig.strong("attention") + sig.strong("rope")
        if group == "kvcache" and idx >= 3 and sig.score("kvcache") == 0:
            yield rule.at(
                path,
                0,
                "kvcache module only builds index/schedule tables",
                evidence=sig.evidence("attention_index"),
                fix="move it to ops/attention/ (attention owns index tables)",
            )
        elif group == "attention" and kv >= 3 and compute == 0 and idx == 0:
            yield rule.at(
                path,
                0,
                "attention module only reads/writes KV-cache contents",
                evidence=sig.evidence("kvcache"),
                fix="move it to ops/kvcache/ (kvcache owns cache contents)",
            )


RULE = make_rule(__doc__, check, "warning")
