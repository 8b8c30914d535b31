"""Align MoE token assignments to expert blocks for the grouped GEMM.

Given `topk_ids [tokens, topk]`, returns the token indices sorted by expert and
padded so that every expert's segment is a multiple of `block_size` (padding uses
the sentinel `tokens * topk`), the expert of every block, and the padded total.
The per-expert histogram is a Triton kernel; the scan and scatter run in torch.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from .utils import next_power_of_2


@triton.jit
def _expert_count_kernel(ids_ptr, counts_ptr, numel, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < numel
    ids = tl.load(ids_ptr + offs, mask=mask, other=0)
    tl.atomic_add(counts_ptr + ids, tl.full((BLOCK,), 1, tl.int32), mask=mask)


def moe_align_block_size(
    topk_ids: torch.Tensor, num_experts: int, block_size: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    flat = topk_ids.reshape(-1).to(torch.int32).contiguous()
    numel = flat.numel()
    counts = torch.zeros((num_experts,), dtype=torch.int32, device=topk_ids.device)
    block = min(1024, next_power_of_2(numel))
    _expert_count_kernel[(triton.cdiv(numel, block),)](flat, counts, numel, BLOCK=block)

    padded = (counts + block_size - 1) // block_size * block_size
    offsets = torch.zeros((num_experts + 1,), dtype=torch.int64, device=topk_ids.device)
    offsets[1:] = torch.cumsum(padded, 0)
    total = int(offsets[-1])
    sorted_ids = torch.full((total,), numel, dtype=torch.int32, device=topk_ids.device)
    order = torch.argsort(flat, stable=True)
    fill = offsets[:-1].clone()
    for idx in order.tolist():
        e = int(flat[idx])
        sorted_ids[fill[e]] = idx
        fill[e] += 1
    expert_ids = torch.repeat_interleave(
        torch.arange(num_experts, dtype=torch.int32, device=topk_ids.device), (padded // block_size).long()
    )
    return sorted_ids, expert_ids, torch.tensor([total], dtype=torch.int32, device=topk_ids.device)
