"""Rotary embeddings (plain and with per-head QK RMSNorm)."""

from __future__ import annotations

import torch
from torch import nn

import sglang.jit_kernel.rope as rope_mod

from ...jit_kernel import qknorm_rope as qknorm_rope_mod


class RotaryEmbedding(nn.Module):
    def __init__(
        self,
        head_dim: int,
        max_position: int,
        base: float = 10000.0,
        cache: rope_mod.RotaryCosSinCache | None = None,
        device: torch.device | str | None = None,
    ) -> None:
        super().__init__()
        if cache is not None and not isinstance(cache, rope_mod.RotaryCosSinCache):
            raise TypeError(f"expected a RotaryCosSinCache, got {type(cache).__name__}")
        self.head_dim = head_dim
        self.cache = cache or rope_mod.RotaryCosSinCache(head_dim, max_position, base, device=device)

    def forward(self, positions: torch.Tensor, q: torch.Tensor, k: torch.Tensor):
        rope_mod.apply_rope(q, k, positions, self.cache)
        return q, k


class QKNormRotaryEmbedding(RotaryEmbedding):
    """RoPE preceded by per-head RMSNorm of q and k, fused in one kernel."""

    def __init__(self, head_dim: int, max_position: int, base: float = 10000.0, eps: float = 1e-6,
                 device: torch.device | str | None = None) -> None:
        super().__init__(head_dim, max_position, base, device=device)
        self.q_weight = nn.Parameter(torch.ones(head_dim, device=device))
        self.k_weight = nn.Parameter(torch.ones(head_dim, device=device))
        self.eps = eps

    def forward(self, positions: torch.Tensor, q: torch.Tensor, k: torch.Tensor):
        qknorm_rope_mod.qknorm_rope(q, k, self.q_weight.data, self.k_weight.data, positions, self.cache, self.eps)
        return q, k
