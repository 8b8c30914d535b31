"""layernorm: RMSNorm, fused residual add + RMSNorm, norm + output quantization.

Metadata only: specs are lazy, the fused op's backends import their kernels on call.
"""

from sglang.kernels.fused_op import register_fused_op
from sglang.kernels.ops.layernorm.rmsnorm_op import RMSNormOp
from sglang.kernels.registry import register_kernel
from sglang.kernels.spec import CapabilityRequirement, DeviceType, KernelBackend, KernelSpec

# Legacy `jit.*` ids, registered while the implementations still live in sglang.jit_kernel.
register_kernel(
    KernelSpec(
        op="jit.rmsnorm",
        backend=KernelBackend.JIT,
        target="sglang.jit_kernel.norm:rmsnorm",
        description="RMSNorm; CUDA JIT build of csrc/norm.cuh when enabled, Triton otherwise",
    )
)
register_kernel(
    KernelSpec(
        op="jit.fused_add_rmsnorm",
        backend=KernelBackend.JIT,
        target="sglang.jit_kernel.norm:fused_add_rmsnorm",
    )
)
register_kernel(
    KernelSpec(
        op="jit.rmsnorm_quant",
        backend=KernelBackend.TRITON,
        target="sglang.jit_kernel.norm_quant:rmsnorm_quant",
        description="RMSNorm with a per-token FP8 quant epilogue (producer + quant stays here)",
    )
)

# Interchangeable backends of one op: one spec per forward_<backend> method.
_RMSNORM = RMSNormOp()
register_fused_op(_RMSNORM, __name__, "_RMSNORM")

# Cake adapter over FlashInfer (a backend, registered here in its logical group).
register_kernel(
    KernelSpec(
        op="layernorm.gemma_rmsnorm",
        backend=KernelBackend.FLASHINFER,
        target="sglang.kernels.cake_kernels.flashinfer_norm:gemma_rmsnorm",
        capabilities=frozenset({CapabilityRequirement(DeviceType.CUDA, min_arch=(8, 0))}),
    )
)
