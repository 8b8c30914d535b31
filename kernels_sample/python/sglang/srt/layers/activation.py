"""Gated MLP activations."""

from __future__ import annotations

import torch
from torch import nn

import sglang.jit_kernel.activation
import sglang.jit_kernel.utils


@sglang.jit_kernel.utils.cache_once
def _supported_activations() -> frozenset[str]:
    return frozenset({"silu"})


class SiluAndMul(nn.Module):
    def __init__(self, quantize_output: bool = False) -> None:
        super().__init__()
        if "silu" not in _supported_activations():
            raise ValueError("silu is not supported")
        self.quantize_output = quantize_output

    def forward(self, x: torch.Tensor):
        if self.quantize_output:
            from sglang.jit_kernel.activation import silu_and_mul_quant

            return silu_and_mul_quant(x)
        return sglang.jit_kernel.activation.silu_and_mul(x)
