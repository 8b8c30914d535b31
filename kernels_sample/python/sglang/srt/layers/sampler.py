"""Token sampler (only the min-p path is kept in this sample)."""

from __future__ import annotations

import torch


class Sampler:
    def __init__(self, seed: int = 0) -> None:
        self.generator = torch.Generator().manual_seed(seed)

    def sample(self, logits: torch.Tensor, temperature: float = 1.0, min_p: float = 0.0) -> torch.Tensor:
        from sglang.jit_kernel.sampling import min_p_sampling_from_probs

        probs = torch.softmax(logits.float() / max(temperature, 1e-5), dim=-1)
        uniform = torch.rand(probs.shape[0], generator=self.generator)
        return min_p_sampling_from_probs(probs, uniform, min_p)
