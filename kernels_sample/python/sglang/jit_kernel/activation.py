"""Gated activations: `silu(gate) * up`, optionally with an FP8 quant epilogue, and
`gelu_tanh(gate) * up`.

Input `x` is `[..., 2 * d]` with the gate in the first half. The quantized variant
emulates per-token FP8 e4m3 on CPU (clamped values stored in fp32, see
`norm_quant` for the same convention). `gelu_tanh_and_mul` is a torch custom op
(`torch.ops.sglang.gelu_tanh_and_mul`) and the Triton backend of the fused op
`activation.gelu_tanh_and_mul`, registered here by `register_fused_op`.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from sglang.kernels.fused_op import BaseFusedOp, register_fused_op

from .utils import next_power_of_2

try:  # the AOT wheel has a faster silu_and_mul on CUDA
    from sgl_kernel import silu_and_mul as _aot_silu_and_mul
except ImportError:
    _aot_silu_and_mul = None

FP8_E4M3_MAX = 448.0


@triton.jit
def _silu(x):
    return x / (1.0 + tl.exp(-x))


@triton.jit
def _silu_and_mul_kernel(x_ptr, out_ptr, d, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < d
    gate = tl.load(x_ptr + row * 2 * d + offs, mask=mask, other=0.0).to(tl.float32)
    up = tl.load(x_ptr + row * 2 * d + d + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + row * d + offs, (_silu(gate) * up).to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _silu_and_mul_quant_kernel(x_ptr, q_ptr, scale_ptr, d, qmax, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < d
    gate = tl.load(x_ptr + row * 2 * d + offs, mask=mask, other=0.0).to(tl.float32)
    up = tl.load(x_ptr + row * 2 * d + d + offs, mask=mask, other=0.0).to(tl.float32)
    y = _silu(gate) * up
    scale = tl.maximum(tl.max(tl.abs(y), axis=0) / qmax, 1e-12)
    q = tl.minimum(tl.maximum(y / scale, -qmax), qmax)
    tl.store(q_ptr + row * d + offs, q.to(q_ptr.dtype.element_ty), mask=mask)
    tl.store(scale_ptr + row, scale)


@triton.jit
def _gelu_tanh_and_mul_kernel(x_ptr, out_ptr, d, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < d
    gate = tl.load(x_ptr + row * 2 * d + offs, mask=mask, other=0.0).to(tl.float32)
    up = tl.load(x_ptr + row * 2 * d + d + offs, mask=mask, other=0.0).to(tl.float32)
    # gelu_tanh(g) = g * sigmoid(2 * sqrt(2 / pi) * (g + 0.044715 * g^3))
    inner = 1.5957691216057308 * (gate + 0.044715 * gate * gate * gate)
    tl.store(out_ptr + row * d + offs, (gate / (1.0 + tl.exp(-inner)) * up).to(out_ptr.dtype.element_ty), mask=mask)


def _rows(x: torch.Tensor) -> tuple[torch.Tensor, int]:
    if x.shape[-1] % 2:
        raise ValueError(f"last dimension must be even, got {x.shape[-1]}")
    d = x.shape[-1] // 2
    return x.reshape(-1, 2 * d).contiguous(), d


def silu_and_mul(x: torch.Tensor) -> torch.Tensor:
    if x.is_cuda and _aot_silu_and_mul is not None:
        return _aot_silu_and_mul(x)
    x2, d = _rows(x)
    out = torch.empty((x2.shape[0], d), dtype=x.dtype, device=x.device)
    _silu_and_mul_kernel[(x2.shape[0],)](x2, out, d, BLOCK=next_power_of_2(d))
    return out.view(*x.shape[:-1], d)


def silu_and_mul_quant(x: torch.Tensor, out_dtype: torch.dtype = torch.float32) -> tuple[torch.Tensor, torch.Tensor]:
    """Return `(q, scale)` with `q * scale[:, None] ~= silu_and_mul(x)` per token."""
    x2, d = _rows(x)
    q = torch.empty((x2.shape[0], d), dtype=out_dtype, device=x.device)
    scale = torch.empty((x2.shape[0],), dtype=torch.float32, device=x.device)
    _silu_and_mul_quant_kernel[(x2.shape[0],)](x2, q, scale, d, FP8_E4M3_MAX, BLOCK=next_power_of_2(d))
    return q.view(*x.shape[:-1], d), scale


@torch.library.custom_op("sglang::gelu_tanh_and_mul", mutates_args=())
def gelu_tanh_and_mul(x: torch.Tensor) -> torch.Tensor:
    x2, d = _rows(x)
    out = torch.empty((x2.shape[0], d), dtype=x.dtype, device=x.device)
    _gelu_tanh_and_mul_kernel[(x2.shape[0],)](x2, out, d, BLOCK=next_power_of_2(d))
    return out.view(*x.shape[:-1], d)


@gelu_tanh_and_mul.register_fake
def _gelu_tanh_and_mul_fake(x: torch.Tensor) -> torch.Tensor:
    return x.new_empty((*x.shape[:-1], x.shape[-1] // 2))


class GeluTanhAndMulOp(BaseFusedOp):
    op = "activation.gelu_tanh_and_mul"

    def forward_torch(self, x: torch.Tensor) -> torch.Tensor:
        d = x.shape[-1] // 2
        return torch.nn.functional.gelu(x[..., :d], approximate="tanh") * x[..., d:]

    def forward_triton(self, x: torch.Tensor) -> torch.Tensor:
        return torch.ops.sglang.gelu_tanh_and_mul(x)


GELU_TANH_AND_MUL = GeluTanhAndMulOp()
register_fused_op(GELU_TANH_AND_MUL, __name__, "GELU_TANH_AND_MUL")
