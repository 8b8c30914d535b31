"""Fused per-head QK RMSNorm + RoPE (Qwen3 / OLMo style attention prologue).

Each (token, head) row of `q` or `k` is RMS-normalized with its per-head-dim weight
and then rotated, in place, in a single pass.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from .rope import RotaryCosSinCache


@triton.jit
def _qknorm_rope_kernel(x_ptr, w_ptr, pos_ptr, cos_ptr, sin_ptr, num_heads, half, eps, BLOCK: tl.constexpr):
    token = tl.program_id(0)
    head = tl.program_id(1)
    offs = tl.arange(0, BLOCK)
    mask = offs < half
    head_dim = 2 * half
    base = x_ptr + (token * num_heads + head) * head_dim
    x1 = tl.load(base + offs, mask=mask, other=0.0).to(tl.float32)
    x2 = tl.load(base + half + offs, mask=mask, other=0.0).to(tl.float32)
    inv_rms = 1.0 / tl.sqrt((tl.sum(x1 * x1, axis=0) + tl.sum(x2 * x2, axis=0)) / head_dim + eps)
    x1 = x1 * inv_rms * tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    x2 = x2 * inv_rms * tl.load(w_ptr + half + offs, mask=mask, other=0.0).to(tl.float32)
    pos = tl.load(pos_ptr + token)
    cos = tl.load(cos_ptr + pos * half + offs, mask=mask, other=0.0)
    sin = tl.load(sin_ptr + pos * half + offs, mask=mask, other=0.0)
    tl.store(base + offs, (x1 * cos - x2 * sin).to(x_ptr.dtype.element_ty), mask=mask)
    tl.store(base + half + offs, (x2 * cos + x1 * sin).to(x_ptr.dtype.element_ty), mask=mask)


def qknorm_rope(
    q: torch.Tensor,
    k: torch.Tensor,
    q_weight: torch.Tensor,
    k_weight: torch.Tensor,
    positions: torch.Tensor,
    cache: RotaryCosSinCache,
    eps: float = 1e-6,
) -> None:
    """In place on `q [tokens, q_heads, head_dim]` and `k [tokens, kv_heads, head_dim]`."""
    for x, w in ((q, q_weight), (k, k_weight)):
        tokens, heads, head_dim = x.shape
        if head_dim != cache.rotary_dim or w.shape != (head_dim,):
            raise ValueError("qknorm_rope needs full rotary and a [head_dim] weight")
        if not x.is_contiguous():
            raise ValueError("q and k must be contiguous")
        half = head_dim // 2
        _qknorm_rope_kernel[(tokens, heads)](
            x, w, positions, cache.cos, cache.sin, heads, half, eps, BLOCK=triton.next_power_of_2(half)
        )
