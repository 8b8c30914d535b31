"""Bit-for-bit tensor comparison: a pure move must reproduce every output byte."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class TensorDiff:
    identical: bool
    detail: str = ""
    max_abs: float | None = None
    max_rel: float | None = None


def _bytes(t, torch):
    t = t.detach()
    if t.is_complex():
        t = torch.view_as_real(t)
    return t.cpu().contiguous().reshape(-1).view(torch.uint8)


def compare(a, b) -> TensorDiff:
    """Identical means same dtype, shape and raw bytes (so NaN payloads and -0.0 count)."""
    import torch

    if a.dtype != b.dtype or tuple(a.shape) != tuple(b.shape):
        return TensorDiff(False, f"BASE {a.dtype}{list(a.shape)} vs HEAD {b.dtype}{list(b.shape)}")
    if torch.equal(_bytes(a, torch), _bytes(b, torch)):
        return TensorDiff(True)
    if a.is_complex():
        a, b = torch.view_as_real(a), torch.view_as_real(b)
    x, y = a.detach().cpu().double(), b.detach().cpu().double()
    nan_x, nan_y = torch.isnan(x), torch.isnan(y)
    same = (x == y) | (nan_x & nan_y)
    n_bad = int((~same).sum())
    if n_bad == 0:
        return TensorDiff(False, "equal values, different bits (signed zero or NaN payload)", 0, 0)
    nan_mismatch = int((nan_x ^ nan_y).sum())
    both = ~(nan_x | nan_y) & ~same
    diff = torch.where(both, (x - y).abs(), torch.zeros_like(x))
    diff = torch.nan_to_num(diff, nan=float("inf"))  # inf - inf
    rel = diff / y.abs().clamp_min(torch.finfo(torch.float64).tiny)
    detail = f"{n_bad}/{x.numel()} elements differ"
    if nan_mismatch:
        detail += f", {nan_mismatch} NaN on one side only"
    return TensorDiff(False, detail, float(diff.max()), float(rel.max()))
