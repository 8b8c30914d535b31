"""Single-request decode attention through FlashInfer, with a torch fallback.

`q: [heads, head_dim]`, `k, v: [kv_len, kv_heads, head_dim]` (GQA: heads % kv_heads == 0).
"""

import math

import torch

try:
    import flashinfer
except ImportError:
    flashinfer = None


def decode_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    if flashinfer is not None and q.is_cuda:
        return flashinfer.single_decode_with_kv_cache(q, k, v)
    heads, head_dim = q.shape
    group = heads // k.shape[1]
    k = k.repeat_interleave(group, dim=1).float()
    v = v.repeat_interleave(group, dim=1).float()
    scores = torch.einsum("hd,nhd->hn", q.float(), k) / math.sqrt(head_dim)
    return torch.einsum("hn,nhd->hd", scores.softmax(-1), v).to(q.dtype)
