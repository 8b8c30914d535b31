"""Torch reference implementations (oracles) for the kernel numerical tests.

Plain, readable torch in fp32; kernels are compared against these with
`assert_close`. Nothing here is a kernel API.
"""

from __future__ import annotations

import torch


def assert_close(actual: torch.Tensor, expected: torch.Tensor, atol: float = 1e-5, rtol: float = 1e-5) -> None:
    torch.testing.assert_close(actual.float(), expected.float(), atol=atol, rtol=rtol)


def rmsnorm_ref(x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    xf = x.float()
    return xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps) * weight.float()


def per_token_quant_ref(y: torch.Tensor, qmax: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Scale-and-clamp quantization without rounding (the CPU FP8 emulation)."""
    scale = (y.abs().amax(-1) / qmax).clamp_min(1e-12)
    return (y / scale[:, None]).clamp(-qmax, qmax), scale


def silu_and_mul_ref(x: torch.Tensor) -> torch.Tensor:
    gate, up = x.float().chunk(2, dim=-1)
    return torch.nn.functional.silu(gate) * up


def gelu_tanh_and_mul_ref(x: torch.Tensor) -> torch.Tensor:
    gate, up = x.float().chunk(2, dim=-1)
    return torch.nn.functional.gelu(gate, approximate="tanh") * up


def rope_ref(x: torch.Tensor, positions: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """NeoX-style rotation of `x [tokens, heads, head_dim]` with `[max_pos, head_dim // 2]` tables."""
    c = cos[positions][:, None, :]
    s = sin[positions][:, None, :]
    x1, x2 = x.float().chunk(2, dim=-1)
    return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1)


def topk_softmax_ref(logits: torch.Tensor, topk: int, renormalize: bool) -> tuple[torch.Tensor, torch.Tensor]:
    weights, ids = logits.float().softmax(-1).topk(topk, dim=-1)
    if renormalize:
        weights = weights / weights.sum(-1, keepdim=True)
    return weights, ids.to(torch.int32)


def grouped_topk_ref(logits, bias, topk, num_groups, topk_group, scaling):
    scores = logits.float().sigmoid()
    corrected = scores + bias
    tokens, experts = logits.shape
    group_scores = corrected.view(tokens, num_groups, -1).topk(2, dim=-1).values.sum(-1)
    group_idx = group_scores.topk(topk_group, dim=-1).indices
    allowed = torch.zeros(tokens, num_groups, dtype=torch.bool, device=logits.device).scatter_(1, group_idx, True)
    allowed = allowed.repeat_interleave(experts // num_groups, dim=1)
    ids = corrected.masked_fill(~allowed, float("-inf")).topk(topk, dim=-1).indices
    w = scores.gather(1, ids)
    return w / w.sum(-1, keepdim=True) * scaling, ids.to(torch.int32)


def quant_int8_ref(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    scale = (x.float().abs().amax(-1) / 127.0).clamp_min(1e-10)
    q = torch.floor(x.float() / scale[:, None] + 0.5).clamp(-127, 127).to(torch.int8)
    return q, scale


def min_p_sample_ref(probs: torch.Tensor, uniform: torch.Tensor, min_p: float) -> torch.Tensor:
    p = probs.float()
    p = torch.where(p >= min_p * p.amax(-1, keepdim=True), p, torch.zeros_like(p))
    cdf = p.cumsum(-1)
    target = (uniform * p.sum(-1))[:, None]
    return torch.searchsorted(cdf, target, right=True).squeeze(-1).clamp_max(p.shape[-1] - 1).to(torch.int32)
