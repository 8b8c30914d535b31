"""KO206 backend-as-device: `CapabilityRequirement` names devices and architectures only.

## What it does
Reports a `CapabilityRequirement(...)` under `sglang/kernels/` whose device is a kernel
backend (`KernelBackend.JIT`, `"aot"`, `"triton"`, ...) or not a device type, and any
`DeviceType.<X>` where `<X>` is not a device (`JIT`, `AOT`).

## Why
Backends (torch, torch_compile, triton, jit, aot, cute_dsl, flashinfer, deepgemm, aiter,
torch_npu) say where an implementation comes from; devices (cuda, hip, npu, cpu, musa)
and architectures say where it runs. A "JIT device" makes selection silently skip or
pick kernels on the wrong hardware.

## Example
```python
CapabilityRequirement(device=KernelBackend.JIT)             # bad: JIT is a build mode
CapabilityRequirement(device=DeviceType.CUDA, min_arch=(9, 0))  # good
```

## Fix
Describe the real device/architecture restriction; the backend belongs in
`KernelSpec(backend=...)`.
"""

from __future__ import annotations

import ast

from migrate.layout.names import DEVICE_TYPES, KERNEL_BACKENDS
from migrate.rules.base import make_rule


def _device_arg(node: ast.Call):
    for k in node.keywords:
        if k.arg == "device":
            return k.value
    return node.args[0] if node.args else None


def _problem(arg: ast.AST) -> str | None:
    if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name):
        if arg.value.id == "KernelBackend":
            return f"device is a kernel backend ({ast.unparse(arg)})"
        if arg.value.id == "DeviceType" and arg.attr.lower() not in DEVICE_TYPES:
            return f"{ast.unparse(arg)} is not a device type"
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        v = arg.value.lower()
        if v in KERNEL_BACKENDS and v not in DEVICE_TYPES:
            return f"device {arg.value!r} is a kernel backend"
        if v not in DEVICE_TYPES:
            return f"device {arg.value!r} is not a device type"
    return None


def check(ctx, rule):
    for path in ctx.python_under(ctx.kernels_dir):
        text = ctx.tree.text(path) or ""
        if "CapabilityRequirement" not in text and "DeviceType." not in text:
            continue
        mod = ctx.tree.ast(path)
        if mod is None:
            continue
        seen: set[int] = set()
        for node in ast.walk(mod):
            problem = None
            if isinstance(node, ast.Call) and ast.unparse(node.func).endswith(
                "CapabilityRequirement"
            ):
                arg = _device_arg(node)
                problem = _problem(arg) if arg is not None else None
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "DeviceType"
                and node.attr.lower() in KERNEL_BACKENDS
                and node.attr.lower() not in DEVICE_TYPES
            ):
                problem = f"{ast.unparse(node)} is not a device type"
            if problem and node.lineno not in seen:
                seen.add(node.lineno)
                yield rule.at(
                    path,
                    node.lineno,
                    problem,
                    col=node.col_offset + 1,
                    evidence=ast.unparse(node)[:160],
                    fix="use device=DeviceType.<cuda|hip|npu|cpu|musa> (+ min_arch/"
                    "max_arch); put the backend in KernelSpec(backend=...)",
                )


RULE = make_rule(__doc__, check, "error")
