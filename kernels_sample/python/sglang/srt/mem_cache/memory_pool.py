"""Token-level KV cache pool (MHA layout)."""

from __future__ import annotations

import importlib.util

import torch

_JIT_KV_AVAILABLE = importlib.util.find_spec("sglang.jit_kernel.kvcache") is not None


def can_use_hicache_jit_kernel(page_size: int, dtype: torch.dtype) -> bool:
    """Whether the hierarchical-cache copy path may use the jit kernel (name kept for config compat)."""
    return _JIT_KV_AVAILABLE and page_size >= 1 and dtype in (torch.float16, torch.bfloat16, torch.float32)


class MHATokenToKVPool:
    def __init__(self, size: int, head_num: int, head_dim: int, dtype: torch.dtype = torch.float32,
                 device: torch.device | str = "cpu") -> None:
        self.k_buffer = torch.zeros((size, head_num, head_dim), dtype=dtype, device=device)
        self.v_buffer = torch.zeros((size, head_num, head_dim), dtype=dtype, device=device)

    def set_kv_buffer(self, loc: torch.Tensor, cache_k: torch.Tensor, cache_v: torch.Tensor) -> None:
        if can_use_hicache_jit_kernel(1, cache_k.dtype):
            from sglang.jit_kernel.kvcache import store_kv_cache

            store_kv_cache(cache_k, cache_v, self.k_buffer, self.v_buffer, loc)
        else:
            self.k_buffer[loc] = cache_k
            self.v_buffer[loc] = cache_v
