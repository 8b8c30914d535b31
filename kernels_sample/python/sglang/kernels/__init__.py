"""SGLang kernel namespace.

`sglang.kernels.ops.<group>` holds the callable kernel APIs, grouped by computation.
Importing this package (or any group) is metadata-only: it registers lazy
`KernelSpec` entries and never imports torch, triton, `sgl_kernel` or a JIT build.
"""
