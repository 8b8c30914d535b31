"""Gemma-style RMSNorm (`x * rsqrt(mean(x^2) + eps) * (1 + w)`) through FlashInfer."""

import torch

try:
    import flashinfer
except ImportError:
    flashinfer = None


def gemma_rmsnorm(x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    if flashinfer is not None and x.is_cuda:
        return flashinfer.norm.gemma_rmsnorm(x, weight, eps)
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps) * (1.0 + weight.float())).to(x.dtype)
