# -*- coding: utf-8 -*-
"""Model glue: calls proj.ops.layernorm.norm.rmsnorm and friends."""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

import proj.ops.layernorm.norm
import proj.ops.activation.act as act_mod
from proj.ops import moe
from proj.ops.layernorm import norm as norm_mod
from proj.legacy.helpers import EPS
from proj.ops.activation.gelu import fast_gelu
from proj.registry import KernelSpec, register_kernel

if TYPE_CHECKING:
    from proj.ops.moe.router import route

try:
    from proj.ops.activation.act import silu
except ImportError:  # optional
    silu = None

register_kernel(KernelSpec(op="layernorm.rmsnorm", target="proj.ops.layernorm.norm:rmsnorm"))
_TABLE = [("activation.act", "silu"), ("layernorm.norm", "rmsnorm")]
for _mod, _fn in _TABLE:
    register_kernel(KernelSpec(op=f"x.{_fn}", target=f"proj.ops.{_mod}:{_fn}"))


@proj.ops.layernorm.norm.traced
def forward(x: "proj.ops.layernorm.norm.Tensor", r: route = None):
    from proj.ops.moe import router

    can_use_proj_legacy_norm = importlib.util.find_spec("proj.ops.moe.router")
    y = proj.ops.layernorm.norm.rmsnorm(x, EPS)
    return act_mod.silu(y) + norm_mod.rmsnorm(y) + moe.route(y) + router.route(y), fast_gelu
