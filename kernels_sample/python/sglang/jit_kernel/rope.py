"""Rotary position embedding (NeoX style: rotate the two halves of each head).

`RotaryCosSinCache` precomputes the cos/sin tables once per model (angle
`pos · θ_i` with `θ_i = base^(-2i/d)`); `apply_rope` rotates `q` and `k` in place for
the given positions.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl


class RotaryCosSinCache:
    """cos/sin tables of shape `[max_position, rotary_dim // 2]` (fp32)."""

    def __init__(self, rotary_dim: int, max_position: int, base: float = 10000.0, device=None):
        if rotary_dim % 2:
            raise ValueError("rotary_dim must be even")
        inv_freq = 1.0 / (base ** (torch.arange(0, rotary_dim, 2, dtype=torch.float32, device=device) / rotary_dim))
        t = torch.arange(max_position, dtype=torch.float32, device=device)
        freqs = torch.outer(t, inv_freq)
        self.rotary_dim = rotary_dim
        self.cos = freqs.cos().contiguous()
        self.sin = freqs.sin().contiguous()


@triton.jit
def _rope_kernel(x_ptr, pos_ptr, cos_ptr, sin_ptr, num_heads, head_dim, half, BLOCK: tl.constexpr):
    token = tl.program_id(0)
    head = tl.program_id(1)
    offs = tl.arange(0, BLOCK)
    mask = offs < half
    pos = tl.load(pos_ptr + token)
    cos = tl.load(cos_ptr + pos * half + offs, mask=mask, other=0.0)
    sin = tl.load(sin_ptr + pos * half + offs, mask=mask, other=0.0)
    base = x_ptr + (token * num_heads + head) * head_dim
    x1 = tl.load(base + offs, mask=mask, other=0.0).to(tl.float32)
    x2 = tl.load(base + half + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(base + offs, (x1 * cos - x2 * sin).to(x_ptr.dtype.element_ty), mask=mask)
    tl.store(base + half + offs, (x2 * cos + x1 * sin).to(x_ptr.dtype.element_ty), mask=mask)


def _rotate_(x: torch.Tensor, positions: torch.Tensor, cache: RotaryCosSinCache) -> None:
    tokens, heads, head_dim = x.shape
    if head_dim != cache.rotary_dim:
        raise ValueError(f"head_dim {head_dim} != rotary_dim {cache.rotary_dim} (partial rotary unsupported)")
    half = head_dim // 2
    block = triton.next_power_of_2(half)
    _rope_kernel[(tokens, heads)](x, positions, cache.cos, cache.sin, heads, head_dim, half, BLOCK=block)


def apply_rope(q: torch.Tensor, k: torch.Tensor, positions: torch.Tensor, cache: RotaryCosSinCache) -> None:
    """Rotate `q [tokens, q_heads, head_dim]` and `k [tokens, kv_heads, head_dim]` in place."""
    if not (q.is_contiguous() and k.is_contiguous()):
        raise ValueError("q and k must be contiguous")
    _rotate_(q, positions, cache)
    _rotate_(k, positions, cache)
