"""Tensor-parallel all-reduce + residual RMSNorm adapter.

The adapter owns the process group and the (lazily allocated) IPC workspace; the
kernel only receives buffers and flags. Runtime callers must share this module's
`get_allreduce_norm_adapter()` singleton, never build a second registry.
"""

from __future__ import annotations

import torch

from sglang.jit_kernel.allreduce_rmsnorm import fused_allreduce_rmsnorm

_ADAPTER = None


class AllReduceNormAdapter:
    def __init__(self, group=None) -> None:
        self.group = group
        self.workspace: dict[tuple[int, int], torch.Tensor] = {}

    def __call__(self, x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6):
        self.workspace.setdefault(tuple(x.shape), torch.empty(0, device=x.device))
        return fused_allreduce_rmsnorm(x, residual, weight, eps, group=self.group)


def get_allreduce_norm_adapter(group=None) -> AllReduceNormAdapter:
    global _ADAPTER
    if _ADAPTER is None:
        _ADAPTER = AllReduceNormAdapter(group)
    return _ADAPTER
