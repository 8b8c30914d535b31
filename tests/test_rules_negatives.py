"""The contract's negative cases, one by one: none of these is ever a finding."""

from __future__ import annotations

import pytest
from rules_fixtures import tree_of

from migrate.rules import run_rules

OPS = "python/sglang/kernels/ops"
SPEC = (
    "from sglang.kernels.registry import register_kernel\n"
    "from sglang.kernels.spec import KernelBackend, KernelSpec\n"
)

CASES = {
    "model name inside a group": {
        f"{OPS}/moe/deepseek_v3_router.py": "def deepseek_v3_grouped_topk(router_logits, topk):\n"
        "    return router_logits\n",
        f"{OPS}/moe/__init__.py": SPEC
        + 'register_kernel(KernelSpec(op="moe.deepseek_v3_grouped_topk"'
        ', backend=KernelBackend.TRITON, target="sglang.kernels.ops.moe.deepseek_v3_router:'
        'deepseek_v3_grouped_topk"))\n',
    },
    "no _jit_ prefix on a JIT operator": {
        f"{OPS}/layernorm/norm.py": "def rmsnorm(x, w):\n"
        "    from sglang.kernels.jit.utils import load_jit\n"
        "    return load_jit('norm', cuda_files=['norm.cuh']).rmsnorm(x, w)\n",
        "python/sglang/kernels/jit/utils.py": (
            "def load_jit(name, cuda_files=()):\n    return name\n"
        ),
    },
    "use of a runtime utility": {
        f"{OPS}/layernorm/fused.py": (
            "from sglang.srt.utils import get_device_capability, is_cuda\n\n\n"
            "def fused_add_rmsnorm(x, r):\n    return x if is_cuda() else get_device_capability()\n"
        ),
    },
    "fused op class that does not inherit BaseFusedOp": {
        f"{OPS}/layernorm/op.py": "class RMSNormOp:\n    op = 'layernorm.rmsnorm'\n\n"
        "    def forward_triton(self, x):\n        return x\n",
        f"{OPS}/layernorm/__init__.py": "from sglang.kernels.fused_op import register_fused_op\n"
        "from sglang.kernels.ops.layernorm.op import RMSNormOp\n\n"
        "_RMSNORM = RMSNormOp()\nregister_fused_op(_RMSNORM, __name__, '_RMSNORM')\n",
    },
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_no_finding(name):
    assert run_rules(tree_of(CASES[name])) == []
