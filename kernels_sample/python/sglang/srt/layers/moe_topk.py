"""Expert selection and block alignment for the fused MoE layer."""

from __future__ import annotations

import torch

from sglang.jit_kernel import moe_align
from sglang.jit_kernel.deepseek_v3 import deepseek_v3_grouped_topk
from sglang.jit_kernel.topk_softmax import topk_softmax


def select_experts(
    router_logits: torch.Tensor,
    topk: int,
    renormalize: bool = True,
    *,
    correction_bias: torch.Tensor | None = None,
    num_expert_group: int | None = None,
    topk_group: int | None = None,
    routed_scaling_factor: float = 1.0,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Softmax top-k routing, or DeepSeek-V3 grouped routing when a correction bias is given."""
    if correction_bias is not None:
        return deepseek_v3_grouped_topk(
            router_logits, correction_bias, topk, num_expert_group, topk_group, routed_scaling_factor
        )
    return topk_softmax(router_logits, topk, renormalize)


def align_for_grouped_gemm(topk_ids: torch.Tensor, num_experts: int, block_size: int):
    return moe_align.moe_align_block_size(topk_ids, num_experts, block_size)
