"""Callable SGLang kernel APIs, one package per logical group.

Importing a group registers its lazy `KernelSpec`s and imports no implementation.
Keep `_GROUPS`, the imports below and the group list in `../README.md` in sync
(test/registered/unit/kernels/test_kernels_namespace.py checks them).
"""

_GROUPS = (
    "activation",
    "attention",
    "layernorm",
    "moe",
    "quantization",
)

from sglang.kernels.ops import activation, attention, layernorm, moe, quantization  # noqa: E402,F401

__all__ = list(_GROUPS)
