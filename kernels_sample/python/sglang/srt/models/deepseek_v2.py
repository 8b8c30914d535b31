"""DeepSeek-V2/V3 pieces that call kernels directly (router and the int8 shared-expert GEMM)."""

from __future__ import annotations

import torch
from torch import nn

import sglang.jit_kernel.deepseek_v3.fused_router
from sglang.jit_kernel.gemm import scaled_mm


class DeepseekV3Gate(nn.Module):
    def __init__(self, hidden_size: int, n_routed_experts: int, topk: int, n_group: int, topk_group: int,
                 routed_scaling_factor: float = 2.5) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_routed_experts, hidden_size) * 0.02)
        self.e_score_correction_bias = nn.Parameter(torch.zeros(n_routed_experts))
        self.topk, self.n_group, self.topk_group = topk, n_group, topk_group
        self.routed_scaling_factor = routed_scaling_factor

    def forward(self, hidden_states: torch.Tensor):
        ones = torch.ones(hidden_states.shape[0], device=hidden_states.device)
        logits = scaled_mm.scaled_mm(hidden_states.float(), self.weight.data.t().contiguous(), ones,
                                     torch.ones(self.weight.shape[0], device=hidden_states.device))
        return sglang.jit_kernel.deepseek_v3.fused_router.deepseek_v3_grouped_topk(
            logits, self.e_score_correction_bias.data, self.topk, self.n_group, self.topk_group,
            self.routed_scaling_factor,
        )
