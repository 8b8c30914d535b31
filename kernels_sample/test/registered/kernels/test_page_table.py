"""Page table and cu_seqlens builders (sglang.jit_kernel.page_table)."""

import sys

import pytest
import torch

from sglang.jit_kernel import page_table
from sglang.test.ci.ci_register import register_cuda_ci
from sglang.test.kernels.device import DEVICE

register_cuda_ci(est_time=8, stage="base-b-kernel-unit", runner_config="1-gpu-small")


def _req_to_token(num_reqs=4, max_ctx=64):
    # Each request owns a contiguous token range, like a fresh allocator.
    return torch.arange(num_reqs * max_ctx, dtype=torch.int64, device=DEVICE).view(num_reqs, max_ctx)


@pytest.mark.parametrize("page_size", [1, 4, 16])
def test_create_page_table(page_size):
    req_to_token = _req_to_token()
    req_idx = torch.tensor([3, 1], device=DEVICE)
    seq_lens = torch.tensor([9, 20], device=DEVICE)
    max_pages = -(-20 // page_size)
    table = page_table.create_page_table(req_to_token, req_idx, seq_lens, page_size, max_pages)
    for b in range(2):
        n = -(-int(seq_lens[b]) // page_size)
        tokens = req_to_token[req_idx[b], torch.arange(n, device=DEVICE) * page_size]
        assert torch.equal(table[b, :n], tokens // page_size)
        assert (table[b, n:] == -1).all()


@pytest.mark.parametrize("seq_lens", [[7], [3, 0, 5, 2]], ids=["single", "with-empty"])
def test_compute_cu_seqlens(seq_lens):
    lens = torch.tensor(seq_lens, dtype=torch.int64, device=DEVICE)
    cu = page_table.compute_cu_seqlens(lens)
    expected = torch.zeros(len(seq_lens) + 1, dtype=torch.int32, device=DEVICE)
    expected[1:] = torch.cumsum(lens, 0)
    assert cu.dtype == torch.int32
    assert torch.equal(cu, expected)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
