"""moe: expert routing (top-k, grouped top-k), alignment, dispatch/permute."""

from sglang.kernels.registry import register_kernel
from sglang.kernels.spec import CapabilityRequirement, DeviceType, KernelBackend, KernelSpec

register_kernel(
    KernelSpec(
        op="jit.moe_align_block_size",
        backend=KernelBackend.TRITON,
        target="sglang.jit_kernel.moe_align:moe_align_block_size",
    )
)
register_kernel(
    KernelSpec(
        op="jit.topk_softmax",
        backend=KernelBackend.TRITON,
        target="sglang.jit_kernel.topk_softmax:topk_softmax",
    )
)
register_kernel(
    KernelSpec(
        op="moe.deepseek_v3_grouped_topk",
        backend=KernelBackend.TRITON,
        target="sglang.jit_kernel.deepseek_v3.fused_router:deepseek_v3_grouped_topk",
    )
)
# Contract side of the sgl-nvidia-mega plugin (needs the plugin wheel and Hopper+).
register_kernel(
    KernelSpec(
        op="moe.deepseek_v3_grouped_topk",
        backend=KernelBackend.PLUGIN,
        target="sglang.kernels.plugin_kernels.nvidia.deepseek_v3.contract:grouped_topk",
        capabilities=frozenset({CapabilityRequirement(DeviceType.CUDA, min_arch=(9, 0))}),
    )
)
