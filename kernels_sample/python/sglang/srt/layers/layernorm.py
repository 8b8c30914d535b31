"""RMSNorm layer used by every decoder block."""

from __future__ import annotations

import torch
from torch import nn

import sglang.jit_kernel.norm
from sglang.jit_kernel.norm import fused_add_rmsnorm

try:
    from sglang.jit_kernel.norm_quant import rmsnorm_quant
except ImportError:  # older builds without the fused FP8 epilogue
    rmsnorm_quant = None


class RMSNorm(nn.Module):
    def __init__(self, hidden_size: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, x: torch.Tensor, residual: torch.Tensor | None = None):
        if residual is not None:
            fused_add_rmsnorm(x, residual, self.weight.data, self.variance_epsilon)
            return x, residual
        return sglang.jit_kernel.norm.rmsnorm(x, self.weight.data, self.variance_epsilon)

    def forward_with_quant(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Normalize and quantize for an FP8 GEMM that follows (per-token scales)."""
        if rmsnorm_quant is None:
            raise NotImplementedError("this build has no fused rmsnorm + quant kernel")
        return rmsnorm_quant(x, self.weight.data, self.variance_epsilon)
