"""Model layers, plus re-exports of the normalization kernels they are built on."""

from sglang.jit_kernel.norm import fused_add_rmsnorm, rmsnorm

from .layernorm import RMSNorm

__all__ = ["RMSNorm", "fused_add_rmsnorm", "rmsnorm"]
