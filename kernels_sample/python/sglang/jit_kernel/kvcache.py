"""Write new K/V rows into the token-granular KV cache pool.

`k_cache[slots[i]] = k[i]` (same for v); a negative slot marks a padded token and is
skipped. Triton by default; `SGLANG_JIT_CUDA_KVCACHE=1` selects the CUDA JIT kernel
from `csrc/kvcache.cuh`.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from .utils import cache_once, jit_enabled, load_jit, next_power_of_2


@triton.jit
def _store_kv_kernel(k_ptr, v_ptr, kc_ptr, vc_ptr, slot_ptr, row_elems, BLOCK: tl.constexpr):
    token = tl.program_id(0)
    slot = tl.load(slot_ptr + token)
    offs = tl.arange(0, BLOCK)
    mask = (offs < row_elems) & (slot >= 0)
    k = tl.load(k_ptr + token * row_elems + offs, mask=mask, other=0.0)
    v = tl.load(v_ptr + token * row_elems + offs, mask=mask, other=0.0)
    tl.store(kc_ptr + slot * row_elems + offs, k, mask=mask)
    tl.store(vc_ptr + slot * row_elems + offs, v, mask=mask)


@cache_once
def _jit_module():
    return load_jit("kvcache", cuda_files=["kvcache.cuh"])


def store_kv_cache(
    k: torch.Tensor, v: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor, slots: torch.Tensor
) -> None:
    """`k, v: [tokens, heads, head_dim]`, caches `[pool_size, heads, head_dim]`, `slots: [tokens]` int64."""
    if k.shape != v.shape or k.shape[1:] != k_cache.shape[1:] or k_cache.shape != v_cache.shape:
        raise ValueError("k/v and cache shapes disagree")
    if k.dtype != k_cache.dtype:
        raise ValueError(f"cache dtype {k_cache.dtype} != input dtype {k.dtype}")
    if k.is_cuda and jit_enabled("kvcache"):
        _jit_module().store_kv_cache(k, v, k_cache, v_cache, slots)
        return
    row_elems = k[0].numel()
    _store_kv_kernel[(k.shape[0],)](
        k.contiguous(), v.contiguous(), k_cache, v_cache, slots, row_elems, BLOCK=next_power_of_2(row_elems)
    )
