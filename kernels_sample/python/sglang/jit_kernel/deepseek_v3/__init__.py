"""DeepSeek-V3 specific kernels (the "noaux_tc" grouped, bias-corrected router)."""

from .fused_router import deepseek_v3_grouped_topk

__all__ = ["deepseek_v3_grouped_topk"]
