"""Pure format conversion: per-token symmetric int8 quantization and dequantization.

`q = round_half_up(x / scale)` with `scale = max|x| / 127` per row; `dequant` is
`q * scale`. No producer is fused here (fused producers stay with their producer).
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from .utils import next_power_of_2

__all__ = ["per_token_quant_int8", "dequant_per_token_int8"]


@triton.jit
def _quant_kernel(x_ptr, q_ptr, scale_ptr, hidden, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < hidden
    x = tl.load(x_ptr + row * hidden + offs, mask=mask, other=0.0).to(tl.float32)
    scale = tl.maximum(tl.max(tl.abs(x), axis=0) / 127.0, 1e-10)
    q = tl.floor(x / scale + 0.5)
    q = tl.minimum(tl.maximum(q, -127.0), 127.0)
    tl.store(q_ptr + row * hidden + offs, q.to(tl.int8), mask=mask)
    tl.store(scale_ptr + row, scale)


@triton.jit
def _dequant_kernel(q_ptr, scale_ptr, out_ptr, hidden, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < hidden
    q = tl.load(q_ptr + row * hidden + offs, mask=mask, other=0).to(tl.float32)
    scale = tl.load(scale_ptr + row)
    tl.store(out_ptr + row * hidden + offs, (q * scale).to(out_ptr.dtype.element_ty), mask=mask)


def per_token_quant_int8(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    x2 = x.reshape(-1, x.shape[-1]).contiguous()
    rows, hidden = x2.shape
    q = torch.empty((rows, hidden), dtype=torch.int8, device=x.device)
    scale = torch.empty((rows,), dtype=torch.float32, device=x.device)
    _quant_kernel[(rows,)](x2, q, scale, hidden, BLOCK=next_power_of_2(hidden))
    return q.view(x.shape), scale


def dequant_per_token_int8(q: torch.Tensor, scale: torch.Tensor, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    q2 = q.reshape(-1, q.shape[-1]).contiguous()
    rows, hidden = q2.shape
    out = torch.empty((rows, hidden), dtype=dtype, device=q.device)
    _dequant_kernel[(rows,)](q2, scale, out, hidden, BLOCK=next_power_of_2(hidden))
    return out.view(q.shape)


class PerTokenInt8:
    """Quant and dequant as one codec. The registry names its members by dotted path
    (`sglang.kernels.ops.quantization` registers `PerTokenInt8.dequant`)."""

    quant = staticmethod(per_token_quant_int8)
    dequant = staticmethod(dequant_per_token_int8)
