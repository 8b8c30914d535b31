"""quantization: pure format conversion (quant, dequant, scale layouts, repack).

Entry points are also reachable as attributes of this package (PEP 562): the
implementation module is imported on first attribute access only.
"""

from sglang.kernels.registry import register_kernel
from sglang.kernels.spec import KernelBackend, KernelSpec

_EXPORTS = {
    "per_token_quant_int8": "sglang.jit_kernel.quant",
    "dequant_per_token_int8": "sglang.jit_kernel.quant",
}

for _name, _module in _EXPORTS.items():
    register_kernel(
        KernelSpec(op=f"quantization.{_name}", backend=KernelBackend.TRITON, target=f"{_module}:{_name}")
    )

# A member of a codec class: the target's attribute part is a dotted path.
register_kernel(
    KernelSpec(
        op="quantization.int8_codec_dequant",
        backend=KernelBackend.TRITON,
        target="sglang.jit_kernel.quant:PerTokenInt8.dequant",
    )
)


def __getattr__(name: str):
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_EXPORTS])
