"""Custom all-reduce + residual RMSNorm (sglang.jit_kernel.allreduce_rmsnorm).

Peer reads are tested with a stacked buffer of simulated ranks; the entry point is
tested inside a one-rank gloo process group.
"""

import sys

import pytest
import torch
import torch.distributed as dist

from sglang.jit_kernel.allreduce_rmsnorm import allreduce_rmsnorm_from_peers, fused_allreduce_rmsnorm
from sglang.test.ci.ci_register import register_cuda_ci
from sglang.test.kernels.device import DEVICE
from sglang.test.kernels.references import assert_close, rmsnorm_ref

register_cuda_ci(est_time=60, stage="base-b-kernel-unit", runner_config="2-gpu", in_process_group="tp2-kernels")


@pytest.fixture
def single_rank_group(tmp_path):
    dist.init_process_group("gloo", init_method=f"file://{tmp_path / 'store'}", rank=0, world_size=1)
    yield dist.group.WORLD
    dist.destroy_process_group()


@pytest.mark.parametrize("world_size", [1, 2, 4], ids=["tp1", "tp2", "tp4"])
def test_allreduce_from_peers(world_size):
    peers = torch.randn(world_size, 3, 32, device=DEVICE)
    residual, w = torch.randn(3, 32, device=DEVICE), torch.randn(32, device=DEVICE)
    expected_residual = peers.sum(0) + residual
    out = allreduce_rmsnorm_from_peers(peers, residual, w)
    assert_close(residual, expected_residual, atol=1e-5, rtol=1e-5)
    assert_close(out, rmsnorm_ref(expected_residual, w), atol=1e-5, rtol=1e-5)


@pytest.mark.skipif(not dist.is_available(), reason="torch built without distributed")
def test_entry_point_in_process_group(single_rank_group):
    x, residual, w = torch.randn(2, 16, device=DEVICE), torch.randn(2, 16, device=DEVICE), torch.rand(16, device=DEVICE)
    expected_residual = x + residual
    normed, res = fused_allreduce_rmsnorm(x, residual, w, group=single_rank_group)
    assert_close(res, expected_residual)
    assert_close(normed, rmsnorm_ref(expected_residual, w))


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
