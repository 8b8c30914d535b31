"""Per-token × per-channel scaled matmul: `out = (a @ b) * scale_a[:, None] * scale_b[None, :]`.

Block sizes come from tuning files in `configs/` beside this module, named
`N={N},K={K},device_name={device}.json` and keyed by the closest M. A missing file
silently falls back to `DEFAULT_CONFIG` (slow, but correct), exactly like the fused
MoE configs: keep the directory next to the module when moving it.
"""

from __future__ import annotations

import functools
import json
import logging
import os

import torch
import triton
import triton.language as tl

logger = logging.getLogger(__name__)

DEFAULT_CONFIG = {"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16}


@triton.jit
def _scaled_mm_kernel(
    a_ptr, b_ptr, sa_ptr, sb_ptr, c_ptr, M, N, K: tl.constexpr,
    stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k0 + rk)[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a.to(tl.float32), b.to(tl.float32))
    sa = tl.load(sa_ptr + rm, mask=rm < M, other=0.0)
    sb = tl.load(sb_ptr + rn, mask=rn < N, other=0.0)
    acc = acc * sa[:, None] * sb[None, :]
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def get_device_name() -> str:
    """The device the kernel runs on, as tuning files spell it (`NVIDIA_H200`, `cpu`)."""
    if torch.cuda.is_available() and os.environ.get("TRITON_INTERPRET") != "1":
        return torch.cuda.get_device_name().replace(" ", "_")
    return "cpu"


def get_config_file_name(N: int, K: int, device_name: str | None = None) -> str:
    return f"N={N},K={K},device_name={device_name or get_device_name()}.json"


@functools.lru_cache(maxsize=None)
def get_scaled_mm_configs(N: int, K: int) -> tuple[dict[int, dict] | None, str]:
    """Tuned configs keyed by M, and the file they came from (or `"default"`)."""
    config_dir = os.path.join(os.path.dirname(os.path.realpath(__file__)), "configs")
    path = os.path.join(config_dir, get_config_file_name(N, K))
    if os.path.exists(path):
        with open(path) as f:
            return {int(m): cfg for m, cfg in json.load(f).items()}, path
    logger.debug("no tuned scaled_mm config at %s; using the default", path)
    return None, "default"


def get_config(M: int, N: int, K: int) -> dict:
    configs, _ = get_scaled_mm_configs(N, K)
    if not configs:
        return dict(DEFAULT_CONFIG)
    return configs[min(configs, key=lambda m: abs(m - M))]


def scaled_mm(
    a: torch.Tensor,
    b: torch.Tensor,
    scale_a: torch.Tensor,
    scale_b: torch.Tensor,
    out_dtype: torch.dtype = torch.float32,
) -> torch.Tensor:
    """`a [M, K]`, `b [K, N]`, `scale_a [M]`, `scale_b [N]` -> `[M, N]` in `out_dtype`."""
    M, K = a.shape
    K2, N = b.shape
    if K != K2:
        raise ValueError(f"inner dimensions differ: {K} vs {K2}")
    cfg = get_config(M, N, K)
    c = torch.empty((M, N), dtype=out_dtype, device=a.device)
    grid = (triton.cdiv(M, cfg["BLOCK_M"]), triton.cdiv(N, cfg["BLOCK_N"]))
    _scaled_mm_kernel[grid](
        a, b, scale_a, scale_b, c, M, N, K,
        a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
        BLOCK_M=cfg["BLOCK_M"], BLOCK_N=cfg["BLOCK_N"], BLOCK_K=cfg["BLOCK_K"],
    )
    return c
