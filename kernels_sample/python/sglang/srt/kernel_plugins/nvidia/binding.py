"""Runtime binding of the sgl-nvidia-mega plugin (behind --enable-nvidia-megakernel).

Config checks and forward dispatch live here, on the srt side; the kernel contract
is `sglang.kernels.plugin_kernels.nvidia.deepseek_v3.contract`.
"""

from __future__ import annotations

from sglang.kernels.plugin_kernels.nvidia.deepseek_v3 import contract


def should_bind(enable_nvidia_megakernel: bool, model_arch: str) -> bool:
    return enable_nvidia_megakernel and model_arch == "DeepseekV3ForCausalLM" and contract.is_available()
