"""attention: attention kernels, RoPE (incl. QK-norm + RoPE), index/shape metadata."""

from sglang.kernels.registry import register_kernel
from sglang.kernels.spec import CapabilityRequirement, DeviceType, KernelBackend, KernelSpec

# Implementations inside this group, as (submodule, function) relative to it.
_LOCAL_KERNELS = (
    ("merge_state", "merge_attn_states"),
)
for _sub, _fn in _LOCAL_KERNELS:
    register_kernel(
        KernelSpec(op=f"attention.{_fn}", backend=KernelBackend.TRITON, target=f"{__name__}.{_sub}:{_fn}")
    )

_ROPE_MODULE = "sglang.jit_kernel.rope"
register_kernel(
    KernelSpec(op="attention.apply_rope", backend=KernelBackend.TRITON, target=_ROPE_MODULE + ":apply_rope")
)
register_kernel(
    KernelSpec(
        op="attention.qknorm_rope",
        backend=KernelBackend.TRITON,
        target="sglang.jit_kernel.qknorm_rope" + ":qknorm_rope",
    )
)

# Cake adapter over FlashInfer's decode attention.
register_kernel(
    KernelSpec(
        op="attention.decode_attention",
        backend=KernelBackend.FLASHINFER,
        target="sglang.kernels.cake_kernels.flashinfer_decode:decode_attention",
        capabilities=frozenset({CapabilityRequirement(DeviceType.CUDA, min_arch=(8, 0))}),
    )
)
