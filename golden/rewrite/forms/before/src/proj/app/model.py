# -*- coding: utf-8 -*-
"""Model glue: calls proj.legacy.norm.rmsnorm and friends."""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

import proj.legacy.norm
import proj.legacy.act as act_mod
from proj.legacy import moe, norm as norm_mod
from proj.legacy.helpers import EPS, fast_gelu
from proj.registry import KernelSpec, register_kernel

if TYPE_CHECKING:
    from proj.legacy.moe.router import route

try:
    from proj.legacy.act import silu
except ImportError:  # optional
    silu = None

register_kernel(KernelSpec(op="legacy.rmsnorm", target="proj.legacy.norm:rmsnorm"))
_TABLE = [("act", "silu"), ("norm", "rmsnorm")]
for _mod, _fn in _TABLE:
    register_kernel(KernelSpec(op=f"x.{_fn}", target=f"proj.legacy.{_mod}:{_fn}"))


@proj.legacy.norm.traced
def forward(x: "proj.legacy.norm.Tensor", r: route = None):
    from proj.legacy.moe import router

    can_use_proj_legacy_norm = importlib.util.find_spec("proj.legacy.moe.router")
    y = proj.legacy.norm.rmsnorm(x, EPS)
    return act_mod.silu(y) + norm_mod.rmsnorm(y) + moe.route(y) + router.route(y), fast_gelu
