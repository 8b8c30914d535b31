"""RMSNorm fused with dynamic per-token FP8 (e4m3) quantization of its output.

The CPU Triton interpreter cannot store float8 tensors, so the quantized values are
emulated: `y / scale` is clamped to the e4m3 range [-448, 448] and stored in an fp32
tensor (no rounding to the fp8 grid). `scale` is per token: `max|y| / 448`.
On CUDA the same kernel writes `torch.float8_e4m3fn` when `out_dtype` asks for it.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from . import norm
from .utils import next_power_of_2

FP8_E4M3_MAX = 448.0


@triton.jit
def _rmsnorm_quant_kernel(x_ptr, w_ptr, q_ptr, scale_ptr, hidden, eps, qmax, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < hidden
    x = tl.load(x_ptr + row * hidden + offs, mask=mask, other=0.0).to(tl.float32)
    inv_rms = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / hidden + eps)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = x * inv_rms * w
    scale = tl.maximum(tl.max(tl.abs(y), axis=0) / qmax, 1e-12)
    q = tl.minimum(tl.maximum(y / scale, -qmax), qmax)
    tl.store(q_ptr + row * hidden + offs, q.to(q_ptr.dtype.element_ty), mask=mask)
    tl.store(scale_ptr + row, scale)


def rmsnorm_quant(
    x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6, out_dtype: torch.dtype = torch.float32
) -> tuple[torch.Tensor, torch.Tensor]:
    """Return `(q, scale)` with `q * scale[:, None] ~= rmsnorm(x, weight, eps)`."""
    norm._check(x, weight)
    x2 = x.reshape(-1, x.shape[-1]).contiguous()
    rows, hidden = x2.shape
    q = torch.empty((rows, hidden), dtype=out_dtype, device=x.device)
    scale = torch.empty((rows,), dtype=torch.float32, device=x.device)
    _rmsnorm_quant_kernel[(rows,)](x2, weight, q, scale, hidden, eps, FP8_E4M3_MAX, BLOCK=next_power_of_2(hidden))
    return q.view(x.shape), scale
