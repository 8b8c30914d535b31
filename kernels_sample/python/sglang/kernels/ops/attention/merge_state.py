"""Merge two partial attention results by their log-sum-exp (split-KV / cascade attention).

`out = (exp(lse_a) * v_a + exp(lse_b) * v_b) / (exp(lse_a) + exp(lse_b))` per
(token, head), computed stably; returns the merged output and merged lse.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl


@triton.jit
def _merge_state_kernel(va_ptr, la_ptr, vb_ptr, lb_ptr, out_ptr, lse_ptr, head_dim, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # flattened (token, head)
    offs = tl.arange(0, BLOCK)
    mask = offs < head_dim
    la = tl.load(la_ptr + row)
    lb = tl.load(lb_ptr + row)
    m = tl.maximum(la, lb)
    wa = tl.exp(la - m)
    wb = tl.exp(lb - m)
    va = tl.load(va_ptr + row * head_dim + offs, mask=mask, other=0.0).to(tl.float32)
    vb = tl.load(vb_ptr + row * head_dim + offs, mask=mask, other=0.0).to(tl.float32)
    out = (va * wa + vb * wb) / (wa + wb)
    tl.store(out_ptr + row * head_dim + offs, out.to(out_ptr.dtype.element_ty), mask=mask)
    tl.store(lse_ptr + row, m + tl.log(wa + wb))


def merge_attn_states(
    v_a: torch.Tensor, lse_a: torch.Tensor, v_b: torch.Tensor, lse_b: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """`v_*: [tokens, heads, head_dim]`, `lse_*: [tokens, heads]` (fp32, natural log)."""
    tokens, heads, head_dim = v_a.shape
    out = torch.empty_like(v_a)
    lse = torch.empty_like(lse_a)
    _merge_state_kernel[(tokens * heads,)](
        v_a.contiguous(), lse_a.contiguous(), v_b.contiguous(), lse_b.contiguous(), out, lse, head_dim,
        BLOCK=triton.next_power_of_2(head_dim),
    )
    return out, lse
