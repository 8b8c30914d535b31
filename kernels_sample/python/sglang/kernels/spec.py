"""Kernel metadata: what an op is, which backend provides it, where it lives.

A `KernelSpec` names its implementation by a `"module:attr"` target string; nothing
is imported when a spec is created or registered (see `registry.py`).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

_OP_RE = re.compile(r"^[a-z_][a-z0-9_]*\.[A-Za-z_][A-Za-z0-9_.]*$")
_TARGET_RE = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


class KernelBackend(str, enum.Enum):
    """Where an implementation comes from (provenance), not the device it runs on."""

    TORCH = "torch"
    TORCH_COMPILE = "torch_compile"
    TRITON = "triton"
    JIT = "jit"
    AOT = "aot"
    CUTE_DSL = "cute_dsl"
    FLASHINFER = "flashinfer"
    DEEPGEMM = "deepgemm"
    AITER = "aiter"
    TORCH_NPU = "torch_npu"
    KDA = "kda"  # Kernel Design Agent output under sglang.kernels.kda_kernels
    PLUGIN = "plugin"  # contract side of an external plugin (plugin_kernels/)


class DeviceType(str, enum.Enum):
    CUDA = "cuda"
    HIP = "hip"
    NPU = "npu"
    CPU = "cpu"
    MUSA = "musa"


@dataclass(frozen=True)
class CapabilityRequirement:
    """A real device/architecture restriction of an implementation.

    `min_arch`/`max_arch` are compute capabilities such as `(9, 0)`; `None` means
    unrestricted. JIT and AOT are build modes, never capabilities.
    """

    device: DeviceType
    min_arch: tuple[int, int] | None = None
    max_arch: tuple[int, int] | None = None

    def satisfied_by(self, device: DeviceType, arch: tuple[int, int] | None = None) -> bool:
        if device != self.device:
            return False
        if arch is None:
            return self.min_arch is None and self.max_arch is None
        if self.min_arch is not None and arch < self.min_arch:
            return False
        if self.max_arch is not None and arch > self.max_arch:
            return False
        return True


@dataclass(frozen=True)
class KernelSpec:
    """One implementation of the op `<group>.<name>`.

    An empty `capabilities` set means the implementation runs wherever its backend
    runs; otherwise at least one requirement must be satisfied.
    """

    op: str
    backend: KernelBackend
    target: str
    capabilities: frozenset[CapabilityRequirement] = field(default_factory=frozenset)
    priority: int = 0
    description: str = ""

    def __post_init__(self) -> None:
        if not _OP_RE.match(self.op):
            raise ValueError(f"op id {self.op!r} must look like '<group>.<name>'")
        if not _TARGET_RE.match(self.target):
            raise ValueError(f"target {self.target!r} must look like 'module:attr'")
        if not isinstance(self.backend, KernelBackend):
            raise TypeError(f"backend must be a KernelBackend, got {self.backend!r}")

    @property
    def group(self) -> str:
        return self.op.split(".", 1)[0]

    def supports(self, device: DeviceType, arch: tuple[int, int] | None = None) -> bool:
        if not self.capabilities:
            return True
        return any(c.satisfied_by(device, arch) for c in self.capabilities)
