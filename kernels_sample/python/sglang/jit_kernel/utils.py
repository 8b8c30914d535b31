"""Build and launch helpers shared by the JIT kernels.

CUDA sources live in `csrc/` next to this module and ship as package data. They are
found through the import system (so an installed wheel and a source checkout agree)
and compiled on first use by `load_jit`. Nothing here compiles at import time.
"""

from __future__ import annotations

import functools
import importlib.util
import os
from collections.abc import Sequence

import torch

try:  # AOT kernels; absent on CPU-only installs
    import sgl_kernel  # noqa: F401

    _HAS_SGL_KERNEL = True
except ImportError:
    _HAS_SGL_KERNEL = False


def is_cuda_available() -> bool:
    return torch.cuda.is_available()


def next_power_of_2(n: int) -> int:
    """Smallest power of two >= n (Triton block sizes must be powers of two)."""
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


def cache_once(fn):
    """Memoize a zero-or-hashable-argument factory (JIT modules, workspaces)."""
    return functools.lru_cache(maxsize=None)(fn)


@functools.lru_cache(maxsize=1)
def kernel_source_dir() -> str:
    """Directory holding the `.cuh` sources: `csrc/` beside this module's package."""
    spec = importlib.util.find_spec("sglang.jit_kernel.utils")
    if spec is None or spec.origin is None:
        raise RuntimeError("cannot locate the JIT kernel sources")
    return os.path.join(os.path.dirname(spec.origin), "csrc")


def csrc_path(name: str) -> str:
    return os.path.join(kernel_source_dir(), name)


_JIT_MODULES: dict[str, object] = {}


def load_jit(
    name: str,
    *,
    cuda_files: Sequence[str] = (),
    cpp_files: Sequence[str] = (),
    extra_cuda_cflags: Sequence[str] = (),
):
    """Compile (once per process) and return the extension built from `csrc/` files.

    Only callable with a CUDA device; operator modules call it lazily from a
    `cache_once` factory behind an `x.is_cuda` check, never at import.
    """
    if name in _JIT_MODULES:
        return _JIT_MODULES[name]
    if not is_cuda_available():
        raise RuntimeError(f"load_jit({name!r}) needs a CUDA device")
    from torch.utils.cpp_extension import load

    sources = [csrc_path(f) for f in (*cpp_files, *cuda_files)]
    missing = [s for s in sources if not os.path.exists(s)]
    if missing:
        raise FileNotFoundError(f"JIT sources not found: {missing}")
    module = load(
        name=f"sgl_jit_{name}",
        sources=sources,
        extra_cuda_cflags=["-O3", "--use_fast_math", *extra_cuda_cflags],
        verbose=False,
    )
    _JIT_MODULES[name] = module
    return module


def jit_enabled(op: str) -> bool:
    """`SGLANG_JIT_CUDA_<OP>=1` opts an operator into its CUDA JIT path."""
    return os.environ.get(f"SGLANG_JIT_CUDA_{op.upper()}", "0") == "1"
