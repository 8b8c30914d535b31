"""Shared JIT build/runtime infrastructure for kernel wrappers in `sglang.kernels.ops`.

Operator wrappers call into this package from their logical group; it holds no
operators itself.
"""
