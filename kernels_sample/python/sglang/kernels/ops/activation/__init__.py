"""activation: gated activations, including activation + output-quant epilogues."""

from sglang.kernels.registry import register_kernel
from sglang.kernels.spec import KernelBackend, KernelSpec

# (module, function) of every Triton entry point of this group.
_TRITON_KERNELS = (
    ("sglang.jit_kernel.activation", "silu_and_mul"),
    ("sglang.jit_kernel.activation", "silu_and_mul_quant"),
)

for _module, _fn in _TRITON_KERNELS:
    register_kernel(
        KernelSpec(op=f"activation.{_fn}", backend=KernelBackend.TRITON, target=f"{_module}:{_fn}")
    )

# Kernel Design Agent output: a backend living in kda_kernels/, registered here.
register_kernel(
    KernelSpec(
        op="activation.gelu_tanh_and_mul",
        backend=KernelBackend.KDA,
        target="sglang.kernels.kda_kernels.gelu_and_mul:gelu_tanh_and_mul",
    )
)
