"""Where the kernel tests run, and the tolerances that hold there.

Like SGLang's kernel tests: on the GPU when there is one, on the CPU when Triton runs in its
interpreter (`TRITON_INTERPRET=1`, which `test/conftest.py` sets on a host without a GPU).
Tests create their tensors on `DEVICE` explicitly; nothing depends on a default device.
"""

from __future__ import annotations

import os

import torch


def kernel_device() -> str:
    """`"cpu"` under the Triton interpreter or without CUDA, else `"cuda"`."""
    if os.environ.get("TRITON_INTERPRET") == "1" or not torch.cuda.is_available():
        return "cpu"
    return "cuda"


DEVICE = kernel_device()
ON_GPU = DEVICE == "cuda"

# `tl.dot` on fp32 inputs uses TF32 on NVIDIA GPUs (10-bit mantissa), the reference
# `a @ b` does not: allow TF32 rounding there, keep the interpreter's fp32 bound on the CPU.
DOT_TOL = {"atol": 1e-2, "rtol": 1e-2} if ON_GPU else {"atol": 1e-4, "rtol": 1e-4}
