"""The kernel inventory: lazy registration, lookup and backend selection.

`register_kernel` only records metadata. A target `"pkg.mod:attr.sub"` is imported
and resolved on the first call of the kernel returned by `get_kernel`, so a stale
target surfaces only then (the namespace unit tests resolve every target to catch it).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from sglang.kernels.spec import DeviceType, KernelBackend, KernelSpec

_REGISTRY: dict[str, dict[KernelBackend, KernelSpec]] = {}

# Preference when several backends can serve an op on the requested device.
DEFAULT_BACKEND_ORDER: tuple[KernelBackend, ...] = (
    KernelBackend.PLUGIN,
    KernelBackend.JIT,
    KernelBackend.AOT,
    KernelBackend.FLASHINFER,
    KernelBackend.KDA,
    KernelBackend.TRITON,
    KernelBackend.TORCH_COMPILE,
    KernelBackend.TORCH,
)


def register_kernel(spec: KernelSpec) -> KernelSpec:
    """Record `spec`. Re-registering an identical spec is a no-op; a conflict raises."""
    per_op = _REGISTRY.setdefault(spec.op, {})
    old = per_op.get(spec.backend)
    if old is not None and old != spec:
        raise ValueError(
            f"{spec.op} already has a {spec.backend.value} kernel at {old.target}; "
            f"refusing {spec.target}"
        )
    per_op[spec.backend] = spec
    return spec


def resolve_target(target: str):
    """Import `module` and walk the dotted `attr` of a `"module:attr"` target."""
    module_name, _, attr_path = target.partition(":")
    obj = importlib.import_module(module_name)
    for part in attr_path.split("."):
        obj = getattr(obj, part)
    return obj


class LazyKernel:
    """Callable proxy that resolves its spec's target on first use."""

    __slots__ = ("spec", "_fn")

    def __init__(self, spec: KernelSpec):
        self.spec = spec
        self._fn = None

    def resolve(self):
        if self._fn is None:
            self._fn = resolve_target(self.spec.target)
        return self._fn

    def __call__(self, *args, **kwargs):
        return self.resolve()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"LazyKernel({self.spec.op!r}, {self.spec.backend.value}, {self.spec.target!r})"


def list_kernels(op: str | None = None) -> list[KernelSpec]:
    ops = [op] if op is not None else sorted(_REGISTRY)
    return [spec for name in ops for spec in _REGISTRY.get(name, {}).values()]


def get_kernel(op: str, backend: KernelBackend | str | None = None) -> LazyKernel:
    """The kernel for `op` from `backend` (or the preferred registered backend)."""
    per_op = _REGISTRY.get(op)
    if not per_op:
        raise KeyError(f"no kernel registered for op {op!r}")
    if backend is None:
        for candidate in DEFAULT_BACKEND_ORDER:
            if candidate in per_op:
                return LazyKernel(per_op[candidate])
        return LazyKernel(next(iter(per_op.values())))
    backend = KernelBackend(backend)
    if backend not in per_op:
        raise KeyError(f"op {op!r} has no {backend.value} kernel (has: {sorted(b.value for b in per_op)})")
    return LazyKernel(per_op[backend])


def select_kernel(
    op: str,
    device: DeviceType | str = DeviceType.CPU,
    arch: tuple[int, int] | None = None,
    allowed: Iterable[KernelBackend] | None = None,
) -> LazyKernel:
    """Pick the most preferred backend of `op` whose capabilities the device meets."""
    device = DeviceType(device)
    order = tuple(allowed) if allowed is not None else DEFAULT_BACKEND_ORDER
    per_op = _REGISTRY.get(op, {})
    for backend in order:
        spec = per_op.get(backend)
        if spec is not None and spec.supports(device, arch):
            return LazyKernel(spec)
    raise LookupError(f"no kernel for {op!r} supports {device.value} (arch={arch})")
