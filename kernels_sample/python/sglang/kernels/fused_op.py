"""BaseFusedOp: one op, interchangeable backends, one registration per backend.

A subclass implements `forward_<backend>` methods (`forward_torch`, `forward_triton`,
`forward_jit`, ...). Implementations import their kernels inside the method, so
building an instance is metadata-only and can happen in a group `__init__.py`.
"""

from __future__ import annotations

from sglang.kernels.registry import register_kernel
from sglang.kernels.spec import CapabilityRequirement, KernelBackend, KernelSpec


class BaseFusedOp:
    #: op id `<group>.<name>`
    op: str = ""
    #: capability restrictions per backend; missing means unrestricted
    capabilities: dict[KernelBackend, frozenset[CapabilityRequirement]] = {}

    def backends(self) -> list[KernelBackend]:
        return [b for b in KernelBackend if callable(getattr(self, f"forward_{b.value}", None))]

    def forward(self, *args, backend: KernelBackend | str | None = None, **kwargs):
        chosen = KernelBackend(backend) if backend is not None else self.backends()[0]
        return getattr(self, f"forward_{chosen.value}")(*args, **kwargs)

    __call__ = forward


def register_fused_op(instance: BaseFusedOp, module: str, attr: str) -> list[KernelSpec]:
    """Register `module:attr.forward_<backend>` for every backend `instance` implements.

    `instance` must be reachable as `getattr(import_module(module), attr)`.
    """
    specs = []
    for backend in instance.backends():
        spec = KernelSpec(
            op=instance.op,
            backend=backend,
            target=f"{module}:{attr}.forward_{backend.value}",
            capabilities=instance.capabilities.get(backend, frozenset()),
        )
        specs.append(register_kernel(spec))
    return specs
