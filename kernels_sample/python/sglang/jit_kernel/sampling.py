"""Min-p sampling from probabilities with caller-provided uniform samples.

Tokens whose probability is below `min_p * max(p)` are dropped; the sample is the
inverse CDF of the renormalized distribution at `u`. Passing the uniforms makes the
kernel deterministic (the sampler draws them from its own generator).
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from .utils import next_power_of_2


@triton.jit
def _min_p_sampling_kernel(probs_ptr, u_ptr, min_p_ptr, out_ptr, vocab, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < vocab
    p = tl.load(probs_ptr + row * vocab + offs, mask=mask, other=0.0).to(tl.float32)
    threshold = tl.load(min_p_ptr + row) * tl.max(p, axis=0)
    p = tl.where(p >= threshold, p, 0.0)
    cdf = tl.cumsum(p, axis=0)
    target = tl.load(u_ptr + row) * tl.sum(p, axis=0)
    below = tl.sum(tl.where(mask & (cdf <= target), 1, 0), axis=0)
    # Skip over zeroed entries that sit at the CDF plateau.
    idx = tl.min(tl.where(mask & (cdf > target) & (p > 0), offs, BLOCK), axis=0)
    idx = tl.where(idx == BLOCK, below - 1, idx)
    tl.store(out_ptr + row, idx)


def min_p_sampling_from_probs(
    probs: torch.Tensor, uniform_samples: torch.Tensor, min_p: torch.Tensor | float
) -> torch.Tensor:
    """`probs [batch, vocab]`, `uniform_samples [batch]` in [0, 1) -> int32 token ids `[batch]`."""
    batch, vocab = probs.shape
    if not isinstance(min_p, torch.Tensor):
        min_p = torch.full((batch,), float(min_p), dtype=torch.float32, device=probs.device)
    out = torch.empty((batch,), dtype=torch.int32, device=probs.device)
    _min_p_sampling_kernel[(batch,)](
        probs.contiguous(), uniform_samples, min_p, out, vocab, BLOCK=next_power_of_2(vocab)
    )
    return out


def sampling_from_probs(probs: torch.Tensor, uniform_samples: torch.Tensor) -> torch.Tensor:
    return min_p_sampling_from_probs(probs, uniform_samples, 0.0)
