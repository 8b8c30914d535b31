"""RMSNorm and fused residual-add + RMSNorm.

Triton kernels (one program per row) with an opt-in CUDA JIT path built from
`csrc/norm.cuh` (`SGLANG_JIT_CUDA_NORM=1`). Math is done in fp32 whatever the input
dtype; the output has the input dtype.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from .utils import cache_once, jit_enabled, load_jit, next_power_of_2


@triton.jit
def _rmsnorm_kernel(x_ptr, w_ptr, out_ptr, stride_x, stride_out, hidden, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < hidden
    x = tl.load(x_ptr + row * stride_x + offs, mask=mask, other=0.0).to(tl.float32)
    inv_rms = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / hidden + eps)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = x * inv_rms * w
    tl.store(out_ptr + row * stride_out + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _fused_add_rmsnorm_kernel(x_ptr, res_ptr, w_ptr, stride, hidden, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < hidden
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    r = tl.load(res_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    s = x + r
    tl.store(res_ptr + row * stride + offs, s.to(res_ptr.dtype.element_ty), mask=mask)
    inv_rms = 1.0 / tl.sqrt(tl.sum(s * s, axis=0) / hidden + eps)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(x_ptr + row * stride + offs, (s * inv_rms * w).to(x_ptr.dtype.element_ty), mask=mask)


@cache_once
def _jit_module():
    return load_jit("norm", cuda_files=["norm.cuh"])


def _check(x: torch.Tensor, weight: torch.Tensor) -> None:
    if x.shape[-1] != weight.shape[0]:
        raise ValueError(f"hidden size {x.shape[-1]} != weight size {weight.shape[0]}")
    if x.stride(-1) != 1:
        raise ValueError("rmsnorm needs a contiguous last dimension")


def rmsnorm(x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6, out: torch.Tensor | None = None) -> torch.Tensor:
    """`x * rsqrt(mean(x**2, -1) + eps) * weight` over the last dimension."""
    _check(x, weight)
    if x.is_cuda and jit_enabled("norm"):
        return _jit_module().rmsnorm(x, weight, eps)
    x2 = x.reshape(-1, x.shape[-1])
    out = torch.empty_like(x2) if out is None else out.reshape(-1, x.shape[-1])
    hidden = x2.shape[1]
    _rmsnorm_kernel[(x2.shape[0],)](
        x2, weight, out, x2.stride(0), out.stride(0), hidden, eps, BLOCK=next_power_of_2(hidden)
    )
    return out.view(x.shape)


def fused_add_rmsnorm(x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6) -> None:
    """In place: `residual += x; x = rmsnorm(residual)`."""
    _check(x, weight)
    if x.shape != residual.shape or not (x.is_contiguous() and residual.is_contiguous()):
        raise ValueError("x and residual must be contiguous tensors of one shape")
    hidden = x.shape[-1]
    rows = x.numel() // hidden
    _fused_add_rmsnorm_kernel[(rows,)](x, residual, weight, hidden, hidden, eps, BLOCK=next_power_of_2(hidden))


if __name__ == "__main__":
    # Ad-hoc benchmark kept from the original kernel PR.
    import time

    x = torch.randn(64, 1024)
    w = torch.ones(1024)
    start = time.perf_counter()
    for _ in range(3):
        rmsnorm(x, w)
    print(f"rmsnorm: {(time.perf_counter() - start) / 3 * 1e3:.2f} ms/iter")
