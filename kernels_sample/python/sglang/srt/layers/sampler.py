"""Token sampler (only the min-p path is kept in this sample)."""

from __future__ import annotations

import torch


class Sampler:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._generators: dict[torch.device, torch.Generator] = {}

    def generator(self, device: torch.device) -> torch.Generator:
        """One seeded generator per device: uniforms are drawn where the probs live."""
        if device not in self._generators:
            self._generators[device] = torch.Generator(device=device).manual_seed(self.seed)
        return self._generators[device]

    def sample(self, logits: torch.Tensor, temperature: float = 1.0, min_p: float = 0.0) -> torch.Tensor:
        from sglang.jit_kernel.sampling import min_p_sampling_from_probs

        probs = torch.softmax(logits.float() / max(temperature, 1e-5), dim=-1)
        uniform = torch.rand(probs.shape[0], generator=self.generator(probs.device), device=probs.device)
        return min_p_sampling_from_probs(probs, uniform, min_p)
