"""Softmax over router logits followed by top-k expert selection (one program per token)."""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from .utils import next_power_of_2


@triton.jit
def _topk_softmax_kernel(
    logits_ptr, w_ptr, ids_ptr, num_experts, TOPK: tl.constexpr, RENORM: tl.constexpr, BLOCK: tl.constexpr
):
    token = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < num_experts
    x = tl.load(logits_ptr + token * num_experts + offs, mask=mask, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    p = tl.where(mask, e / tl.sum(e, axis=0), -1.0)
    picked = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in tl.static_range(TOPK):
        best = tl.max(p, axis=0)
        idx = tl.min(tl.where(p == best, offs, BLOCK), axis=0)
        tl.store(ids_ptr + token * TOPK + i, idx)
        tl.store(w_ptr + token * TOPK + i, best)
        picked = tl.where(offs == idx, best, picked)
        p = tl.where(offs == idx, -1.0, p)
    if RENORM:
        total = tl.sum(picked, axis=0)
        for i in tl.static_range(TOPK):
            w = tl.load(w_ptr + token * TOPK + i)
            tl.store(w_ptr + token * TOPK + i, w / total)


def topk_softmax(
    gating_output: torch.Tensor, topk: int, renormalize: bool = False
) -> tuple[torch.Tensor, torch.Tensor]:
    """Return `(topk_weights fp32 [tokens, topk], topk_ids int32 [tokens, topk])`."""
    tokens, num_experts = gating_output.shape
    if topk > num_experts:
        raise ValueError(f"topk={topk} > num_experts={num_experts}")
    weights = torch.empty((tokens, topk), dtype=torch.float32, device=gating_output.device)
    ids = torch.empty((tokens, topk), dtype=torch.int32, device=gating_output.device)
    _topk_softmax_kernel[(tokens,)](
        gating_output.contiguous(), weights, ids, num_experts, TOPK=topk, RENORM=renormalize,
        BLOCK=next_power_of_2(num_experts),
    )
    return weights, ids
