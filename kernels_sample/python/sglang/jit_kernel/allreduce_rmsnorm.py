"""Custom all-reduce fused with residual add + RMSNorm (tensor-parallel epilogue).

The CUDA version reads the peers' partial outputs straight from an IPC-registered
workspace (one-shot all-reduce) and normalizes in the same kernel. Here the peer
reads are expressed over a stacked `[world_size, tokens, hidden]` buffer, which is
what the single-process tests feed it. `fused_allreduce_rmsnorm` is the entry point
callers use: with an initialized multi-rank `torch.distributed` group it all-reduces
through NCCL/gloo first; the workspace and communicator state live in srt, not here.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from .norm import fused_add_rmsnorm
from .utils import next_power_of_2

try:
    import torch.distributed as dist
except ImportError:  # torch built without distributed support
    dist = None


@triton.jit
def _allreduce_add_rmsnorm_kernel(
    peer_ptr, res_ptr, w_ptr, out_ptr, rows, hidden, eps, WORLD_SIZE: tl.constexpr, BLOCK: tl.constexpr
):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < hidden
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for r in tl.static_range(WORLD_SIZE):
        acc += tl.load(peer_ptr + (r * rows + row) * hidden + offs, mask=mask, other=0.0).to(tl.float32)
    s = acc + tl.load(res_ptr + row * hidden + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(res_ptr + row * hidden + offs, s.to(res_ptr.dtype.element_ty), mask=mask)
    inv_rms = 1.0 / tl.sqrt(tl.sum(s * s, axis=0) / hidden + eps)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + row * hidden + offs, (s * inv_rms * w).to(out_ptr.dtype.element_ty), mask=mask)


def allreduce_rmsnorm_from_peers(
    peer_buffers: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6
) -> torch.Tensor:
    """`residual += sum(peer_buffers, 0)`; return `rmsnorm(residual)`."""
    world_size, rows, hidden = peer_buffers.shape
    if residual.shape != (rows, hidden):
        raise ValueError("residual must be [tokens, hidden]")
    out = torch.empty_like(residual)
    _allreduce_add_rmsnorm_kernel[(rows,)](
        peer_buffers.contiguous(), residual, weight, out, rows, hidden, eps,
        WORLD_SIZE=world_size, BLOCK=next_power_of_2(hidden),
    )
    return out


def fused_allreduce_rmsnorm(
    x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6, group=None
) -> tuple[torch.Tensor, torch.Tensor]:
    """All-reduce `x` over `group`, add it to `residual` and RMS-normalize.

    Returns `(normed, residual)`; both buffers are updated in place.
    """
    if dist is not None and dist.is_available() and dist.is_initialized() and dist.get_world_size(group) > 1:
        dist.all_reduce(x, group=group)
        fused_add_rmsnorm(x, residual, weight, eps)
        return x, residual
    out = allreduce_rmsnorm_from_peers(x.unsqueeze(0), residual, weight, eps)
    x.copy_(out)
    return x, residual
