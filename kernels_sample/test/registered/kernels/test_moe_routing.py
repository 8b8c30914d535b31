"""MoE routing: top-k softmax, block alignment, DeepSeek-V3 grouped top-k."""

import sys

import pytest
import torch

from sglang.jit_kernel import moe_align
from sglang.jit_kernel.deepseek_v3.fused_router import deepseek_v3_grouped_topk
from sglang.jit_kernel.topk_softmax import topk_softmax
from sglang.test.ci.ci_register import register_amd_ci, register_cuda_ci
from sglang.test.kernels.device import DEVICE
from sglang.test.kernels.references import assert_close, grouped_topk_ref, topk_softmax_ref

register_cuda_ci(est_time=25, stage="base-b-kernel-unit", runner_config="1-gpu-large")
register_cuda_ci(est_time=90, suite="nightly-kernel-1-gpu", nightly=True)
register_amd_ci(est_time=30, stage="base-b-kernel-unit", runner_config="1-gpu-amd")


@pytest.mark.parametrize("renormalize", [False, True], ids=["raw", "renorm"])
@pytest.mark.parametrize("num_experts,topk", [(8, 2), (16, 4)])
def test_topk_softmax(num_experts, topk, renormalize):
    logits = torch.randn(6, num_experts, device=DEVICE)
    weights, ids = topk_softmax(logits, topk, renormalize)
    w_ref, ids_ref = topk_softmax_ref(logits, topk, renormalize)
    assert torch.equal(ids, ids_ref)
    assert_close(weights, w_ref)


@pytest.mark.parametrize("block_size", [2, 4])
def test_moe_align_block_size(block_size):
    num_experts = 4
    topk_ids = torch.randint(0, num_experts, (5, 2), device=DEVICE)
    sorted_ids, expert_ids, total = moe_align.moe_align_block_size(topk_ids, num_experts, block_size)
    flat = topk_ids.flatten()
    assert int(total) == sorted_ids.numel() and int(total) % block_size == 0
    assert expert_ids.numel() == int(total) // block_size
    for blk, e in enumerate(expert_ids.tolist()):
        ids = sorted_ids[blk * block_size:(blk + 1) * block_size]
        real = ids[ids < flat.numel()]
        assert (flat[real.long()] == e).all()
    real = sorted_ids[sorted_ids < flat.numel()]
    assert sorted(real.tolist()) == list(range(flat.numel()))


def test_deepseek_v3_grouped_topk():
    logits = torch.randn(4, 16, device=DEVICE)
    bias = torch.randn(16, device=DEVICE) * 0.1
    weights, ids = deepseek_v3_grouped_topk(logits, bias, topk=4, num_groups=4, topk_group=2,
                                            routed_scaling_factor=2.5)
    w_ref, ids_ref = grouped_topk_ref(logits, bias, 4, 4, 2, 2.5)
    assert torch.equal(ids, ids_ref)
    assert_close(weights, w_ref)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
