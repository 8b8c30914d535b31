"""Kernel-side contract of the sgl-nvidia-mega DeepSeek-V3 plugin.

Declares what the plugin provides and wraps its entry points thinly. The plugin
wheel (`sgl_nvidia_mega`) is imported on call; the runtime checks `is_available()`
before binding it.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass

from sglang.kernels.spec import CapabilityRequirement, DeviceType

PLUGIN_MODULE = "sgl_nvidia_mega"


@dataclass(frozen=True)
class PluginContract:
    name: str
    model: str
    ops: tuple[str, ...]
    capabilities: frozenset[CapabilityRequirement]


CONTRACT = PluginContract(
    name="sgl-nvidia-mega",
    model="deepseek_v3",
    ops=("moe.deepseek_v3_grouped_topk",),
    capabilities=frozenset({CapabilityRequirement(DeviceType.CUDA, min_arch=(9, 0))}),
)


def is_available() -> bool:
    return importlib.util.find_spec(PLUGIN_MODULE) is not None


def grouped_topk(router_logits, correction_bias, topk, num_groups, topk_group, routed_scaling_factor=1.0):
    if not is_available():
        raise RuntimeError(f"{CONTRACT.name} is not installed")
    plugin = importlib.import_module(PLUGIN_MODULE)
    return plugin.deepseek_v3.grouped_topk(
        router_logits, correction_bias, topk, num_groups, topk_group, routed_scaling_factor
    )
