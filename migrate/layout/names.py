"""The kernel packages of an SGLang tree and the names its layout rules are written in."""

from __future__ import annotations

import re

KERNELS_PKG = "sglang.kernels"
OPS_PKG = f"{KERNELS_PKG}.ops"  # holds one package per operator group
JIT_PKG = f"{KERNELS_PKG}.jit"  # shared build and runtime infrastructure
LEGACY_PKG = "sglang.jit_kernel"  # the flat package the groups replace
BACKEND_DIRS = ("kda_kernels", "cake_kernels")
PLUGIN_DIR = "plugin_kernels"
KERNEL_BACKENDS = (
    "torch", "torch_compile", "triton", "jit", "aot", "cute_dsl", "flashinfer", "deepgemm",
    "aiter", "torch_npu", "kda", "plugin",
)  # fmt: skip
DEVICE_TYPES = ("cuda", "hip", "npu", "cpu", "musa")
# SGLang's groups (0.5.23): a legacy subpackage named like one is that group.
KNOWN_GROUPS = frozenset({
    "activation", "attention", "communication", "diffusion", "elementwise", "embeddings",
    "gemm", "grammar", "kv_canary", "kvcache", "layernorm", "lora", "lplb", "mamba", "memory",
    "mm", "moe", "quantization", "sampling", "speculative",
})  # fmt: skip
# The README sentence that lists the groups; a namespace test compares it with `_GROUPS`.
# Group 1 is the list, from the first backticked name to the last (no trailing separator):
# `check`'s group-list rule reads it, `groups.add`/`remove` rewrite it in its own style.
README_SEP = r"(?:[ \t\r\n]*,[ \t\r\n]*(?:and[ \t\r\n]+)?|[ \t\r\n]+and[ \t\r\n]+)"
README_SENTENCE = re.compile(
    rf"Operator groups \(all populated\):[ \t\r\n]*(`[^`\n]+`(?:{README_SEP}`[^`\n]+`)*)"
)
# Files that mark a directory as a vendored upstream tree.
LICENSE_NAMES = frozenset({"LICENSE", "LICENCE", "COPYING", "AUTHORS", "NOTICE"})


def group_of_module(name: str) -> str | None:
    """The group of a module `sglang.kernels.ops.<group>.<...>`, else None."""
    parts = name.split(".")
    if len(parts) >= 4 and ".".join(parts[:3]) == OPS_PKG:
        return parts[3]
    return None
