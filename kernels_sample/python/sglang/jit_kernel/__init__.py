"""Legacy home of SGLang's JIT-compiled and Triton kernels.

Every operator lives in its own module (`sglang.jit_kernel.norm`,
`sglang.jit_kernel.rope`, ...). Importing this package imports nothing else: callers
import the operator module they need. Shared build helpers are in `utils`, CUDA
sources in `csrc/`.
"""
