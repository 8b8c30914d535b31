"""Attention metadata builders: page tables and cumulative sequence lengths.

`create_page_table` turns the token-level `req_to_token` map into a page table for a
batch; `compute_cu_seqlens` builds the `[batch + 1]` int32 prefix sums used by
varlen attention kernels.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from .utils import next_power_of_2


@triton.jit
def _page_table_kernel(
    req_to_token_ptr, req_idx_ptr, seq_lens_ptr, out_ptr, stride_r2t, max_pages, page_size, BLOCK: tl.constexpr
):
    b = tl.program_id(0)
    req = tl.load(req_idx_ptr + b)
    seq_len = tl.load(seq_lens_ptr + b)
    num_pages = (seq_len + page_size - 1) // page_size
    p = tl.arange(0, BLOCK)
    valid = p < num_pages
    first_token = tl.load(req_to_token_ptr + req * stride_r2t + p * page_size, mask=valid, other=0)
    page = tl.where(valid, first_token // page_size, -1)
    tl.store(out_ptr + b * max_pages + p, page, mask=p < max_pages)


@triton.jit
def _cu_seqlens_kernel(seq_lens_ptr, out_ptr, batch, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    lens = tl.load(seq_lens_ptr + offs, mask=offs < batch, other=0).to(tl.int32)
    tl.store(out_ptr + 1 + offs, tl.cumsum(lens, axis=0), mask=offs < batch)


def create_page_table(
    req_to_token: torch.Tensor, req_pool_indices: torch.Tensor, seq_lens: torch.Tensor, page_size: int, max_pages: int
) -> torch.Tensor:
    """`[batch, max_pages]` int64 page ids; unused entries are -1."""
    batch = req_pool_indices.shape[0]
    out = torch.empty((batch, max_pages), dtype=torch.int64, device=req_to_token.device)
    _page_table_kernel[(batch,)](
        req_to_token, req_pool_indices, seq_lens, out, req_to_token.stride(0), max_pages, page_size,
        BLOCK=next_power_of_2(max_pages),
    )
    return out


def compute_cu_seqlens(seq_lens: torch.Tensor) -> torch.Tensor:
    batch = seq_lens.shape[0]
    out = torch.zeros((batch + 1,), dtype=torch.int32, device=seq_lens.device)
    _cu_seqlens_kernel[(1,)](seq_lens, out, batch, BLOCK=next_power_of_2(batch))
    return out
