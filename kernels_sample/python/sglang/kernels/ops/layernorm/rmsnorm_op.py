"""`layernorm.rmsnorm` as a BaseFusedOp: a torch reference backend and the Triton kernel.

Each forward imports its implementation when called, so instantiating the op (done in
the group `__init__`) stays metadata-only.
"""

from sglang.kernels.fused_op import BaseFusedOp


class RMSNormOp(BaseFusedOp):
    op = "layernorm.rmsnorm"

    def forward_torch(self, x, weight, eps: float = 1e-6):
        import torch

        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps) * weight.float()).to(x.dtype)

    def forward_triton(self, x, weight, eps: float = 1e-6):
        from sglang.jit_kernel.norm import rmsnorm

        return rmsnorm(x, weight, eps)
