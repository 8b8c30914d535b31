"""DeepSeek-V3 router: sigmoid scores, bias-corrected grouped top-k.

Experts are split into `num_groups`; a group's score is the sum of its two best
bias-corrected scores, the best `topk_group` groups are kept, and `topk` experts are
chosen from them by corrected score. Weights are the *uncorrected* sigmoid scores of
the chosen experts, renormalized and multiplied by `routed_scaling_factor`.
The sigmoid + bias prologue is a Triton kernel; group selection runs in torch.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from ..utils import next_power_of_2


@triton.jit
def _sigmoid_bias_kernel(logits_ptr, bias_ptr, scores_ptr, corrected_ptr, num_experts, BLOCK: tl.constexpr):
    token = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < num_experts
    x = tl.load(logits_ptr + token * num_experts + offs, mask=mask, other=0.0).to(tl.float32)
    s = 1.0 / (1.0 + tl.exp(-x))
    b = tl.load(bias_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(scores_ptr + token * num_experts + offs, s, mask=mask)
    tl.store(corrected_ptr + token * num_experts + offs, s + b, mask=mask)


def deepseek_v3_grouped_topk(
    router_logits: torch.Tensor,
    correction_bias: torch.Tensor,
    topk: int,
    num_groups: int,
    topk_group: int,
    routed_scaling_factor: float = 1.0,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Return `(topk_weights fp32 [tokens, topk], topk_ids int32 [tokens, topk])`."""
    tokens, num_experts = router_logits.shape
    if num_experts % num_groups:
        raise ValueError("num_experts must be divisible by num_groups")
    scores = torch.empty((tokens, num_experts), dtype=torch.float32, device=router_logits.device)
    corrected = torch.empty_like(scores)
    _sigmoid_bias_kernel[(tokens,)](
        router_logits.contiguous(), correction_bias, scores, corrected, num_experts,
        BLOCK=next_power_of_2(num_experts),
    )
    grouped = corrected.view(tokens, num_groups, -1)
    group_scores = grouped.topk(2, dim=-1).values.sum(-1)
    keep = torch.zeros_like(group_scores).scatter_(1, group_scores.topk(topk_group, dim=-1).indices, 1.0)
    masked = grouped.masked_fill(keep.unsqueeze(-1) == 0, float("-inf")).view(tokens, num_experts)
    ids = masked.topk(topk, dim=-1).indices
    weights = scores.gather(1, ids)
    weights = weights / weights.sum(-1, keepdim=True) * routed_scaling_factor
    return weights, ids.to(torch.int32)
