"""W8A8 int8 linear built from the per-token quant kernel and the scaled GEMM."""

from __future__ import annotations

import torch

from sglang.jit_kernel.gemm.scaled_mm import scaled_mm
from sglang.jit_kernel.quant import *  # noqa: F403  (per_token_quant_int8, dequant_per_token_int8)


def apply_w8a8_int8_linear(x: torch.Tensor, w_q: torch.Tensor, w_scale: torch.Tensor) -> torch.Tensor:
    """`x [M, K]` float, `w_q [K, N]` int8 with per-channel `w_scale [N]` -> `[M, N]` fp32."""
    x_q, x_scale = per_token_quant_int8(x)  # noqa: F405
    return scaled_mm(x_q.float(), w_q.float(), x_scale, w_scale)


def fake_quant(x: torch.Tensor) -> torch.Tensor:
    """Round-trip through int8 (used by accuracy debugging tools)."""
    q, scale = per_token_quant_int8(x)  # noqa: F405
    return dequant_per_token_int8(q, scale, x.dtype)  # noqa: F405
