"""Manual smoke run: import every legacy JIT operator module and call its entry point once.

Not registered in CI. Run from the repository root:

    PYTHONPATH=python TRITON_INTERPRET=1 python test/manual/kernels/smoke_jit_kernels.py

Operators are listed by their full module name, so a mechanical move rewrites the table
(string references) like any other import.
"""

import importlib

import torch

OPERATORS = {
    "sglang.jit_kernel.norm": ("rmsnorm", lambda: (torch.randn(2, 16), torch.ones(16))),
    "sglang.jit_kernel.activation": ("silu_and_mul", lambda: (torch.randn(2, 16),)),
    "sglang.jit_kernel.quant": ("per_token_quant_int8", lambda: (torch.randn(2, 16),)),
    "sglang.jit_kernel.topk_softmax": ("topk_softmax", lambda: (torch.randn(2, 8), 2)),
    "sglang.jit_kernel.page_table": ("compute_cu_seqlens", lambda: (torch.tensor([3, 4]),)),
}


def main() -> None:
    for module_name, (fn_name, make_args) in OPERATORS.items():
        module = importlib.import_module(module_name)
        result = getattr(module, fn_name)(*make_args())
        shape = tuple(result[0].shape) if isinstance(result, tuple) else tuple(result.shape)
        print(f"{module_name}.{fn_name}: ok {shape}")


if __name__ == "__main__":
    main()
